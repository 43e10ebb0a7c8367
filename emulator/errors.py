"""Discord's JSON error responses, as the emulator sends them.

An :class:`APIError` raised by a route handler becomes the HTTP error response. When it carries a ``rule`` the
emulator also records a :class:`Violation` (the bot broke one of Discord's documented rules); errors without a rule
are legitimate refusals (closed DMs, unknown ids, 429s) that a well-behaved bot must handle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]

# JSON error codes (https://discord.com/developers/docs/topics/opcodes-and-status-codes#json)
UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MESSAGE = 10008
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_APPLICATION_COMMAND = 10063
UNKNOWN_INTERACTION = 10062
REQUEST_ENTITY_TOO_LARGE = 40005
INTERACTION_ALREADY_ACKNOWLEDGED = 40060
MISSING_ACCESS = 50001
CANNOT_EDIT_OTHERS_MESSAGE = 50005
CANNOT_SEND_EMPTY_MESSAGE = 50006
CANNOT_SEND_MESSAGES_TO_USER = 50007
MISSING_PERMISSIONS = 50013
CANNOT_EXECUTE_ON_SYSTEM_MESSAGE = 50021
CANNOT_EXECUTE_ON_CHANNEL_TYPE = 50024
INVALID_WEBHOOK_TOKEN = 50027
INVALID_FORM_BODY = 50035
THREAD_ARCHIVED = 50083
REPLY_WITHOUT_HISTORY = 160002
THREAD_ALREADY_CREATED = 160004
THREAD_LOCKED = 160005


@dataclass
class Violation:
    """One broken Discord rule. ``expected`` is set by ``Emulator.expect_violation``."""

    rule: str
    detail: str
    route: str = ""
    expected: bool = False

    def __str__(self) -> str:
        where = f" [{self.route}]" if self.route else ""
        return f"{self.rule}: {self.detail}{where}"


@dataclass
class APIError(Exception):
    status: int
    code: int
    message: str
    errors: JSON | None = None
    rule: str | None = None
    detail: str = ""
    extra: JSON = field(default_factory=dict)
    more_rules: list[tuple[str, str]] = field(default_factory=list)  # further (rule, detail) broken by the request

    def __post_init__(self) -> None:
        super().__init__(f"{self.status} {self.code} {self.message}")

    def body(self) -> JSON:
        body: JSON = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        body.update(self.extra)
        return body


def not_found(code: int, what: str) -> APIError:
    return APIError(404, code, f"Unknown {what}")


def unknown_channel() -> APIError:
    return not_found(UNKNOWN_CHANNEL, "Channel")


def unknown_message() -> APIError:
    return not_found(UNKNOWN_MESSAGE, "Message")


def unknown_user() -> APIError:
    return not_found(UNKNOWN_USER, "User")


def unknown_webhook(rule: str | None = None, detail: str = "") -> APIError:
    return APIError(404, UNKNOWN_WEBHOOK, "Unknown Webhook", rule=rule, detail=detail)


def unknown_interaction(rule: str | None = None, detail: str = "") -> APIError:
    return APIError(404, UNKNOWN_INTERACTION, "Unknown interaction", rule=rule, detail=detail)


def unauthorized() -> APIError:
    return APIError(401, 0, "401: Unauthorized")


def missing_access(detail: str) -> APIError:
    """403 / 50001: the bot cannot see the channel (no VIEW_CHANNEL)."""
    return APIError(403, MISSING_ACCESS, "Missing Access", rule="missing-access", detail=detail)


def missing_permissions(detail: str) -> APIError:
    """403 / 50013: the bot sees the channel but lacks the permission the action needs."""
    return APIError(403, MISSING_PERMISSIONS, "Missing Permissions", rule="missing-permissions", detail=detail)


def thread_archived(detail: str) -> APIError:
    return APIError(
        400,
        THREAD_ARCHIVED,
        "Thread is archived",
        rule="thread-archived",
        detail=detail,
    )


def thread_locked(detail: str) -> APIError:
    return APIError(403, THREAD_LOCKED, "Thread is locked", rule="thread-locked", detail=detail)


def wrong_channel_type(detail: str) -> APIError:
    return APIError(
        400,
        CANNOT_EXECUTE_ON_CHANNEL_TYPE,
        "Cannot execute action on this channel type",
        rule="channel-type",
        detail=detail,
    )
