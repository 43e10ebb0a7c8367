"""The test-facing API: act as Discord users against a real discord.py bot connected to the emulator.

    # the factory returns any object with start(token)/close()/wait_until_ready(), e.g. a discord.Client
    async def make_bot(api_base_url: str, token: str) -> discord.Client:
        configure_api_base(api_base_url)
        return MyBot(...)

    harness = Harness(emu, make_bot)
    alice = await harness.add_user("alice")
    await harness.start_bot()
    res = await harness.slash(alice, emu.general, "pyramid new", game="flaming-pyramids")
    await harness.click(alice, res.message, label="Join")
    await harness.restart_bot()      # fresh client from the factory; old messages and their buttons stay

Every action waits properly: until the interaction is answered, then until the bot is idle (no request in flight
and no discord.py handler task running), so assertions right after an ``await`` see the final state.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import aiohttp

from . import permissions as P
from .gateway import GUILD_PRESENCES
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    HarnessError,
    build_command_data,
    button_data,
    check_command_available,
    dispatch_interaction,
    find_button,
    find_command,
    find_select,
    modal_submit_data,
    select_data,
)
from .messages import announce_create, create_message
from .model import (
    MEMBER_OVERWRITE,
    ROLE_OVERWRITE,
    Attachment,
    Channel,
    Guild,
    Interaction,
    Message,
    Overwrite,
    Role,
    User,
)
from .server import Emulator

JSON = dict[str, Any]

# Tasks discord.py creates to run handlers: while one of these is alive the bot is still working.
BUSY_TASK_PREFIXES: tuple[str, ...] = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-dynamic-item-",
    "discord-ui-modal-dispatch-",
    "discord.py: on_",
)


class BotHandle(Protocol):
    """What the harness needs from a bot; ``discord.Client`` satisfies it as is."""

    async def start(self, token: str) -> None: ...  # runs until closed

    async def close(self) -> None: ...

    async def wait_until_ready(self) -> None: ...


BotFactory = Callable[[str, str], Awaitable[BotHandle]]  # (api_base_url, token) -> a fresh, not yet started bot


class InteractionNotAnswered(AssertionError):
    """The bot did not give a valid initial response (too late, rejected, or never)."""


@dataclass
class InteractionResult:
    """What a user saw after an interaction. Message properties read the live state (edits show up)."""

    harness: Harness
    interaction: Interaction

    @property
    def answered(self) -> bool:
        return self.interaction.responded

    @property
    def response_type(self) -> int | None:
        return self.interaction.response_type

    @property
    def deferred(self) -> bool:
        return self.interaction.response_type in (5, 6)

    @property
    def rejected(self) -> list[str]:
        """Rules (or error messages) of the bot's refused response attempts."""
        return list(self.interaction.rejected)

    @property
    def message(self) -> Message | None:
        """The response message: the new message (reply / deferred reply) or the updated component message."""
        mid = self.interaction.original_message_id
        return self.harness.world.messages.get(mid) if mid is not None else None

    @property
    def followups(self) -> list[Message]:
        return [self.harness.world.messages[i] for i in self.interaction.followup_ids]

    @property
    def messages(self) -> list[Message]:
        """Response message (if the response created one) then follow-ups."""
        out = [self.message] if self.message is not None and self.interaction.response_type in (4, 5) else []
        return [m for m in out + self.followups if not m.deleted]

    @property
    def last(self) -> Message:
        msgs = self.messages or ([self.message] if self.message is not None else [])
        if not msgs:
            raise HarnessError(f"interaction {self.interaction.id} produced no message")
        return msgs[-1]

    @property
    def choices(self) -> list[JSON]:
        return list(self.interaction.choices or [])

    @property
    def modal(self) -> JSON | None:
        return self.interaction.modal

    def _msg(self) -> Message:
        if self.message is None:
            raise HarnessError(f"interaction {self.interaction.id} has no response message")
        return self.message

    @property
    def content(self) -> str:
        return self._msg().content

    @property
    def text(self) -> str:
        return self._msg().text

    @property
    def embeds(self) -> list[JSON]:
        return self._msg().embeds

    @property
    def components(self) -> list[JSON]:
        return self._msg().components

    @property
    def attachments(self) -> list[Attachment]:
        return self._msg().attachments

    @property
    def ephemeral(self) -> bool:
        return self._msg().ephemeral

    @property
    def is_card(self) -> bool:
        return self._msg().is_card

    def text_displays(self) -> list[str]:
        return self._msg().text_displays()


class _ErrorCapture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


SETTLE_CEILING = 900.0
"""However much progress it makes, a bot busy this long without a pause is looping: settle gives up."""


class Harness:
    def __init__(
        self,
        emulator: Emulator,
        bot_factory: BotFactory,
        *,
        ready_timeout: float = 120.0,
        settle_timeout: float = 120.0,
        quiet: float = 0.03,
        deferral_grace: float = 1.0,
        busy_task_prefixes: tuple[str, ...] = BUSY_TASK_PREFIXES,
        busy_check: Callable[[BotHandle], bool] | None = None,
        guild_ready_timeout: float | None = 0.05,
        error_loggers: tuple[str, ...] = ("discord", "emulator", "aiohttp.server", "aiohttp.web"),
    ) -> None:
        self.emulator = self.emu = emulator
        self.world = emulator.world
        self.bot_factory = bot_factory
        self.ready_timeout = ready_timeout
        self.settle_timeout = settle_timeout
        self.quiet = quiet
        self.deferral_grace = deferral_grace
        self.busy_task_prefixes = busy_task_prefixes
        self.busy_check = busy_check
        self.guild_ready_timeout = guild_ready_timeout
        self.bot: BotHandle | None = None
        self.starts = 0
        self._bot_task: asyncio.Task[None] | None = None
        self._extra: list[tuple[BotHandle, asyncio.Task[None]]] = []
        self._capture = _ErrorCapture()
        self._loggers = [logging.getLogger(name) for name in error_loggers]
        for lg in self._loggers:
            lg.addHandler(self._capture)
        self._session: aiohttp.ClientSession | None = None

    # --- lifecycle ----------------------------------------------------------------------------------------------

    @property
    def extra_bots(self) -> list[BotHandle]:
        """The bots started with ``start_extra_bot``, still running."""
        return [handle for handle, _ in self._extra]

    @property
    def bots(self) -> list[BotHandle]:
        """Every running bot: the one from ``start_bot`` first, then the extra ones."""
        return ([self.bot] if self.bot is not None else []) + self.extra_bots

    async def start_bot(self) -> BotHandle:
        """Create a bot from the factory, start it, and wait until it is READY and idle."""
        if self.bot is not None:
            raise HarnessError("the bot is already running")
        self.bot, self._bot_task = await self._launch(self.bot_factory)
        self.starts += 1
        await self.settle()
        return self.bot

    async def start_extra_bot(self, factory: BotFactory) -> BotHandle:
        """Start another bot next to the running ones, from its own ``factory``, and wait until it is READY and
        idle: the other process of a sharded bot (e.g. one ``discord.AutoShardedClient(shard_count=2,
        shard_ids=[1])`` next to another with ``[0]``). Stop it with ``stop_extra_bot``; ``close`` stops it too."""
        handle, task = await self._launch(factory)
        self._extra.append((handle, task))
        await self.settle()
        return handle

    async def stop_extra_bot(self, handle: BotHandle) -> None:
        """Close one bot started with ``start_extra_bot`` (like stopping that process); the others keep running."""
        for i, (h, task) in enumerate(self._extra):
            if h is handle:
                del self._extra[i]
                await self._stop(h, task)
                return
        raise HarnessError("that bot was not started with start_extra_bot, or is already stopped")

    async def _launch(self, factory: BotFactory) -> tuple[BotHandle, asyncio.Task[None]]:
        handle = await factory(self.emu.base_url, self.emu.token)
        client = getattr(handle, "client", handle)  # a wrapper may hold the discord.Client as .client
        state: Any = getattr(client, "_connection", None)
        if self.guild_ready_timeout is not None and hasattr(state, "guild_ready_timeout"):
            # discord.py dispatches READY only after guild_ready_timeout (2 s) without a GUILD_CREATE; the emulator
            # sends them all at once, so a short wait is enough and keeps every (re)start fast.
            state.guild_ready_timeout = self.guild_ready_timeout
        identified = self.emu.gateway.wait_identify()
        task: asyncio.Task[None] = asyncio.create_task(self._run(handle), name="emulator-harness-bot")
        try:
            await self._wait_startup(task, identified)
            await self._wait_startup(task, asyncio.ensure_future(handle.wait_until_ready()))
        except BaseException:
            await self._abort(handle, task)
            raise
        return handle, task

    async def _run(self, handle: BotHandle) -> None:
        await handle.start(self.emu.token)

    async def _wait_startup(self, task: asyncio.Task[None], fut: asyncio.Future[Any]) -> None:
        done, _ = await asyncio.wait({task, fut}, timeout=self.ready_timeout, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            fut.cancel()
            exc = task.exception()
            raise HarnessError(f"the bot stopped during startup: {exc!r}") from exc
        if fut not in done:
            fut.cancel()
            raise HarnessError(f"the bot was not ready within {self.ready_timeout}s")
        fut.result()

    async def _abort(self, handle: BotHandle, task: asyncio.Task[None]) -> None:
        with contextlib.suppress(Exception):
            await handle.close()
        if not task.done():
            task.cancel()
        with contextlib.suppress(BaseException):
            await task

    async def stop_bot(self) -> None:
        """Close the bot from ``start_bot`` (like stopping its process). Its gateway sessions end; extra bots keep
        running."""
        handle, task = self.bot, self._bot_task
        self.bot, self._bot_task = None, None
        if handle is None or task is None:
            return
        await self._stop(handle, task)

    async def _stop(self, handle: BotHandle, task: asyncio.Task[None]) -> None:
        # discord.py closes with 1000, which ends its sessions once the emulator has read the close; ending them here
        # makes that immediate. With other bots running, only this bot's sessions end (a bot that is not an
        # in-process discord.py client has none the harness can tell apart: its clean close ends them).
        mine = {ws.session_id for ws in _websockets(handle)}
        await handle.close()
        try:
            await asyncio.wait_for(task, timeout=60)
        except TimeoutError:
            task.cancel()
        others = bool(self.bots)
        for session in self.emu.gateway.sessions.values():
            if not others or session.id in mine:
                session.alive = False

    async def restart_bot(self) -> BotHandle:
        """Stop the bot and start a fresh one from the factory (same emulator state, same token)."""
        await self.settle()
        await self.stop_bot()
        return await self.start_bot()

    async def close(self) -> None:
        await self.stop_bot()
        while self._extra:
            handle, task = self._extra.pop()
            await self._stop(handle, task)
        for lg in self._loggers:
            lg.removeHandler(self._capture)
        if self._session is not None:
            await self._session.close()

    async def __aenter__(self) -> Harness:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # --- errors logged by the bot (discord.py logs handler exceptions at ERROR) ----------------------------------

    @property
    def bot_errors(self) -> list[logging.LogRecord]:
        return self._capture.records

    @contextlib.contextmanager
    def expect_bot_error(self, fragment: str = "") -> Iterator[None]:
        """The block must make the bot log an error (containing ``fragment``); it is then not reported."""
        start = len(self._capture.records)
        yield
        new = self._capture.records[start:]
        hits = [r for r in new if fragment in _format_record(r)]
        if not hits:
            raise AssertionError(f"expected the bot to log an error containing {fragment!r}; got {len(new)} others")
        for r in hits:
            self._capture.records.remove(r)

    def assert_no_bot_errors(self) -> None:
        if self._capture.records:
            text = "\n".join(_format_record(r) for r in self._capture.records)
            raise AssertionError(f"the bot logged errors:\n{text}")

    # --- world setup --------------------------------------------------------------------------------------------

    @property
    def guild(self) -> Guild:
        return self.emu.guild

    async def add_user(
        self,
        username: str,
        *,
        dms_open: bool = True,
        guild: Guild | None = None,
        permissions: int | None = None,
        roles: list[Role] | None = None,
        locale: str | None = None,
    ) -> User:
        """A user who is a member of ``guild`` (default: the emulator's guild). Their permissions there are
        @everyone's plus a role with ``permissions`` (default: everything but ADMINISTRATOR, as a moderator has;
        pass less, e.g. without MANAGE_GUILD, to test admin-only commands), or exactly the ``roles`` given.
        ``locale`` is their Discord client's language (default ``en-US``), sent with their interactions."""
        user = self.world.add_user(username, dms_open=dms_open)
        if locale is not None:
            user.locale = locale
        if permissions is not None:
            user.permissions = permissions
        g = guild or self.emu.guild
        self.world.add_member(g, user, roles=roles)
        await self.emu.gateway.dispatch(
            "GUILD_MEMBER_ADD", {**self.world.member_payload(g, user), "guild_id": str(g.id)}
        )
        return user

    async def add_guild(
        self,
        name: str,
        *,
        members: list[User] | None = None,
        shard: int | tuple[int, int] | None = None,
        bot: bool = True,
    ) -> Guild:
        """Another guild with the bot, the given users and a #general channel (GUILD_CREATE is dispatched to the
        sessions of its shard). ``shard``: its id lands on that shard, ``(id >> 22) % shard_count == shard_id``,
        given as ``shard_id`` (of the emulator's ``shard_count``) or ``(shard_id, shard_count)``. ``bot=False``: a
        guild the app is not installed to (its members reach it only through their own user install)."""
        where = (shard, self.emu.shard_count) if isinstance(shard, int) else shard
        if where is not None and not 0 <= where[0] < where[1]:
            raise HarnessError(f"there is no shard {where[0]} of {where[1]}")
        guild = self.world.add_guild(name, shard=where, bot=bot)
        for user in members or []:
            self.world.add_member(guild, user)
        self.world.add_channel(guild, "general")
        if not bot:
            return guild
        for session in self.emu.gateway.sessions_for(guild.id):
            payload = self.world.guild_payload(guild, all_members=bool(session.intents & GUILD_PRESENCES))
            await self.emu.gateway.send_event(session, "GUILD_CREATE", payload)
        return guild

    async def remove_member(self, user: User, guild: Guild | None = None) -> None:
        """``user`` leaves ``guild`` (default: the emulator's), as a member who leaves or is kicked:
        GUILD_MEMBER_REMOVE goes to sessions with the members intent only, as on Discord."""
        g = guild or self.emu.guild
        if user.id in g.member_ids:
            g.member_ids.remove(user.id)
        g.member_roles.pop(user.id, None)
        await self.emu.gateway.dispatch("GUILD_MEMBER_REMOVE", {"guild_id": str(g.id), "user": user.payload()})

    def add_group_dm(self, *users: User) -> Channel:
        """A group DM of ``users``. No bot is ever in one: the app reaches it only through the interactions of
        users who installed it to themselves (:meth:`install_app`)."""
        if len(users) < 2:
            raise HarnessError("a group DM has at least two users")
        return self.world.add_group_dm(list(users))

    def install_app(self, user: User) -> None:
        """``user`` adds the app to their account (user install): its user-installable commands follow them into
        every guild, DM and group DM."""
        if 1 not in self.world.app_integration_types:
            raise HarnessError("the app does not offer user install (World.app_integration_types)")
        self.world.user_installs.add(user.id)

    async def add_channel(self, name: str, *, guild: Guild | None = None, topic: str | None = None) -> Channel:
        channel = self.world.add_channel(guild or self.emu.guild, name, topic=topic)
        await self.emu.gateway.dispatch("CHANNEL_CREATE", self.world.channel_payload(channel))
        return channel

    def channel(self, name: str, *, guild: Guild | None = None) -> Channel:
        g = guild or self.emu.guild
        for cid in g.channel_ids:
            if self.world.channels[cid].name == name:
                return self.world.channels[cid]
        raise HarnessError(f"no channel #{name} in {g.name}")

    def dm_channel(self, user: User) -> Channel:
        channel = self.world.dm_channel(user)
        assert channel is not None
        return channel

    async def set_thread_state(
        self, thread: Channel, *, archived: bool | None = None, locked: bool | None = None
    ) -> None:
        """Archive/lock a thread as a moderator would."""
        t = self.world.now()
        if archived is not None and archived != thread.archived:
            thread.archived = archived
            thread.archive_timestamp = t
            if not archived:
                thread.active_since = t
        if locked is not None:
            thread.locked = locked
        await self.emu.gateway.dispatch("THREAD_UPDATE", self.world.channel_payload(thread))
        await self.sync_gateway()

    async def delete_thread(self, thread: Channel) -> None:
        """Delete a thread as a moderator would (THREAD_DELETE; afterwards its routes answer 10003 Unknown Channel)."""
        if not thread.is_thread:
            raise HarnessError(f"{thread!r} is not a thread")
        del self.world.channels[thread.id]
        data = {"id": str(thread.id), "guild_id": str(thread.guild_id), "parent_id": str(thread.parent_id)}
        await self.emu.gateway.dispatch("THREAD_DELETE", {**data, "type": thread.type})
        await self.sync_gateway()

    async def sync_gateway(self, timeout: float = 60.0) -> None:
        """Wait until the bot has read every gateway event dispatched so far (an in-process discord.py client:
        its ``ws.sequence``), then settle: state changes made through the gateway are visible to the bot."""
        targets = {s.id: s.seq for s in self.emu.gateway.connected_sessions}
        loop = asyncio.get_running_loop()
        limit = loop.time() + timeout
        while loop.time() < limit and self._behind(targets):
            await asyncio.sleep(0.002)
        await self.settle()

    def _behind(self, targets: Mapping[str, int]) -> bool:
        """Whether a running bot's websocket has not yet read up to ``targets`` (session id -> sequence number).
        Sessions no running bot's websocket is on (a raw client, a reconnect in progress) are left to settling."""
        for handle in self.bots:
            for ws in _websockets(handle):
                target = targets.get(getattr(ws, "session_id", None) or "")
                if target is not None and int(getattr(ws, "sequence", None) or 0) < target:
                    return True
        return False

    async def advance(self, **delta: float) -> list[Channel]:
        """Move the emulator's clock (``minutes=61``); returns the threads that auto-archived meanwhile."""
        archived = await self.emu.advance(**delta)
        await self.sync_gateway()
        return archived

    # --- roles and permissions (as a server admin changes them: the bot is told through the gateway) ------------

    def bot_role(self, guild: Guild | None = None) -> Role:
        g = guild or self.emu.guild
        role = g.bot_role(self.world.bot.id)
        if role is None:
            raise HarnessError(f"the bot has no role in {g.name}")
        return role

    async def set_bot_permission(self, where: Channel | Guild | None, permission: str, allowed: bool | None) -> None:
        """Grant (True), deny (False) or reset (None) one permission ("attach_files", "embed_links", ...) of the bot.

        ``where`` a channel: a member overwrite for the bot on it (a thread's parent: threads have no overwrites of
        their own), CHANNEL_UPDATE is dispatched; None resets that bit of the overwrite. ``where`` a guild (or None:
        the emulator's guild): the bot's own role changes, GUILD_ROLE_UPDATE is dispatched; None resets the bit to
        the invite's default."""
        bit = P.bit(permission)
        if isinstance(where, Channel):
            target = self.world.overwrite_target(where)
            ow = target.overwrites.get(self.world.bot.id) or Overwrite(self.world.bot.id, MEMBER_OVERWRITE)
            ow.allow &= ~bit
            ow.deny &= ~bit
            if allowed is True:
                ow.allow |= bit
            elif allowed is False:
                ow.deny |= bit
            await self._put_overwrite(target, ow)
            return
        guild = where or self.emu.guild
        role = self.bot_role(guild)
        value = role.permissions & ~bit
        if allowed is True or (allowed is None and P.DEFAULT_BOT & bit):
            value |= bit
        await self.set_role_permissions(role, value, guild=guild)

    async def set_overwrite(
        self,
        channel: Channel,
        target: User | Role,
        *,
        allow: int | list[str] = 0,
        deny: int | list[str] = 0,
    ) -> None:
        """Replace the overwrite of ``target`` (a member or a role; the guild's @everyone role is ``bot_role``'s
        guild ``.everyone``) on ``channel`` (a thread's parent), as a server admin would; 0/0 removes it."""
        kind = MEMBER_OVERWRITE if isinstance(target, User) else ROLE_OVERWRITE
        ow = Overwrite(target.id, kind, P.value_of(allow), P.value_of(deny))
        await self._put_overwrite(self.world.overwrite_target(channel), ow)

    async def _put_overwrite(self, channel: Channel, ow: Overwrite) -> None:
        if ow.allow or ow.deny:
            channel.overwrites[ow.id] = ow
        else:
            channel.overwrites.pop(ow.id, None)
        self.emu.notify()
        await self.emu.gateway.dispatch("CHANNEL_UPDATE", self.world.channel_payload(channel))
        await self.sync_gateway()

    async def add_role(
        self, name: str, permissions: int | list[str], *, members: list[User] | None = None, guild: Guild | None = None
    ) -> Role:
        """A new role (GUILD_ROLE_CREATE), given to ``members`` on top of their roles (GUILD_MEMBER_UPDATE)."""
        g = guild or self.emu.guild
        role = self.world.add_role(g, name, P.value_of(permissions))
        await self.emu.gateway.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(g.id), "role": role.payload()})
        for user in members or []:
            g.member_roles.setdefault(user.id, []).append(role.id)
            await self.emu.gateway.dispatch(
                "GUILD_MEMBER_UPDATE", {**self.world.member_payload(g, user), "guild_id": str(g.id)}
            )
        await self.sync_gateway()
        return role

    async def set_role_permissions(
        self, role: Role, permissions: int | list[str], *, guild: Guild | None = None
    ) -> None:
        """Change a role's permissions (the guild's @everyone role is ``guild.everyone``); GUILD_ROLE_UPDATE."""
        g = guild or next((x for x in self.world.guilds.values() if role.id in x.roles), self.emu.guild)
        role.permissions = P.value_of(permissions)
        self.emu.notify()
        await self.emu.gateway.dispatch("GUILD_ROLE_UPDATE", {"guild_id": str(g.id), "role": role.payload()})
        await self.sync_gateway()

    def bot_permissions(self, channel: Channel) -> list[str]:
        """The bot's permissions in ``channel`` as the emulator enforces them (names, for assertions)."""
        return P.names(self.world.permissions(self.world.bot, channel))

    # --- user actions -------------------------------------------------------------------------------------------

    async def slash(
        self,
        user: User,
        channel: Channel,
        command: str,
        /,
        options: Mapping[str, Any] | None = None,
        *,
        settle: bool = True,
        check: bool = True,
        locale: str | None = None,
        **kw_options: Any,
    ) -> InteractionResult:
        """Run ``/command [group] [subcommand]`` with options (kwargs, or ``options=`` for names with dashes).

        The user's client speaks ``locale`` (default: ``user.locale``): the interaction carries it, and commands,
        subcommands, options and choices may be named as that client shows them (``harness.slash(ana, channel,
        "pyramide neu", spiel="pyramido", locale="de")``), as well as by their own names."""
        locale = locale or user.locale
        parts = command.lstrip("/").split()
        cmd = find_command(self.emu, channel, parts[0], locale=locale)
        check_command_available(self.emu, cmd, user, channel)
        opts = {**(options or {}), **kw_options}
        data = build_command_data(
            self.emu, cmd, parts[1:], opts, guild_id=channel.guild_id, invoker=user, where=channel, locale=locale
        )
        inter = await dispatch_interaction(
            self.emu, type=APPLICATION_COMMAND, user=user, channel=channel, data=data, locale=locale
        )
        return await self._finish(inter, settle=settle, check=check, what=f"/{command}")

    async def autocomplete(
        self,
        user: User,
        channel: Channel,
        command: str,
        option: str,
        value: str,
        /,
        options: Mapping[str, Any] | None = None,
        locale: str | None = None,
        **kw_options: Any,
    ) -> list[JSON]:
        """Type ``value`` into ``option`` of ``/command``; returns the choices the bot offered. Names may be
        localized as for :meth:`slash`."""
        locale = locale or user.locale
        parts = command.lstrip("/").split()
        cmd = find_command(self.emu, channel, parts[0], locale=locale)
        check_command_available(self.emu, cmd, user, channel)
        opts = {**(options or {}), **kw_options, option: value}
        data = build_command_data(
            self.emu,
            cmd,
            parts[1:],
            opts,
            guild_id=channel.guild_id,
            focused=option,
            invoker=user,
            where=channel,
            locale=locale,
        )
        inter = await dispatch_interaction(
            self.emu, type=AUTOCOMPLETE, user=user, channel=channel, data=data, locale=locale
        )
        result = await self._finish(inter, settle=True, check=True, what=f"autocomplete /{command} {option}")
        return result.choices

    async def click(
        self,
        user: User,
        message: Message,
        *,
        label: str | None = None,
        custom_id: str | None = None,
        emoji: str | None = None,
        settle: bool = True,
        check: bool = True,
        locale: str | None = None,
    ) -> InteractionResult:
        """Click a button (found by label, custom_id or emoji) on a message ``user`` can see (their client in
        ``locale``, default ``user.locale``)."""
        message = self._visible(user, message)
        button = find_button(message, label=label, custom_id=custom_id, emoji=emoji)
        data = button_data(button)
        return await self._component(
            user, message, data, settle=settle, check=check, what=f"click {label or custom_id}", locale=locale
        )

    async def select(
        self,
        user: User,
        message: Message,
        custom_id: str | None = None,
        values: list[Any] | None = None,
        *,
        settle: bool = True,
        check: bool = True,
        locale: str | None = None,
    ) -> InteractionResult:
        """Choose ``values`` (option values or labels; Users/Channels for those selects) in a select menu."""
        message = self._visible(user, message)
        select = find_select(message, custom_id)
        channel = self.world.channels[message.channel_id]
        data = select_data(self.emu, select, list(values or []), channel.guild_id)
        return await self._component(
            user, message, data, settle=settle, check=check, what=f"select {custom_id}", locale=locale
        )

    async def submit_modal(
        self,
        user: User,
        opened_by: InteractionResult,
        values: Mapping[str, Any],
        *,
        settle: bool = True,
        check: bool = True,
    ) -> InteractionResult:
        """Fill in and submit the modal the bot answered ``opened_by`` with (``values``: custom_id -> text)."""
        modal = opened_by.modal
        if modal is None:
            raise HarnessError("that interaction was not answered with a modal")
        source = opened_by.interaction
        if source.user_id != user.id:
            raise HarnessError("only the user the modal was shown to can submit it")
        data = modal_submit_data(modal, values, self.emu, source.channel_id)
        channel = self.world.channels[source.channel_id]
        message = self.world.messages.get(source.message_id) if source.message_id is not None else None
        inter = await dispatch_interaction(
            self.emu,
            type=MODAL_SUBMIT,
            user=user,
            channel=channel,
            data=data,
            message=message,
            locale=source.payload.get("locale"),
        )
        return await self._finish(inter, settle=settle, check=check, what=f"modal {modal.get('custom_id')}")

    async def say(self, user: User, channel: Channel, content: str) -> Message:
        """Post a plain message as ``user`` (MESSAGE_CREATE reaches the bot per its intents). In an archived thread
        this unarchives it (THREAD_UPDATE), as Discord does; a locked thread takes posts from moderators only."""
        if not self.world.can_access(user, channel):
            raise HarnessError(f"{user.username} cannot see {channel!r}")
        if channel.guild_id is not None:
            perms = self.world.permissions(user, channel)
            needed = P.SEND_MESSAGES_IN_THREADS if channel.is_thread else P.SEND_MESSAGES
            if not perms & needed:
                raise HarnessError(f"{user.username} may not post in {channel!r}")
            if channel.is_thread and channel.locked and not perms & P.MANAGE_THREADS:
                raise HarnessError(f"{channel!r} is locked: only moderators post there")
        msg = create_message(self.emu, channel, user, {"content": content}, [])
        await announce_create(self.emu, msg)
        await self.settle()
        return msg

    def _visible(self, user: User, message: Message) -> Message:
        current = self.world.messages.get(message.id)
        if current is None or not self.world.can_see(user, current):
            raise HarnessError(
                f"{user.username} cannot see {message!r} (deleted, ephemeral for someone else, or private)"
            )
        return current

    async def _component(
        self,
        user: User,
        message: Message,
        data: JSON,
        *,
        settle: bool,
        check: bool,
        what: str,
        locale: str | None = None,
    ) -> InteractionResult:
        channel = self.world.channels[message.channel_id]
        inter = await dispatch_interaction(
            self.emu, type=MESSAGE_COMPONENT, user=user, channel=channel, data=data, message=message, locale=locale
        )
        return await self._finish(inter, settle=settle, check=check, what=what)

    async def _finish(self, inter: Interaction, *, settle: bool, check: bool, what: str) -> InteractionResult:
        loop = asyncio.get_running_loop()
        while not inter.answered.is_set():
            if loop.time() > inter.deadline and not inter.callbacks_in_flight:
                if "interaction-deadline" not in inter.rejected:
                    inter.rejected.append("interaction-deadline")
                    self.emu.violate(
                        "interaction-deadline",
                        f"{what}: no initial response within {self.emu.interaction_deadline}s",
                        "POST /interactions/{interaction_id}/{token}/callback",
                    )
                break
            if inter.rejected:
                # the bot's answer was refused; give it the chance to try again, then stop waiting
                await self.settle()
                if not inter.answered.is_set():
                    break
                continue
            remaining = inter.deadline - loop.time()
            if remaining <= 0:  # an answer in flight: its end notifies
                remaining = 0.05
            await self.emu.wait_changed(min(0.05, remaining) + 0.001)
        if settle:
            await self.settle()
        result = InteractionResult(self, inter)
        if check and not inter.answered.is_set():
            why = ", ".join(inter.rejected) or "no response"
            raise InteractionNotAnswered(f"{what}: the bot gave no valid initial response ({why})")
        return result

    # --- waiting ------------------------------------------------------------------------------------------------

    def busy_tasks(self) -> list[str]:
        return [
            t.get_name()
            for t in asyncio.all_tasks()
            if not t.done() and t.get_name().startswith(self.busy_task_prefixes)
        ]

    def _pending_deferrals(self) -> list[int]:
        out = []
        for inter in self.world.interactions.values():
            if inter.response_type == 5 and not inter.late:
                msg = self.world.messages.get(inter.original_message_id or 0)
                if msg is not None and msg.loading and not msg.deleted:
                    out.append(inter.id)
        return out

    def _bot_busy(self) -> bool:
        check = self.busy_check
        return check is not None and any(check(bot) for bot in self.bots)

    def _progress(self) -> tuple[object, ...]:
        """What changes while the bot works: requests answered, requests open, its running handlers. A bot whose
        progress stays the same while it says it is busy has stopped (or is stuck in one long computation)."""
        return (len(self.emu.requests), self.emu.in_flight, tuple(sorted(self.busy_tasks())))

    def _waiting_for(self) -> str:
        parts = []
        if self.emu.in_flight:
            parts.append(f"{self.emu.in_flight} request(s) in flight")
        if tasks := self.busy_tasks():
            parts.append(f"handler tasks {tasks}")
        if self._bot_busy():
            parts.append("the bot's own background work (its busy_check)")
        if deferred := self._pending_deferrals():
            parts.append(f"deferred interactions still thinking {deferred}")
        return ", ".join(parts) or "nothing"

    async def settle(self, timeout: float | None = None) -> None:
        """Wait until the bot is idle: no request in flight, no handler task running, no deferred reply still
        "thinking", continuously for ``quiet`` seconds. A deferral the bot stopped working on (no task, no request
        for ``deferral_grace`` seconds) is given up on: the test's assertions will show it.

        There is no wall-clock budget for the work itself, so a busy machine makes a test slower, never red:
        ``timeout`` (default ``settle_timeout``) is how long the bot may stay busy *without any progress* (no
        request answered or opened, no handler started or ended) before it counts as stopped, and the error
        names what it was still waiting for."""
        loop = asyncio.get_running_loop()
        stall = timeout if timeout is not None else self.settle_timeout
        quiet_since: float | None = None
        progress = self._progress()
        progressed_at = started = loop.time()
        while True:
            await asyncio.sleep(0.005)
            t = loop.time()
            working = self.emu.in_flight > 0 or bool(self.busy_tasks()) or self._bot_busy()
            if not working:
                if quiet_since is None:
                    quiet_since = t
                waited = t - quiet_since
                if waited >= self.quiet and (not self._pending_deferrals() or waited >= self.deferral_grace):
                    return
            else:
                quiet_since = None
            now_progress = self._progress()
            if now_progress != progress:
                progress, progressed_at = now_progress, t
            elif t - progressed_at > stall:
                raise HarnessError(
                    f"the bot made no progress for {stall:g}s while waiting for: {self._waiting_for()}"
                )
            if t - started > SETTLE_CEILING:
                raise HarnessError(
                    f"the bot was still busy after {SETTLE_CEILING:.0f}s (working in a loop?) with: "
                    f"{self._waiting_for()}"
                )

    async def wait_for_message(
        self,
        channel: Channel,
        predicate: Callable[[Message], bool] | None = None,
        timeout: float = 60.0,
        *,
        user: User | None = None,
    ) -> Message:
        """The newest message in ``channel`` (visible to ``user`` if given, else public) matching ``predicate``."""
        loop = asyncio.get_running_loop()
        limit = loop.time() + timeout
        while True:
            msgs = self.visible_messages(user, channel) if user is not None else self.messages(channel)
            for m in reversed(msgs):
                if predicate is None or predicate(m):
                    return m
            if loop.time() > limit:
                seen = "\n  ".join(repr(m) for m in msgs[-10:]) or "(none)"
                raise TimeoutError(f"no matching message in {channel!r} within {timeout}s; last messages:\n  {seen}")
            await self.emu.wait_changed(min(0.05, max(0.0, limit - loop.time())) + 0.001)

    # --- reading ------------------------------------------------------------------------------------------------

    def messages(self, channel: Channel) -> list[Message]:
        """Messages everyone can see (ephemeral ones excluded), oldest first."""
        return [m for m in self.world.channel_messages(channel.id) if not m.ephemeral]

    def visible_messages(self, user: User, channel: Channel) -> list[Message]:
        """What ``user`` sees in ``channel``: public messages plus their own ephemeral ones."""
        return [m for m in self.world.channel_messages(channel.id) if self.world.can_see(user, m)]

    def dm(self, user: User) -> list[Message]:
        """The messages in ``user``'s DM channel with the bot."""
        channel = self.world.dm_channel(user, create=False)
        return self.visible_messages(user, channel) if channel is not None else []

    def threads(self, channel: Channel) -> list[Channel]:
        return self.world.threads_of(channel.id)

    def message(self, message_id: int) -> Message:
        return self.world.messages[message_id]

    async def fetch_attachment(self, attachment: Attachment) -> bytes:
        """Download an attachment through its URL (proves the URL in the payload works)."""
        if self._session is None:
            self._session = aiohttp.ClientSession()
        async with self._session.get(attachment.url) as resp:
            resp.raise_for_status()
            return await resp.read()


def _websockets(handle: BotHandle) -> list[Any]:
    """The gateway websockets of an in-process discord.py client, one per shard it runs (``AutoShardedClient``);
    [] for a bot that is not one. A wrapper may hold the client as ``.client``."""
    client: Any = getattr(handle, "client", handle)
    get = getattr(client, "_get_websocket", None)
    if get is None:
        return []
    shards = getattr(client, "shards", None)  # AutoShardedClient: {shard_id: ShardInfo}
    found = [get(shard_id=i) for i in shards] if isinstance(shards, dict) else [get()]
    return [ws for ws in found if ws is not None]


def _format_record(record: logging.LogRecord) -> str:
    text = f"{record.name}: {record.getMessage()}"
    if record.exc_info and record.exc_info[1] is not None:
        text += f" ({record.exc_info[1]!r})"
    return text
