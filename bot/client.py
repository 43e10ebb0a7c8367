"""The Discord client: wires commands, components and background work to the
services it is given. It holds no rules and no global state."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands

from bot.announcer import Announcer
from bot.commands import build_group
from bot.controls import Control
from bot.games import presenter
from bot.replies import tell
from bot.services import Services
from bot.sessions import PlayError, Session
from bot.store import GameRecord

log = logging.getLogger(__name__)


class Tree(app_commands.CommandTree[Any]):
    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, PlayError):
            await tell(interaction, f"❌ {original}")
            return
        log.exception("command %s failed", interaction.command and interaction.command.qualified_name,
                      exc_info=original)
        await tell(interaction, "❌ Something went wrong on my side; nothing was changed. Please try again.")


class PyramidClient(discord.Client):
    def __init__(self, services: Services) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        intents.guild_messages = True
        intents.dm_messages = True
        super().__init__(intents=intents, allowed_mentions=discord.AllowedMentions.none())
        self.services = services
        self.tree = Tree(self)
        self.tree.add_command(build_group())
        self.announcer = Announcer(self)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._ai_pending: dict[int, asyncio.Task[Any]] = {}
        self._resuming: asyncio.Task[Any] | None = None
        self._ai_running = 0
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
        self._resuming = self.spawn(self.resume())
        self.spawn(self.reminders.run())

    def busy(self) -> bool:
        """Background work in flight (AI turns, resuming after a start); tests wait on it."""
        resuming = self._resuming is not None and not self._resuming.done()
        return resuming or self._ai_running > 0

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

    async def resume(self) -> None:
        """After a (re)start: announce moves that were written but never shown, and
        restart AI turns that were due."""
        games = await self.services.store.games_where("status = 'active'")
        for record in games:
            try:
                await self.announcer.announce(record.id)
            except Exception:  # one broken game must not stop the others resuming
                log.exception("could not resume game %s", record.id)

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
    def schedule_ai(self, session: Session) -> None:
        seat = session.to_act
        record = session.seat(seat) if seat is not None else None
        if record is None or not record.is_ai or session.over:
            return
        game_id = session.record.id
        pending = self._ai_pending.get(game_id)
        if pending is not None and not pending.done():
            return
        self._ai_pending[game_id] = self.spawn(self._ai_turn(game_id, session.version))

    async def _ai_turn(self, game_id: int, version: int) -> None:
        from bot.background import play_ai_turn

        self._ai_running += 1
        try:
            await asyncio.sleep(self.services.settings.ai_delay_seconds)
            moved = await play_ai_turn(self, game_id, version)
            # Free the slot before announcing: the announcement schedules the next AI turn.
            self._ai_pending.pop(game_id, None)
            if moved:
                await self.announcer.announce(game_id)
        except Exception:
            log.exception("AI turn in game %s failed", game_id)
        finally:
            if self._ai_pending.get(game_id) is asyncio.current_task():
                self._ai_pending.pop(game_id, None)
            self._ai_running -= 1

    async def ai_idle(self) -> None:
        """Wait until no AI turn is pending (tests use this to stay deterministic)."""
        while self._ai_running or any(not t.done() for t in self._ai_pending.values()):
            await asyncio.sleep(0.01)

    # --- endings -------------------------------------------------------------------
    async def on_game_finished(self, session: Session) -> None:
        if session.record.challenge_id is not None:
            from bot.challenges import refresh_leaderboard

            await refresh_leaderboard(self, session.record.challenge_id)

    async def resign(self, game_id: int, user_id: int, *, reason: str) -> str:
        from bot.background import resign_seat

        return await resign_seat(self, game_id, user_id, reason=reason)
