"""Seeks and the queue between clicks: a sweep starts the seeks that are full (or whose wait
for people is over: AIs take the empty seats) and the queue's matches.

A seek is a lobby (``/pyramid seek`` opens it through the lobby's own path, with its card and
its Join button); this only starts it, as Start would, once ``players`` have joined or its
``fill_at`` has come. A seek started by hand, cancelled, or whose seeker left is closed. The
queue's matches are written once (both entries deleted in the transaction that writes their
game, see :meth:`bot.seeks.store.SeekStore.match`), then started like any unattended game.

A queue entry does not outlive its player's presence, and every match passes
:meth:`Seeks.match_queue`, which holds the rule: an entry older than
:data:`bot.seeks.matching.MOST_WAIT` is dropped, and each player about to be matched is
looked up as a member of the server (one REST request per candidate, through the bot's rate
limit: the bot has no members intent, so it is not told when someone leaves); one who left
is dropped and the group matched again without them. Either way the player is told by DM
(once: only the process whose delete removed the entry tells).
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Literal, get_args

import discord

from bot.cards.cards import card
from bot.core.services import Services
from bot.core.tasks import sweep_forever
from bot.interactions.host import Host
from bot.ratings.store import RatingStore
from bot.seeks.across import Across
from bot.seeks.matching import MOST_WAIT, Seeker, Waiting, expired, pairings
from bot.seeks.starting import start_unattended
from bot.seeks.store import Entry, SeekStore
from bot.store import LobbyError
from bot.store.records import AiLevel

log = logging.getLogger(__name__)


class Seeks:
    def __init__(self, services: Services, host: Host, client: discord.Client) -> None:
        self.services = services
        self.host = host
        self.client = client
        self.store = SeekStore(services.db)
        #: Matches across servers, played in the two players' DMs.
        self.across = Across(services, host, client, self.store, self.start)

    async def run(self) -> None:
        await sweep_forever(lambda: self.services.sweep_seconds, self.sweep, "seek and queue sweep")

    async def sweep(self) -> list[str]:
        done: list[str] = []
        for seek in await self.store.open_seeks():
            try:
                done.extend(await self.look_at(seek.game_id))
            except Exception:
                log.exception("seek %s", seek.game_id)
        done.extend(await self.match_queue())
        return done

    async def rating(self, user_id: int, guild_id: int, kind: str) -> float:
        """A player's rating of the game in the server (mu - 3 sigma; 0 for a player never rated);
        with ``guild_id`` :data:`bot.ratings.EVERYWHERE`, across servers."""
        found = [s for s in await RatingStore(self.services.db).standings_of(user_id, [guild_id]) if s.kind == kind]
        return round(found[0].mu - 3 * found[0].sigma, 2) if found else 0.0

    # --- seeks ---------------------------------------------------------------------------
    async def look_at(self, game_id: int) -> list[str]:
        store = self.services.store
        seek = next((s for s in await self.store.open_seeks() if s.game_id == game_id), None)
        record = await store.game_record(game_id)
        if seek is None or record is None:
            return []
        if record.status != "lobby":  # started by hand, or cancelled
            await self.store.close_seek(game_id, "closed")
            return [f"seek-closed:{game_id}"]
        seats = await store.seats(game_id)
        if not any(s.user_id == seek.user_id for s in seats):  # the seeker left their own seek
            await store.set_status(game_id, "cancelled", expect="lobby")
            await self.store.close_seek(game_id, "closed")
            return [f"seek-closed:{game_id}"]
        now = self.services.clock()
        if len(seats) < seek.players:
            if seek.fill_at is None or now < seek.fill_at:
                return []
            level = seek.ai_level if seek.ai_level in get_args(AiLevel) else "normal"
            for _ in range(seek.players - len(seats)):
                try:
                    await store.add_seat(game_id, ai_level=level, limit=seek.players)  # type: ignore[arg-type]
                except LobbyError:
                    break
        return await self.start(game_id, "seek")

    async def start(self, game_id: int, why: str) -> list[str]:
        record = await self.services.store.game_record(game_id)
        if record is None:
            return []
        words = await self.services.languages.for_guild(record.guild_id)
        presenter = self.services.catalogue.presenter(record.kind)
        name = f"{words.gettext(presenter.title)} #{game_id}"
        if not await start_unattended(self.services, self.host, self.client, game_id, name):
            return []
        if why == "seek":
            await self.store.close_seek(game_id, "started")
        fresh = await self.services.store.game_record(game_id)
        if fresh is not None and fresh.seat_dms:  # its players were told by DM as they were matched
            return [f"{why}-started:{game_id}"]
        seats = await self.services.store.seats(game_id)
        where = f"<#{fresh.thread_id}>" if fresh is not None and fresh.thread_id else words.tr("this channel")
        people = [s.user_id for s in seats if s.user_id is not None]
        text = words.tr("{emoji} {players}: your game #{game} started in {where}.", emoji=presenter.emoji,
                        players=", ".join(f"<@{u}>" for u in people), game=game_id, where=where)
        try:
            ping = await self.host.announcer.pings.notice(game_id, 0, people, "started")  # the notification gate
            await self.client.get_partial_messageable(record.channel_id).send(
                view=card([text]), allowed_mentions=ping.mentions, silent=ping.silent)
        except discord.HTTPException as exc:
            log.warning("game %s: could not tell its players it started (%s)", game_id, exc)
        return [f"{why}-started:{game_id}"]

    # --- the queue ------------------------------------------------------------------------
    async def match_queue(self) -> list[str]:
        now = self.services.clock()
        done: list[str] = []
        for unstarted in await self.store.unstarted_dm_games():  # a match across servers the bot stopped inside
            done.extend(await self.start(unstarted, "queue"))
        groups: dict[str, list[Entry]] = {}
        for entry in await self.store.waiting():
            if expired(Waiting(entry.user_id, entry.rating, entry.joined_at), now):
                if await self.drop(entry, "expired"):
                    done.append(f"queue-expired:{entry.user_id}")
                continue
            groups.setdefault(entry.kind, []).append(entry)
        for kind, entries in groups.items():
            present: dict[tuple[int, int], bool] = {}
            pairs = await self._present_pairs(entries, present, now)
            for first, second, across in pairs:
                options = self.services.catalogue.presenter(kind).game.parse_options({}).model_dump(mode="json")
                if across:
                    done.extend(await self.across.match(first, second, options))
                    continue
                game_id = await self.store.match(first, second, options, self.services.new_seed())
                if game_id is not None:
                    done.extend(await self.start(game_id, "queue"))
        return done

    async def _present_pairs(self, entries: list[Entry], present: dict[tuple[int, int], bool],
                             now: datetime) -> list[tuple[Entry, Entry, bool]]:
        """The pairs of one game's queue (:func:`bot.seeks.matching.pairings`: a server's own first,
        then across servers) with both players still members of the server they queued from; one
        who left is dropped (and told) and the rest matched again, so whoever they would have
        taken may be matched with another."""
        pool = {(e.guild_id, e.user_id): e for e in entries}
        while True:
            seekers = [Seeker(e.user_id, e.guild_id, e.rating, e.joined_at, e.wide_rating if e.across else None)
                       for e in pool.values()]
            pairs = [(pool[a.home, a.user_id], pool[b.home, b.user_id], across)
                     for a, b, across in pairings(seekers, now)]
            gone = [e for a, b, _ in pairs for e in (a, b) if not await self._member(e.guild_id, e.user_id, present)]
            if not gone:
                return pairs
            for entry in gone:
                del pool[entry.guild_id, entry.user_id]
                await self.drop(entry, "left")

    async def _member(self, guild_id: int, user_id: int, known: dict[tuple[int, int], bool]) -> bool:
        """Whether ``user_id`` is still a member of the server (asked once per sweep); a failed
        lookup other than "unknown member" counts as present: a glitch drops nobody."""
        if (guild_id, user_id) not in known:
            try:
                await self.client.http.get_member(guild_id, user_id)
                known[guild_id, user_id] = True
            except discord.NotFound:
                known[guild_id, user_id] = False
            except discord.HTTPException as exc:
                log.warning("queue: could not look up member %s of %s (%s)", user_id, guild_id, exc)
                known[guild_id, user_id] = True
        return known[guild_id, user_id]

    async def drop(self, entry: Entry, why: Literal["expired", "left"]) -> bool:
        """Take ``entry`` out of the queue and tell its player why by DM; False (and nothing told)
        when it was gone already (left, matched or dropped by another process)."""
        if not await self.store.leave(entry.guild_id, entry.kind, entry.user_id):
            return False
        words = await self.services.languages.for_user(entry.user_id, entry.guild_id)
        guild = self.client.get_guild(entry.guild_id)
        title = words.gettext(self.services.catalogue.presenter(entry.kind).title)
        server = guild.name if guild is not None else str(entry.guild_id)
        if why == "expired":
            message = words.tr("🕰️ Your place in the queue for {title} in {server} expired after {hours} hours "
                               "without a match. Queue again whenever you like.", title=title, server=server,
                               hours=format(MOST_WAIT.total_seconds() / 3600, "g"))
        else:
            message = words.tr("👋 You left the server {server}, so you are out of its queue for {title}.",
                               title=title, server=server)
        try:
            dm = await self.host.announcer.dm_channel(entry.user_id)
            # a notice, not a turn: it buzzes nobody (the notification gate tells turns alone)
            await self.client.get_partial_messageable(dm).send(view=card([message]), silent=True)
        except discord.HTTPException as exc:
            log.info("queue: could not tell %s by DM (%s)", entry.user_id, exc)
        return True
