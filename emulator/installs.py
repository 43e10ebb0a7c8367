"""Installation and interaction contexts, as Discord documents them (application.mdx "Installation Context",
application-commands.mdx "Contexts", receiving-and-responding.mdx "Authorizing Integration Owners Object" and
"Create Followup Message").

- An app is installed to a guild (GUILD_INSTALL, ``0``: its bot user is a member) and/or to users (USER_INSTALL,
  ``1``: ``World.user_installs``). Which of the two the app offers at all is ``World.app_integration_types``.
- An interaction happens in a context: GUILD ``0``, BOT_DM ``1`` (the DM with the app's bot user), PRIVATE_CHANNEL
  ``2`` (group DMs and DMs between users).
- A global command reaches a user where one of its ``integration_types`` is installed for that place and its
  ``contexts`` include the place: the guild install in its guilds and in the bot's DM, the user install
  everywhere that user is. PRIVATE_CHANNEL only ever comes with a user install.
- ``authorizing_integration_owners`` names those installs: ``"0"`` → the guild id (``"0"`` in the bot's DM),
  ``"1"`` → the installing user. A component on a message keeps the owners of the interaction that made it.
- Where only the user install authorizes an interaction, the app may send at most 5 follow-ups to it, and its
  bot user is not there: no gateway events, no channel routes (``access.require_view``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import permissions as P
from .limits import Problem

if TYPE_CHECKING:
    from .model import Channel, Command, Message, User, World

JSON = dict[str, Any]

GUILD_INSTALL, USER_INSTALL = 0, 1
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
#: fields Discord documents as deprecated on application commands (refused by the strict emulator)
DEPRECATED_COMMAND_FIELDS = {"dm_permission": "contexts"}
#: documented: "Apps are limited to 5 followup messages per interaction" when only USER_INSTALL authorized it
USER_INSTALL_FOLLOWUP_LIMIT = 5


def context_of(channel: Channel) -> int:
    if channel.guild_id is not None:
        return GUILD
    return BOT_DM if channel.is_dm else PRIVATE_CHANNEL


def guild_installed(world: World, channel: Channel) -> bool:
    """Whether the guild install covers ``channel``: a guild the bot is in, or the bot's own DM."""
    return world.bot_present(channel)


def command_integration_types(cmd: Command) -> list[int]:
    """A command's installation contexts: guild commands belong to their guild's install; a global command without
    the field gets the emulated app's default, GUILD_INSTALL only (what the command payload echoes)."""
    if cmd.guild_id is not None:
        return [GUILD_INSTALL]
    value = cmd.raw.get("integration_types")
    return [int(v) for v in value] if isinstance(value, list) else [GUILD_INSTALL]


def owners_for_command(world: World, cmd: Command, user: User, channel: Channel) -> dict[str, str]:
    """The installs that let ``user`` run ``cmd`` in ``channel`` (empty: the command is not offered there)."""
    kinds = command_integration_types(cmd)
    owners: dict[str, str] = {}
    if GUILD_INSTALL in kinds and GUILD_INSTALL in world.app_integration_types and guild_installed(world, channel):
        owners[str(GUILD_INSTALL)] = str(channel.guild_id) if channel.guild_id is not None else "0"
    if USER_INSTALL in kinds and USER_INSTALL in world.app_integration_types and user.id in world.user_installs:
        owners[str(USER_INSTALL)] = str(user.id)
    return owners


def owners_for_message(world: World, message: Message | None, channel: Channel) -> dict[str, str]:
    """A component or modal on ``message``: the installs of the interaction that made it, else the guild install
    (a message the bot posted itself)."""
    meta = message.interaction_metadata if message is not None else None
    if meta and isinstance(meta.get("authorizing_integration_owners"), dict):
        return dict(meta["authorizing_integration_owners"])
    if guild_installed(world, channel):
        return {str(GUILD_INSTALL): str(channel.guild_id) if channel.guild_id is not None else "0"}
    return {}


def user_install_only(owners: dict[str, str]) -> bool:
    return set(owners) == {str(USER_INSTALL)}


def app_permissions(world: World, user: User, channel: Channel) -> int:
    """``app_permissions``: the bot's where its bot user is; where only the user install reaches, the app is
    "forced to respect the user's permissions in the surface" (application.mdx), so the user's."""
    if world.bot_present(channel):
        perms = world.permissions(world.bot, channel)
        return perms | P.MENTION_EVERYONE if channel.guild_id is None else perms
    return world.permissions(user, channel)


def may_answer_publicly(world: World, user: User, channel: Channel, owners: dict[str, str]) -> bool:
    """Where only the user install authorizes it, a public (non-ephemeral) response needs the user to be allowed to
    post there and, in a guild, USE_EXTERNAL_APPS; otherwise Discord shows the response to the user alone."""
    if not user_install_only(owners) or channel.guild_id is None:
        return True
    perms = world.permissions(user, channel)
    need = P.SEND_MESSAGES_IN_THREADS if channel.is_thread else P.SEND_MESSAGES
    return bool(perms & need) and bool(perms & P.FLAGS["use_external_apps"])


def check_command_installs(world: World, commands: list[Any], *, single: bool, strict: bool) -> list[Problem]:
    """A command's ``integration_types`` must be installation contexts the app supports ("as long as any included
    contexts are already supported on the application-level"); strict mode refuses deprecated fields."""
    out: list[Problem] = []
    for i, cmd in enumerate(commands):
        if not isinstance(cmd, dict):
            continue
        path: tuple[str | int, ...] = () if single else (i,)
        kinds = cmd.get("integration_types")
        for j, kind in enumerate(kinds if isinstance(kinds, list) else []):
            if kind in (GUILD_INSTALL, USER_INSTALL) and kind not in world.app_integration_types:
                out.append(
                    Problem(
                        "command-install-context",
                        (*path, "integration_types", j),
                        "APPLICATION_COMMAND_INTEGRATION_TYPE_NOT_SUPPORTED",
                        f"The app is not installable to {'users' if kind == USER_INSTALL else 'guilds'}",
                    )
                )
        for key, instead in DEPRECATED_COMMAND_FIELDS.items():
            if strict and key in cmd:
                out.append(
                    Problem(
                        "deprecated-field",
                        (*path, key),
                        "DEPRECATED_FIELD",
                        f"{key} is deprecated: use {instead} (refused by the strict emulator)",
                    )
                )
    return out
