"""When the player to act runs out of time, for the game card's "⏳ …" line.

The one place the card asks: today the deadline is the server's timeout setting (else
the bot's) counted from the game's last move, as the reminder sweep counts it
(:mod:`bot.play.reminders`), without the pauses of time away and quiet hours, which
only ever push it later. When the turn clock changes, point this function at it.
"""

from __future__ import annotations

import logging
import math
from datetime import datetime, timedelta

from bot.play.session import Session
from bot.services import Services
from bot.store import CorruptRecord

log = logging.getLogger(__name__)
#: A period this long means "never" (as :data:`bot.play.reminders.NEVER`).
NEVER_HOURS = 3650 * 24


async def turn_deadline(services: Services, session: Session) -> datetime | None:
    """When the seat to act times out; None when nobody human is to act or it never does."""
    seat_no = session.to_act
    seat = session.seat(seat_no) if seat_no is not None else None
    if session.over or session.record.status != "active" or seat is None or seat.is_ai or seat.user_id is None:
        return None
    hours = services.settings.timeout_hours
    if session.record.guild_id is not None:
        try:
            guild = await services.store.guild_settings(session.record.guild_id)
        except CorruptRecord as exc:  # the bot's own period applies, as in the sweep
            log.warning("settings of server %s unreadable: %s", session.record.guild_id, exc)
            guild = None
        if guild is not None and guild.timeout_hours is not None:
            hours = guild.timeout_hours
    if not math.isfinite(hours) or hours <= 0 or hours >= NEVER_HOURS:
        return None
    return datetime.fromisoformat(session.record.updated_at) + timedelta(hours=hours)
