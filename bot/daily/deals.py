"""The daily deal: one Continuous Pyramid deal a day for everyone on every server.

The day is the UTC date. Its deal is proven winnable (``winnable_only``), dealt under
the current rules edition with undo on, as a challenge's is. Its seed must not follow
from the date, or anyone could rebuild the day's face-down stock (CP-3): it is an
HMAC of the date under a secret the bot made once and keeps in its database.

Each player plays the day's deal once, privately, in a game of their own in their
DMs; the deal is held by a challenge row, so whatever keeps a challenge's seed secret
while others may still be playing it (its last board, its game record) keeps the
day's seed secret too. When a daily game is over (:meth:`DailyDeals.game_finished`,
a :class:`bot.posting.announcer.GameEnd`), its score (never a move) is recorded and
shown in the day's results message of each channel that opted in on the server the
player asked from, with everyone's streak of consecutive days played. The results
message is in the server's language, the player's DM in theirs.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any, Literal

import discord

from bot.cards.cards import note
from bot.core.services import Services
from bot.core.session import Session
from bot.daily.store import DailyResult, DailyStore, Score
from bot.games.presenter import ENGLISH
from bot.leaderboards.leaderboards import CHALLENGE_KIND, TILES
from bot.posting.channels import Channels
from bot.posting.failures import UNKNOWN_MESSAGE, Blocked
from i18n import N_, Lang

log = logging.getLogger(__name__)

#: The game of the daily deal.
DAILY_KIND = CHALLENGE_KIND
#: The options of every daily deal: proven winnable; undo and the rules edition as
#: their defaults (on, and the current edition), as for a challenge.
DAILY_OPTIONS: Mapping[str, Any] = {"winnable_only": True}
#: The bot secret that keys the day's seed.
SECRET = "daily"
#: Lines of results in one message (Discord's 2000 characters hold these comfortably).
MAX_LINES = 25
#: Times a results message is edited in a row when more results came in meanwhile.
MAX_EDITS = 5
#: What the results message and the board say about spoilers.
SCORES_ONLY = N_("Scores only, no spoilers: play yours with `/pyramid daily`.")

Board = Literal["today", "streaks"]


def utc_day(moment: datetime) -> date:
    """The daily deal's day: the UTC date of ``moment``."""
    return moment.astimezone(UTC).date()


def daily_seed(secret: bytes, day: date) -> int:
    """The day's seed: HMAC-SHA256 of ``"daily:" + date`` under the bot's secret, cut
    to 63 bits (the games table's signed integer). Without the secret, no date tells
    anything about the deal."""
    digest = hmac.new(secret, f"daily:{day.isoformat()}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def until_next(moment: datetime, lang: Lang | None = None) -> str:
    """How long until the next day's deal, e.g. "5 h 12 min"."""
    lang = lang or ENGLISH
    now = moment.astimezone(UTC)
    left = datetime.combine(now.date() + timedelta(days=1), datetime.min.time(), UTC) - now
    minutes = max(1, int(left.total_seconds() // 60))
    if minutes >= 60:
        return lang.tr("{hours} h {minutes} min", hours=minutes // 60, minutes=minutes % 60)
    return lang.tr("{minutes} min", minutes=minutes)


# --- streaks ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Streak:
    """Consecutive UTC days with a finished daily: the run still alive (ending today,
    or yesterday while today's deal may still be played) and the longest ever."""

    current: int
    best: int


def streak_on(days: Iterable[str], day: date) -> int:
    """The run of consecutive played days ending on ``day`` (0: not played that day)."""
    played = set(days)
    count = 0
    while (day - timedelta(days=count)).isoformat() in played:
        count += 1
    return count


def streak(days: Iterable[str], today: date) -> Streak:
    played = sorted(set(days))
    current = streak_on(played, today) or streak_on(played, today - timedelta(days=1))
    best, run, last = 0, 0, None
    for text in played:
        day = date.fromisoformat(text)
        run = run + 1 if last is not None and day - last == timedelta(days=1) else 1
        best, last = max(best, run), day
    return Streak(current, best)


def days_text(n: int, lang: Lang | None = None) -> str:
    return (lang or ENGLISH).trn("{count} day", "{count} days", n, count=n)


# --- what is shown (numbers only: no move, no tile) ------------------------------------
def rank_key(result: DailyResult) -> tuple[int, int, str, int]:
    """Most tiles placed, then fewest undos, then who finished first."""
    return (-(result.tiles or 0), result.undos or 0, result.finished_at or "", result.user_id)


def name_of(result: DailyResult, lang: Lang | None = None) -> str:
    return discord.utils.escape_markdown(
        result.name or (lang or ENGLISH).tr("Player {number}", number=result.user_id % 10000))


def score_text(result: DailyResult, lang: Lang | None = None) -> str:
    """``97/144`` with ✅ for a win and ⌛ when an AI finished it (the player timed out)."""
    lang = lang or ENGLISH
    text = f"{result.tiles or 0}/{TILES}"
    if result.won:
        text += " ✅"
    if result.timed_out:
        text += " " + lang.gettext("⌛ timed out")
    undos = result.undos or 0
    return text + " · " + lang.trn("{count} undo", "{count} undos", undos, count=undos)


def results_text(day: str, results: list[DailyResult], streaks: Mapping[int, int], title: str,
                 lang: Lang | None = None) -> str:
    """The day's results message of one server: spoiler-safe, scores only, in ``lang``."""
    lang = lang or ENGLISH
    lines = [lang.tr("📅 **Daily deal {day}** · {title}, one proven-winnable deal for everyone. {scores_only}",
                     day=day, title=title, scores_only=lang.gettext(SCORES_ONLY))]
    finished = sorted((r for r in results if r.finished), key=rank_key)
    for rank, result in enumerate(finished[:MAX_LINES], start=1):
        run = streaks.get(result.user_id, 0)
        fire = " " + lang.tr("(🔥 {days}-day streak)", days=run) if run >= 1 else ""
        lines.append(f"{rank}. {name_of(result, lang)} — {score_text(result, lang)}{fire}")
    if len(finished) > MAX_LINES:
        lines.append(lang.tr("… and {count} more.", count=len(finished) - MAX_LINES))
    if not finished:
        lines.append(lang.gettext("No results yet."))
    playing = sum(1 for r in results if not r.finished)
    if playing:
        lines.append(lang.tr("🎲 {count} still playing.", count=playing))
    return "\n".join(lines)[:2000]


def post_nonce(day: str, channel_id: int, replacing: int = 0) -> str:
    """The nonce of a day's results message in a channel: a retried follower posts it
    once. ``replacing``: the deleted message a new one replaces (Discord refuses the
    nonce of a deleted message)."""
    digest = hashlib.blake2b(f"{day}:{channel_id}:{replacing}".encode(), digest_size=11).hexdigest()
    return f"pd{digest}"  # 24 characters; ``pb…`` is every other nonce of the bot


def player_nonce(day: str, user_id: int) -> str:
    digest = hashlib.blake2b(f"{day}:{user_id}".encode(), digest_size=11).hexdigest()
    return f"pu{digest}"


class DailyDeals:
    """The daily deal's days, scores and results messages; it answers no interaction."""

    def __init__(self, services: Services, client: discord.Client, channels: Channels) -> None:
        self.services = services
        self.client = client
        self.channels = channels
        self.store = DailyStore(services.db)

    @property
    def title(self) -> str:
        p = self.services.catalogue.presenter(DAILY_KIND)
        return f"{p.emoji} {p.title}"

    def today(self) -> date:
        return utc_day(self.services.clock())

    def options(self) -> dict[str, Any]:
        """The day's options as stored: the defaults of today's rules with ``DAILY_OPTIONS``."""
        game = self.services.catalogue.game(DAILY_KIND)
        return game.parse_options(dict(DAILY_OPTIONS)).model_dump(mode="json")

    async def deal(self, day: date) -> int:
        """The challenge holding ``day``'s deal (made on first use, the same for every process)."""
        known = await self.store.deal(day.isoformat())
        if known is not None:
            return known
        seed = daily_seed(await self.store.secret(SECRET), day)
        return await self.store.ensure_deal(day.isoformat(), seed=seed, options=self.options())

    async def streak_of(self, user_id: int) -> Streak:
        """The player's streaks, as kept when their daily games finish (one row)."""
        run = (await self.store.streaks([user_id])).get(user_id)
        return Streak(run.current(self.today()), run.best) if run is not None else Streak(0, 0)

    # --- what follows a daily game's end ---------------------------------------------------
    async def game_finished(self, session: Session) -> None:
        """A daily game is over: record its score once, show it in the day's results
        messages of the player's server, and tell the player their streak."""
        daily = await self.store.result_of_game(session.record.id)
        if daily is None or session.record.status != "finished":
            return
        recorded = await self.store.record_score(session.record.id, await self.score(session, daily.user_id))
        if recorded is None:
            return
        if recorded.guild_id is not None:
            await self.refresh(recorded.day, recorded.guild_id)
        await self.tell_player(recorded)

    async def score(self, session: Session, user_id: int) -> Score:
        """The score of a finished daily game. When an AI took the seat over (the player
        timed out), only the player's own plays count: the game as it stood after them."""
        result = session.record.result or {}
        details = result.get("details") or {}
        seat = session.seat_of(user_id)
        if seat is not None and seat.is_ai:
            moves = await self.services.store.moves(session.record.id)
            own = max((m.seq for m in moves if m.actor_id == user_id), default=0)
            then = await self.services.sessions.load_at(session.record.id, own)
            view = then.game.view(then.state, None)
            return Score(tiles=int(view.get("tiles_placed", 0)), won=False, undos=int(view.get("undos", 0)),
                         timed_out=True)
        tiles = int(details.get("tiles_placed", 0))
        won = bool(result.get("winners")) and tiles >= TILES and not (seat is not None and seat.resigned)
        return Score(tiles=tiles, won=won, undos=int(details.get("undos", 0)))

    async def results_text(self, day: str, guild_id: int, lang: Lang | None = None) -> str:
        """The day's results of a server, in ``lang`` (default: the server's language)."""
        lang = lang or await self.services.languages.for_guild(guild_id)
        results = await self.store.results_of_day(day, guild_id)
        kept = await self.store.streaks(r.user_id for r in results)
        # The run that ends on ``day``: the kept latest run when it ends there, none when the player's
        # last day came before; only a day older than someone's last is worked out from their days.
        runs = {r.user_id: 0 for r in results}
        later = []
        for user, run in kept.items():
            if run.last_day == day:
                runs[user] = run.run
            elif run.last_day > day:
                later.append(user)
        played = await self.store.finished_days(later)
        runs |= {user: streak_on(days, date.fromisoformat(day)) for user, days in played.items()}
        return results_text(day, results, runs, self.title, lang)

    async def refresh(self, day: str, guild_id: int, *, create: bool = True) -> None:
        """Show ``day``'s results in every channel of the server that opted in.
        ``create=False`` (a player started): only where the day's message exists, so
        its count of players still playing stays true."""
        for channel_id in await self.store.channels(guild_id):
            try:
                await self._show(day, guild_id, channel_id, create=create)
            except (discord.Forbidden, discord.NotFound, Blocked) as exc:  # the admin's to fix; others go on
                log.warning("could not show the daily results of %s in channel %s: %s", day, channel_id, exc)

    async def _show(self, day: str, guild_id: int, channel_id: int, *, create: bool = True) -> None:
        """Post or edit the day's message in one channel. Edited again while results
        came in during the edit: two processes editing at once both look again after
        their edit, so the last edit shows every result."""
        replaced = 0
        lang = await self.services.languages.for_guild(guild_id)  # the channel's language
        for _ in range(MAX_EDITS):
            text = await self.results_text(day, guild_id, lang)
            message_id = await self.store.post(day, channel_id)
            channel = self.client.get_partial_messageable(channel_id)
            if message_id is None:
                if not create:
                    return
                self.channels.check_editable(channel_id)  # access, locks; text only: no Attach Files needed
                posted = await channel.send(view=note(text), nonce=post_nonce(day, channel_id, replaced),
                                            allowed_mentions=discord.AllowedMentions.none(), silent=True)
                if await self.store.record_post(day, channel_id, posted.id) != posted.id:
                    await posted.delete()  # another process's message is the day's: ours goes
                    continue
            else:
                self.channels.check_editable(channel_id)
                try:
                    await channel.get_partial_message(message_id).edit(  # content None: an older plain post too
                        content=None, view=note(text), allowed_mentions=discord.AllowedMentions.none())
                except discord.NotFound as exc:
                    if exc.code != UNKNOWN_MESSAGE:
                        raise
                    await self.store.forget_post(day, channel_id, message_id)  # deleted: post a new one
                    replaced = message_id
                    continue
            if await self.results_text(day, guild_id, lang) == text:
                return

    async def tell_player(self, result: DailyResult) -> None:
        """A DM with the score and the streak (no spoiler: it is the player's own)."""
        run = await self.streak_of(result.user_id)
        lang = await self.services.languages.for_user(result.user_id, result.guild_id)  # a DM: the player's
        text = lang.tr("📅 Your daily deal of {day} is done: **{score}**. 🔥 Streak: {days} (best {best}). "
                       "A new deal comes in {wait}.", day=result.day, score=score_text(result, lang),
                       days=days_text(run.current, lang), best=days_text(run.best, lang),
                       wait=until_next(self.services.clock(), lang))
        try:
            user = self.client.get_user(result.user_id) or await self.client.fetch_user(result.user_id)
            await user.send(view=note(text), nonce=player_nonce(result.day, result.user_id),
                            allowed_mentions=discord.AllowedMentions.none(), silent=True)  # they just played
        except (discord.Forbidden, discord.NotFound) as exc:
            log.info("could not tell %s their daily result: %s", result.user_id, exc)

    # --- a server's daily leaderboard ---------------------------------------------------------
    async def board_text(self, guild_id: int, board: Board, lang: Lang | None = None) -> str:
        """Today's results of the server's players, or their streaks (the server's
        players: whoever took a daily deal from it), in ``lang`` (default: the server's)."""
        lang = lang or await self.services.languages.for_guild(guild_id)
        today = self.today()
        if board == "today":
            return await self.results_text(today.isoformat(), guild_id, lang)
        # Kept as daily games finish (bot.daily.store): one row per player, never their days.
        ranked = await self.store.streak_board(guild_id, today, MAX_LINES)
        lines = [lang.tr("🔥 **Daily deal streaks in this server** ({day})", day=today.isoformat())]
        for rank, run in enumerate(ranked, start=1):
            name = discord.utils.escape_markdown(run.name or lang.tr("Player {number}", number=run.user_id % 10000))
            lines.append(lang.tr("{rank}. {name} — {days} (best {best})", rank=rank, name=name,
                                 days=days_text(run.current(today), lang), best=days_text(run.best, lang)))
        if not ranked:
            lines.append(lang.gettext("Nobody here has played a daily deal yet. Start today's with `/pyramid daily`."))
        return "\n".join(lines)[:2000]
