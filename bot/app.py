"""Starting the bot for real: logging, the API base, services, the client."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
from collections.abc import Callable

import aiohttp
import discord

from bot.client.client import PyramidClient
from bot.config.api_base import configure_api_base
from bot.config.log_redaction import install_redaction
from bot.config.log_setup import setup_logging
from bot.config.settings import Settings
from bot.core.services import Services
from bot.ops import advice, health
from bot.ops.endpoint import MetricsPortError, OpsServer
from bot.ops.exit_codes import ExitCode
from bot.ops.metrics import ErrorCounter, instrument
from bot.ops.running import BotAlreadyRunning, DatabaseBusy, bot_running
from bot.store import SchemaError, utc_now
from bot.store.database import DatabaseDamaged, DatabaseUnavailable

log = logging.getLogger("bot")


async def serve(settings: Settings) -> None:
    """Run until Discord closes us or the process is asked to stop.

    ``docker stop`` and service managers send SIGTERM; without a handler Python dies
    on the spot and the render and AI worker processes are orphaned. A stop request
    closes the client (cancelling background work: a move already written is
    announced on the next start) and then the worker pools and the database.

    While it runs the bot holds the database's lock exclusively (``bot.ops.running``):
    a second bot on the same file stops before it touches the database or Discord,
    and ``pyramid-bot restore`` refuses to replace a database in use. It also takes
    the automatic backups and, if configured, serves /healthz and /metrics."""
    refuse_partial_shards(settings)
    configure_api_base(settings.api_base_url)
    # One bot per SQLite file; a PostgreSQL database is shared by design.
    holding = bot_running(settings.database_path) if settings.database.path is not None else contextlib.nullcontext()
    with holding:
        services = await Services.open(settings, utc_now)
        tune_gc()
        try:
            await _operate(settings, services)
        finally:
            await services.close()


class ShardsNeedSharedDatabase(Exception):
    """This process would run only some of Discord's shards, and the others cannot be run beside it."""


def refuse_partial_shards(settings: Settings) -> None:
    """Stop a bot that would run only some shards: another process would have to run
    the rest, and two processes cannot share a SQLite database (``bot.ops.running``);
    on PostgreSQL they can.
    Checked before the database is locked or Discord is called, so nothing is touched."""
    if settings.runs_every_shard or settings.database.shared:
        return
    ids = ",".join(map(str, settings.shard_ids or ()))
    raise ShardsNeedSharedDatabase(
        f"Pyramid Bot cannot start: PYRAMID_SHARD_IDS={ids} runs only some of the {settings.shard_count} shards "
        "(PYRAMID_SHARD_COUNT), so another bot process would have to run the others, and two processes cannot "
        "share one SQLite database. Leave PYRAMID_SHARD_IDS unset to run every shard in this process, or point "
        "PYRAMID_DATABASE at a PostgreSQL database (postgresql://…) that every bot process shares."
    )


async def _operate(settings: Settings, services: Services) -> None:
    client = PyramidClient(services)
    instrument(client, services.metrics)
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []

    def request_stop() -> None:
        if not closing:  # client.start() returns once the client is closed
            log.info("stop requested: closing the connection, the workers and the database")
            closing.append(loop.create_task(client.close()))

    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not on Windows, nor off the main thread
            loop.add_signal_handler(sig, request_stop)
    errors = ErrorCounter(services.metrics)
    logging.getLogger().addHandler(errors)
    try:
        async with contextlib.AsyncExitStack() as running:
            if settings.metrics_port is not None:
                endpoint = OpsServer(services.metrics, lambda: health.check(client, services.db),
                                     settings.metrics_host, settings.metrics_port)
                await endpoint.start()
                running.push_async_callback(endpoint.close)
            if services.backups is not None:
                backups = asyncio.create_task(services.backups.run(), name="automatic-backups")
                running.push_async_callback(_cancel, backups)
            async with client:
                await client.start(settings.discord_token.get_secret_value())
                await asyncio.gather(*closing)
    finally:
        logging.getLogger().removeHandler(errors)
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(sig)


async def _cancel(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def tune_gc() -> None:
    """Python's cycle collector, tuned for a long-running server: what exists once the bot
    is set up (modules, settings, caches) is frozen out of every later collection, and
    young objects are collected every 10,000 allocations instead of every 700. Under the
    load bench the collector had cost about a millisecond of each move's CPU, nearly all
    of it in full collections that walked the whole heap."""
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed (Linux and macOS): the same asyncio API, with the
    loop, its sockets and its thread wake-ups in C. The bot's own process spends most of its time
    there (HTTP to Discord, the gateway, the SQLite statements and picture jobs it hands out);
    measured with the load bench. Elsewhere (Windows) the standard loop."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def run(settings: Settings) -> int:
    setup_logging(settings.log_level)  # colour on a terminal only; no voice warnings
    install_redaction(settings.discord_token.get_secret_value())  # tokens never reach a log line
    try:
        with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
            runner.run(serve(settings))
    except SchemaError as exc:
        log.error("%s", exc)
        return ExitCode.SCHEMA
    except DatabaseDamaged as exc:
        log.error("%s", advice.damaged(exc, settings))
        return ExitCode.DATABASE_DAMAGED
    except DatabaseUnavailable as exc:
        log.error("%s", advice.unavailable(exc, settings))
        return ExitCode.DATABASE_UNAVAILABLE
    except BotAlreadyRunning as exc:
        log.error("%s", exc)
        return ExitCode.ALREADY_RUNNING
    except DatabaseBusy as exc:  # being restored
        log.error("%s", exc)
        return ExitCode.DATABASE_UNAVAILABLE
    except ShardsNeedSharedDatabase as exc:
        log.error("%s", exc)
        return ExitCode.SETTINGS
    except MetricsPortError as exc:
        log.error("%s", exc)
        return ExitCode.METRICS_PORT
    except discord.LoginFailure:
        log.error("Discord refused the token in DISCORD_TOKEN; check it in the developer portal.")
        return ExitCode.SETTINGS
    except aiohttp.ClientConnectionError as exc:
        log.error("Cannot reach Discord (%s): check the network, or PYRAMID_API_BASE_URL if you set it.", exc)
        return ExitCode.UNREACHABLE
    except KeyboardInterrupt:
        return ExitCode.OK
    return ExitCode.OK
