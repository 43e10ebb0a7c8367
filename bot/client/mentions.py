"""Every message request the bot makes says whom it may ping.

Discord parses a message's mentions with its default allowances (every user, role and
@everyone mentioned) when a create or edit carries no ``allowed_mentions``: an edit that
only strips a card's buttons re-parses the card's text, mentions included. discord.py adds
the client's default to sends, interaction responses, follow-ups and webhook edits, but to
``Message.edit`` / ``PartialMessage.edit`` only when ``content=`` is passed. All of the
channel's message routes go through two methods of discord.py's ``HTTPClient``
(``send_message``, ``edit_message``), so the default is guaranteed there, once, whatever
helper made the request. The emulator records a request without it
(``allowed-mentions-missing``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import discord
from discord.http import MultipartParameters

#: The HTTPClient methods behind every channel message create and edit.
MESSAGE_ROUTES = ("send_message", "edit_message")


def with_mentions(params: MultipartParameters, default: discord.AllowedMentions) -> MultipartParameters:
    """``params`` with ``allowed_mentions`` set to ``default`` where the request has none
    (in place: callers close the files of the same object). A JSON body carries it in
    ``payload``; a multipart one in its ``payload_json`` part, already serialized."""
    if params.payload is not None:
        params.payload.setdefault("allowed_mentions", default.to_dict())
    for part in params.multipart or ():
        if part.get("name") == "payload_json":
            body = json.loads(part["value"])
            if "allowed_mentions" not in body:
                body["allowed_mentions"] = default.to_dict()
                part["value"] = json.dumps(body, separators=(",", ":"), ensure_ascii=True)
    return params


def always_say_whom_to_ping(http: discord.http.HTTPClient, default: discord.AllowedMentions) -> None:
    """Make every channel message create and edit through ``http`` carry ``allowed_mentions``
    (``default`` where the caller gave none). Call once, on the client's own HTTPClient."""
    for name in MESSAGE_ROUTES:
        original: Callable[..., Any] = getattr(http, name)

        def guarded(*args: Any, params: MultipartParameters, _original: Callable[..., Any] = original,
                    **kwargs: Any) -> Any:
            return _original(*args, params=with_mentions(params, default), **kwargs)

        setattr(http, name, guarded)
