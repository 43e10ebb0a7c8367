"""See before you commit: a player who turned previews on (``/pyramid settings
preview:True``) is shown what a move would do before it is played.

Picking a whole move in the private chooser, clicking a move button on the board or
typing ``/pyramid play`` then answers privately with the board as it would be after
the move (worked out by :mod:`bot.cards.preview` from what the player may see, drawn
in a render worker), its story and the new status, and two buttons:

- **✅ Confirm** plays the move through the one path every move takes
  (``Turns.perform_move`` → ``SessionService.make_move``), for the board version the
  preview was made for: if the game has moved since, nothing is played and the
  player is told so;
- **↩ Back** changes nothing and shows the chooser again where the move was picked.

Both buttons carry the move itself in their custom id (``pvok``/``pvbk``, game,
version, move), so they work after a restart and from any of several bot processes:
nothing is kept in memory. A move too long for an id (never one of the real games')
is carried as ``#<index>`` in the legal moves of that version, which the version
pins down.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

import discord

from bot.cards.cards import card, kept_pictures, seat_colour
from bot.cards.chooser import chooser, spot_letters
from bot.cards.components import button
from bot.cards.custom_ids import CustomId
from bot.cards.preview import Preview, preview_description, preview_move, preview_text
from bot.core.errors import PlayError
from bot.core.services import Services
from bot.core.session import Session
from bot.core.visibility import Seen
from bot.games.picker import PathGone, back_path, node_at
from bot.interactions.access import check_player_place, seen_by
from bot.interactions.replies import defer_private, edit_card, explain, show_card, tell
from engine.core import MoveRejected
from i18n import Lang

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
#: The custom id actions of the two buttons (the same length, so a move that fits one fits both).
CONFIRM, BACK = "pvok", "pvbk"
NO_MENTIONS = discord.AllowedMentions.none()


class MovePlayer(Protocol):
    """What plays a confirmed move (``bot.turns.handlers.Turns``, which owns the previews)."""

    async def perform_move(self, interaction: Interaction, session: Session, move: str) -> None: ...


def move_arg(session: Session, move: str) -> str | None:
    """What the buttons carry for ``move``: the move, or its index in the legal moves
    when the move is too long for a custom id; None if neither fits."""
    gid, ver = session.record.id, session.version
    try:
        CustomId(CONFIRM, gid, ver, move).encode()
        return move
    except ValueError:
        pass
    moves = session.game.legal_moves(session.state)
    return f"#{moves.index(move)}" if move in moves else None


def arg_move(session: Session, arg: str) -> str | None:
    """The move a button's ``arg`` names at ``session``'s version (see :func:`move_arg`)."""
    if not arg.startswith("#"):
        return arg
    moves = session.game.legal_moves(session.state)
    index = arg[1:]
    return moves[int(index)] if index.isdigit() and int(index) < len(moves) else None


def preview_buttons(session: Session, arg: str, lang: Lang) -> discord.ui.View:
    gid, ver = session.record.id, session.version
    view = discord.ui.View(timeout=None)
    view.add_item(button(CustomId(CONFIRM, gid, ver, arg), "✅ " + lang.tr("Confirm"), discord.ButtonStyle.success))
    view.add_item(button(CustomId(BACK, gid, ver, arg), "↩ " + lang.tr("Back")))
    return view


def _in_place(interaction: Interaction) -> bool:
    """The click came from an ephemeral message (the chooser, or a preview): the
    answer replaces it. A hand DM keeps its picture: its preview is a new message."""
    message = interaction.message
    return message is not None and message.flags.ephemeral


def _clicked_editable(interaction: Interaction) -> bool:
    """The clicked message may still become the answer: nothing answered yet, or only the silent update
    every preview click starts with (``bot.turns.handlers.acknowledge``)."""
    response = interaction.response
    return not response.is_done() or response.type == discord.InteractionResponseType.deferred_message_update


class Previews:
    def __init__(self, services: Services, turns: MovePlayer) -> None:
        self.services = services
        self.turns = turns

    async def wanted(self, user_id: int) -> bool:
        """Whether this player previews their moves."""
        return (await self.services.players.prefs(user_id)).preview

    # --- showing one ---------------------------------------------------------------------
    async def show(self, interaction: Interaction, session: Session, move: str) -> None:
        """Instead of playing ``move``, show privately what it would do. The caller has
        checked the place; the seat and the move are checked here (by the engine,
        from the player's own view)."""
        lang = await self.services.languages.for_interaction(interaction)
        in_place = _in_place(interaction) and _clicked_editable(interaction)
        accent = seat_colour(session.to_act)
        if in_place:
            told = session.presenter.move_words(move.strip(), spot_letters(session), lang)[:100]
            working = "⏳ " + lang.tr("Working out what {move} does…", move=told)
            await edit_card(interaction, card([working], accent=accent, files=kept_pictures(interaction.message)))
        else:
            await defer_private(interaction)
        try:
            seen = await seen_by(self.services.store, session.record, interaction)
            seat = session.human_seat(interaction.user.id).seat
            preview = preview_move(session, seat, move, lang)
        except (PlayError, MoveRejected) as exc:
            await self._answer(interaction, in_place, "❌ " + explain(exc, lang), accent=accent)
            return
        arg = move_arg(session, preview.move)
        if arg is None:
            await self._answer(interaction, in_place, "❌ " + lang.tr(
                "That move is too long to preview. Type it with previews off (`/pyramid settings preview:False`)."),
                accent=accent)
            return
        file = await self._picture(session, preview, lang, seen=seen)
        await self._answer(interaction, in_place, preview_text(preview, session, lang), file=file,
                           view=preview_buttons(session, arg, lang), accent=accent)

    async def _picture(self, session: Session, preview: Preview, lang: Lang, *, seen: Seen) -> discord.File | None:
        """The board after the previewed move, for a clicker the visibility rule let see the game (``seen``)."""
        seen.covers(session.record.id)
        if preview.view is None:
            return None
        art = session.presenter.art
        return await self.services.renderer.board(preview.view, art=art, labels={}, events=list(preview.events),
                                                  description=preview_description(preview, lang, art), lang=lang)

    @staticmethod
    async def _answer(interaction: Interaction, in_place: bool, text: str, *, file: discord.File | None = None,
                      view: discord.ui.View | None = None, accent: int | None = None) -> None:
        """The preview as a card in the mover's colour: its words, the board after the move
        (with its alt text) and ✅ Confirm / ↩ Back; in place of the chooser it was asked from,
        else as a new private message."""
        files = [file] if file is not None else []
        shown = card([text], accent=accent, files=files, controls=view.children if view is not None else ())
        if in_place:
            await edit_card(interaction, shown, files=files, allowed_mentions=NO_MENTIONS)
            return
        await show_card(interaction, shown, files=files, allowed_mentions=NO_MENTIONS)

    # --- its buttons ----------------------------------------------------------------------
    async def _current(self, interaction: Interaction, cid: CustomId, lang: Lang) -> tuple[Session, str] | None:
        """The game and the move if the preview still stands: same board version, the
        clicker still to act. Otherwise the preview is replaced by why not, and None."""
        try:
            session = await self.services.sessions.load(cid.game_id)
            check_player_place(interaction, session.record)
            await seen_by(self.services.store, session.record, interaction)
        except PlayError as exc:
            await tell(interaction, "❌ " + explain(exc, lang))
            return None
        if cid.version != session.version or session.over or session.record.status != "active":
            await self._close(interaction, "⌛ " + lang.tr(
                "The game has moved on since this preview, so nothing was played. The latest board in the game's "
                "channel shows where it stands now."))
            return None
        try:
            mine = session.human_seat(interaction.user.id).seat
        except PlayError as exc:
            await self._close(interaction, "❌ " + explain(exc, lang))
            return None
        move = arg_move(session, cid.arg)
        if session.to_act != mine or move is None:
            await self._close(interaction, "❌ " + lang.tr("This preview is not for a move you can make now; "
                                                          "nothing was played."))
            return None
        return session, move

    @staticmethod
    async def _close(interaction: Interaction, text: str) -> None:
        """The preview message becomes ``text``, without its picture and buttons."""
        if interaction.message is not None and _clicked_editable(interaction):
            await edit_card(interaction, card([text]), files=[])
        else:
            await tell(interaction, text)

    async def confirm(self, interaction: Interaction, cid: CustomId) -> None:
        """✅ Confirm: play the previewed move, on the board version it was made for."""
        lang = await self.services.languages.for_interaction(interaction)
        current = await self._current(interaction, cid, lang)
        if current is not None:
            await self.turns.perform_move(interaction, *current)

    async def back(self, interaction: Interaction, cid: CustomId) -> None:
        """↩ Back: nothing is played; the chooser again, where the move was picked."""
        lang = await self.services.languages.for_interaction(interaction)
        current = await self._current(interaction, cid, lang)
        if current is None:
            return
        session, move = current
        steps = session.presenter.steps
        moves = session.game.legal_moves(session.state)
        try:
            path = back_path(moves, node_at(moves, steps(move), steps), steps) or ()
        except PathGone:  # a typed move spelled otherwise than the chooser's
            path = ()
        shown = chooser(session, path, lang=lang)
        await edit_card(interaction, shown.card(above=["↩ " + lang.tr("Nothing was played.")]), files=[])
