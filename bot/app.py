"""Starting the bot for real: logging, the API base, services, the client."""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.api_base import configure_api_base
from bot.client import PyramidClient
from bot.services import Services
from bot.settings import Settings
from bot.store import SchemaError, utc_now


async def serve(settings: Settings) -> None:
    configure_api_base(settings.api_base_url)
    services = await Services.open(settings, utc_now)
    client = PyramidClient(services)
    try:
        async with client:
            await client.start(settings.discord_token.get_secret_value())
    finally:
        await services.close()


def run(settings: Settings) -> int:
    discord.utils.setup_logging(level=logging.getLevelName(settings.log_level))
    try:
        asyncio.run(serve(settings))
    except SchemaError as exc:
        logging.getLogger("bot").error("%s", exc)
        return 3
    except discord.LoginFailure:
        logging.getLogger("bot").error("Discord refused the token in DISCORD_TOKEN; check it in the developer portal.")
        return 2
    except KeyboardInterrupt:
        return 0
    return 0
