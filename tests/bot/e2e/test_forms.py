"""Forms: ``/pyramid-admin settings`` typed without options opens a modal with the
server's choices filled in; submitting it saves them, and a bad number changes nothing."""

from __future__ import annotations

from typing import Any

from emulator.harness import Harness


def inputs(modal: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The form's inputs by their label."""
    return {c["label"]: c["component"] for c in modal["components"] if c["type"] == 18}


async def test_the_admin_settings_form_shows_and_saves_the_servers_choices(emulator: Any, harness: Harness) -> None:
    admin = await harness.add_user("admin")
    await harness.start_bot()
    await harness.slash(admin, emulator.general, "pyramid-admin settings", reminder_hours=5.0)
    opened = await harness.slash(admin, emulator.general, "pyramid-admin settings")
    assert opened.modal is not None and opened.response_type == 9
    fields = inputs(opened.modal)
    assert set(fields) == {"Where each game is played", "Reminder after (hours)", "Timeout after (hours)",
                           "On timeout", "What the channel reads"}
    assert fields["Reminder after (hours)"]["value"] == "5"  # the current choice, filled in
    assert [o["value"] for o in fields["Where each game is played"]["options"] if o.get("default")] == ["on"]
    assert {f["type"] for f in fields.values()} == {4, 21}  # text inputs and radio groups
    ids = {label: f["custom_id"] for label, f in fields.items()}

    refused = await harness.submit_modal(admin, opened, {ids["Timeout after (hours)"]: "soon"})
    assert refused.ephemeral and "Nothing was changed" in refused.text
    assert (await harness.bot.services.store.guild_settings(emulator.guild.id)).timeout_hours is None

    again = await harness.slash(admin, emulator.general, "pyramid-admin settings")
    saved = await harness.submit_modal(admin, again, {
        ids["Where each game is played"]: "off", ids["Timeout after (hours)"]: "48",
        ids["On timeout"]: "forfeit", ids["What the channel reads"]: "de", ids["Reminder after (hours)"]: "",
    })
    assert saved.ephemeral and "Saved" in saved.text
    stored = await harness.bot.services.store.guild_settings(emulator.guild.id)
    assert (stored.use_threads, stored.timeout_hours, stored.timeout_action, stored.language) == (
        False, 48.0, "forfeit", "de")
    assert stored.reminder_hours is None  # emptied: the bot's default again

    too_long = await harness.slash(admin, emulator.general, "pyramid-admin settings")
    out_of_range = await harness.submit_modal(admin, too_long, {ids["Reminder after (hours)"]: "9999"})
    assert "Nothing was changed" in out_of_range.text
    assert (await harness.bot.services.store.guild_settings(emulator.guild.id)).reminder_hours is None
