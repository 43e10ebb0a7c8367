"""The Discord client: wires the command tree, the components and the host's
background work to the services it is given. It holds no rules and no global state."""

from __future__ import annotations

import contextlib
import logging
import re
from typing import Any

import aiohttp
import discord

from bot.client.binding import bound_items
from bot.client.host import Host
from bot.client.mentions import always_say_whom_to_ping
from bot.client.tree import CommandTree, command_groups
from bot.core.services import Services
from bot.core.tasks import Tasks
from bot.gateway.crowding import warn_if_crowded
from bot.gateway.logins import Logins
from bot.interactions.command_sync import CONTEXTS, INSTALLS, sync_commands
from bot.interactions.translator import CatalogueTranslator
from bot.lobbies.challenges import Challenges
from bot.lobbies.handlers import Lobbies
from bot.notifications.gate import NotificationGate
from bot.notifications.sweep import NotificationSweep
from bot.notifications.unreachable import tell_once
from bot.posting.rest_budget import BudgetShare, GlobalLimit
from bot.seasons.runner import Seasons
from bot.seeks.runner import Seeks
from bot.store.command_copies import CommandCopies
from bot.store.faults import fault_of
from bot.store.identifies import IdentifyLog
from bot.tournaments.runner import Tournaments
from bot.turns.handlers import Turns

log = logging.getLogger(__name__)


def limit_requests(http: discord.http.HTTPClient, limit: GlobalLimit) -> None:
    """Every request of discord.py's HTTP session that Discord counts against the global limit
    waits for ``limit`` as it is sent: after discord.py's own wait for the route's bucket, and
    again for each retry after a 429 (every one reaches Discord and counts). Admitted before
    those waits, as the bot used to, requests held by a bucket all went out together when it
    reset, over the limit. The interaction endpoints (the callback, the interaction's
    webhook) are exempt. Call before login: the session takes the trace when it opens."""
    trace = http.http_trace or aiohttp.TraceConfig()

    async def on_request_start(_session: aiohttp.ClientSession, _context: Any,
                               params: aiohttp.TraceRequestStartParams) -> None:
        if not _EXEMPT.search(params.url.path):
            await limit.acquire()

    trace.on_request_start.append(on_request_start)
    http.http_trace = trace


#: Paths of the interaction endpoints, which Discord's global limit does not bind.
_EXEMPT = re.compile(r"/(interactions|webhooks)/")


class PyramidClient(discord.AutoShardedClient):
    """Runs Discord's gateway shards: the ones the settings name, else every shard
    Discord recommends (``/gateway/bot``: one for a small bot, as before sharding)."""

    def __init__(self, services: Services) -> None:
        # Only what it handles: guilds (channels, threads, roles: permissions and thread states).
        # Interactions come whatever the intents; message events (about 5 a move, mostly about the
        # bot's own posts) would only be received and parsed for nothing.
        intents = discord.Intents.none()
        intents.guilds = True
        settings = services.settings
        if settings.shard_ids is None:
            super().__init__(intents=intents, allowed_mentions=discord.AllowedMentions.none(),
                             shard_count=settings.shard_count)
        else:
            super().__init__(intents=intents, allowed_mentions=discord.AllowedMentions.none(),
                             shard_count=settings.shard_count, shard_ids=list(settings.shard_ids))
        self.services = services
        #: Logging in: the shard count Discord recommends, the day's starts, turns with the other processes.
        self.logins = Logins(IdentifyLog(services.db, services.leases.owner), services.login_policy)
        #: Discord's global limit, kept here (the interaction endpoints, exempt, don't pass it).
        self.rest_limit = GlobalLimit(settings.rest_per_second)
        self.rest_share = BudgetShare(services.leases, self.rest_limit, settings.rest_per_second)
        limit_requests(self.http, self.rest_limit)
        always_say_whom_to_ping(self.http, discord.AllowedMentions.none())
        self.tasks = Tasks()
        #: The notification gate every message that may buzz a player asks (``bot.notifications``).
        self.gate = NotificationGate(services, self)
        self.host = Host.build(services, self, self.tasks, self.gate)
        self.gate.attach(self.host)
        #: The minute's batches and the daily digests (one process at a time).
        self.notify_sweep = NotificationSweep(self.gate)
        lobbies = Lobbies(services, self.host)
        turns = Turns(services, self.host)
        challenges = Challenges(services, self.host, lobbies)
        #: Tournaments (bot/tournaments): each game's end is theirs to follow too.
        self.tournaments = Tournaments(services, self.host, self)
        self.host.announcer.game_ends = (*self.host.announcer.game_ends, self.tournaments)
        #: Open seeks and the queue (bot/seeks): started by a sweep of their own.
        self.seeks = Seeks(services, self.host, self)
        #: Monthly seasons (bot/seasons): the leaderboard on command, the champion's card when a month ends.
        self.seasons = Seasons(services, self)
        self.tree = CommandTree(self, services.languages)
        self.tree.allowed_installs, self.tree.allowed_contexts = INSTALLS, CONTEXTS  # where the commands work
        for group in command_groups(services, self.host, lobbies, turns, challenges, self.tournaments, self.seeks,
                                    self.seasons, self.gate):
            self.tree.add_command(group)
        self._items = bound_items(lobbies, turns, challenges, self.gate, self.tournaments)

    # --- life cycle -------------------------------------------------------------
    async def setup_hook(self) -> None:
        # Discord's limits first: a process that must not log in stops before it syncs or sends anything.
        plan = await self.logins.prepare(self.http.get_bot_gateway, self.shard_count, self.shard_ids)
        self.shard_count = plan.shard_count  # PYRAMID_SHARD_COUNT=auto: Discord's recommendation
        # The games of this process's shards' servers are announced here, moves made from DMs too.
        await self.host.delivery.serve_shards(self.shard_ids or range(plan.shard_count), plan.shard_count)
        self.add_dynamic_items(*self._items)
        try:  # this process's share of the global limit, before the command sync spends some
            await self.rest_share.renew()
        except Exception:
            log.warning("could not take a share of Discord's rate limit yet", exc_info=True)
        self.tasks.spawn(self.rest_share.run())
        # Command names and descriptions in every language we speak, sent with the sync.
        await self.tree.set_translator(CatalogueTranslator(self.services.texts))
        await sync_commands(self.tree, self.services.settings.dev_guild_id, CommandCopies(self.services.db),
                            self.services.command_links)
        # Replaces a one-off "resume": the worker delivers what a stopped bot left
        # queued (a final move included), then whatever becomes due.
        self.tasks.spawn(self.host.delivery.run())
        self.tasks.spawn(self.host.reminders.run())
        self.tasks.spawn(self.notify_sweep.run())
        self.tasks.spawn(self.tournaments.run())
        self.tasks.spawn(self.seeks.run())
        self.tasks.spawn(self.seasons.run())

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Every IDENTIFY waits for its bucket's turn across the processes on the database (``bot.gateway``),
        instead of discord.py's 5 s between this process's own shards."""
        await self.logins.before_identify(shard_id)

    async def on_shard_ready(self, shard_id: int) -> None:
        warn_if_crowded(self.guilds, [shard_id])

    async def on_guild_join(self, guild: discord.Guild) -> None:
        warn_if_crowded(self.guilds, [guild.shard_id])

    def busy(self) -> bool:
        """Background work in flight (announcements, AI turns); tests wait on it."""
        return self.host.delivery.busy()

    async def close(self) -> None:
        await self.tasks.cancel_all()
        with contextlib.suppress(Exception):  # else they expire: the other processes take the games over then
            await self.host.delivery.owners.release()
        await super().close()

    # --- events that may have fixed why an announcement was refused -----------------
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A player using the bot may have opened their DMs since they were found closed;
        and their Discord client's language is noted for what is sent them later (DMs and
        pings from background work), whatever they used."""
        user_id = interaction.user.id
        for what, step in (("the locale", self.services.languages.note(user_id, str(interaction.locale.value))),
                           ("the DM state", self.host.announcer.player_active(user_id)),
                           ("a digest's closed DMs", tell_once(self.gate, interaction))):
            try:
                await step
            except Exception as exc:  # never in the way of the interaction itself
                fault = fault_of(exc)
                if fault is None:
                    log.exception("could not note %s of %s", what, user_id)
                else:  # the interaction meets the same fault and tells the player
                    log.warning("could not note %s of %s: storage %s", what, user_id, fault.value)

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        meta: dict[str, Any] = dict(payload.data.get("thread_metadata") or {})
        archived, locked = bool(meta.get("archived")), bool(meta.get("locked"))
        self.host.channels.thread_changed(payload.thread_id, archived=archived, locked=locked,
                                          parent_id=payload.parent_id)
        if not locked:
            causes = ["thread_locked"] if archived else ["thread_locked", "thread_archived"]
            await self.host.delivery.retry_blocked(channel_id=payload.thread_id, causes=causes)

    async def on_guild_channel_update(self, before: Any, after: Any) -> None:
        await self.host.delivery.retry_blocked(causes=["missing_permissions", "missing_access"])

    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        await self.host.delivery.retry_blocked(causes=["missing_permissions", "missing_access"])
