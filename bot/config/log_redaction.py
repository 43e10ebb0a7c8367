"""Secrets never reach a log line, at any level.

discord.py's DEBUG logging prints every HTTP request's URL (interaction callbacks
and webhook follow-ups carry the interaction's token in the path) and every gateway
event's payload (an INTERACTION_CREATE carries ``"token"``). A token lets anyone
answer or edit the bot's replies for 15 minutes; the bot token is the bot itself.
A log file is read by more people, and kept longer, than either deserves.

:class:`SecretRedactor` is a logging filter that rewrites each record it sees:
the formatted message, the traceback and the stack, so nothing formatted later can
bring a secret back. It is installed on the root logger's handlers at start-up, so
it covers every logger that propagates there, at every level.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable

REDACTED = "[redacted]"

#: (pattern, replacement): what a token looks like wherever it may be printed.
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # /webhooks/<application id>/<token>..., /interactions/<id>/<token>/callback
    (re.compile(r"(/(?:webhooks|interactions)/\d+/)[^/\s?#'\"<>]+"), rf"\1{REDACTED}"),
    # Authorization: Bot xxx / 'Authorization': 'Bot xxx' / authorization=Bearer xxx
    (re.compile(r"(?i)(authorization['\"]?\s*[:=]\s*['\"]?(?:(?:bot|bearer)\s+)?)[^\s'\",}]+"), rf"\1{REDACTED}"),
    # "token": "xxx" / 'token': 'xxx' / "access_token": "xxx" in payloads and reprs
    (re.compile(r"(?i)(['\"][a-z_]*token['\"]\s*:\s*['\"])[^'\"]+"), rf"\1{REDACTED}"),
    # ?token=xxx&... in query strings
    (re.compile(r"(?i)([?&][a-z_]*token=)[^&\s'\"]+"), rf"\1{REDACTED}"),
    # Anything shaped like a Discord bot token: base64 user id . timestamp . hmac
    (re.compile(r"\b[MNO][A-Za-z\d_-]{23,27}\.[A-Za-z\d_-]{6}\.[A-Za-z\d_-]{27,}"), REDACTED),
)


class SecretRedactor(logging.Filter):
    """Rewrites records so no known secret or token-shaped text is left in them."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self._secrets: list[str] = []
        for secret in secrets:
            self.add_secret(secret)

    def add_secret(self, secret: str) -> None:
        """Redact this exact text too (the configured bot token, for one)."""
        if secret and secret not in self._secrets:
            self._secrets.append(secret)
            self._secrets.sort(key=len, reverse=True)  # a longer secret first, should one contain another

    def redact(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, REDACTED)
        for pattern, replacement in _PATTERNS:
            text = pattern.sub(replacement, text)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError, KeyError):  # arguments that don't fit the format: keep both
            message = f"{record.msg} {record.args!r}"
        # The traceback joins the message: some formatters (discord.py's coloured
        # one) format ``exc_info`` afresh, which would bring the secrets back.
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            message = f"{message}\n{record.exc_text}"
        record.msg, record.args = self.redact(message), None
        record.exc_info, record.exc_text = None, None
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


def install_redaction(*secrets: str, logger: logging.Logger | None = None) -> SecretRedactor:
    """Put one :class:`SecretRedactor` on every handler of ``logger`` (the root
    logger by default) and teach it ``secrets``. Calling it again reuses the filter."""
    target = logger if logger is not None else logging.getLogger()
    redactor = next((f for h in target.handlers for f in h.filters if isinstance(f, SecretRedactor)), None)
    if redactor is None:
        redactor = SecretRedactor()
    for secret in secrets:
        redactor.add_secret(secret)
    for handler in target.handlers:
        if redactor not in handler.filters:
            handler.addFilter(redactor)
    return redactor


__all__ = ["REDACTED", "SecretRedactor", "install_redaction"]
