"""Forms: ``/pyramid-admin settings`` typed without options shows the settings with a
button that opens a modal with the server's choices filled in; submitting it saves them,
and a bad number changes nothing. A lobby's opener sets its options in a form too."""

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
    shown = await harness.slash(admin, emulator.general, "pyramid-admin settings")
    assert "Current settings" in shown.text and shown.message is not None
    opened = await harness.click(admin, shown.message, label="✏️ Change in a form")
    assert opened.modal is not None and opened.response_type == 9
    fields = inputs(opened.modal)
    assert set(fields) == {"Where each game is played", "Reminder after (hours)", "Time bank (hours)",
                           "When the bank is empty", "What the channel reads"}
    assert fields["Reminder after (hours)"]["value"] == "5"  # the current choice, filled in
    assert [o["value"] for o in fields["Where each game is played"]["options"] if o.get("default")] == ["on"]
    assert {f["type"] for f in fields.values()} == {4, 21}  # text inputs and radio groups
    ids = {label: f["custom_id"] for label, f in fields.items()}

    refused = await harness.submit_modal(admin, opened, {ids["Time bank (hours)"]: "soon"})
    assert refused.ephemeral and "Nothing was changed" in refused.text
    assert (await harness.bot.services.store.guild_settings(emulator.guild.id)).timeout_hours is None

    again = await harness.click(admin, shown.message, label="✏️ Change in a form")
    saved = await harness.submit_modal(admin, again, {
        ids["Where each game is played"]: "off", ids["Time bank (hours)"]: "48",
        ids["When the bank is empty"]: "forfeit", ids["What the channel reads"]: "de",
        ids["Reminder after (hours)"]: "",
    })
    assert saved.ephemeral and "Saved" in saved.text
    stored = await harness.bot.services.store.guild_settings(emulator.guild.id)
    assert (stored.use_threads, stored.timeout_hours, stored.timeout_action, stored.language) == (
        False, 48.0, "forfeit", "de")
    assert stored.reminder_hours is None  # emptied: the bot's default again

    too_long = await harness.click(admin, shown.message, label="✏️ Change in a form")
    out_of_range = await harness.submit_modal(admin, too_long, {ids["Reminder after (hours)"]: "9999"})
    assert "Nothing was changed" in out_of_range.text
    assert (await harness.bot.services.store.guild_settings(emulator.guild.id)).reminder_hours is None


async def test_the_lobby_opener_sets_the_options_in_a_form(emulator: Any, harness: Harness) -> None:
    ana, bob = await harness.add_user("ana"), await harness.add_user("bob")
    await harness.start_bot()
    lobby = await harness.slash(ana, emulator.general, "pyramid new", game="flaming-pyramids")
    assert lobby.message is not None
    await harness.click(bob, lobby.message, label="Join")
    not_yours = await harness.click(bob, lobby.message, label="⚙️ Options")
    assert not_yours.ephemeral and "Only the player who opened this lobby" in not_yours.text
    opened = await harness.click(ana, lobby.message, label="⚙️ Options")
    assert opened.modal is not None
    fields = {c["component"]["custom_id"]: c["component"] for c in opened.modal["components"]}
    assert fields["curse"]["type"] == 23 and fields["turn_limit"]["type"] == 4  # a checkbox, a number

    typo = await harness.submit_modal(ana, opened, {"curse": True, "turn_limit": "many"})
    assert typo.ephemeral and "whole number" in typo.text
    # a submitted form is closed: each try opens it again, as in Discord
    again = await harness.click(ana, lobby.message, label="⚙️ Options")
    out_of_range = await harness.submit_modal(ana, again, {"turn_limit": "0"})
    assert out_of_range.ephemeral and out_of_range.text.startswith("❌")
    game_id = int(lobby.message.text_displays()[0].split("#")[-1])
    assert (await harness.bot.services.store.game_record(game_id)).options.get("turn_limit") is None

    last = await harness.click(ana, lobby.message, label="⚙️ Options")
    saved = await harness.submit_modal(ana, last, {"curse": True, "turn_limit": "40"})
    assert saved.response_type == 7  # the lobby card itself shows the new options
    card = harness.message(lobby.message.id).text_displays()
    assert card[-1] == "ana changed the options."
    options = (await harness.bot.services.store.game_record(game_id)).options
    assert options["curse"] is True and options["turn_limit"] == 40


async def test_options_that_seat_fewer_players_are_refused(emulator: Any, harness: Harness) -> None:
    ana, bob = await harness.add_user("ana"), await harness.add_user("bob")
    await harness.start_bot()
    lobby = await harness.slash(ana, emulator.general, "pyramid new", game="pyramido", mode="competitive")
    assert lobby.message is not None
    await harness.click(bob, lobby.message, label="Join")
    opened = await harness.click(ana, lobby.message, label="⚙️ Options")
    assert opened.modal is not None
    mode = next(c["component"] for c in opened.modal["components"] if c["component"]["custom_id"] == "mode")
    assert mode["type"] == 21 and [o["value"] for o in mode["options"] if o.get("default")] == ["competitive"]
    solo = await harness.submit_modal(ana, opened, {"mode": "solo"})
    assert solo.ephemeral and "seated already" in solo.text
    game_id = int(lobby.message.text_displays()[0].split("#")[-1])
    assert (await harness.bot.services.store.game_record(game_id)).options["mode"] == "competitive"
