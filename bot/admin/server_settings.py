"""Changing a server's settings: what ``/pyramid-admin settings`` may store.

Discord's min/max on the command's options are a convenience, not a guard: a forged
interaction skips them. So a change is validated here against the same bounds
(:class:`~bot.store.GuildSettings`), and the reminder must come before the timeout
once the bot's own defaults fill in what the server left unset.

Its sentences are for the admin who asked, in their language (``lang``; English
when none is given).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from bot.clock.clock_text import duration
from bot.clock.rules import clock_rules, effective_increment, effective_periods
from bot.config.settings import Settings
from bot.store import GuildSettings
from bot.store.records import (
    AWAY_DAYS,
    AWAY_WINDOW_DAYS,
    INCREMENT_HOURS,
    MAX_OPEN_GAMES,
    REMINDER_HOURS,
    TIMEOUT_HOURS,
)
from i18n import N_, SUPPORTED, Lang

#: Each bounded setting's refusal (a template with ``{low}`` and ``{high}``) and its bounds.
LIMITS: dict[str, tuple[str, tuple[float, float]]] = {
    "reminder_hours": (N_("reminder_hours must be from {low:g} to {high:g} hours"), REMINDER_HOURS),
    "timeout_hours": (N_("timeout_hours must be from {low:g} to {high:g} hours"), TIMEOUT_HOURS),
    "increment_hours": (N_("increment_hours must be from {low:g} to {high:g} hours"), INCREMENT_HOURS),
    "max_open_games": (N_("max_open_games must be from {low} to {high}"), MAX_OPEN_GAMES),
    "away_days": (N_("away_days must be from {low} to {high} days"), AWAY_DAYS),
    "away_window_days": (N_("away_window_days must be from {low} to {high} days"), AWAY_WINDOW_DAYS),
}
#: The languages a server may choose, each named in its own words.
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch"}
ENGLISH = Lang("en")


class SettingsRefused(Exception):
    """A settings change that can't be stored; the message says why, for the admin."""


def change_settings(current: GuildSettings, changes: Mapping[str, Any], defaults: Settings,
                    lang: Lang = ENGLISH) -> GuildSettings:
    """``current`` with ``changes`` applied, or :class:`SettingsRefused` (said in ``lang``).
    ``language`` must be one the bot speaks (``"en"``, ``"de"``) or None (English)."""
    if changes.get("language") is not None and changes["language"] not in SUPPORTED:
        raise SettingsRefused(lang.tr("language must be one of {languages}",
                                      languages=", ".join(LANGUAGE_NAMES[c] for c in SUPPORTED)))
    try:
        updated = GuildSettings.model_validate({**current.model_dump(), **changes})
    except ValidationError as exc:
        fields = [str(err["loc"][0]) for err in exc.errors() if err["loc"]]
        reasons = [lang.tr(LIMITS[f][0], low=LIMITS[f][1][0], high=LIMITS[f][1][1])
                   for f in dict.fromkeys(fields) if f in LIMITS]
        if "timeout_action" in fields:
            reasons.append(lang.tr("on_timeout must be ai or forfeit"))
        raise SettingsRefused("; ".join(reasons) or lang.tr("The reminder must come before the timeout")) from None
    reminder, timeout = effective_periods(updated, defaults)
    if reminder >= timeout:
        raise SettingsRefused(lang.tr("The reminder ({reminder:g} h) must come before the timeout ({timeout:g} h)",
                                      reminder=reminder, timeout=timeout))
    if updated.increment_hours is not None and updated.increment_hours > timeout:
        raise SettingsRefused(lang.tr("The increment ({increment:g} h) can't be more than the whole time bank "
                                      "(timeout_hours, {timeout:g} h)",
                                      increment=updated.increment_hours, timeout=timeout))
    if updated.away_days > updated.away_window_days:
        raise SettingsRefused(lang.tr("The days away ({days}) must fit in their window ({window} days)",
                                      days=updated.away_days, window=updated.away_window_days))
    return updated


def describe(settings: GuildSettings, defaults: Settings, lang: Lang = ENGLISH) -> str:
    """The server's settings in words, in ``lang``."""
    reminder, timeout = effective_periods(settings, defaults)
    where = lang.tr("in threads") if settings.use_threads else lang.tr("in the channel")
    then = lang.tr("an AI takes the seat") if settings.timeout_action == "ai" else lang.tr("the player forfeits")
    return lang.tr(
        "games are played **{where}**; the clock: each seat has a time bank of **{timeout:g} h**, a move adds "
        "**{increment:g} h** (never past the bank), a reminder once a turn has used **{reminder:g} h** of a full "
        "bank, and when the bank is empty {then}; each member may have **{games} open games** (lobbies and "
        "running games they opened); members may be away (`/pyramid away`) **{days} days** in any **{window} "
        "days**, which pause their clocks here; so one turn lasts at most **{bound}**; the channel reads "
        "**{language}**.",
        where=where, reminder=reminder, timeout=timeout, increment=effective_increment(settings, defaults),
        then=then, games=settings.max_open_games, days=settings.away_days, window=settings.away_window_days,
        bound=duration(clock_rules(settings, defaults).bound, lang),
        language=LANGUAGE_NAMES.get(settings.language or "en", "English"))
