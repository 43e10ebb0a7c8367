"""What a person can do in Discord's client, turned into the emulator's own interactions.

The page sends what a user did (this command with these option values, a click on this button of this
message, these values in that select, this modal filled in, a plain message). Each is checked here the way
Discord's client and Discord check it, by the same functions the test harness uses (``interactions.py``):
the command must be offered to the user in that channel, options must exist and fit their type, bounds and
choices, a button must be on a message the user can see and not be disabled, select values must be its
options, a modal can be submitted only by the user it was shown to, with its required inputs filled in.
A refusal raises :class:`HarnessError` with a sentence for the page; nothing reaches the bot then.

The answer the page waits for is the bot's initial response (within Discord's 3 seconds): a modal to open,
autocomplete choices, or nothing more (its messages arrive through the channel like any others). No valid
answer in time is Discord's "This interaction failed".
"""

from __future__ import annotations

import asyncio
import base64
import binascii
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .. import permissions as P
from ..interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    BOOLEAN,
    CHANNEL,
    INTEGER,
    MENTIONABLE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    NUMBER,
    SUB_COMMAND,
    SUB_COMMAND_GROUP,
    USER,
    HarnessError,
    PickedFile,
    build_command_data,
    button_data,
    check_command_available,
    dispatch_interaction,
    find_button,
    find_select,
    modal_submit_data,
    select_data,
)
from ..limits import MAX_CONTENT
from ..messages import announce_create, create_message
from ..model import Channel, Command, Interaction, Message, User

if TYPE_CHECKING:
    from ..server import Emulator

JSON = dict[str, Any]


def _snowflake(value: Any, what: str) -> int:
    text = str(value)
    if not text.isdigit():
        raise HarnessError(f"{what} must be an id, not {value!r}")
    return int(text)


def channel_for(emu: Emulator, user: User, channel_id: Any) -> Channel:
    channel = emu.world.channels.get(_snowflake(channel_id, "channel_id"))
    if channel is None or not emu.world.can_access(user, channel):
        raise HarnessError("you cannot see that channel")
    return channel


def message_for(emu: Emulator, user: User, message_id: Any) -> Message:
    message = emu.world.messages.get(_snowflake(message_id, "message_id"))
    if message is None or not emu.world.can_see(user, message):
        raise HarnessError("that message is gone, or was only for someone else")
    return message


def _leaf_specs(command: Command, path: list[str]) -> list[JSON]:
    specs: list[JSON] = list(command.raw.get("options") or [])
    for name in path:
        sub = next((o for o in specs if o.get("name") == name and o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)),
                   None)
        if sub is None:
            raise HarnessError(f"/{command.name} has no subcommand {name!r}")
        specs = list(sub.get("options") or [])
    return specs


def _typed(emu: Emulator, spec: JSON, value: Any) -> Any:
    """A value as typed into the page, as the option's type holds it (Discord's client parses numbers,
    true/false, and resolves a picked user or channel)."""
    kind, name = spec.get("type"), spec.get("name")
    if kind in (INTEGER, NUMBER) and isinstance(value, str):
        try:
            return int(value) if kind == INTEGER else float(value)
        except ValueError:
            raise HarnessError(f"{name} takes {'a whole number' if kind == INTEGER else 'a number'}") from None
    if kind == BOOLEAN and isinstance(value, str):
        if value.lower() not in ("true", "false"):
            raise HarnessError(f"{name} takes True or False")
        return value.lower() == "true"
    if kind in (USER, MENTIONABLE):
        user = emu.world.users.get(_snowflake(value, name or "user"))
        if user is None:
            raise HarnessError(f"{name}: no such user")
        return user
    if kind == CHANNEL:
        channel = emu.world.channels.get(_snowflake(value, name or "channel"))
        if channel is None:
            raise HarnessError(f"{name}: no such channel")
        return channel
    return value


def command_for(emu: Emulator, user: User, channel: Channel, command_id: Any) -> Command:
    command = emu.world.commands.get(_snowflake(command_id, "command id"))
    if command is None or command.guild_id not in (None, channel.guild_id):
        raise HarnessError("that command is not registered here")
    check_command_available(emu, command, user, channel)
    return command


async def run_command(emu: Emulator, user: User, body: Mapping[str, Any]) -> Interaction:
    """A slash command (``type`` 2) or the autocomplete of one of its options (``type`` 4, ``focused``)."""
    channel = channel_for(emu, user, body.get("channel_id"))
    command = command_for(emu, user, channel, body.get("command_id"))
    path = [str(p) for p in body.get("path") or []]
    specs = {s.get("name"): s for s in _leaf_specs(command, path)}
    focused = body.get("focused")
    options: dict[str, Any] = {}
    for name, value in dict(body.get("options") or {}).items():
        spec = specs.get(name)
        if spec is None:
            raise HarnessError(f"/{command.name} has no option {name!r}")
        options[name] = str(value) if name == focused else _typed(emu, spec, value)
    data = build_command_data(
        emu, command, path, options, guild_id=channel.guild_id, focused=focused, invoker=user, where=channel,
        locale=user.locale,
    )
    kind = AUTOCOMPLETE if focused is not None else APPLICATION_COMMAND
    return await dispatch_interaction(emu, type=kind, user=user, channel=channel, data=data)


async def use_component(emu: Emulator, user: User, body: Mapping[str, Any]) -> Interaction:
    """A click on a button, or values chosen in a select menu, on a message ``user`` sees."""
    message = message_for(emu, user, body.get("message_id"))
    custom_id = str(body.get("custom_id") or "")
    if "values" in body:
        select = find_select(message, custom_id)
        values = [str(v) for v in body.get("values") or []]
        channel = emu.world.channels[message.channel_id]
        typed: list[Any] = values
        if select.get("type") != 3:
            typed = [_typed(emu, {"type": USER if select.get("type") in (5, 7) else CHANNEL, "name": custom_id}, v)
                     for v in values]
        data = select_data(emu, select, typed, channel.guild_id)
    else:
        data = button_data(find_button(message, custom_id=custom_id))
    channel = emu.world.channels[message.channel_id]
    return await dispatch_interaction(emu, type=MESSAGE_COMPONENT, user=user, channel=channel, data=data,
                                      message=message)


def _picked_files(value: Any) -> Any:
    """A file upload's value as the page sends it (``[{"filename", "content_type", "data": base64}]``, the bytes
    the person picked) as the emulator's :class:`PickedFile` list; any other value as it is."""
    if not (isinstance(value, list) and value and all(isinstance(f, dict) and "data" in f for f in value)):
        return value
    picked: list[PickedFile] = []
    for f in value:
        try:
            data = base64.b64decode(str(f.get("data") or ""), validate=True)
        except (binascii.Error, ValueError):
            raise HarnessError(f"the file {f.get('filename')!r} is not base64") from None
        kind = f.get("content_type")
        picked.append(PickedFile(str(f.get("filename") or ""), data, str(kind) if kind else None))
    return picked


async def submit_modal(emu: Emulator, user: User, body: Mapping[str, Any]) -> Interaction:
    """The modal the bot answered one of ``user``'s interactions with, filled in and submitted."""
    source = emu.world.interactions.get(_snowflake(body.get("interaction_id"), "interaction_id"))
    if source is None or source.modal is None:
        raise HarnessError("that interaction opened no form")
    if source.user_id != user.id:
        raise HarnessError("only the person the form was shown to can submit it")
    values = {str(k): _picked_files(v) for k, v in dict(body.get("values") or {}).items()}
    data = modal_submit_data(source.modal, values, emu, source.channel_id)
    channel = emu.world.channels[source.channel_id]
    message = emu.world.messages.get(source.message_id) if source.message_id is not None else None
    return await dispatch_interaction(emu, type=MODAL_SUBMIT, user=user, channel=channel, data=data, message=message,
                                      locale=source.payload.get("locale"))


async def answer_of(emu: Emulator, inter: Interaction) -> JSON:
    """Wait for the bot's initial response (an answer already on its way when the 3 seconds end still counts,
    as it does on Discord) and say what the client shows next."""
    loop = asyncio.get_running_loop()
    while not inter.answered.is_set():
        left = inter.deadline - loop.time()
        if left <= 0 and not inter.callbacks_in_flight:
            break
        await emu.wait_changed(max(0.01, min(left, 0.25)))
    out: JSON = {"interaction_id": str(inter.id), "answered": inter.answered.is_set(),
                 "response_type": inter.response_type}
    if not inter.answered.is_set():
        out["failed"] = "This interaction failed"
        if "interaction-deadline" not in inter.rejected:  # the page says so now: the bot broke the 3-second rule
            inter.rejected.append("interaction-deadline")
            emu.violate("interaction-deadline",
                        f"no initial response within {emu.interaction_deadline}s: the page shows "
                        "\"This interaction failed\"", "POST /interactions/{interaction_id}/{token}/callback")
    if inter.modal is not None:
        out["modal"] = inter.modal
    if inter.choices is not None:
        out["choices"] = inter.choices
    return out


async def say(emu: Emulator, user: User, body: Mapping[str, Any]) -> Message:
    """A plain message typed into the channel, where the user may post (as the harness's ``say``)."""
    channel = channel_for(emu, user, body.get("channel_id"))
    content = str(body.get("content") or "")
    if not content.strip():
        raise HarnessError("an empty message is not sent")
    if len(content) > MAX_CONTENT:
        raise HarnessError(f"a message holds at most {MAX_CONTENT} characters")
    if channel.guild_id is not None:
        perms = emu.world.permissions(user, channel)
        needed = P.SEND_MESSAGES_IN_THREADS if channel.is_thread else P.SEND_MESSAGES
        if not perms & needed:
            raise HarnessError("you do not have permission to send messages in this channel")
        if channel.is_thread and channel.locked and not perms & P.MANAGE_THREADS:
            raise HarnessError("this thread is locked")
    message = create_message(emu, channel, user, {"content": content}, [])
    emu.notify()
    await announce_create(emu, message)
    return message
