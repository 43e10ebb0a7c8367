"""The Discord client: wires commands, components and background work to the
services it is given. It holds no rules and no global state."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands

from bot.announcer import Announcer
from bot.commands import build_groups
from bot.controls import Control
from bot.delivery import Delivery
from bot.games import presenter
from bot.notices import BlockedNotices
from bot.outbox import ai_to_act
from bot.replies import tell
from bot.rescue import ThreadRescue
from bot.services import Services
from bot.sessions import PlayError, Session
from bot.store import GameRecord
from bot.store.outbox import Announcement

log = logging.getLogger(__name__)


class Tree(app_commands.CommandTree[Any]):
    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, PlayError):
            await tell(interaction, f"❌ {original}")
            return
        log.exception("command %s failed", interaction.command and interaction.command.qualified_name,
                      exc_info=original)
        # Not "nothing was changed": the failure may come after a move was saved (it then counts).
        await tell(interaction, "❌ Something went wrong on my side. `/pyramid status` shows where the game "
                                "stands; if your move is not there, please try again.")


class PyramidClient(discord.Client):
    def __init__(self, services: Services) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        intents.guild_messages = True
        intents.dm_messages = True
        super().__init__(intents=intents, allowed_mentions=discord.AllowedMentions.none())
        self.services = services
        self.tree = Tree(self)
        for group in build_groups():  # /pyramid and /pyramid-admin
            self.tree.add_command(group)
        self.announcer = Announcer(self)
        self.delivery = Delivery(self)
        self.notices = BlockedNotices(self)
        self.rescue = ThreadRescue(self)
        self._tasks: set[asyncio.Task[Any]] = set()
        from bot.background import Reminders

        self.reminders = Reminders(self)

    # --- life cycle -------------------------------------------------------------
    async def setup_hook(self) -> None:
        self.add_dynamic_items(Control)
        guild_id = self.services.settings.dev_guild_id
        try:
            if guild_id:
                guild = discord.Object(guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            else:
                await self.tree.sync()
        except discord.HTTPException as exc:
            log.error("could not sync slash commands: %s", exc)
        # Replaces a one-off "resume": the worker delivers what a stopped bot left
        # queued (a final move included), then whatever becomes due.
        self.spawn(self.delivery.run())
        self.spawn(self.reminders.run())

    def busy(self) -> bool:
        """Background work in flight (announcements, AI turns); tests wait on it."""
        return self.delivery.busy()

    def spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await super().close()

    # --- events that may have fixed why an announcement was refused -----------------
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A player using the bot may have opened their DMs since they were found closed."""
        try:
            await self.announcer.player_active(interaction.user.id)
        except Exception:  # never in the way of the interaction itself
            log.exception("could not refresh the DM state of %s", interaction.user.id)

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        meta: dict[str, Any] = dict(payload.data.get("thread_metadata") or {})
        archived, locked = bool(meta.get("archived")), bool(meta.get("locked"))
        self.announcer.thread_changed(payload.thread_id, archived=archived, locked=locked, parent_id=payload.parent_id)
        if not locked:
            causes = ["thread_locked"] if archived else ["thread_locked", "thread_archived"]
            await self.delivery.retry_blocked(channel_id=payload.thread_id, causes=causes)

    async def on_guild_channel_update(self, before: Any, after: Any) -> None:
        await self.delivery.retry_blocked(causes=["missing_permissions", "missing_access"])

    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        await self.delivery.retry_blocked(causes=["missing_permissions", "missing_access"])

    # --- where games are played -----------------------------------------------
    async def open_play_space(
        self, interaction: discord.Interaction[Any], record: GameRecord, *, solo: bool
    ) -> int | None:
        """A thread for the game, unless the server plays in channels; None means
        'play right here'."""
        if record.guild_id is None:
            return None
        settings = await self.services.store.guild_settings(record.guild_id)
        if not settings.use_threads:
            return None
        p = presenter(record.kind)
        name = f"{p.title} #{record.id}"
        if solo:
            name += f" – {interaction.user.display_name}"
        channel = interaction.channel
        try:
            if not solo and interaction.message is not None and isinstance(channel, discord.TextChannel):
                thread = await interaction.message.create_thread(name=name[:100], auto_archive_duration=10080)
            elif isinstance(channel, discord.TextChannel):
                thread = await channel.create_thread(
                    name=name[:100], type=discord.ChannelType.public_thread, auto_archive_duration=10080
                )
            else:
                return None
        except discord.HTTPException as exc:
            log.warning("could not open a thread for game %s (%s); playing in the channel", record.id, exc)
            return None
        return thread.id

    # --- AI seats ----------------------------------------------------------------
    async def schedule_ai(self, session: Session) -> None:
        """An AI took the seat to act outside a move (a timeout, a resignation): queue
        its turn durably, as a move would have, and let the worker start it."""
        if not ai_to_act(session):
            return
        await self.services.store.outbox.enqueue(
            session.record.id, [Announcement(kind="ai", version=session.version)], reopen=True
        )
        self.delivery.kick()

    async def ai_idle(self) -> None:
        """Wait until no announcement or AI turn is in flight (tests use this to stay deterministic)."""
        await self.delivery.idle()

    # --- endings -------------------------------------------------------------------
    async def on_game_finished(self, session: Session) -> None:
        if session.record.challenge_id is not None:
            from bot.challenges import refresh_leaderboard

            await refresh_leaderboard(self, session.record.challenge_id)

    async def resign(self, game_id: int, user_id: int, *, reason: str) -> str:
        from bot.background import resign_seat

        return await resign_seat(self, game_id, user_id, reason=reason)
