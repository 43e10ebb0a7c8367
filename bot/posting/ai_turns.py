"""An AI seat's turn: think off the event loop, then move like anyone else."""

from __future__ import annotations

import logging

from bot.core.errors import PlayError, StaleBoard
from bot.core.services import Services
from engine.core import MoveRejected, derive_seed

log = logging.getLogger(__name__)


async def play_ai_turn(services: Services, game_id: int, version: int) -> bool:
    """Let the AI in the seat to act move, if the board is still the one it was
    scheduled for (a human resign or a restart may have moved things on).
    Returns whether it moved; the caller announces."""
    try:
        session = await services.sessions.load(game_id)
    except PlayError:
        return False
    seat = session.to_act
    record = session.seat(seat) if seat is not None else None
    if session.version != version or seat is None or record is None or not record.is_ai or session.over:
        return False
    level = record.ai_level or "normal"
    seed = derive_seed(session.record.seed, f"ai:{version}:{seat}")
    move = await services.cpu.ai_move(session.game, session.game.to_position(session.state), seat, level, seed)
    try:
        await services.sessions.make_move(game_id, move, user_id=None, seat=seat, expected_version=version)
    except (StaleBoard, PlayError, MoveRejected) as exc:
        log.warning("AI move %r in game %s refused: %s", move, game_id, exc)
        return False
    return True
