"""The replay a game's thread gets when the game ends: every position in one
animated picture that Discord plays inline (see ``render.replay``).

It follows the game's end (:class:`bot.posting.announcer.GameEnd`), so it runs from
the game's ``finish`` row, at least once: the post carries a nonce of its own, and a
second run (a retried row, a restart after a crash between the post and the row being
marked done) gets Discord's first message back instead of a second one, for as long
as Discord remembers nonces (a few minutes: as for every post of the bot). A game
that ended before its first move gets no replay: one picture of the deal is not one.

What may go wrong, and what then happens, is chosen so that a replay, a nicety,
never holds up what else follows a game's end:

- Discord refuses for a reason trying again will not fix soon (no permission to post
  or attach, the thread locked, archived for good or deleted, the file refused):
  logged, and the game goes without its replay.
- The move log cannot be replayed or drawn (a damaged record, a bug): logged with
  its traceback, and no replay; drawing it again would fail the same way.
- Passing trouble (Discord's 5xx, a dropped connection, a worker that died) is
  raised: the finish row is then tried again later, with a backoff, and the
  followers before this one run again too (they are idempotent, as every follower
  must be), and the nonce keeps the replay from being posted twice.
"""

from __future__ import annotations

import io
import logging

import discord

from bot.cards.boards import ended_view, plain_names
from bot.cards.cards import card
from bot.core.services import Services
from bot.core.session import Session
from bot.games.presenter import ENGLISH
from bot.posting.channels import Channels
from bot.posting.failures import Blocked
from bot.posting.interaction_posts import copy
from bot.posting.pings import QUIET
from bot.posting.seat_dms import SeatDms
from bot.store import CorruptRecord, GameRecord
from bot.workers.render_jobs import GameLog, alt_text
from engine.core import EngineError
from i18n import Lang
from render.describe import describe_replay
from render.replay import MAX_BYTES, Replay

log = logging.getLogger(__name__)


def game_log(session: Session, moves: list[tuple[int, str]], lang: str | None = None) -> GameLog:
    """What the render worker replays: the game's set-up, its ``moves`` and the names
    and number its boards show, with their words in ``lang`` (a language code)."""
    record = session.record
    ended = ended_view(session).get("result")  # a resignation's or a timeout's result, which no move made
    return GameLog(game=session.game, players=len(session.seats), options=dict(record.options), seed=record.seed,
                   moves=tuple(moves), names=tuple(plain_names(session)), number=record.id, lang=lang,
                   ended=dict(ended) if isinstance(ended, dict) and not session.over else None)


def replay_nonce(game_id: int) -> str:
    """The nonce of a game's replay post: one replay per game, unlike any other post
    of the bot (theirs start ``pb`` and a letter of ``bot.core.announcements``)."""
    return f"pbr{game_id:x}"


def caption(session: Session, replay: Replay, lang: Lang | None = None) -> str:
    """The replay's message, in ``lang`` (the channel's)."""
    lang = lang or ENGLISH
    p = session.presenter
    moves = replay.positions - 1
    text = lang.tr("🎞️ {emoji} **{title}** · Game #{number}, move by move", emoji=p.emoji, title=p.title,
                   number=session.record.id)
    if replay.dropped:
        text += " " + lang.tr("({moves} moves in {frames} pictures)", moves=moves, frames=replay.frames)
    return text + "\n" + lang.tr("Step through it with `/pyramid replay game:{number}`.", number=session.record.id)


class Replays:
    """Posts the replay in the game's thread when the game ends (a ``GameEnd`` follower)."""

    def __init__(self, services: Services, client: discord.Client, channels: Channels, *,
                 max_bytes: int = MAX_BYTES) -> None:
        self.services = services
        self.client = client
        self.channels = channels
        #: The largest file posted (Discord refuses a bot's attachment above 10 MiB).
        self.max_bytes = max_bytes
        #: Games played in their seats' DMs (the announcer's, set by ``Host.build``): each seat's DM gets the GIF.
        self.seat_dms: SeatDms | None = None

    async def private(self, record: GameRecord) -> bool:
        """Whether only the game's player reads where it is played: a DM (the daily
        deal), or a private thread (a challenge's, ``bot.core.shared_deals``)."""
        channel: object = self.client.get_channel(record.play_channel_id)
        if channel is None:
            try:
                channel = await self.client.fetch_channel(record.play_channel_id)
            except discord.HTTPException:
                return False
        if isinstance(channel, discord.DMChannel):
            return True
        return isinstance(channel, discord.Thread) and channel.type == discord.ChannelType.private_thread

    async def game_finished(self, session: Session) -> None:
        record = session.record
        moves = [(m.seat, m.move) for m in await self.services.store.moves(record.id)]
        if not moves:  # ended before anyone moved: a single picture of the deal is no replay
            return
        channel_id = record.play_channel_id
        if record.in_place:  # the bot is not in that channel; /pyramid replay shows it to whoever asks
            log.info("no replay posted for game %s: only a user install reaches its channel", record.id)
            return
        if record.challenge_id is not None and not await self.private(record):
            # A shared deal's replay shows every refill of its stock: only where its player alone reads.
            log.info("no replay for game %s: a shared deal's game played where others may read", record.id)
            return
        try:
            self.channels.check_postable(channel_id)
        except Blocked as exc:
            log.warning("no replay for game %s: %s", record.id, exc)
            return
        lang = await self.services.languages.for_game(record)  # the channel's language
        try:
            replay = await self.services.renderer.replay(game_log(session, moves, lang.code),
                                                         art=session.presenter.art, max_bytes=self.max_bytes)
        except (EngineError, CorruptRecord, ValueError, KeyError, TypeError):
            log.exception("no replay for game %s: its move log could not be drawn", record.id)
            return
        # Alt text: the final position, public (the game is over, and this is its channel).
        words = alt_text(describe_replay, ended_view(session), moves=len(moves), art=session.presenter.art,
                         lang=lang)
        file = discord.File(io.BytesIO(replay.data), filename=f"game-{record.id}-replay.gif", description=words)
        try:
            if record.seat_dms and self.seat_dms is not None:  # the other seats' DMs too (first: a file is sent once)
                async def card_for(user_id: int) -> tuple[discord.ui.LayoutView, discord.File]:
                    again = copy(file)
                    return card([caption(session, replay, lang)], files=[again]), again

                await self.seat_dms.copies(record, session.seats, channel_id, card_for, QUIET,
                                           lambda seat: f"{replay_nonce(record.id)}.{seat:x}")
            await self.client.get_partial_messageable(channel_id).send(  # news for readers: no ping
                view=card([caption(session, replay, lang)], files=[file]), file=file, nonce=replay_nonce(record.id),
                allowed_mentions=discord.AllowedMentions.none(), silent=True,
            )
        except discord.HTTPException as exc:
            if exc.status >= 500 or exc.status == 429:  # passing: the finish row is tried again
                raise
            log.warning("no replay for game %s: Discord refused it (%s %s: %s)", record.id, exc.status, exc.code,
                        exc.text)


__all__ = ["Replays", "caption", "game_log", "replay_nonce"]
