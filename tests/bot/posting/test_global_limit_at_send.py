"""The bot's share of Discord's global limit is taken as each request is sent
(``bot.client.client.limit_requests``): requests that discord.py held back for a route's
bucket do not all go out together when it resets, over the limit."""

from __future__ import annotations

import asyncio

import discord

from bot.client.client import limit_requests
from bot.config.api_base import configure_api_base
from bot.posting.rest_budget import GlobalLimit
from emulator.ratelimits import Limit, RateLimits
from emulator.server import Emulator

PER_SECOND = 3


async def test_posts_held_by_a_channels_bucket_still_keep_the_global_limit() -> None:
    # The channel's bucket (5 posts per 2.5 s here: Discord's is 5 per 5 s) holds the sixth to
    # tenth post; Discord's global limit is left out so that every post's arrival can be seen.
    emulator = await Emulator.start(rate_limits=RateLimits(
        global_per_second=None, routes={"POST /channels/{channel_id}/messages": Limit(5, 2.5)}))
    configure_api_base(emulator.api_url)
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    limit_requests(http, GlobalLimit(PER_SECOND))
    try:
        await http.static_login(emulator.token)
        channel = emulator.general.id
        await asyncio.gather(*(http.send_message(channel, params=discord.http.handle_message_parameters(
            content=f"post {n}")) for n in range(10)))
    finally:
        await http.close()
        configure_api_base(None)
        await emulator.close()
    posts = [r.at for r in emulator.requests if r.route == "POST /channels/{channel_id}/messages" and r.status == 200]
    assert len(posts) == 10
    # Any window of one second, less 0.1 s for a request that reaches the emulator a little
    # later than the one admitted after it, holds at most the budget.
    assert max(sum(1 for t in posts if first <= t < first + 0.9) for first in posts) <= PER_SECOND, posts
