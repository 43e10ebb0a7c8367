"""The bot's one look: its game cards are Components V2 messages built from these few
pieces, so boards and lobbies look alike (and any other message can join them).

A card is one container with an accent colour, text displays (Discord's markdown, at
most 4,000 characters together), pictures in a media gallery with their alt text, and
rows of buttons. The builders here know nothing of games; the callers say what goes in.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Picture:
    """A picture a message already carries (an attachment), shown again by an edit of its card: the edit uploads
    nothing and keeps the message's attachments, and the gallery names the file as ``attachment://``."""

    filename: str
    description: str | None


#: What a media gallery shows; other files are offered for download (a file component).
PICTURE_SUFFIXES = (".png", ".gif", ".jpg", ".jpeg", ".webp")


def is_picture(filename: str) -> bool:
    return filename.lower().endswith(PICTURE_SUFFIXES)


def kept_pictures(message: discord.Message | None) -> list[Picture]:
    """The pictures ``message`` carries, for an edit that keeps them (the hand under a chooser step). None of a
    plain message (sent before the cards): Discord turns one into a card only without the files it was sent with."""
    if message is None or not message.flags.components_v2:
        return []
    return [Picture(a.filename, a.description) for a in message.attachments if is_picture(a.filename)]


def pictures(*files: discord.File | Picture) -> discord.ui.MediaGallery[Any]:
    """The pictures of ``files`` (uploaded with the message, or kept from it), each with its alt text."""
    return discord.ui.MediaGallery(*(
        discord.MediaGalleryItem(f"attachment://{f.filename}", description=f.description or None) for f in files))


def rows(items: Iterable[Item]) -> list[discord.ui.ActionRow[Any]]:
    """Buttons in rows of five; a select menu gets a row to itself, and an item that asks
    for another row than the one before it (``row=``, as legacy views place them) starts one."""
    out: list[discord.ui.ActionRow[Any]] = []
    current: list[Item] = []
    last: int | None = None

    def flush() -> None:
        nonlocal current
        if current:
            out.append(discord.ui.ActionRow(*current))
            current = []

    for item in items:
        wanted = getattr(item, "row", None)
        if isinstance(item, discord.ui.Select):
            flush()
            out.append(discord.ui.ActionRow(item))
            last = wanted
            continue
        if wanted is not None and wanted != last:
            flush()
        last = wanted
        current.append(item)
        if len(current) == ROW_WIDTH:
            flush()
    flush()
    return out


class Card(discord.ui.LayoutView):
    """A card as :func:`card` builds it. It keeps what it was built from, so the same card can be sent without its
    pictures first: Discord refuses files on a components-v2 follow-up (Execute Webhook), so a follow-up card is
    posted bare and its pictures are edited in (:func:`bot.posting.interaction_posts.send_card`)."""

    def __init__(self, texts: Sequence[str], accent: int | None, files: Sequence[discord.File | Picture],
                 after: Sequence[str], controls: Sequence[Item]) -> None:
        super().__init__(timeout=None)
        self.parts = (tuple(texts), accent, tuple(files), tuple(after), tuple(controls))
        fitted = fit([*texts, *after])
        head, tail = fitted[:len(texts)], fitted[len(texts):]
        children: list[Item] = [discord.ui.TextDisplay(t) for t in head if t.strip()]
        # one gallery per picture: Discord lays a gallery's items side by side (a hand DM's hand and board
        # were ~150 px each on a phone); galleries of one stack, each shown full width
        children += [pictures(f) for f in files if is_picture(f.filename)]
        children += [discord.ui.TextDisplay(t) for t in tail if t.strip()]
        # any other file (a game record) as a file to download: a V2 message shows only what its components name
        children += [discord.ui.File(f"attachment://{f.filename}") for f in files if not is_picture(f.filename)]
        children += rows(controls)
        if not children:  # Discord refuses an empty container; a card always says something
            children.append(discord.ui.TextDisplay("…"))
        self.add_item(discord.ui.Container(*children, accent_colour=accent))

    @property
    def files(self) -> tuple[discord.File | Picture, ...]:
        return self.parts[2]

    def without_pictures(self) -> Card:
        """This card with its words and buttons but no picture (nothing to upload)."""
        texts, accent, _, after, controls = self.parts
        return Card(texts, accent, (), after, controls)


def card(texts: Sequence[str] = (), *, accent: int | None = NEUTRAL, files: Sequence[discord.File | Picture] = (),
         after: Sequence[str] = (), controls: Iterable[Item] = ()) -> Card:
    """One container: ``texts``, then the pictures of ``files`` (one under another), then ``after`` (the story),
    then the buttons of ``controls``. Empty texts are left out; together they are cut to
    Discord's limit."""
    return Card(texts, accent, files, after, list(controls))


def note(text: str, *, accent: int | None = NEUTRAL, controls: Iterable[Item] = ()) -> Card:
    """A card that only says ``text`` (with its buttons, if any): every answer, notice and reminder in the same
    look as the boards. Cut to the text displays' limit (plain messages stopped at 2,000 characters)."""
    return card([text], accent=accent, controls=controls)


def uploads(files: Sequence[discord.File | Picture]) -> list[discord.File]:
    """The files of ``files`` that go up with the message (kept pictures are there already)."""
    return [f for f in files if isinstance(f, discord.File)]


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
