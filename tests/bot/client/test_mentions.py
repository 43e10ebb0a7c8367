"""Every channel message create and edit the bot makes says whom it may ping
(``bot.client.mentions``): discord.py leaves ``allowed_mentions`` out of an edit without
``content=``, and Discord then pings with its default allowances (issue #37)."""

from __future__ import annotations

import asyncio
import io
import json

import discord
from hypothesis import given
from hypothesis import strategies as st

from bot.client.mentions import always_say_whom_to_ping, with_mentions
from bot.config.api_base import configure_api_base
from emulator.server import Emulator

NONE = discord.AllowedMentions.none()


def _sent(params: discord.http.MultipartParameters) -> dict[str, object]:
    """The JSON body the request carries (the payload, or the multipart's payload_json)."""
    if params.payload is not None:
        return params.payload
    part = next(p for p in params.multipart or [] if p["name"] == "payload_json")
    return json.loads(part["value"])  # type: ignore[no-any-return]


@given(content=st.one_of(st.none(), st.text(max_size=20)), with_file=st.booleans(),
       explicit=st.sampled_from([None, discord.AllowedMentions(users=True, roles=False, everyone=False)]))
def test_every_request_carries_allowed_mentions_and_an_explicit_one_is_kept(
        content: str | None, with_file: bool, explicit: discord.AllowedMentions | None) -> None:
    kwargs: dict[str, object] = {}
    if content is not None:
        kwargs["content"] = content
    if with_file:
        kwargs["file"] = discord.File(io.BytesIO(b"png"), filename="board.png")
    if explicit is not None:
        kwargs["allowed_mentions"] = explicit
    with discord.http.handle_message_parameters(**kwargs) as params:  # type: ignore[arg-type]
        assert with_mentions(params, NONE) is params
        sent = _sent(params)
    assert sent["allowed_mentions"] == (explicit or NONE).to_dict()


async def test_an_edit_that_only_strips_the_buttons_says_whom_to_ping() -> None:
    emulator = await Emulator.start()
    configure_api_base(emulator.api_url)
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    always_say_whom_to_ping(http, NONE)
    try:
        await http.static_login(emulator.token)
        channel = emulator.general.id
        posted = await http.send_message(channel, params=discord.http.handle_message_parameters(
            content="<@1> your turn", allowed_mentions=NONE))
        with discord.http.handle_message_parameters(view=None) as params:  # what strip_buttons sends
            await http.edit_message(channel, posted["id"], params=params)
        with discord.http.handle_message_parameters(
                attachments=[discord.File(io.BytesIO(b"png"), filename="b.png")]) as params:
            await http.edit_message(channel, posted["id"], params=params)
    finally:
        await http.close()
        configure_api_base(None)
        await emulator.close()
    assert [v.rule for v in emulator.violations] == []
    edits = emulator.requests_to("PATCH /channels/{channel_id}/messages/{message_id}")
    assert [r.status for r in edits] == [200, 200]
