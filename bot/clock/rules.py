"""A server's clock rules from its settings: the server's own periods, else the bot's defaults.

The clock (:mod:`bot.clock.clocks`) and the settings' description (:mod:`bot.admin.server_settings`)
both ask here, so the two never disagree."""

from __future__ import annotations

from datetime import timedelta

from bot.clock.clock import ClockRules
from bot.config.settings import Settings
from bot.store import GuildSettings


def effective_periods(settings: GuildSettings, defaults: Settings) -> tuple[float, float]:
    """(reminder, timeout) in hours: the server's own, else the bot's."""
    return (settings.reminder_hours or defaults.reminder_hours, settings.timeout_hours or defaults.timeout_hours)


def effective_increment(settings: GuildSettings, defaults: Settings) -> float:
    """What a move adds to the bank, in hours: the server's own, else the bot's."""
    return settings.increment_hours if settings.increment_hours is not None else defaults.increment_hours


def clock_rules(settings: GuildSettings, defaults: Settings) -> ClockRules:
    """The server's clock: its full bank, increment, reminder and the most time away
    that pauses one turn (its ``away_days``)."""
    reminder, timeout = effective_periods(settings, defaults)
    bank = timedelta(hours=timeout)
    return ClockRules(bank=bank, increment=min(timedelta(hours=effective_increment(settings, defaults)), bank),
                      reminder=min(timedelta(hours=reminder), bank), pause_cap=timedelta(days=settings.away_days))
