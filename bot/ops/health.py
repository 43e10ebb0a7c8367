"""Is the bot well? Connected to Discord, and its database answers.

What ``/healthz`` reports and Docker's HEALTHCHECK acts on: a bot that lost its
gateway connection for good, or whose database stopped answering, is restarted."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Literal

import discord
from pydantic import BaseModel

from bot.store import Database

#: The database must answer within this many seconds to count as answering.
DATABASE_TIMEOUT = 2.0


class Health(BaseModel):
    status: Literal["ok", "unhealthy"]
    discord: bool
    database: bool


def discord_connected(client: discord.Client) -> bool:
    """READY and holding an open gateway websocket (false while it reconnects); a
    sharded client only when every shard of this process has its websocket open."""
    if not client.is_ready() or client.is_closed():
        return False
    if isinstance(client, discord.AutoShardedClient):
        shards = client.shards
        return bool(shards) and not any(shard.is_closed() for shard in shards.values())
    ws = client.ws
    return ws is not None and ws.open


async def database_answers(db: Database, timeout: float = DATABASE_TIMEOUT) -> bool:
    with contextlib.suppress(TimeoutError, *db.unreachable):
        return await asyncio.wait_for(db.answers(), timeout)
    return False


async def check(client: discord.Client, db: Database) -> Health:
    connected = discord_connected(client)
    answers = await database_answers(db)
    return Health(status="ok" if connected and answers else "unhealthy", discord=connected, database=answers)
