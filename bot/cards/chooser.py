"""The private move chooser: the legal moves as a few clicks, for the seat to act
(in an ephemeral reply or with the hand DM). Its buttons carry the path chosen so
far; :mod:`bot.games.picker` rebuilds the choices from the current legal moves on
every click.

Every legal move is reachable by clicks alone: each choice is a button (or an option of a
paged select menu) and each move the path spells has a ✅ button, even when nothing is left
to choose (Pyramido's only move "End turn" or "Pass" once opened a chooser without one).
``tests/bot/cards/test_chooser_reach.py`` walks the clicks of random positions of every game."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.cards.boards import board_labels, player_view, public_view
from bot.cards.cards import Card, Picture, card, seat_colour
from bot.cards.components import button
from bot.cards.custom_ids import CustomId
from bot.core.errors import PlayError
from bot.core.session import Session
from bot.games.picker import back_path, node_at
from bot.games.presenter import ENGLISH
from i18n import N_, Lang

#: Up to this many choices are buttons; more go in a select menu, 25 a page.
PAGE = 20
#: A page of choices beyond the list (translated where it is shown).
NO_PAGE = N_("That page of choices does not exist; open the chooser again with ▶ Your move.")
#: The prompt where the path chosen is a whole move and nothing is left to choose.
CONFIRM = N_("Confirm your move")


@dataclass(frozen=True)
class Chooser:
    """The chooser's words (``content``) and buttons (``view``, a legacy view holding them),
    and the accent of the seat it is for; :meth:`card` shows it as a card."""

    content: str
    view: discord.ui.View
    accent: int | None = None

    @property
    def prompt(self) -> str:
        """Its last line: what to choose now."""
        return self.content.splitlines()[-1]

    def card(self, above: Sequence[str] = (), files: Sequence[discord.File | Picture] = (),
             below: Sequence[str] = ()) -> Card:
        """The chooser as a card: ``above`` (a hand's header, "nothing was played"), the
        chooser's words, the pictures of ``files`` (a hand, uploaded or kept), ``below``,
        then its buttons, in the colour of the seat to act."""
        return card([*above, self.content], accent=self.accent, files=files, after=below,
                    controls=self.view.children)


def chooser(session: Session, path: Sequence[str], page: int = 0, lang: Lang | None = None) -> Chooser:
    """The private chooser for the seat to act, at ``path``, in ``lang`` (the player's)."""
    lang = lang or ENGLISH
    p = session.presenter
    gid, ver = session.record.id, session.version
    moves = session.game.legal_moves(session.state)
    labels = spot_letters(session)
    node = node_at(moves, list(path), p.steps)
    view = discord.ui.View(timeout=None)
    chosen = " › ".join(p.token_label(t, labels, lang) for t in node.path)
    lines = [lang.tr("**{title}** · move {move}", title=p.title, move=ver)]  # the board's number
    if chosen:
        lines.append(lang.tr("So far: {chosen}", chosen=chosen))
    # A path that spells a whole move with nothing left to choose (the only legal move, Pyramido's
    # "End turn" after the last stone): no choice to prompt for, the move to confirm.
    leaf = node.complete is not None and not node.choices
    lines.append(lang.tr("{prompt}:", prompt=lang.gettext(CONFIRM) if leaf else p.prompt(node.path, lang)))
    if node.path and node.path[0] in p.explain:
        lines.append(lang.gettext(p.explain[node.path[0]]))
    seat = session.to_act
    choices = p.ordered(node.choices, labels, None if seat is None else player_view(session, seat), seat)
    if any(t in labels for t in choices):
        lines.append(lang.gettext("Spots are lettered as on the board picture."))
    if len(choices) <= PAGE:
        if page != 0:  # buttons have no pages: a forged or outdated page of them is none
            raise PlayError(NO_PAGE)
        for token in choices:
            full = (*node.path, token)
            view.add_item(button(CustomId("pick", gid, ver, " ".join(full)), p.token_label(token, labels, lang),
                                 discord.ButtonStyle.primary))
    else:
        start = page * 25
        if not 0 <= start < len(choices):  # a page of a longer list, or a forged one: never an empty menu
            raise PlayError(NO_PAGE)
        options = [
            discord.SelectOption(label=p.token_label(t, labels, lang)[:100], value=t)
            for t in choices[start : start + 25]
        ]
        placeholder = lang.tr("{prompt} ({first}–{last} of {total})", prompt=p.prompt(node.path, lang),
                              first=start + 1, last=start + len(options), total=len(choices))
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=CustomId("sel", gid, ver, " ".join(node.path)).encode(), options=options,
            placeholder=placeholder[:150], row=0,
        )
        view.add_item(select)
        if start + 25 < len(choices):
            view.add_item(button(CustomId("page", gid, ver, f"{page + 1}|{' '.join(node.path)}"),
                                 lang.gettext("More ▶"), row=1))
        if page > 0:
            view.add_item(button(CustomId("page", gid, ver, f"{page - 1}|{' '.join(node.path)}"),
                                 lang.gettext("◀ Back"), row=1))
    row = 4
    if node.complete is not None:  # every move the path spells has its button, with choices beyond it or not
        done = (chosen or node.complete) if leaf else lang.gettext("✅ Done here")
        view.add_item(button(CustomId("move", gid, ver, node.complete), done, discord.ButtonStyle.success, row=row))
    back = back_path(moves, node, p.steps)
    if back is not None:
        view.add_item(button(CustomId("pick", gid, ver, " ".join(back)), lang.gettext("⬅ Back"), row=row))
    return Chooser("\n".join(lines), view, seat_colour(session.to_act))


def spot_letters(session: Session) -> dict[str, str]:
    """The letters of the spots, exactly as the board picture draws them (:func:`board_labels`
    of the public view): the chooser's buttons and a move told in words name a spot by the
    letter the player sees on the picture, never by a letter the picture does not show.

    Worked out once per position: a move asks it three times (each step of the chooser, the
    move told in words), of the same cached :class:`Session`; kept on the session with the
    state it was worked out from, so a session holding another state works it out anew."""
    kept = session.memo.get("spot_letters")
    if kept is None or kept[0] is not session.state:
        kept = (session.state, board_labels(session, public_view(session)))
        session.memo["spot_letters"] = kept
    return dict(kept[1])


def step_to(session: Session, path: Sequence[str], page: int = 0, lang: Lang | None = None) -> str | Chooser:
    """What a click on a step of the chooser leads to (``path`` chosen so far, ``page`` of a long
    list): the move to play when the path spells one with nothing more to choose, else the chooser
    there. :class:`~bot.games.picker.PathGone` when the path no longer leads to a legal move.
    The one place a click's path becomes the next thing shown (``Turns.choose``)."""
    node = node_at(session.game.legal_moves(session.state), list(path), session.presenter.steps)
    if node.complete is not None and not node.choices:
        return node.complete
    return chooser(session, node.path, page, lang)
