"""Seeks and the queue between clicks: a sweep starts the seeks that are full (or whose wait
for people is over: AIs take the empty seats) and the queue's matches.

A seek is a lobby (``/pyramid seek`` opens it through the lobby's own path, with its card and
its Join button); this only starts it, as Start would, once ``players`` have joined or its
``fill_at`` has come. A seek started by hand, cancelled, or whose seeker left is closed. The
queue's matches are written once (both entries deleted in the transaction that writes their
game, see :meth:`bot.seeks.store.SeekStore.match`), then started like any unattended game.
"""

from __future__ import annotations

import asyncio
import logging
from typing import get_args

import discord

from bot.cards.cards import card
from bot.core.services import Services
from bot.interactions.host import Host
from bot.ratings.store import RatingStore
from bot.seeks.matching import Waiting, matches
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

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.services.sweep_seconds)
            try:
                await self.sweep()
            except Exception:
                log.exception("seek and queue sweep failed")

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
        """A player's rating of the game in the server (mu - 3 sigma; 0 for a player never rated)."""
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
        waiting = await self.store.waiting()
        now = self.services.clock()
        done: list[str] = []
        groups: dict[tuple[int, str], list[Entry]] = {}
        for entry in waiting:
            groups.setdefault((entry.guild_id, entry.kind), []).append(entry)
        for (_, kind), entries in groups.items():
            by_user = {e.user_id: e for e in entries}
            for a, b in matches([Waiting(e.user_id, e.rating, e.joined_at) for e in entries], now):
                first, second = by_user[a.user_id], by_user[b.user_id]
                options = self.services.catalogue.presenter(kind).game.parse_options({}).model_dump(mode="json")
                game_id = await self.store.match(first, second, options, self.services.new_seed())
                if game_id is not None:
                    done.extend(await self.start(game_id, "queue"))
        return done
