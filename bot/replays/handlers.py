"""Looking back at a finished game: ``/pyramid replay`` and its ⏮ ◀ ▶ ⏭ buttons.

The answer is private (ephemeral) and the buttons edit it in place: stepping through a
game is one person's business, a public message that anyone's clicks moved would
confuse the others reading the channel, and the game's thread keeps its boards and
its animated replay (``bot.replays.gifs``) uncluttered.

Only finished games are replayed. A position's public view never holds anything
hidden, but the issue keeps replays to games that are over, and so does this (a
running game has its boards and ``/pyramid status``). Who may look is the one
visibility rule (:mod:`bot.core.visibility`): a game of this server, or by DM a game
the user played in; except that a game of a shared deal (a challenge's, the daily
deal's) is replayed only for its own player until the deal is settled
(``bot.core.shared_deals``): others may still be playing that very deal, and every
move of a finished one would tell them the order of its face-down stock; a daily
game's moves are never shown to anyone else at all. Buttons carry
the game and the move to show, so they are checked the same way on every click: a
forged or damaged one gets a sentence, never a picture of a game its clicker may not
see.
"""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.cards.boards import narrate, status_line
from bot.cards.cards import card
from bot.cards.components import button
from bot.cards.custom_ids import CustomId
from bot.core.errors import PlayError
from bot.core.services import Services
from bot.core.session import Session
from bot.core.visibility import Seen, Verdict, admit, judge
from bot.interactions.access import viewer_of
from bot.interactions.finding import find_seen
from bot.interactions.replies import defer_private, edit_card, explain, reader, show_card, tell
from bot.replays.gifs import game_log
from bot.store import GameRecord
from engine.core import Event
from i18n import N_, Lang

Interaction = discord.Interaction[Any]
#: The custom id action of the replay buttons.
ACTION = "replay"
#: The largest game number a command may name (the store's ids are 63-bit).
MAX_GAME = 2**63 - 1
#: Lines of a move's story shown under its picture, at most.
STORY_LINES = 12
DAMAGED = N_("That replay button is damaged or out of date; use `/pyramid replay` again.")
#: Words of a caller that named no language.
ENGLISH = Lang("en")


def not_over(record: GameRecord, lang: Lang = ENGLISH) -> str:
    if record.status in ("lobby", "cancelled"):
        return lang.tr("Game #{game} never got under way, so there is nothing to replay.", game=record.id)
    return lang.tr("Game #{game} is still being played. Replays open once a game is over; until then its board is "
                   "in its thread (`/pyramid status`).", game=record.id)


def shared_deal(record: GameRecord, lang: Lang = ENGLISH) -> str:
    return lang.tr("Game #{game} was a shared deal that others may still be playing, so only its player can "
                   "replay it.", game=record.id)


def steps(game_id: int, move: int, last: int, lang: Lang = ENGLISH) -> discord.ui.View:
    """⏮ ◀ ▶ ⏭ for move ``move`` of ``last``; each id names the move it shows (and a
    tag, so that two buttons going to the same move still have distinct ids)."""
    view = discord.ui.View(timeout=None)
    targets = ((lang.tr("⏮ Start"), 0, "first"), (lang.tr("◀ Back"), max(0, move - 1), "back"),
               (lang.tr("Next ▶"), min(last, move + 1), "next"), (lang.tr("End ⏭"), last, "last"))
    for label, target, tag in targets:
        style = discord.ButtonStyle.primary if tag in ("back", "next") else discord.ButtonStyle.secondary
        view.add_item(button(CustomId(ACTION, game_id, target, tag), label, style, disabled=target == move))
    return view


class ReplayViewer:
    """Shows the board at one move of a finished game, drawn off the event loop by the
    renderer (which replays the move log in a worker)."""

    def __init__(self, services: Services) -> None:
        self.services = services

    # --- /pyramid replay ----------------------------------------------------------
    async def command(self, interaction: Interaction, game: int | None, move: int | None) -> None:
        await defer_private(interaction)
        lang = await reader(interaction, self.services.languages)
        try:
            seen = await self._command_game(interaction, game)
        except PlayError as exc:
            await tell(interaction, f"❌ {explain(exc, lang)}")
            return
        record = seen.record
        moves = await self._replayable(interaction, record, lang)
        if moves is None:
            return
        session = await self.services.sessions.load(record.id)  # a PlayError is told by the command tree
        last = len(moves)
        shown = last if move is None else max(0, min(move, last))
        text, file = await self._position(session, moves, shown, lang, seen=seen)
        if move is not None and move > last:
            text = lang.tr("Game #{game} has {last} moves; here is the last.", game=record.id, last=last) + "\n" + text
        await show_card(interaction, card([text], files=[file], controls=steps(record.id, shown, last, lang).children),
                        files=[file], allowed_mentions=discord.AllowedMentions.none())

    async def _command_game(self, interaction: Interaction, game: int | None) -> Seen:
        if game is not None and not 1 <= game <= MAX_GAME:
            raise PlayError(N_("There is no game #{number}."), number=game)
        try:
            return await find_seen(interaction, self.services, game, statuses=("finished",))
        except PlayError:
            if game is not None:
                raise
            raise PlayError(N_("I found no finished game of yours here: name one with `game:` "
                               "(its number is on its boards).")) from None

    # --- ⏮ ◀ ▶ ⏭ ----------------------------------------------------------------------
    async def step(self, interaction: Interaction, cid: CustomId) -> None:
        """Show the move the button names, in the message it is on."""
        store = self.services.store
        lang = await reader(interaction, self.services.languages)
        record = await store.game_record(cid.game_id)
        viewer = viewer_of(interaction)
        verdict = Verdict.UNREACHABLE if record is None else await judge(store, record, viewer, store.db.clock())
        if record is None or verdict is Verdict.UNREACHABLE:  # nothing about games out of reach
            await tell(interaction, f"❌ {lang.gettext(DAMAGED)}")
            return
        if verdict is Verdict.SHARED_DEAL:
            await tell(interaction, f"❌ {shared_deal(record, lang)}")
            return
        seen = await admit(store, record, viewer)
        moves = await self._replayable(interaction, record, lang)
        if moves is None:
            return
        if cid.version > len(moves):
            await tell(interaction, f"❌ {lang.gettext(DAMAGED)}")
            return
        await interaction.response.defer()  # the picture takes a moment; the message is edited then
        try:
            session = await self.services.sessions.load(record.id)
        except PlayError as exc:
            await tell(interaction, f"❌ {explain(exc, lang)}")
            return
        text, file = await self._position(session, moves, cid.version, lang, seen=seen)
        shown = card([text], files=[file], controls=steps(record.id, cid.version, len(moves), lang).children)
        await edit_card(interaction, shown, files=[file], allowed_mentions=discord.AllowedMentions.none())

    # --- pieces ----------------------------------------------------------------------------
    async def _replayable(self, interaction: Interaction, record: GameRecord,
                          lang: Lang) -> list[tuple[int, str]] | None:
        """The moves of this game, which the user may see (the visibility rule has said so), or None
        after telling the user why it is not replayed (it is not over)."""
        if record.status != "finished":
            await tell(interaction, f"❌ {not_over(record, lang)}")
            return None
        return [(m.seat, m.move) for m in await self.services.store.moves(record.id)]

    async def _position(self, session: Session, moves: list[tuple[int, str]], move: int,
                        lang: Lang = ENGLISH, *, seen: Seen) -> tuple[str, discord.File]:
        """The caption and picture (with its words and alt text in ``lang``) of the board after ``move``;
        ``seen``: the visibility rule's leave to show this game."""
        seen.covers(session.record.id)
        record = session.record
        board = await self.services.renderer.replay_board(game_log(session, moves, lang.code), move,
                                                          art=session.presenter.art)
        file = discord.File(io.BytesIO(board.png), filename=f"game-{record.id}-move-{move}.png",
                            description=board.description or None)
        return caption(session, move, len(moves), board.events, lang), file


def caption(session: Session, move: int, last: int, events: list[Event], lang: Lang = ENGLISH) -> str:
    p = session.presenter
    head = lang.tr("🎞️ {emoji} **{title}** · game #{game} · move {move} of {last}", emoji=p.emoji,
                   title=lang.gettext(p.title), game=session.record.id, move=move, last=last)
    lines = [head + (" " + lang.tr("(the deal)") if move == 0 else "")]
    story = narrate(events, session, lang)
    if len(story) > STORY_LINES:
        story = ["…", *story[-STORY_LINES:]]
    lines += story
    if move == last:
        lines.append(status_line(session, lang))
    return "\n".join(line for line in lines if line)[:2000]


__all__ = ["ACTION", "ReplayViewer", "caption", "steps"]
