"""Time away and quiet hours: ``/pyramid away``, ``/pyramid back`` and ``/pyramid quiet``.

Answers are private, in the player's language; the other players of each game an
away pauses hear of it (and of the return) at most once a day, in the game's channel,
in the server's language (``bot.posting.away``). Each game pauses only within its own
server's budget; quiet hours only keep the bot from pinging (``bot.clock.clock``)."""

from __future__ import annotations

import math
from collections import defaultdict
from datetime import timedelta
from typing import Any

import discord
from discord import app_commands

from bot.clock.quiet_hours import (
    LONGEST_QUIET,
    AvailabilityError,
    QuietWindow,
    discord_time,
    find_zone,
    parse_time_of_day,
    suggest_zones,
)
from bot.core.services import Services
from bot.interactions.host import Host
from bot.interactions.replies import defer_private, tell
from bot.posting.away import AlreadyAway, Availability, AwayDisabled, AwayStarted, OverBudget
from bot.store.database import Conflict
from bot.store.records import AWAY_DAYS
from i18n import N_, Lang

Interaction = discord.Interaction[Any]
#: The longest time or zone text echoed back in an answer.
ECHO = 40
EXAMPLE = "`/pyramid quiet from:22:00 to:07:00 timezone:Europe/Berlin`"


def echo(text: str) -> str:
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text.strip()[:ECHO]))


class AwayCommands:
    def __init__(self, services: Services, host: Host) -> None:
        self.services = services
        self.availability: Availability = host.reminders.availability

    def commands(self) -> list[app_commands.Command[Any, ..., Any]]:
        away: app_commands.Command[Any, ..., Any] = app_commands.Command(
            name="away", description=N_("Pause your clocks while you're away (each game's server's budget applies)"),
            callback=self.away)
        back: app_commands.Command[Any, ..., Any] = app_commands.Command(
            name="back", description=N_("End your time away early: your clocks run on from where they stood"),
            callback=self.back)
        quiet: app_commands.Command[Any, ..., Any] = app_commands.Command(
            name="quiet", description=N_("Daily quiet hours (at most 12): no pings then; your clock keeps running"),
            callback=self.quiet)
        quiet.autocomplete("timezone")(self.complete_zone)
        return [away, back, quiet]

    # --- /pyramid away and back ----------------------------------------------------------
    @app_commands.describe(days=N_("How many days you'll be away (each game's own server's budget applies)"))
    async def away(self, interaction: Interaction, days: app_commands.Range[int, 1, AWAY_DAYS[1]]) -> None:
        await defer_private(interaction)
        lang = await self.services.languages.for_interaction(interaction)
        if not 1 <= days <= AWAY_DAYS[1]:
            await tell(interaction, "❌ " + lang.tr("Time away is from 1 to {most} days.", most=AWAY_DAYS[1]))
            return
        user_id = interaction.user.id
        try:
            started = await self.availability.go_away(user_id, interaction.guild_id, days)
        except AwayDisabled:
            await tell(interaction, "❌ " + lang.tr(
                "This server allows no time away; a server admin can change that with "
                "`/pyramid-admin settings away_days`."))
            return
        except AlreadyAway as exc:
            await tell(interaction, lang.tr(
                "You're away already, until {date}. `/pyramid back` ends it; then you can set a new time away.",
                date=discord_time(exc.away.ends, "f")))
            return
        except OverBudget as exc:
            await tell(interaction, over_budget(lang, exc))
            return
        except Conflict:
            await tell(interaction, "⌛ " + lang.tr("You came back a moment ago; please try again in a second."))
            return
        await self.availability.tell_others(user_id)  # what can't go out now, the reminder sweep posts later
        await tell(interaction, "\n".join(away_lines(lang, started)))

    async def back(self, interaction: Interaction) -> None:
        await defer_private(interaction)
        lang = await self.services.languages.for_interaction(interaction)
        user_id = interaction.user.id
        away = await self.availability.come_back(user_id)
        if away is None:
            await tell(interaction, lang.tr("You're not away. `/pyramid away days:<n>` pauses your timers."))
            return
        await self.availability.tell_others(user_id)
        used = max(away.ends - away.starts, timedelta())
        begun = max(1, math.ceil(used / timedelta(days=1)))
        lines = ["👋 " + lang.tr("Welcome back! Your clocks run again from where they stood.")]
        if interaction.guild_id is not None:
            granted = away.grants.get(interaction.guild_id, 0) if away.granted else begun
            charged = min(granted, begun)
            left, _budget = await self.availability.days_left(user_id, interaction.guild_id)
            lines += [
                lang.trn("This time away counted {n} day against this server's budget (whole days begun).",
                         "This time away counted {n} days against this server's budget (whole days begun).",
                         charged, n=charged),
                lang.trn("You have {n} day of time away left here right now.",
                         "You have {n} days of time away left here right now.", left, n=left),
            ]
        else:
            lines.append(lang.trn("Each server counted at most {n} day of its budget (whole days begun).",
                                  "Each server counted at most {n} days of its budget (whole days begun).",
                                  begun, n=begun))
        await tell(interaction, "\n".join(lines))

    # --- /pyramid quiet ------------------------------------------------------------------
    @app_commands.rename(start="from", end="to")
    @app_commands.describe(
        start=N_("When your quiet hours begin, hh:mm (e.g. 22:00)"),
        end=N_("When they end, hh:mm (e.g. 07:00; the next morning when earlier than from)"),
        timezone=N_("Your time zone, e.g. Europe/Berlin (start typing to search)"),
        off=N_("Remove your quiet hours"),
    )
    async def quiet(self, interaction: Interaction, start: app_commands.Range[str, 1, ECHO] | None = None,
                    end: app_commands.Range[str, 1, ECHO] | None = None,
                    timezone: app_commands.Range[str, 1, 64] | None = None, off: bool = False) -> None:
        await defer_private(interaction)
        lang = await self.services.languages.for_interaction(interaction)
        user_id = interaction.user.id
        availability = self.availability
        if off:
            if await availability.clear_quiet(user_id):
                await tell(interaction, "🔔 " + lang.tr("Your quiet hours are off."))
            else:
                await tell(interaction, lang.tr("You have no quiet hours."))
            return
        current = await availability.quiet(user_id)
        if start is None and end is None and timezone is None:
            if current is None:
                await tell(interaction, lang.tr("You have no quiet hours. Set them like this: {example}",
                                                example=EXAMPLE))
            else:
                await tell(interaction, "🌙 " + lang.tr("Your quiet hours: **{window}**.", window=current.describe())
                           + "\n" + next_window(lang, current, self.services))
            return
        if start is None or end is None or (timezone is None and current is None):
            await tell(interaction, "❌ " + lang.tr("Give `from` and `to` (hh:mm) and your `timezone`, for "
                                                    "example {example}", example=EXAMPLE))
            return
        try:
            begins = parse_time_of_day(start)
        except AvailabilityError:
            await tell(interaction, "❌ " + bad_time(lang, start))
            return
        try:
            ends = parse_time_of_day(end)
        except AvailabilityError:
            await tell(interaction, "❌ " + bad_time(lang, end))
            return
        zone_text = timezone if timezone is not None else (current.zone if current is not None else "")
        try:
            zone = find_zone(zone_text)
        except AvailabilityError:
            await tell(interaction, "❌ " + lang.tr(
                "I don't know the time zone {zone}. Pick one from the list, for example Europe/Berlin.",
                zone=echo(zone_text)))
            return
        if begins == ends:
            await tell(interaction, "❌ " + lang.tr("Quiet hours must start and end at different times."))
            return
        if QuietWindow.span(begins, ends) > LONGEST_QUIET:
            await tell(interaction, "❌ " + lang.tr(
                "Quiet hours are at most 12 hours long, and {start} to {end} is longer. They are for a night's "
                "sleep; for longer breaks use `/pyramid away`.", start=echo(start), end=echo(end)))
            return
        window = QuietWindow(begins, ends, zone)
        await availability.set_quiet(user_id, window)
        await tell(interaction, "\n".join([
            "🌙 " + lang.tr("Quiet hours set: **{window}**, every day.", window=window.describe()),
            lang.tr("No pings then: a reminder that falls due in them comes when they end. Your clock keeps "
                    "running; only `/pyramid away` pauses it."),
            next_window(lang, window, self.services),
        ]))

    async def complete_zone(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=name, value=name) for name in suggest_zones(current[:64])]


def over_budget(lang: Lang, refused: OverBudget) -> str:
    budget = refused.budget
    lines = ["❌ " + lang.trn("This server allows {n} day away in any {window} days.",
                             "This server allows {n} days away in any {window} days.",
                             budget.days, n=budget.days, window=budget.window_days)]
    if refused.left > 0:
        lines.append(lang.trn("You can take {n} more day right now.", "You can take {n} more days right now.",
                              refused.left, n=refused.left))
    else:
        lines.append(lang.tr("You have no time away left right now."))
    if refused.available is not None:
        lines.append(lang.trn("You can be away for {n} day from {date} on.",
                              "You can be away for {n} days from {date} on.", refused.asked,
                              n=refused.asked, date=discord_time(refused.available, "f")))
    return "\n".join(lines)


def bad_time(lang: Lang, text: str) -> str:
    return lang.tr("{value} is not a time of day: write it as hh:mm, for example 22:30.", value=echo(text) or "''")


def next_window(lang: Lang, window: QuietWindow, services: Services) -> str:
    """The quiet hours now or next, as Discord timestamps (each reader sees their own clock)."""
    begins, ends = window.next_window(services.clock())
    return lang.tr("Now or next: {start} to {end}.", start=discord_time(begins, "f"), end=discord_time(ends, "t"))


def away_lines(lang: Lang, started: AwayStarted) -> list[str]:
    """The answer to ``/pyramid away``: until when, what each game pauses, what is left."""
    lines = ["🏖️ " + lang.tr("You're away until {date}. Each game's clock stands still for as many of these days as "
                            "its own server allows for time away.", date=discord_time(started.away.ends, "f"))]
    by_days: dict[int, list[int]] = defaultdict(list)
    for game, days in sorted(started.days.items()):
        by_days[days].append(game)
    for days, games in sorted(by_days.items(), reverse=True):
        numbers = ", ".join(f"#{game}" for game in games)
        lines.append(lang.trn("Paused for {n} day: {games}.", "Paused for {n} days: {games}.", days, n=days,
                              games=numbers))
    if by_days:
        lines.append(lang.tr("Their other players are told (at most once a day)."))
    if not by_days:
        lines.append(lang.tr("None of your running games pauses now (no games, or no time away left in their "
                             "servers)."))
    if started.left is not None and started.budget is not None:
        budget = started.budget
        lines.append(lang.trn(
            "After this you have {n} day of time away left (this server: {days} in any {window} days).",
            "After this you have {n} days of time away left (this server: {days} in any {window} days).",
            started.left, n=started.left, days=budget.days, window=budget.window_days))
    lines.append(lang.tr("`/pyramid back` ends it early; whole days not begun are given back."))
    return lines
