"""The bot's one look: its game cards are Components V2 messages built from these few
pieces, so boards and lobbies look alike (and any other message can join them).

A card is one container with an accent colour, text displays (Discord's markdown, at
most 4,000 characters together), pictures in a media gallery with their alt text, and
rows of buttons. The builders here know nothing of games; the callers say what goes in.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import discord

#: Discord's limit on the text displays of one message, together.
MAX_TEXT = 4000
#: Buttons per action row.
ROW_WIDTH = 5
#: The accent of a card whose game waits for nobody (a lobby, a finished game).
NEUTRAL = 0x99AAB5
#: One accent per seat, in seat order: the Okabe–Ito palette, told apart with any colour vision.
SEAT_COLOURS = (0xE69F00, 0x56B4E9, 0x009E73, 0xF0E442, 0x0072B2, 0xD55E00, 0xCC79A7)

Item = discord.ui.Item[Any]


def seat_colour(seat: int | None) -> int:
    """The accent of the player in ``seat`` (None: nobody, neutral)."""
    return NEUTRAL if seat is None else SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def timestamp(when: datetime, style: str = "R") -> str:
    """A Discord timestamp (``<t:…:R>``): each reader sees it in their own time zone and
    language, "in 3 hours" for the relative style."""
    return f"<t:{int(when.timestamp())}:{style}>"


def fit(texts: Sequence[str], limit: int = MAX_TEXT) -> list[str]:
    """``texts`` cut so that together they stay within ``limit`` characters: the last
    ones are shortened first (the story; the header and the turn come first)."""
    out: list[str] = []
    left = limit
    for text in texts:
        if len(text) > left:
            text = text[: max(left - 2, 0)] + " …" if left > 2 else ""
        out.append(text)
        left -= len(text)
    return out


def pictures(*files: discord.File) -> discord.ui.MediaGallery[Any]:
    """The pictures of ``files`` (uploaded with the message), each with its alt text."""
    return discord.ui.MediaGallery(*(
        discord.MediaGalleryItem(f"attachment://{f.filename}", description=f.description or None) for f in files))


def rows(items: Iterable[Item]) -> list[discord.ui.ActionRow[Any]]:
    """Buttons in rows of five; a select menu gets a row to itself."""
    out: list[discord.ui.ActionRow[Any]] = []
    current: list[Item] = []
    for item in items:
        if isinstance(item, discord.ui.Select):
            if current:
                out.append(discord.ui.ActionRow(*current))
                current = []
            out.append(discord.ui.ActionRow(item))
            continue
        current.append(item)
        if len(current) == ROW_WIDTH:
            out.append(discord.ui.ActionRow(*current))
            current = []
    if current:
        out.append(discord.ui.ActionRow(*current))
    return out


def card(texts: Sequence[str] = (), *, accent: int | None = NEUTRAL, files: Sequence[discord.File] = (),
         after: Sequence[str] = (), controls: Iterable[Item] = ()) -> discord.ui.LayoutView:
    """One container: ``texts``, then the pictures of ``files``, then ``after`` (the story),
    then the buttons of ``controls``. Empty texts are left out; together they are cut to
    Discord's limit."""
    fitted = fit([*texts, *after])
    head, tail = fitted[:len(texts)], fitted[len(texts):]
    children: list[Item] = [discord.ui.TextDisplay(t) for t in head if t.strip()]
    if files:
        children.append(pictures(*files))
    children += [discord.ui.TextDisplay(t) for t in tail if t.strip()]
    children += rows(controls)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(*children, accent_colour=accent))
    return view


def without_controls(message: discord.Message) -> discord.ui.LayoutView | None:
    """The card of ``message`` without its rows of buttons (a superseded board or hand),
    or None when the message is no card (take its legacy buttons off with ``view=None``)."""
    if not message.flags.components_v2:
        return None
    layout = discord.ui.LayoutView.from_message(message, timeout=None)
    for item in list(layout.walk_children()):
        if isinstance(item, discord.ui.ActionRow):
            parent = item.parent
            if isinstance(parent, discord.ui.Container):
                parent.remove_item(item)
            else:
                layout.remove_item(item)
    return layout


def first_line(message: discord.Message) -> str:
    """The first line of what a message says: its content, or a card's first text display."""
    if message.content:
        return message.content.split("\n", 1)[0]
    pending: list[Any] = list(message.components)
    while pending:
        component = pending.pop(0)
        if isinstance(component, discord.components.TextDisplay):
            return component.content.split("\n", 1)[0]
        pending[:0] = list(getattr(component, "children", None) or [])
    return ""


def is_card(message: discord.Message) -> bool:
    return bool(message.flags.components_v2)
