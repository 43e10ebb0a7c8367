"""Building and dispatching INTERACTION_CREATE payloads the way Discord's client would produce them.

Input checks here mirror what the Discord client itself prevents (unknown option, missing required option, a value
outside the choices, clicking a disabled button, a command hidden from the user by its ``default_member_permissions``
or ``contexts``, a command in an archived thread…); they raise :class:`HarnessError` because they are test mistakes,
not bot bugs.
"""

from __future__ import annotations

import asyncio
import base64
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import installs
from . import permissions as P
from .gateway import shard_of
from .limits import (
    BUTTON,
    CHECKBOX,
    CHECKBOX_GROUP,
    FILE_UPLOAD,
    LABEL,
    RADIO_GROUP,
    SELECT_TYPES,
    STRING_SELECT,
    TEXT_INPUT,
)
from .model import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    Attachment,
    Channel,
    Command,
    Interaction,
    Message,
    User,
)

if TYPE_CHECKING:
    from .server import Emulator

JSON = dict[str, Any]

# option types
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(
    1, 12
)


class HarnessError(Exception):
    """The test asked for something a Discord user could not do."""


class BotNotConnected(HarnessError):
    """No bot session would receive the interaction (no bot running, or none for the shard of its guild; DMs are
    shard 0's). Discord shows the user "This interaction failed"; the harness raises this instead."""


class CommandUnavailable(HarnessError):
    """Discord would not show the command to this user here (default_member_permissions, contexts, archived thread)."""


# --- commands -----------------------------------------------------------------------------------------------------


def localized(obj: Mapping[str, Any], key: str, locale: str | None) -> str | None:
    """``obj[key]`` as a client in ``locale`` shows it (its ``<key>_localizations`` entry), or None when it has
    none for that locale."""
    if not locale:
        return None
    found = (obj.get(f"{key}_localizations") or {}).get(locale)
    return str(found) if found is not None else None


def names_match(obj: Mapping[str, Any], name: str, locale: str | None) -> bool:
    """``name`` is what a user in ``locale`` types for ``obj`` (a command, subcommand or option): its name, or
    its name in their language."""
    return obj.get("name") == name or localized(obj, "name", locale) == name


def find_command(emu: Emulator, channel: Channel, name: str, ctype: int = 1, *, locale: str | None = None) -> Command:
    """A command by its name, or (as a client in ``locale`` lists it) its localized name."""
    root = name.split()[0].lstrip("/")
    commands = list(emu.world.commands.values())
    for scope in (channel.guild_id, None):
        for c in commands:
            if c.guild_id == scope and c.type == ctype and names_match(c.raw | {"name": c.name}, root, locale):
                return c
    known = sorted({("/" if c.type == 1 else "") + c.name for c in commands})
    raise HarnessError(f"command /{root} is not registered with the emulator (registered: {known or 'none'})")


def check_command_available(emu: Emulator, cmd: Command, user: User, channel: Channel) -> None:
    """What Discord checks before it even offers a command: its interaction ``contexts`` (guild 0, bot DM 1) and, in
    guilds, USE_APPLICATION_COMMANDS and ``default_member_permissions`` (the member's permissions in the channel must
    include them, ADMINISTRATOR and the owner pass, ``"0"`` hides it from everyone else). Commands cannot be used in
    archived threads."""
    if not emu.world.can_access(user, channel):
        raise HarnessError(
            f"{user.username} cannot use {channel!r} (not a member / someone else's DM / private thread / no view)"
        )
    raw = cmd.raw
    in_guild = channel.guild_id is not None
    contexts = raw.get("contexts")
    context = installs.context_of(channel)
    if contexts is not None and context not in contexts:
        raise CommandUnavailable(f"/{cmd.name} is not available in this context ({context}; contexts={contexts})")
    owners = installs.owners_for_command(emu.world, cmd, user, channel)
    if not owners:
        raise CommandUnavailable(
            f"/{cmd.name} is not installed for {user.username} in {channel!r} (integration_types="
            f"{installs.command_integration_types(cmd)}; the bot is {'' if emu.world.bot_present(channel) else 'not '}"
            f"there; user install: {user.id in emu.world.user_installs})"
        )
    if not in_guild:
        if cmd.guild_id is None and raw.get("dm_permission") is False and contexts is None:
            raise CommandUnavailable(f"/{cmd.name} is not available in DMs (dm_permission false)")
        return
    if str(installs.GUILD_INSTALL) not in owners:
        return  # command permissions belong to a guild's install of the app
    if channel.is_thread and channel.archived:
        raise CommandUnavailable(f"users cannot use application commands in the archived thread {channel.name!r}")
    perms = emu.world.permissions(user, channel)
    if not perms & P.USE_APPLICATION_COMMANDS:
        raise CommandUnavailable(f"{user.username} lacks USE_APPLICATION_COMMANDS in {channel!r}")
    needed = raw.get("default_member_permissions")
    if needed is None:
        return
    needed = int(needed)
    guild = emu.world.guilds[channel.guild_id or 0]
    if perms == P.ALL or emu.world.base_permissions(guild, user) & P.ADMINISTRATOR:
        return
    if needed == 0 or perms & needed != needed:
        missing = ", ".join(n.upper() for n in P.names(needed & ~perms)) or "administrator"
        raise CommandUnavailable(
            f"/{cmd.name} is hidden from {user.username} by default_member_permissions (missing {missing})"
        )


def _option_specs(cmd: Command, path: list[str], locale: str | None = None) -> tuple[list[JSON], list[JSON]]:
    """Walk subcommand groups/subcommands (named as a client in ``locale`` shows them); return (the data.options
    chain root list, the leaf option specs). The data carries their own names, as Discord sends them."""
    specs: list[JSON] = list(cmd.raw.get("options") or [])
    root: list[JSON] = []
    container = root
    for sub in path:
        spec = next(
            (o for o in specs if names_match(o, sub, locale) and o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)),
            None,
        )
        if spec is None:
            subs = [o["name"] for o in specs if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
            raise HarnessError(f"/{cmd.name} has no subcommand {sub!r} here (choices: {subs})")
        node: JSON = {"name": spec["name"], "type": spec["type"], "options": []}
        container.append(node)
        container = node["options"]
        specs = list(spec.get("options") or [])
    if any(o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in specs):
        subs = [o["name"] for o in specs]
        raise HarnessError(f"/{' '.join([cmd.name, *path])} needs a subcommand: {subs}")
    return root, specs


def _leaf_container(root: list[JSON]) -> list[JSON]:
    container = root
    while container and container[0].get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
        container = container[0]["options"]
    return container


def _encode_value(
    emu: Emulator,
    spec: JSON,
    value: Any,
    resolved: JSON,
    guild_id: int | None,
    invoker: User | None = None,
    where: Channel | None = None,
) -> Any:
    t = spec.get("type")
    name = spec.get("name")
    if t == STRING:
        if not isinstance(value, str):
            raise HarnessError(f"option {name!r} takes a string, got {value!r}")
        lo, hi = spec.get("min_length"), spec.get("max_length")
        if (lo is not None and len(value) < lo) or (hi is not None and len(value) > hi):
            raise HarnessError(f"option {name!r}: length must be within {lo}..{hi}")
        return value
    if t in (INTEGER, NUMBER):
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or (t == INTEGER and not isinstance(value, int))
        ):
            raise HarnessError(f"option {name!r} takes {'an integer' if t == INTEGER else 'a number'}, got {value!r}")
        lo, hi = spec.get("min_value"), spec.get("max_value")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise HarnessError(f"option {name!r}: value must be within {lo}..{hi}")
        return value
    if t == BOOLEAN:
        if not isinstance(value, bool):
            raise HarnessError(f"option {name!r} takes a bool, got {value!r}")
        return value
    if t in (USER, MENTIONABLE) and isinstance(value, User):
        resolved.setdefault("users", {})[str(value.id)] = value.payload()
        guild = emu.world.guilds.get(guild_id or 0)
        if guild is not None and value.id in guild.member_ids:
            perms = (
                emu.world.permissions(value, where) if where is not None else emu.world.base_permissions(guild, value)
            )
            member = emu.world.member_payload(guild, value, permissions=perms)
            member.pop("user")
            resolved.setdefault("members", {})[str(value.id)] = member
        return str(value.id)
    if t == CHANNEL and isinstance(value, Channel):
        payload = emu.world.channel_payload(value)
        if invoker is not None:
            payload["permissions"] = str(emu.world.permissions(invoker, value))
        resolved.setdefault("channels", {})[str(value.id)] = payload
        return str(value.id)
    raise HarnessError(f"option {name!r} (type {t}) cannot take {value!r}")


def build_command_data(
    emu: Emulator,
    cmd: Command,
    path: list[str],
    options: Mapping[str, Any],
    *,
    guild_id: int | None,
    focused: str | None = None,
    invoker: User | None = None,
    where: Channel | None = None,
    locale: str | None = None,
) -> JSON:
    """The ``data`` of a command interaction. Subcommands, options and choices may be named as a client in
    ``locale`` shows them (their localizations); the data names them as Discord does, by their own names."""
    root, specs = _option_specs(cmd, path, locale)
    by_name = {o["name"]: o for o in specs}
    for o in specs:
        shown = localized(o, "name", locale)
        if shown is not None:
            by_name.setdefault(shown, o)
    resolved: JSON = {}
    leaf: list[JSON] = []
    for key, value in options.items():
        spec = by_name.get(key) or by_name.get(key.replace("_", "-"))
        if spec is None:
            raise HarnessError(f"/{' '.join([cmd.name, *path])} has no option {key!r} (options: {sorted(by_name)})")
        if key == focused:
            if not spec.get("autocomplete"):
                raise HarnessError(f"option {spec['name']!r} has no autocomplete")
            leaf.append({"name": spec["name"], "type": spec["type"], "value": str(value), "focused": True})
            continue
        choices = spec.get("choices")
        if choices:
            match = next(
                (
                    c
                    for c in choices
                    if c["value"] == value
                    or c["name"] == value
                    or (isinstance(value, str) and localized(c, "name", locale) == value)
                ),
                None,
            )
            if match is None:
                raise HarnessError(
                    f"option {spec['name']!r} must be one of {[c['value'] for c in choices]}, got {value!r}"
                )
            value = match["value"]
        leaf.append(
            {
                "name": spec["name"],
                "type": spec["type"],
                "value": _encode_value(emu, spec, value, resolved, guild_id, invoker, where),
            }
        )
    if focused is None:
        given = {o["name"] for o in leaf}
        missing = [o["name"] for o in specs if o.get("required") and o["name"] not in given]
        if missing:
            raise HarnessError(f"/{' '.join([cmd.name, *path])}: missing required options {missing}")
    elif focused not in options:
        raise HarnessError(f"focused option {focused!r} needs a value")
    if root:
        _leaf_container(root).extend(leaf)
        top = root
    else:
        top = leaf
    data: JSON = {"id": str(cmd.id), "name": cmd.name, "type": cmd.type}
    if top:
        data["options"] = top
    if resolved:
        data["resolved"] = resolved
    if cmd.guild_id is not None:
        data["guild_id"] = str(cmd.guild_id)
    return data


# --- components ---------------------------------------------------------------------------------------------------


def find_button(
    message: Message, *, label: str | None = None, custom_id: str | None = None, emoji: str | None = None
) -> JSON:
    buttons = message.buttons()
    for b in buttons:
        if custom_id is not None and b.get("custom_id") != custom_id:
            continue
        if label is not None and b.get("label") != label:
            continue
        if emoji is not None and (b.get("emoji") or {}).get("name") != emoji:
            continue
        return b
    described = [(b.get("label"), b.get("custom_id")) for b in buttons]
    raise HarnessError(f"no button label={label!r} custom_id={custom_id!r} on {message!r}; buttons: {described}")


def button_data(button: JSON) -> JSON:
    if button.get("disabled"):
        raise HarnessError(f"button {button.get('label')!r} is disabled")
    if button.get("style") == 5 or "custom_id" not in button:
        raise HarnessError(f"button {button.get('label')!r} is a link button; clicking it opens {button.get('url')}")
    data: JSON = {"custom_id": button["custom_id"], "component_type": BUTTON}
    if "id" in button:
        data["id"] = button["id"]
    return data


def find_select(message: Message, custom_id: str | None) -> JSON:
    selects = message.selects()
    for s in selects:
        if custom_id is None or s.get("custom_id") == custom_id:
            return s
    raise HarnessError(f"no select {custom_id!r} on {message!r}; selects: {[s.get('custom_id') for s in selects]}")


def select_data(emu: Emulator, select: JSON, values: list[Any], guild_id: int | None) -> JSON:
    if select.get("disabled"):
        raise HarnessError(f"select {select.get('custom_id')!r} is disabled")
    lo, hi = select.get("min_values", 1), select.get("max_values", 1)
    if not lo <= len(values) <= hi:
        raise HarnessError(f"select {select.get('custom_id')!r} takes {lo}..{hi} values, got {len(values)}")
    data: JSON = {"custom_id": select["custom_id"], "component_type": select["type"]}
    if select["type"] == STRING_SELECT:
        allowed = {o["value"]: o for o in select.get("options") or []}
        labels = {o["label"]: o["value"] for o in select.get("options") or []}
        out: list[str] = []
        for v in values:
            if v in allowed:
                out.append(v)
            elif v in labels:
                out.append(labels[v])
            else:
                raise HarnessError(f"{v!r} is not an option of select {select['custom_id']!r}: {sorted(allowed)}")
        data["values"] = out
        return data
    resolved: JSON = {}
    out_ids: list[str] = []
    for v in values:
        spec = {"name": select["custom_id"], "type": USER if isinstance(v, User) else CHANNEL}
        out_ids.append(str(_encode_value(emu, spec, v, resolved, guild_id)))
    data["values"] = out_ids
    data["resolved"] = resolved
    return data


# --- modals -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PickedFile:
    """A file a user chose in a modal's file upload (the value of its custom id is a list of them)."""

    filename: str
    data: bytes
    content_type: str | None = None


#: Puts a picked file on the "CDN" and gives its attachment id (see ``modal_submit_data``).
Upload = Callable[[PickedFile], str]


def _submitted_input(comp: JSON, values: Mapping[str, Any], used: set[str], upload: Upload | None = None) -> JSON:
    cid = comp.get("custom_id", "")
    if comp.get("type") == FILE_UPLOAD:  # as Discord's client: within min..max files, each uploaded first
        used.add(cid)
        files = list(values.get(cid) or [])
        if not all(isinstance(f, PickedFile) for f in files):
            raise HarnessError(f"file upload {cid!r} takes files")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not files and comp.get("required", True):
            raise HarnessError(f"file upload {cid!r} is required")
        if files and not lo <= len(files) <= hi:
            raise HarnessError(f"file upload {cid!r}: {len(files)} files, not {lo}..{hi}")
        if files and upload is None:
            raise HarnessError(f"file upload {cid!r}: files are sent through the emulator (modal_submit_data emu=)")
        return {"type": FILE_UPLOAD, "custom_id": cid, "values": [upload(f) for f in files] if upload else []}
    if comp.get("type") == TEXT_INPUT:
        value = values.get(cid, comp.get("value") or "")
        used.add(cid)
        if not isinstance(value, str):
            raise HarnessError(f"text input {cid!r} takes a string")
        if comp.get("required", True) and not value:
            raise HarnessError(f"text input {cid!r} is required")
        lo, hi = comp.get("min_length"), comp.get("max_length")
        if value and ((lo is not None and len(value) < lo) or (hi is not None and len(value) > hi)):
            raise HarnessError(f"text input {cid!r}: length must be within {lo}..{hi}")
        return {"type": TEXT_INPUT, "custom_id": cid, "value": value}
    if comp.get("type") in SELECT_TYPES:
        chosen = values.get(cid, [])
        used.add(cid)
        return {"type": comp["type"], "custom_id": cid, "values": list(chosen)}
    offered = [str(o.get("value")) for o in comp.get("options") or [] if isinstance(o, dict)]
    defaults = [str(o.get("value")) for o in comp.get("options") or [] if isinstance(o, dict) and o.get("default")]
    if comp.get("type") == RADIO_GROUP:  # one option (or none, when not required)
        used.add(cid)
        picked = values.get(cid, defaults[0] if defaults else None)
        if picked is not None and str(picked) not in offered:
            raise HarnessError(f"radio group {cid!r} offers {offered}, not {picked!r}")
        if picked is None and comp.get("required", True):
            raise HarnessError(f"radio group {cid!r} is required")
        return {"type": RADIO_GROUP, "custom_id": cid, "value": None if picked is None else str(picked)}
    if comp.get("type") == CHECKBOX_GROUP:
        used.add(cid)
        ticked = [str(v) for v in values.get(cid, defaults)]
        lo, hi = comp.get("min_values", 1), comp.get("max_values", len(offered))
        if (
            any(v not in offered for v in ticked)
            or ((ticked or comp.get("required", True))
            and not lo <= len(ticked) <= hi)
        ):
            raise HarnessError(f"checkbox group {cid!r}: {ticked} is not {lo}..{hi} of {offered}")
        return {"type": CHECKBOX_GROUP, "custom_id": cid, "values": ticked}
    if comp.get("type") == CHECKBOX:
        used.add(cid)
        value = values.get(cid, bool(comp.get("default")))
        if not isinstance(value, bool):
            raise HarnessError(f"checkbox {cid!r} takes True or False")
        return {"type": CHECKBOX, "custom_id": cid, "value": value}
    return {"type": comp.get("type"), **({"id": comp["id"]} if "id" in comp else {})}


def modal_submit_data(modal: JSON, values: Mapping[str, Any], emu: Emulator | None = None,
                      channel_id: int | None = None) -> JSON:
    """The ``data`` of a modal submission with ``values`` (custom id -> what the user entered: a text, a
    select's values, a radio group's value, a checkbox group's values, a checkbox's bool, a file upload's
    :class:`PickedFile` list). Files go as Discord's client sends them: put on the CDN first (``emu``'s
    attachment URLs, for ``channel_id``), then named by attachment id in the component's ``values`` and
    described in ``resolved.attachments``; each within the attachment size limit."""
    used: set[str] = set()
    components: list[JSON] = []
    attachments: JSON = {}

    def upload(picked: PickedFile) -> str:
        assert emu is not None
        name = picked.filename
        if not name or "/" in name or "\\" in name or len(name) > 1024:
            raise HarnessError(f"{name!r} is not a file name")
        if len(picked.data) > emu.attachment_size_limit:
            raise HarnessError(f"{name!r} is too large ({len(picked.data)} bytes; the limit is "
                               f"{emu.attachment_size_limit})")
        aid = emu.world.ids.next()
        url = f"{emu.base_url}/attachments/{channel_id or 0}/{aid}/{name}"
        emu.world.modal_files[aid] = Attachment(aid, name, picked.data, picked.content_type, url, ephemeral=True)
        attachments[str(aid)] = {"id": str(aid), "filename": name, "size": len(picked.data), "url": url,
                                 "proxy_url": url, "ephemeral": True,
                                 **({"content_type": picked.content_type} if picked.content_type else {})}
        return str(aid)

    sender = upload if emu is not None else None
    for comp in modal.get("components") or []:
        if comp.get("type") == 1:
            inner = [_submitted_input(c, values, used, sender) for c in comp.get("components") or []]
            components.append({"type": 1, "components": inner})
        elif comp.get("type") == LABEL:
            components.append({"type": LABEL,
                               "component": _submitted_input(comp.get("component") or {}, values, used, sender)})
        else:
            components.append(_submitted_input(comp, values, used, sender))
    unknown = set(values) - used
    if unknown:
        raise HarnessError(f"modal {modal.get('custom_id')!r} has no inputs {sorted(unknown)}")
    data: JSON = {"custom_id": modal["custom_id"], "components": components}
    if attachments:
        data["resolved"] = {"attachments": attachments}
    return data


# --- dispatch -----------------------------------------------------------------------------------------------------


def interaction_token(iid: int) -> str:
    """An interaction token as Discord writes one: ``interaction:<id>:<secret>`` in URL-safe
    base64 (no padding), so only ``[A-Za-z0-9_-]``. A token written with a bare ``:`` (as
    before) made every interaction request quote it character by character in discord.py
    (``urllib.parse.quote``'s slow path, 1.5-2 % of the bot's CPU in the load bench),
    a cost a real token never causes."""
    raw = f"interaction:{iid}:{secrets.token_urlsafe(48)}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


async def dispatch_interaction(
    emu: Emulator,
    *,
    type: int,
    user: User,
    channel: Channel,
    data: JSON,
    message: Message | None = None,
    locale: str | None = None,
) -> Interaction:
    """Send an INTERACTION_CREATE; its ``locale`` is the user's client language (``locale``, else the user's)."""
    world = emu.world
    if not emu.gateway.live_sessions:
        raise BotNotConnected("no bot session is connected to the emulator's gateway")
    if not emu.gateway.sessions_for(channel.guild_id):
        where = (
            "DMs (shard 0)"
            if channel.guild_id is None
            else f"guild {channel.guild_id} (shard {shard_of(channel.guild_id, emu.shard_count)} of {emu.shard_count})"
        )
        raise BotNotConnected(f"no bot session is connected for the shard of {where}")
    iid = world.ids.next()
    token = interaction_token(iid)
    guild = world.guilds.get(channel.guild_id) if channel.guild_id is not None else None
    channel_payload = world.channel_payload(channel)
    if type in (APPLICATION_COMMAND, AUTOCOMPLETE) and int(data.get("id") or 0) in world.commands:
        owners = installs.owners_for_command(world, world.commands[int(data["id"])], user, channel)
    else:
        owners = installs.owners_for_message(world, message, channel)
    bot_perms = installs.app_permissions(world, user, channel)
    payload: JSON = {
        "id": str(iid),
        "application_id": str(world.application_id),
        "type": type,
        "data": data,
        "token": token,
        "version": 1,
        "channel_id": str(channel.id),
        "channel": channel_payload,
        "app_permissions": str(bot_perms),
        "locale": locale or user.locale,
        "entitlements": [],
        "entitlement_sku_ids": [],
        "authorizing_integration_owners": owners,
        "context": installs.context_of(channel),
        "attachment_size_limit": emu.attachment_size_limit,
    }
    if not world.can_access(user, channel):
        raise HarnessError(
            f"{user.username} cannot use {channel!r} (not a member / someone else's DM / private thread / no view)"
        )
    if guild is not None:
        user_perms = world.permissions(user, channel)
        channel_payload["permissions"] = str(user_perms)
        payload["guild_id"] = str(guild.id)
        payload["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
        payload["guild_locale"] = guild.locale
        payload["member"] = world.member_payload(guild, user, permissions=user_perms)
    else:
        payload["user"] = user.payload()
    if message is not None:
        payload["message"] = world.message_payload(message)
    now = asyncio.get_running_loop().time()
    inter = Interaction(
        id=iid,
        token=token,
        type=type,
        user_id=user.id,
        channel_id=channel.id,
        guild_id=guild.id if guild else None,
        data=data,
        payload=payload,
        created_at=now,
        deadline=now + emu.interaction_deadline,
        created_wall=emu.now(),
        message_id=message.id if message is not None else None,
        owners=owners,
        public_allowed=installs.may_answer_publicly(world, user, channel, owners),
    )
    world.interactions[iid] = inter
    world.interactions_by_token[token] = inter
    await emu.gateway.dispatch("INTERACTION_CREATE", payload)
    return inter


__all__ = [
    "APPLICATION_COMMAND",
    "AUTOCOMPLETE",
    "MESSAGE_COMPONENT",
    "MODAL_SUBMIT",
    "BotNotConnected",
    "CommandUnavailable",
    "HarnessError",
    "build_command_data",
    "dispatch_interaction",
    "find_command",
    "localized",
    "names_match",
]
