"""Pictures for Discord. Drawing is CPU work, so it runs in a worker thread and the
event loop keeps answering clicks within Discord's 3 seconds."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from engine.core import Event
from render import render_board, render_hand


async def board_file(
    view: Mapping[str, Any], *, labels: Mapping[str, str] | None = None, events: Sequence[Event] = ()
) -> discord.File:
    data = await asyncio.to_thread(render_board, dict(view), labels=dict(labels or {}), events=list(events))
    return discord.File(io.BytesIO(data), filename="board.png")


async def hand_file(view: Mapping[str, Any]) -> discord.File:
    data = await asyncio.to_thread(render_hand, dict(view))
    return discord.File(io.BytesIO(data), filename="hand.png")
