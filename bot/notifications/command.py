"""``/pyramid notify``: how a player hears from the bot, for all their games or one of them.

Without options it shows the settings. With ``game:``, the options set an override for that game
(``mute`` only exists per game: spectated and finished games included); ``reset`` drops the
override (or, without ``game:``, the player's own settings). The answer is private, in the
player's language. Nothing here touches a clock: a muted or digest-only player's bank runs
out as anyone's (said in the answer and in the README)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.clock.quiet_hours import AvailabilityError, find_zone, suggest_zones
from bot.core.errors import PlayError
from bot.core.services import Services
from bot.interactions.finding import find_seen
from bot.interactions.replies import defer_private, explain, tell
from bot.notifications.gate import NotificationGate
from bot.notifications.policy import CAP_PER_HOUR, INTERVALS, MODES, MOST_REPEATS, Settings
from i18n import N_, Lang

Interaction = discord.Interaction[Any]
MODE_WORDS = {"board": N_("a ping on the board"), "dm": N_("a DM"), "both": N_("a ping on the board and a DM"),
              "digest": N_("only the daily digest")}
MODE_CHOICES = {"board": N_("board ping"), "dm": N_("DM"), "both": N_("board ping and DM"),
                "digest": N_("daily digest only")}
ALL_STATUSES = ("lobby", "active", "finished", "cancelled")


class NotifyCommands:
    def __init__(self, services: Services, gate: NotificationGate) -> None:
        self.services = services
        self.gate = gate

    def commands(self) -> list[app_commands.Command[Any, ..., Any]]:
        notify: app_commands.Command[Any, ..., Any] = app_commands.Command(
            name="notify", description=N_("How the bot tells you it's your turn: pings, DMs, reminders, a digest"),
            callback=self.notify)
        notify.autocomplete("timezone")(self.complete_zone)
        return [notify]

    @app_commands.describe(
        how=N_("How you learn it's your turn: board ping, DM, both, or only the daily digest"),
        every=N_("Remind me again every … hours while it's my turn (off: only the clock's reminder)"),
        cap=N_("At most this many of those reminders per turn"),
        heads_up=N_("Tell me when I'm next (the player before me is to move)"),
        digest=N_("The local hour of your daily digest (0–23)"),
        digest_off=N_("No daily digest"),
        timezone=N_("Your time zone for the digest, e.g. Europe/Berlin (else your quiet hours' zone)"),
        game=N_("Set these for one game only (its number)"),
        mute=N_("Mute that game: no pings or reminders from it (its clock still runs)"),
        reset=N_("Forget the game's override (or, without a game, your own settings)"),
    )
    @app_commands.choices(how=[app_commands.Choice(name=MODE_CHOICES[m], value=m) for m in MODES])
    @app_commands.choices(every=[app_commands.Choice(name=N_("off") if h == 0 else f"{h} h", value=h)
                                 for h in INTERVALS])
    async def notify(self, interaction: Interaction, how: app_commands.Choice[str] | None = None,
                     every: app_commands.Choice[int] | None = None,
                     cap: app_commands.Range[int, 1, MOST_REPEATS] | None = None, heads_up: bool | None = None,
                     digest: app_commands.Range[int, 0, 23] | None = None, digest_off: bool = False,
                     timezone: app_commands.Range[str, 1, 64] | None = None,
                     game: int | None = None, mute: bool | None = None,
                     reset: bool = False) -> None:
        await defer_private(interaction)
        lang = await self.services.languages.for_interaction(interaction)
        user_id = interaction.user.id
        game_id = 0
        if game is not None:
            try:
                seen = await find_seen(interaction, self.services, game, statuses=ALL_STATUSES)
            except PlayError as exc:
                await tell(interaction, "❌ " + explain(exc, lang))
                return
            game_id = seen.game_id
        fields: dict[str, Any] = {}
        if how is not None:
            if how.value not in MODES:  # a forged interaction
                await tell(interaction, "❌ " + lang.tr("Choose how from the list."))
                return
            fields["mode"] = how.value
        if every is not None:
            if every.value not in INTERVALS:
                await tell(interaction, "❌ " + lang.tr("Choose the interval from the list."))
                return
            fields["interval_hours"] = every.value
        if cap is not None:
            if not 1 <= cap <= MOST_REPEATS:
                await tell(interaction, "❌ " + lang.tr("The cap is from 1 to {most}.", most=MOST_REPEATS))
                return
            fields["cap"] = cap
        if heads_up is not None:
            fields["heads_up"] = heads_up
        if mute is not None:
            if game is None:
                await tell(interaction, "❌ " + lang.tr("Name the game to mute with `game:`; a game is muted, "
                                                        "not all of them (for that, choose `how:digest`)."))
                return
            fields["muted"] = mute
        if digest is not None or digest_off or timezone is not None:
            if game is not None:
                await tell(interaction, "❌ " + lang.tr("The digest covers all your games: set it without `game:`."))
                return
            if digest is not None:
                if not 0 <= digest <= 23:
                    await tell(interaction, "❌ " + lang.tr("The digest hour is from 0 to 23."))
                    return
                fields["digest_hour"] = digest
            if timezone is not None:
                try:
                    fields["zone"] = find_zone(timezone)
                except AvailabilityError:
                    await tell(interaction, "❌ " + lang.tr("I don't know the time zone {zone}. Pick one from the "
                                                            "list, for example Europe/Berlin.",
                                                            zone=discord.utils.escape_markdown(timezone[:40])))
                    return
        store = self.gate.store
        if reset:
            await store.clear(user_id, game_id)
        if digest_off:
            fields["digest_hour"] = None
            if "mode" not in fields and (await store.settings(user_id, 0)).get("mode") == "digest":
                fields["mode"] = "both"  # the digest alone, without a digest, would tell nothing
        if fields:
            await store.save(user_id, game_id, fields)
        changed = bool(fields) or reset
        settings = await self.gate.settings(user_id, game_id or None)
        lines = [("✅ " + lang.tr("Saved.")) if changed else ""]
        lines += describe(settings, lang, game_id, await store.settings(user_id, 0))
        await tell(interaction, "\n".join(line for line in lines if line))

    async def complete_zone(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "game", None)
        if isinstance(game, int):  # set for a game: offered only where the visibility rule lets them see it
            try:
                await find_seen(interaction, self.services, game, statuses=ALL_STATUSES)
            except PlayError:
                return []
        return [app_commands.Choice(name=name, value=name) for name in suggest_zones(current[:64])]


def describe(settings: Settings, lang: Lang, game_id: int, own: dict[str, Any]) -> list[str]:
    """The settings in words (for one game when ``game_id``), and what never changes."""
    head = (lang.tr("🔔 Your notifications for game #{number}:", number=game_id) if game_id
            else lang.gettext("🔔 Your notifications:"))
    lines = [head]
    if settings.muted:
        lines.append("🔕 " + lang.gettext("Muted: no pings or reminders from this game."))
    lines.append(lang.tr("• Your turn: {how}.", how=lang.gettext(MODE_WORDS[settings.mode])))
    if settings.interval_hours:
        lines.append(lang.tr("• Reminders every {hours} h while it's your turn, at most {cap} a turn.",
                             hours=settings.interval_hours, cap=settings.cap))
    else:
        lines.append(lang.gettext("• No repeated reminders (`every:` sets them)."))
    lines.append(lang.gettext("• Heads-up when you're next: on.") if settings.heads_up
                 else lang.gettext("• Heads-up when you're next: off."))
    hour = settings.digest_at
    if hour is not None:
        zone = own.get("zone") or lang.gettext("your quiet hours' zone, else UTC")
        lines.append(lang.tr("• Daily digest at {hour}:00 ({zone}).", hour=f"{hour:02d}", zone=zone))
    else:
        lines.append(lang.gettext("• No daily digest (`digest:` sets its hour)."))
    lines.append(lang.tr("Never more than {cap} pings an hour across all your games; what comes within a minute "
                         "comes as one message. The clock's own low-bank reminder always comes, and no setting "
                         "stops or slows a clock: your turn runs out on schedule.", cap=CAP_PER_HOUR))
    return lines


__all__ = ["NotifyCommands"]
