"""Changing a server's settings: what ``/pyramid-admin settings`` may store.

Discord's min/max on the command's options are a convenience, not a guard: a forged
interaction skips them. So a change is validated here against the same bounds
(:class:`~bot.store.GuildSettings`), and the reminder must come before the timeout
once the bot's own defaults fill in what the server left unset.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from bot.settings import Settings
from bot.store import GuildSettings
from bot.store.records import MAX_OPEN_GAMES, REMINDER_HOURS, TIMEOUT_HOURS

LIMITS = {
    "reminder_hours": f"reminder_hours must be from {REMINDER_HOURS[0]:g} to {REMINDER_HOURS[1]:g} hours",
    "timeout_hours": f"timeout_hours must be from {TIMEOUT_HOURS[0]:g} to {TIMEOUT_HOURS[1]:g} hours",
    "max_open_games": f"max_open_games must be from {MAX_OPEN_GAMES[0]} to {MAX_OPEN_GAMES[1]}",
}


class SettingsRefused(Exception):
    """A settings change that can't be stored; the message says why, for the admin."""


def change_settings(current: GuildSettings, changes: Mapping[str, Any], defaults: Settings) -> GuildSettings:
    """``current`` with ``changes`` applied, or :class:`SettingsRefused`."""
    try:
        updated = GuildSettings.model_validate({**current.model_dump(), **changes})
    except ValidationError as exc:
        fields = [str(err["loc"][0]) for err in exc.errors() if err["loc"]]
        reasons = [LIMITS[f] for f in dict.fromkeys(fields) if f in LIMITS]
        raise SettingsRefused("; ".join(reasons) or "The reminder must come before the timeout") from None
    reminder, timeout = effective_periods(updated, defaults)
    if reminder >= timeout:
        raise SettingsRefused(f"The reminder ({reminder:g} h) must come before the timeout ({timeout:g} h)")
    return updated


def effective_periods(settings: GuildSettings, defaults: Settings) -> tuple[float, float]:
    """(reminder, timeout) in hours: the server's own, else the bot's."""
    return (settings.reminder_hours or defaults.reminder_hours, settings.timeout_hours or defaults.timeout_hours)


def describe(settings: GuildSettings, defaults: Settings) -> str:
    reminder, timeout = effective_periods(settings, defaults)
    return (
        f"games are played **{'in threads' if settings.use_threads else 'in the channel'}**; "
        f"reminder after **{reminder:g} h** idle; after **{timeout:g} h** "
        f"{'an AI takes the seat' if settings.timeout_action == 'ai' else 'the player forfeits'}; "
        f"each member may have **{settings.max_open_games} open games** (lobbies and running games they opened)."
    )
