"""Starting the bot for real: logging, the API base, services, the client."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal

import aiohttp
import discord

from bot.api_base import configure_api_base
from bot.client import PyramidClient
from bot.services import Services
from bot.settings import Settings
from bot.store import SchemaError, utc_now

log = logging.getLogger("bot")


async def serve(settings: Settings) -> None:
    """Run until Discord closes us or the process is asked to stop.

    ``docker stop`` and service managers send SIGTERM; without a handler Python dies
    on the spot and the render and AI worker processes are orphaned. A stop request
    closes the client (cancelling background work: a move already written is
    announced on the next start) and then the worker pools and the database."""
    configure_api_base(settings.api_base_url)
    services = await Services.open(settings, utc_now)
    client = PyramidClient(services)
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []

    def request_stop() -> None:
        if not closing:  # client.start() returns once the client is closed
            log.info("stop requested: closing the connection, the workers and the database")
            closing.append(loop.create_task(client.close()))

    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not on Windows, nor off the main thread
            loop.add_signal_handler(sig, request_stop)
    try:
        async with client:
            await client.start(settings.discord_token.get_secret_value())
            await asyncio.gather(*closing)
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(sig)
        await services.close()


def run(settings: Settings) -> int:
    discord.utils.setup_logging(level=logging.getLevelName(settings.log_level))
    try:
        asyncio.run(serve(settings))
    except SchemaError as exc:
        log.error("%s", exc)
        return 3
    except discord.LoginFailure:
        log.error("Discord refused the token in DISCORD_TOKEN; check it in the developer portal.")
        return 2
    except aiohttp.ClientConnectionError as exc:
        log.error("Cannot reach Discord (%s): check the network, or PYRAMID_API_BASE_URL if you set it.", exc)
        return 4
    except KeyboardInterrupt:
        return 0
    return 0
