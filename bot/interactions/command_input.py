"""The one place a slash command's options are checked, before discord.py converts
them and before any handler runs.

Discord's client only sends what a command declares: the option's type, its choices,
its min/max and lengths, users and channels it resolved. A stale client (commands
cached from before an update), a modified one or a buggy integration can send
anything. Left to discord.py, such a request fails in its conversion (a
``TransformerError``, a ``CommandSignatureMismatch``, a ``KeyError`` in its namespace)
and reaches the tree's catch-all as if the bot were broken.

So :func:`check_command` reads the raw interaction against the command the tree
holds (its parameters, as discord.py built them from the callbacks) and raises
:class:`BadInput` for the first thing that does not fit: an unknown command or
option, a repeated or missing one, a value of the wrong type, outside its choices or
bounds, a user Discord did not resolve, or a channel that is not one of this server's.
Its message is a translatable sentence naming the option, so the player reads what to
fix, in their language. What passes is exactly what discord.py converts without
failing.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import AppCommandOptionType as T
from discord import app_commands

from bot.core.errors import PlayError
from engine.core.text import Listing, Word
from i18n import N_

Interaction = discord.Interaction[Any]
#: Discord's integer and number options hold values in this range (its API docs).
DISCORD_NUMBER = 2**53
#: Discord's longest string option value.
DISCORD_STRING = 6000
#: A snowflake as text: Discord's ids are 64-bit.
SNOWFLAKE = re.compile(r"[0-9]{1,20}")
#: The longest value echoed back in a refusal.
ECHO = 40
#: Option types that name something Discord resolves (users, channels, roles, attachments).
RESOLVED = {T.user: "users", T.channel: "channels", T.role: "roles", T.mentionable: "users",
            T.attachment: "attachments"}
#: What each option type must be, said of the option.
MUST_BE = {
    T.string: N_("`{option}` must be text."),
    T.integer: N_("`{option}` must be a whole number."),
    T.number: N_("`{option}` must be a number."),
    T.boolean: N_("`{option}` must be true or false."),
    T.user: N_("`{option}` must be a member picked from Discord's list."),
    T.channel: N_("`{option}` must be a channel of this server, picked from Discord's list."),
    T.role: N_("`{option}` must be a role picked from Discord's list."),
    T.mentionable: N_("`{option}` must be a member or role picked from Discord's list."),
    T.attachment: N_("`{option}` must be a file."),
}
UNKNOWN_COMMAND = N_("I don't know the command `/{command}`. Your Discord app may show an old list of commands: "
                     "restarting it brings the current one.")
UNKNOWN_OPTION = N_("`/{command}` has no option `{option}`. Your Discord app may show an old version of the "
                    "command: restarting it brings the current one.")
REPEATED = N_("The option `{option}` was given twice.")
MISSING = N_("`/{command}` needs the option `{option}`.")
NOT_A_CHOICE = N_("{value} is not one of the choices for `{option}`: {choices}.")
OUT_OF_BOUNDS = N_("`{option}` must be from {low} to {high}.")
TOO_LARGE = N_("{value} is too large a number for `{option}`.")
TOO_LONG = N_("`{option}` is too long: at most {high} characters.")
TOO_SHORT = N_("`{option}` is too short: at least {low} characters.")
UNRESOLVED_USER = N_("I can't tell who `{option}` means: Discord did not say. Pick a member from Discord's list.")
CHANNEL_ELSEWHERE = N_("`{option}` must be a channel of this server; pick one from Discord's list.")
CHANNEL_KIND = N_("`{option}` can't be that kind of channel; pick one from Discord's list.")
MALFORMED = N_("I can't read this command's options. Your Discord app may show an old version of the command: "
               "restarting it brings the current one.")


class BadInput(PlayError):
    """A request that does not fit the command (or component) it names; its message
    says what, for the player. Nothing has run, so nothing was changed."""


def echo(value: object) -> str:
    """A value the player sent, short and harmless in a message (in backticks)."""
    text = value if isinstance(value, str) else repr(value)
    text = text.replace("`", "'").replace("\n", " ")
    if len(text) > ECHO:
        text = text[: ECHO - 1] + "…"
    return f"`{text}`" if text else "''"


def command_path(names: Sequence[str]) -> str:
    return " ".join(names)


def find_command(tree: app_commands.CommandTree[Any], data: Mapping[str, Any],
                 guild_id: int | None) -> tuple[app_commands.Command[Any, ..., Any], list[str], list[Any]]:
    """The leaf command the payload names, its path, and the options given to it."""
    name = data.get("name")
    if not isinstance(name, str) or data.get("type", 1) != 1:
        raise BadInput(UNKNOWN_COMMAND, command=echo(name).strip("`"))
    found: app_commands.Command[Any, ..., Any] | app_commands.Group | None = None
    if guild_id is not None:
        found = tree.get_command(name, guild=discord.Object(guild_id))
    if found is None:
        found = tree.get_command(name)
    path = [name]
    if found is None:
        raise BadInput(UNKNOWN_COMMAND, command=command_path(path))
    options = data.get("options", [])
    while isinstance(found, app_commands.Group):
        if not isinstance(options, list) or len(options) != 1 or not isinstance(options[0], dict):
            raise BadInput(UNKNOWN_COMMAND, command=command_path(path))
        sub = options[0]
        sub_name = sub.get("name")
        if sub.get("type") not in (1, 2) or not isinstance(sub_name, str):
            raise BadInput(UNKNOWN_COMMAND, command=command_path(path))
        path.append(sub_name)
        found = found.get_command(sub_name)
        if found is None:
            raise BadInput(UNKNOWN_COMMAND, command=command_path(path))
        options = sub.get("options", [])
    if not isinstance(options, list):
        raise BadInput(MALFORMED)
    return found, path, options


def check_command(tree: app_commands.CommandTree[Any], interaction: Interaction) -> None:
    """Raise :class:`BadInput` unless the interaction's command and options are what
    the tree declares (an autocomplete may leave options out and type anything in the
    one it completes)."""
    data = interaction.data
    if not isinstance(data, dict):
        raise BadInput(MALFORMED)
    command, path, options = find_command(tree, data, interaction.guild_id)
    completing = interaction.type is discord.InteractionType.autocomplete
    params = {p.display_name: p for p in command.parameters}
    resolved = data.get("resolved") or {}
    if not isinstance(resolved, dict):
        raise BadInput(MALFORMED)
    seen: set[str] = set()
    for option in options:
        if not isinstance(option, dict) or not isinstance(option.get("name"), str):
            raise BadInput(MALFORMED)
        name = option["name"]
        param = params.get(name)
        if param is None:
            raise BadInput(UNKNOWN_OPTION, command=command_path(path), option=echo(name).strip("`"))
        if name in seen:
            raise BadInput(REPEATED, option=Word(name))
        seen.add(name)
        if completing and option.get("focused"):
            if option.get("type") != param.type.value or not isinstance(option.get("value"), str | int | float):
                raise BadInput(MUST_BE[param.type], option=Word(name))
            continue
        check_option(param, option, resolved, interaction)
    if completing:
        focused = [o for o in options if isinstance(o, dict) and o.get("focused")]
        if len(focused) != 1 or not params[focused[0]["name"]].autocomplete:
            raise BadInput(MALFORMED)
    else:
        for name, param in params.items():
            if param.required and name not in seen:
                raise BadInput(MISSING, command=command_path(path), option=Word(name))


def check_option(param: app_commands.Parameter, option: Mapping[str, Any], resolved: Mapping[str, Any],
                 interaction: Interaction) -> None:
    """One option's value against its parameter: type, choices, bounds, resolution."""
    kind, name = param.type, param.display_name
    value = option.get("value")
    wrong = BadInput(MUST_BE.get(kind, MALFORMED), option=Word(name))
    if option.get("type") != kind.value or "options" in option:
        raise wrong
    if kind is T.string:
        if not isinstance(value, str):
            raise wrong
        low = int(param.min_value) if param.min_value is not None else 0
        high = int(param.max_value) if param.max_value is not None else DISCORD_STRING
        if len(value) > high:
            raise BadInput(TOO_LONG, option=Word(name), high=high)
        if len(value) < low:
            raise BadInput(TOO_SHORT, option=Word(name), low=low)
    elif kind in (T.integer, T.number):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise wrong
        if kind is T.integer and not isinstance(value, int):
            raise wrong
        if isinstance(value, float) and not math.isfinite(value):
            raise wrong
        if abs(value) > DISCORD_NUMBER:
            raise BadInput(TOO_LARGE, value=echo(value), option=Word(name))
        low_bound, high_bound = param.min_value, param.max_value
        if (low_bound is not None and value < low_bound) or (high_bound is not None and value > high_bound):
            least: float = low_bound if low_bound is not None else -DISCORD_NUMBER
            most: float = high_bound if high_bound is not None else DISCORD_NUMBER
            raise BadInput(OUT_OF_BOUNDS, option=Word(name), low=f"{least:g}", high=f"{most:g}")
    elif kind is T.boolean:
        if not isinstance(value, bool):
            raise wrong
    else:
        check_resolved(param, value, resolved, interaction)
    if param.choices and value not in [c.value for c in param.choices]:
        names = Listing(tuple(Word(str(c.name)) for c in param.choices))
        raise BadInput(NOT_A_CHOICE, value=echo(value), option=Word(name), choices=names)


def check_resolved(param: app_commands.Parameter, value: Any, resolved: Mapping[str, Any],
                   interaction: Interaction) -> None:
    """A user, channel, role or file: a snowflake that Discord resolved; a channel must
    also be one of this server's, of a kind the option takes."""
    name = param.display_name
    text = str(value) if isinstance(value, str | int) and not isinstance(value, bool) else ""
    if not SNOWFLAKE.fullmatch(text):
        raise BadInput(MUST_BE.get(param.type, MALFORMED), option=Word(name))
    section = resolved.get(RESOLVED.get(param.type, ""))
    known = isinstance(section, dict) and isinstance(section.get(text), dict)
    if param.type is T.mentionable and not known:
        roles = resolved.get("roles")
        known = isinstance(roles, dict) and isinstance(roles.get(text), dict)
    if param.type is T.channel:
        check_channel(param, int(text), known, interaction)
        return
    if not known:
        if param.type in (T.user, T.mentionable):
            raise BadInput(UNRESOLVED_USER, option=Word(name))
        raise BadInput(MUST_BE.get(param.type, MALFORMED), option=Word(name))


def check_channel(param: app_commands.Parameter, channel_id: int, known: bool, interaction: Interaction) -> None:
    """Discord resolves only channels of the server a command is used in; a forged
    request may name any. The bot's own view of the channel decides."""
    name = param.display_name
    guild = interaction.guild
    channel = guild.get_channel_or_thread(channel_id) if guild is not None else None
    if not known or channel is None:
        raise BadInput(CHANNEL_ELSEWHERE, option=Word(name))
    if param.channel_types and channel.type not in param.channel_types:
        raise BadInput(CHANNEL_KIND, option=Word(name))
