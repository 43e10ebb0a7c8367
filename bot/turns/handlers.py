"""Clicks during a game: opening the move chooser, choosing, moving, hands, boards.

Every handler answers within Discord's 3 seconds before doing slow work, refuses
out-of-turn and stale clicks with an ephemeral explanation, and funnels the actual
move through ``SessionService.make_move`` (one lock, one versioned write).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from typing import Any

import discord

from bot.cards.boards import board_labels, board_texts, board_view, player_view, public_view
from bot.cards.cards import card, kept_pictures, seat_colour
from bot.cards.chooser import chooser, spot_letters, step_to
from bot.cards.custom_ids import PREFIX, CustomId
from bot.core.announcements import ai_to_act
from bot.core.errors import RESIGNED, PlayError, StaleBoard
from bot.core.services import Services
from bot.core.session import Session
from bot.core.visibility import Seen
from bot.games.picker import PathGone
from bot.interactions.access import check_at_game, check_player_place, seen_by
from bot.interactions.host import Host
from bot.interactions.move_replies import move_reply
from bot.interactions.replies import defer_private, edit_card, explain, reader, show_card, tell
from bot.interactions.surfaces import surface_of
from bot.turns.previews import Previews
from engine.core import MoveRejected
from engine.core.text import Word
from i18n import N_, Lang

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
#: Translated where it is shown.
OUT_OF_DATE = N_("⌛ This board is out of date: someone has moved since.")


def is_board(message: discord.Message | None) -> bool:
    """Whether ``message`` is a game's board (it carries 🔄 Latest board), which a click
    never edits: the chooser and the hand are the clicker's own, and are edited in place."""
    if message is None:
        return False
    for row in message.components:
        for item in getattr(row, "children", None) or []:
            for component in [item, *(getattr(item, "children", None) or [])]:
                custom_id = getattr(component, "custom_id", None) or ""
                if custom_id.startswith(f"{PREFIX}:board:"):
                    return True
    return False


async def acknowledge(interaction: Interaction) -> None:
    """Answer a game's click at once, before anything that may be slow on a busy machine (reading the
    game and the visibility rule, building a chooser, drawing a picture): Discord shows "This
    interaction failed" when the first answer takes over 3 seconds. How is known from the click alone:

    - on the clicker's own private message (their chooser, a preview, a hand DM), and on a card where
      the bot user is absent (a game played in place, ``bot.posting.in_place``), a silent update:
      the message is then edited through the click (``@original`` is the clicked message);
    - on a board in a channel, a private "thinking" answer, which the reply completes.

    Called for every turn button and menu (``bot.turns.item.TurnComponent``)."""
    if interaction.response.is_done():
        return
    message = interaction.message
    private = message is not None and (message.flags.ephemeral or (message.guild is None and not is_board(message)))
    if private or surface_of(interaction) == "interactions":
        await interaction.response.defer()
    else:
        await defer_private(interaction)


def on_card(interaction: Interaction, session: Session) -> bool:
    """The click is on a message everyone in the game's channel sees (its card), not on someone's
    private chooser nor on a hand DM."""
    message = interaction.message
    return (message is not None and not message.flags.ephemeral
            and interaction.channel_id == session.record.play_channel_id)


def check_actor(session: Session, user_id: int) -> int:
    """The clicker's seat if it's theirs to act; otherwise a readable refusal.
    Whether they still play the seat at all comes before whose turn it is."""
    if session.over or session.record.status != "active":
        raise PlayError(N_("This game is over."))
    mine = session.human_seat(user_id)
    seat = session.to_act
    if seat != mine.seat:
        acting = session.seat(seat) if seat is not None else None
        who: str = acting.display if acting else Word(N_("someone else"))
        raise PlayError(N_("It's not your turn: the game is waiting for {who}."), who=who)
    return mine.seat


class Turns:
    def __init__(self, services: Services, host: Host) -> None:
        self.services = services
        self.host = host
        self.previews = Previews(services, self)

    async def send_current_board(self, interaction: Interaction, session: Session, note: str,
                                 lang: Lang | None = None, *, seen: Seen, stale: bool = False) -> None:
        """An ephemeral copy of the current board, for stale clicks, 🔄 and ``/pyramid status``,
        in the clicker's language (``note`` is said in it already); ``seen``: the visibility
        rule's leave to show this game to this clicker."""
        seen.covers(session.record.id, interaction.user.id)
        lang = lang or await reader(interaction, self.services.languages)
        view = public_view(session, lang)
        file = await self.services.renderer.board(view, art=session.presenter.art,
                                                  labels=board_labels(session, view), lang=lang)
        above, below = board_texts(session, [], lang, await self.host.announcer.availability.clocks.line(session, lang))
        acting = None if session.over or session.record.status != "active" else session.to_act
        # Answering a ``stale`` click, the newest card's buttons come with it: an old card's click leads to a card
        # that works (old cards keep theirs rather than being edited, see Announcer._record).
        controls = board_view(session, lang).children if stale and acting is not None else []
        await show_card(interaction, card([note, *above], accent=seat_colour(acting), files=[file], after=below,
                                          controls=controls), files=[file])

    async def _load_current(self, interaction: Interaction, cid: CustomId, *, check_version: bool = True,
                            public: bool = False) -> tuple[Session, Seen] | None:
        """Load the game; answer clicks from the wrong place (a ``public`` control away
        from the game's channel or thread, a player control from another server), clicks
        naming a game the clicker may not see (:mod:`bot.core.visibility`, asked before anything
        of the game is shown) and stale clicks with an explanation or the current board, and
        return None. Otherwise the game and the rule's leave to show it to the clicker."""
        lang = await reader(interaction, self.services.languages)
        try:
            session = await self.services.sessions.load(cid.game_id)
            if public:
                check_at_game(interaction, session.record)
            else:
                check_player_place(interaction, session.record)
            seen = await seen_by(self.services.store, session.record, interaction)
        except PlayError as exc:
            await tell(interaction, "❌ " + explain(exc, lang))
            return None
        if session.record.in_place and on_card(interaction, session):
            await self.card_click(interaction, session)
            if check_version and cid.version != session.version:  # the card shows the latest now
                await tell(interaction, lang.gettext(OUT_OF_DATE))
                return None
        if check_version and cid.version != session.version:
            await defer_private(interaction)
            await self.send_current_board(interaction, session, lang.gettext(OUT_OF_DATE), lang, seen=seen,
                                          stale=True)
            return None
        return session, seen

    async def card_click(self, interaction: Interaction, session: Session) -> None:
        """A click on the card of a game only a user install reaches (:mod:`bot.posting.in_place`):
        acknowledged at once with a silent "update" (type 6: nothing to draw within Discord's 3
        seconds), then, when something happened since the card was drawn (an AI's turn, a timeout, a
        resignation), the card is redrawn through this click's ``@original``, which after an update
        response is the clicked message itself. Either way this click's token may edit the card for
        the next 14 minutes; what the clicker alone should see follows as private follow-ups."""
        in_place = self.host.announcer.in_place
        message = interaction.message
        assert message is not None
        game_id = session.record.id
        if not interaction.response.is_done():  # acknowledged already as the same silent update (acknowledge)
            await interaction.response.defer()
        in_place.handles.keep(game_id, interaction.edit_original_response, message.id)
        async with in_place.lock(game_id):
            # A resignation or a timeout changes the game without a move: then the card is drawn again too.
            if (session.record.status == "active" and not ai_to_act(session)
                    and await in_place.shows_current(session, message.id)):
                return
            view, file = await in_place.card(session)
            await interaction.edit_original_response(view=view, attachments=[file])
            await in_place.record(session, message.channel.id, message.id)

    async def _actor_session(self, interaction: Interaction, cid: CustomId) -> Session | None:
        """The current game if the clicker is the one to act on this very board;
        otherwise they have been told why not, and None is returned."""
        loaded = await self._load_current(interaction, cid)
        if loaded is None:
            return None
        session = loaded[0]
        try:
            check_actor(session, interaction.user.id)
        except PlayError as exc:
            await tell(interaction, explain(exc, await reader(interaction, self.services.languages)))
            return None
        return session

    async def open_chooser(self, interaction: Interaction, cid: CustomId) -> None:
        """▶ Your move: the chooser, privately. On an older card too, during the clicker's own turn:
        the chooser is built from the game as it stands (its clicks carry today's version), so it is
        the newest card's; anyone else clicking an older card is shown the current board."""
        try:
            now = await self.services.sessions.load(cid.game_id)
            check_actor(now, interaction.user.id)
            cid = dataclasses.replace(cid, version=now.version)
        except PlayError:
            pass  # not theirs to act (or no game): answered below as any click on that card
        session = await self._actor_session(interaction, cid)
        if session is not None:
            lang = await reader(interaction, self.services.languages)
            shown = chooser(session, (), lang=lang)
            files: list[discord.File] = []
            if not session.presenter.has_hand:  # no hand picture: the board its letters are on, on screen (#43)
                await defer_private(interaction)
                view = public_view(session, lang)
                files.append(await self.services.renderer.board(view, art=session.presenter.art,
                                                                labels=board_labels(session, view), lang=lang))
            await show_card(interaction, shown.card(files=files), files=files)

    async def choose(self, interaction: Interaction, cid: CustomId, path: Sequence[str], page: int = 0) -> None:
        """One step down the chooser (or a page of it); a path that spells a whole
        move with nothing more to choose is played."""
        session = await self._actor_session(interaction, cid)
        if session is None:
            return
        lang = await reader(interaction, self.services.languages)
        try:
            shown = step_to(session, path, page, lang)
        except PathGone as exc:
            await tell(interaction, explain(exc, lang))
            return
        if isinstance(shown, str):
            await self.play_or_preview(interaction, session, shown)
            return
        if is_board(interaction.message):  # a step on a board: never edit it
            await show_card(interaction, shown.card())
            return
        # the chooser (or the hand it came with) changes in place, its pictures kept
        await edit_card(interaction, shown.card(files=kept_pictures(interaction.message)))

    async def move(self, interaction: Interaction, cid: CustomId) -> None:
        """A button that names a whole move (a fall on the board, ✅ Done here)."""
        session = await self._actor_session(interaction, cid)
        if session is not None:
            await self.play_or_preview(interaction, session, cid.arg)

    async def play_or_preview(self, interaction: Interaction, session: Session, move: str) -> None:
        """A move picked: played, or first previewed for a player who asked for that
        (``/pyramid settings preview:True``, :mod:`bot.turns.previews`)."""
        if await self.previews.wanted(interaction.user.id):
            await self.previews.show(interaction, session, move)
        else:
            await self.perform_move(interaction, session, move)

    async def perform_move(self, interaction: Interaction, session: Session, move: str) -> None:
        """Acknowledge at once, then make the move and announce it."""
        sessions = self.services.sessions
        lang = await reader(interaction, self.services.languages)
        # The private chooser (or the hand DM it is on) becomes "Playing…", its pictures kept; a
        # board (also one in a DM game) is never edited by a click: it is answered apart.
        message = interaction.message
        private_message = message is not None and not is_board(message) and (
            message.flags.ephemeral or message.guild is None
        )
        kept = kept_pictures(message)
        accent = seat_colour(session.to_act)
        told = session.presenter.move_words(move, spot_letters(session), lang)  # the spots' letters before the move
        if private_message:
            await edit_card(interaction, card([lang.tr("⏳ Playing {move}…", move=told)], accent=accent, files=kept))
        else:
            await defer_private(interaction)
        try:
            outcome = await sessions.make_move(
                session.record.id, move, user_id=interaction.user.id, expected_version=session.version
            )
        except StaleBoard:
            fresh = await sessions.load(session.record.id)
            try:
                seen = await seen_by(self.services.store, fresh.record, interaction)
            except PlayError as exc:
                await tell(interaction, f"❌ {explain(exc, lang)}")
                return
            await self.send_current_board(interaction, fresh, lang.gettext(OUT_OF_DATE), lang, seen=seen,
                                          stale=True)
            return
        except (MoveRejected, PlayError) as exc:
            await tell(interaction, f"❌ {explain(exc, lang)}")
            return
        done = lang.tr("✅ You played {move}.", move=told if outcome.move == move else outcome.move)
        # A chooser's "⏳ Playing…" waits for the mover's new hand, which completes it with this line (one
        # request); said alone when the hand went elsewhere or nowhere (the game ended, say). A deferred
        # answer cannot wait: Discord takes the first follow-up (the board) for it. Nor can a game played
        # in place, whose card may be the answer's message (bot.posting.in_place keeps its token).
        waits = private_message and not session.record.in_place
        if not private_message:
            await tell(interaction, done)
        elif not waits:
            await edit_card(interaction, card([done], accent=accent, files=kept))
        reply = move_reply(interaction, outcome.session.version, done if waits else None)
        announced = await self.host.delivery.announce(session.record.id, reply)
        if waits and (reply.original is None or not reply.original.used):
            await edit_card(interaction, card([done], accent=accent, files=kept))
        if not announced:
            await tell(interaction, lang.tr("📋 Your move is saved; the board will follow as soon as Discord lets me "
                                            "post it."))

    async def hand(self, interaction: Interaction, cid: CustomId) -> None:
        """🂠 My hand."""
        loaded = await self._load_current(interaction, cid, check_version=False)
        if loaded is not None:
            await self.show_hand(interaction, *loaded)

    async def show_hand(self, interaction: Interaction, session: Session, seen: Seen) -> None:
        """The clicker's hand, privately. A player whose seat an AI took after a timeout
        may still look; one who resigned has left the game and its hand. ``seen``: the
        visibility rule's leave to show the game to the clicker (a hand is also its seat's alone)."""
        seen.covers(session.record.id, interaction.user.id)
        lang = await reader(interaction, self.services.languages)
        mine = session.seat_of(interaction.user.id)
        if mine is None:
            await tell(interaction, lang.tr("You are not playing in this game."))
            return
        if mine.resigned:
            await tell(interaction, lang.gettext(RESIGNED))
            return
        await defer_private(interaction)
        file = await self.services.renderer.hand(player_view(session, mine.seat, lang), art=session.presenter.art,
                                                 lang=lang)
        text = lang.tr("{emoji} Your hand in game #{game} (move {move}).", emoji=session.presenter.emoji,
                       game=session.record.id, move=session.version)
        if not session.over and session.to_act == mine.seat and not mine.is_ai:
            shown = chooser(session, (), lang=lang)
            text += "\n" + lang.tr("🎯 It's your turn: {prompt}", prompt=shown.prompt)
            await show_card(interaction, card([text], accent=shown.accent, files=[file],
                                              controls=shown.view.children), files=[file])
            return
        await show_card(interaction, card([text], accent=seat_colour(mine.seat), files=[file]), files=[file])

    async def board(self, interaction: Interaction, cid: CustomId) -> None:
        """🔄 Latest board."""
        loaded = await self._load_current(interaction, cid, check_version=False, public=True)
        if loaded is None or (loaded[0].record.in_place and on_card(interaction, loaded[0])):
            return  # an in-place game's card was itself updated by the click
        session, seen = loaded
        await defer_private(interaction)
        lang = await reader(interaction, self.services.languages)
        await self.send_current_board(interaction, session, lang.tr("Here is the current board."), lang, seen=seen)
