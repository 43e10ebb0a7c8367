"""A queue match across servers: the game is played in the two players' own DMs.

Two players of different servers share no channel the bot could post their game in, so the
game has no server (``guild_id`` NULL: rated across servers alone, no server's leaderboard
counts it) and lives in each seat's DM with the bot (``GameRecord.seat_dms``; every board and
notice reaches every seat's DM through :mod:`bot.posting.seat_dms`).

The one rule of a match here: **no game is started unless both players can be written to by
DM.** Both DM channels are opened first; the match (both entries out, the game written) is one
transaction (:meth:`bot.seeks.store.SeekStore.match_across`); then each player is told of their
opponent in their DM, which is the proof the DM reaches them. A player Discord refuses to DM is
out of the queue (their DMs are marked closed: they would never get a board), the game is
cancelled before its first move, and the other player is put back in the queue with their place
(``joined_at``) kept, and told so. A bot stopped between the match and its start finds the
lobby at the next sweep (:meth:`bot.seeks.store.SeekStore.unstarted_dm_games`) and starts it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from bot.cards.cards import card
from bot.core.services import Services
from bot.interactions.host import Host
from bot.posting.failures import CANNOT_DM
from bot.seeks.store import Entry, SeekStore

log = logging.getLogger(__name__)

Start = Callable[[int, str], Awaitable[list[str]]]


class Across:
    def __init__(self, services: Services, host: Host, client: discord.Client, store: SeekStore,
                 start: Start) -> None:
        self.services = services
        self.host = host
        self.client = client
        self.store = store
        self.start = start

    async def match(self, first: Entry, second: Entry, options: dict[str, object]) -> list[str]:
        """Match ``first`` and ``second`` (of different servers) in a game played in their DMs, or
        make no game (see the module's docstring); what was done, for the sweep's log."""
        announcer = self.host.announcer
        dms: list[int] = []
        for entry in (first, second):
            try:
                dms.append(await announcer.dm_channel(entry.user_id))
            except discord.HTTPException as exc:  # no DM channel at all: they can't play here
                log.info("queue across servers: no DM with %s (%s)", entry.user_id, exc)
                await self.store.leave(entry.guild_id, entry.kind, entry.user_id)
                return [f"queue-unreachable:{entry.user_id}"]
        game_id = await self.store.match_across(first, second, options, self.services.new_seed(), (dms[0], dms[1]))
        if game_id is None:  # one of them left (or was matched by another process) meanwhile
            return []
        reached: list[Entry] = []
        for entry, opponent, dm in ((first, second, dms[0]), (second, first, dms[1])):
            if not await self._tell_matched(game_id, entry, opponent, dm):
                return await self._unmatch(game_id, entry, [e for e in (first, second) if e is not entry], reached)
            reached.append(entry)
        return await self.start(game_id, "queue")

    async def _tell_matched(self, game_id: int, entry: Entry, opponent: Entry, dm: int) -> bool:
        """Tell ``entry``'s player their opponent, in their DM; False when Discord refuses to DM them."""
        services = self.services
        words = await services.languages.for_user(entry.user_id, entry.guild_id)
        presenter = services.catalogue.presenter(entry.kind)
        guild = self.client.get_guild(opponent.guild_id)
        text = words.tr("{emoji} Matched across servers for {title}: your opponent is {name}{server}. Game #{game} is "
                        "played here, in our direct messages: its board and your hand come here, and so do your "
                        "turns.", emoji=presenter.emoji, title=words.gettext(presenter.title), name=opponent.name,
                        server=f" ({guild.name})" if guild is not None else "", game=game_id)
        ping = await self.host.announcer.pings.notice(game_id, 0, [entry.user_id], "started")  # the gate
        try:
            await self.client.get_partial_messageable(dm, type=discord.ChannelType.private).send(
                view=card([text]), silent=ping.silent)
        except discord.Forbidden as exc:
            if exc.code != CANNOT_DM:
                raise
            await services.store.mark_dm_closed(entry.user_id)
            return False
        return True

    async def _unmatch(self, game_id: int, unreachable: Entry, others: list[Entry], reached: list[Entry]
                       ) -> list[str]:
        """``unreachable`` can't be DMed: no game (cancelled before it started), they are out of the
        queue, and the other goes back in it with their place kept (told so if they were told of the
        match already)."""
        services = self.services
        await services.store.set_status(game_id, "cancelled", expect="lobby")
        log.info("queue across servers: game %s cancelled, %s can't be sent DMs", game_id, unreachable.user_id)
        for entry in others:
            if not await self.store.put_back(entry):
                continue
            if entry not in reached:
                continue
            words = await services.languages.for_user(entry.user_id, entry.guild_id)
            try:
                dm = await self.host.announcer.dm_channel(entry.user_id)
                # a notice, not a turn: it buzzes nobody
                await self.client.get_partial_messageable(dm, type=discord.ChannelType.private).send(
                    view=card([words.tr("↩️ Game #{game} is off: your opponent can't be sent direct messages. You "
                                        "are back in the queue, in your place.", game=game_id)]), silent=True)
            except discord.HTTPException as exc:
                log.info("queue: could not tell %s by DM (%s)", entry.user_id, exc)
        return [f"queue-unreachable:{unreachable.user_id}"]
