"""Interaction responses: ``POST /interactions/{id}/{token}/callback`` and the webhook routes used for follow-ups
and for reading/editing/deleting the original response (``/webhooks/{application_id}/{token}/messages/@original``).

Rules enforced here: the initial response within ``Emulator.interaction_deadline`` (3 s) of dispatch, at most one
initial response, a response type that fits the interaction type, follow-ups/edits only after the initial response,
tokens valid for ``Emulator.token_lifetime`` (15 min, on the emulator's clock), the message flags each callback type
and the webhook routes allow, plus every message/modal/autocomplete limit.

These are webhooks: the bot's channel permissions do not apply (see ``access``), only USE_EXTERNAL_EMOJIS and
SEND_TTS_MESSAGES. A deferred "thinking" response (type 5) is completed by editing ``@original``; a follow-up in
its place is Discord's deprecated backwards-compatible path, refused in strict mode (``deferred-followup``) and
imitated (the follow-up edits the loading message) only with ``Emulator(strict=False)``.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import installs, limits
from .appctx import emulator_of, json_response
from .errors import (
    INTERACTION_ALREADY_ACKNOWLEDGED,
    INVALID_WEBHOOK_TOKEN,
    APIError,
    unknown_interaction,
    unknown_message,
    unknown_webhook,
)
from .messages import announce_create, announce_update, create_message, delete_message, edit_message, read_body
from .model import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    EPHEMERAL,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    Interaction,
    Message,
)

if TYPE_CHECKING:
    from .appctx import EmulatorContext

JSON = dict[str, Any]

# callback types
PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE = 1, 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL, LAUNCH_ACTIVITY = 8, 9, 12

VALID_RESPONSES: dict[int, frozenset[int]] = {
    APPLICATION_COMMAND: frozenset({CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL, LAUNCH_ACTIVITY}),
    MESSAGE_COMPONENT: frozenset(
        {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE, MODAL}
    ),
    AUTOCOMPLETE: frozenset({AUTOCOMPLETE_RESULT}),
    MODAL_SUBMIT: frozenset({CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE}),
}

CALLBACK_ROUTE = "POST /interactions/{interaction_id}/{token}/callback"
FOLLOWUP_ROUTE = "POST /webhooks/{webhook_id}/{token}"
WEBHOOK_EDIT_ROUTE = "PATCH /webhooks/{webhook_id}/{token}/messages/{message_id}"


def interaction_metadata(emu: EmulatorContext, inter: Interaction, **extra: Any) -> JSON:
    world = emu.world
    owners = dict(inter.owners)
    meta: JSON = {
        "id": str(inter.id),
        "type": inter.type,
        "user": world.users[inter.user_id].payload(),
        "authorizing_integration_owners": owners,
    }
    if inter.type == APPLICATION_COMMAND:
        meta["name"] = inter.data.get("name")
        meta["command_type"] = inter.data.get("type", 1)
    if inter.message_id is not None:
        meta["interacted_message_id"] = str(inter.message_id)
    meta.update({k: v for k, v in extra.items() if v is not None})
    return meta


def _loop_time() -> float:
    return asyncio.get_running_loop().time()


# --- the initial response -----------------------------------------------------------------------------------------


async def callback(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    arrived = _loop_time()
    try:
        iid = int(request.match_info["interaction_id"])
    except ValueError:
        raise unknown_interaction() from None
    inter = emu.world.interactions.get(iid)
    if inter is None or inter.token != request.match_info["token"]:
        raise unknown_interaction()
    if inter.responded:
        raise APIError(
            400,
            INTERACTION_ALREADY_ACKNOWLEDGED,
            "Interaction has already been acknowledged.",
            rule="interaction-acknowledged",
            detail=f"interaction {inter.id} already answered with type {inter.response_type}",
        )
    if arrived > inter.deadline:
        inter.late = True
        first_time = "interaction-deadline" not in inter.rejected
        inter.rejected.append("interaction-deadline")
        emu.notify()
        took = arrived - inter.created_at
        raise unknown_interaction(
            rule="interaction-deadline" if first_time else None,
            detail=f"initial response {took:.2f}s after dispatch (limit {emu.interaction_deadline}s)",
        )
    inter.callbacks_in_flight += 1
    try:
        body, files = await read_body(request)
        payload = await _respond(emu, inter, body, files)
    except APIError as exc:
        inter.rejected.append(exc.rule or exc.message)
        raise
    finally:
        inter.callbacks_in_flight -= 1
        emu.notify()
    inter.responded_at = arrived
    inter.answered.set()
    emu.notify()
    if request.query.get("with_response") in ("1", "true", "True"):
        return json_response(payload)
    return web.Response(status=204)


async def _respond(emu: EmulatorContext, inter: Interaction, body: JSON, files: list[Any]) -> JSON:
    world = emu.world
    rtype = body.get("type")
    data: JSON = body.get("data") or {}
    valid = VALID_RESPONSES.get(inter.type, frozenset())
    if rtype not in valid or (rtype in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE) and inter.message_id is None):
        problem = limits.Problem(
            "interaction-response-type",
            ("type",),
            "INTERACTION_RESPONSE_TYPE_INVALID",
            f"response type {rtype} is not valid for interaction type {inter.type} (valid: {sorted(valid)})",
        )
        raise limits.form_error([problem])
    assert isinstance(rtype, int)
    channel = world.channels[inter.channel_id]
    user_id = inter.user_id
    message: Message | None = None
    ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL) or not inter.public_allowed
    meta = interaction_metadata(emu, inter)
    msg_type = 20 if inter.type == APPLICATION_COMMAND else 0
    if rtype == CHANNEL_MESSAGE:
        message = create_message(
            emu,
            channel,
            world.bot,
            data,
            files,
            prefix=("data",),
            ephemeral_for=user_id if ephemeral else None,
            webhook_id=world.application_id,
            interaction_metadata=meta,
            msg_type=msg_type,
            allowed_flags=limits.FLAGS_CALLBACK_MESSAGE,
            route=CALLBACK_ROUTE,
        )
    elif rtype == DEFERRED_CHANNEL_MESSAGE:
        problems = limits.check_flags(data.get("flags"), limits.FLAGS_CALLBACK_DEFERRED, ("data", "flags"))
        if problems:
            raise limits.form_error(problems)
        message = create_message(
            emu,
            channel,
            world.bot,
            data,
            [],
            ephemeral_for=user_id if ephemeral else None,
            webhook_id=world.application_id,
            interaction_metadata=meta,
            msg_type=msg_type,
            loading=True,
        )
        inter.awaiting_first_followup = True
    elif rtype == UPDATE_MESSAGE:
        assert inter.message_id is not None
        message = world.messages[inter.message_id]
        edit_message(
            emu, message, data, files, prefix=("data",), allowed_flags=limits.FLAGS_CALLBACK_MESSAGE,
            route=CALLBACK_ROUTE,
        )
    elif rtype == AUTOCOMPLETE_RESULT:
        choices = list(data.get("choices") or [])
        problems = limits.check_choices(choices, option_type=_focused_type(inter.data.get("options") or []))
        if problems:
            raise limits.form_error(problems)
        inter.choices = choices
    elif rtype == MODAL:
        problems = limits.check_modal(data)
        if problems:
            raise limits.form_error(problems)
        inter.modal = data
    inter.response_type = rtype
    if rtype in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE) and message is not None:
        inter.original_message_id = message.id
        await announce_create(emu, message)
    elif rtype in (UPDATE_MESSAGE, DEFERRED_UPDATE_MESSAGE):
        inter.original_message_id = inter.message_id
        if rtype == UPDATE_MESSAGE and message is not None:
            await announce_update(emu, message)
    info: JSON = {"id": str(inter.id), "type": inter.type}
    if message is not None:
        info.update(
            response_message_id=str(message.id),
            response_message_loading=message.loading,
            response_message_ephemeral=message.ephemeral,
        )
    resource: JSON = {"type": rtype}
    if message is not None and rtype in (CHANNEL_MESSAGE, UPDATE_MESSAGE):  # documented: only for types 4 and 7
        resource["message"] = world.message_payload(message)
    return {"interaction": info, "resource": resource}


def _focused_type(options: list[JSON]) -> int | None:
    """The type of the focused option of an autocomplete interaction (searched through subcommands)."""
    for o in options:
        if o.get("focused"):
            return int(o.get("type") or 0) or None
        found = _focused_type(o.get("options") or [])
        if found is not None:
            return found
    return None


# --- follow-ups and the original response -------------------------------------------------------------------------


def _webhook_interaction(emu: EmulatorContext, request: web.Request) -> Interaction:
    inter = emu.world.interactions_by_token.get(request.match_info["token"])
    if inter is None or request.match_info["webhook_id"] != str(emu.world.application_id):
        raise unknown_webhook()
    if emu.now() > inter.created_wall + dt.timedelta(seconds=emu.token_lifetime):
        raise APIError(
            401,
            INVALID_WEBHOOK_TOKEN,
            "Invalid Webhook Token",
            rule="interaction-token-expired",
            detail=f"interaction {inter.id} token used after {emu.token_lifetime:.0f}s",
        )
    if not inter.responded:
        raise unknown_webhook(
            rule="followup-before-response",
            detail=f"{request.method} on the webhook of interaction {inter.id} before its initial response",
        )
    if inter.response_type == AUTOCOMPLETE_RESULT:
        raise unknown_webhook(rule="followup-before-response", detail="autocomplete interactions take no follow-ups")
    return inter


def _webhook_message(emu: EmulatorContext, inter: Interaction, ref: str) -> Message:
    if ref == "@original":
        mid = inter.original_message_id
    else:
        try:
            mid = int(ref)
        except ValueError:
            raise unknown_message() from None
        if mid != inter.original_message_id and mid not in inter.followup_ids:
            error = unknown_message()
            error.rule = "webhook-message-not-owned"
            error.detail = (f"message {mid} is neither the response nor a follow-up of interaction {inter.id} "
                            "(another interaction's message needs that interaction's token)")
            raise error
    msg = emu.world.messages.get(mid) if mid is not None else None
    if msg is None or msg.deleted:
        raise unknown_message()
    return msg


UNSUPPORTED_FOLLOWUP_FIELDS = ("username", "avatar_url", "thread_name", "applied_tags")


def _check_followup_params(request: web.Request, body: JSON) -> None:
    """Interaction follow-ups are Execute Webhook without ``thread_id``, ``username`` and ``avatar_url`` (nor the
    forum-only ``thread_name``/``applied_tags``)."""
    keys = [key for key in UNSUPPORTED_FOLLOWUP_FIELDS if body.get(key) is not None]
    if "thread_id" in request.query:
        keys.append("thread_id")
    if keys:
        raise limits.form_error(
            [
                limits.Problem(
                    "followup-params",
                    (key,),
                    "INTERACTION_FOLLOWUP_FIELD_UNSUPPORTED",
                    f"{key} is not supported for follow-ups",
                )
                for key in keys
            ]
        )


async def followup(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    inter = _webhook_interaction(emu, request)
    world = emu.world
    body, files = await read_body(request)
    _check_followup_params(request, body)
    problems = limits.check_webhook_files(body, len(files))
    if problems:
        raise limits.form_error(problems)
    original = world.messages.get(inter.original_message_id or 0)
    if inter.awaiting_first_followup and original is not None and not original.deleted and original.loading:
        if emu.strict:
            raise APIError(
                400,
                0,
                "Deprecated: a follow-up cannot complete a deferred response in the strict emulator; edit it with "
                "PATCH /webhooks/{application_id}/{token}/messages/@original",
                rule="deferred-followup",
                detail=f"follow-up sent while the deferred response of interaction {inter.id} is still thinking",
            )
        # Lenient mode imitates Discord's deprecated behaviour: the first follow-up after a "thinking" defer edits
        # the loading message; its ephemeral state is the one chosen when deferring.
        inter.awaiting_first_followup = False
        payload = {k: v for k, v in body.items() if k != "flags"}
        edit_message(emu, original, payload, files, allowed_flags=limits.FLAGS_FOLLOWUP, route=FOLLOWUP_ROUTE)
        await announce_update(emu, original)
        return json_response(world.message_payload(original))
    if installs.user_install_only(inter.owners) and len(inter.followup_ids) >= installs.USER_INSTALL_FOLLOWUP_LIMIT:
        raise APIError(
            400,
            0,
            f"Maximum number of follow-up messages reached ({installs.USER_INSTALL_FOLLOWUP_LIMIT}) for an "
            "interaction authorized by a user install only",
            rule="followup-limit",
            detail=f"interaction {inter.id}: follow-up number {len(inter.followup_ids) + 1}",
        )
    ephemeral = bool(int(body.get("flags") or 0) & EPHEMERAL) or not inter.public_allowed
    channel = world.channels[inter.channel_id]
    meta = interaction_metadata(emu, inter, original_response_message_id=str(inter.original_message_id or "") or None)
    msg = create_message(
        emu,
        channel,
        world.bot,
        body,
        files,
        ephemeral_for=inter.user_id if ephemeral else None,
        webhook_id=world.application_id,
        interaction_metadata=meta,
        allowed_flags=limits.FLAGS_FOLLOWUP,
        route=FOLLOWUP_ROUTE,
    )
    inter.followup_ids.append(msg.id)
    await announce_create(emu, msg)
    return json_response(world.message_payload(msg))  # interaction follow-ups always "wait"


async def get_webhook_message(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    inter = _webhook_interaction(emu, request)
    msg = _webhook_message(emu, inter, request.match_info["message_id"])
    return json_response(emu.world.message_payload(msg))


async def edit_webhook_message(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    inter = _webhook_interaction(emu, request)
    msg = _webhook_message(emu, inter, request.match_info["message_id"])
    body, files = await read_body(request)
    edit_message(emu, msg, body, files, allowed_flags=limits.FLAGS_WEBHOOK_EDIT, route=WEBHOOK_EDIT_ROUTE)
    if msg.id == inter.original_message_id:
        inter.awaiting_first_followup = False
    await announce_update(emu, msg)
    return json_response(emu.world.message_payload(msg))


async def delete_webhook_message(request: web.Request) -> web.Response:
    emu = emulator_of(request)
    inter = _webhook_interaction(emu, request)
    msg = _webhook_message(emu, inter, request.match_info["message_id"])
    await delete_message(emu, msg)
    return web.Response(status=204)


def register(app: web.Application, prefix: str) -> None:
    r = app.router
    r.add_post(prefix + "/interactions/{interaction_id}/{token}/callback", callback)
    hook = prefix + "/webhooks/{webhook_id}/{token}"
    r.add_post(hook, followup)
    r.add_get(hook + "/messages/{message_id}", get_webhook_message)
    r.add_patch(hook + "/messages/{message_id}", edit_webhook_message)
    r.add_delete(hook + "/messages/{message_id}", delete_webhook_message)
