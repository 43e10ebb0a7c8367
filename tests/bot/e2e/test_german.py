"""German through the emulator: a player whose Discord speaks German gets German
answers and finds the commands under German names; a server set to Deutsch shows its
lobbies and public notes in German; and English players keep their English, word for
word, next to them."""

from __future__ import annotations

from typing import Any

from emulator.harness import Harness
from emulator.model import Message
from tests.bot.e2e.driver import latest_game_id, session_of


def board_of(harness: Harness, thread: Any) -> Message:
    return [m for m in harness.messages(thread) if m.png_attachments()][-1]


def localized(options: list[dict[str, Any]], name: str) -> dict[str, Any]:
    return next(o for o in options if o["name"] == name)


async def test_the_synced_commands_carry_german_names_and_descriptions(emulator: Any, harness: Harness) -> None:
    await harness.start_bot()
    registered = {c.name: c.raw for c in emulator.world.commands.values()}
    pyramid, admin = registered["pyramid"], registered["pyramid-admin"]
    assert pyramid["name_localizations"]["de"] == "pyramide"
    assert pyramid["description_localizations"]["de"].startswith("Pyramiden-Legespiele")
    assert admin["name_localizations"]["de"] == "pyramide-admin"
    new = localized(pyramid["options"], "new")
    assert new["name_localizations"]["de"] == "neu"
    assert new["description_localizations"]["de"].startswith("Eine Lobby für ein neues Spiel")
    game = localized(new["options"], "game")
    assert game["name_localizations"]["de"] == "spiel"
    assert game["description_localizations"]["de"] == "Welches Spiel"
    play = localized(pyramid["options"], "play")
    assert play["name_localizations"]["de"] == "ziehen"
    assert localized(play["options"], "move")["name_localizations"]["de"] == "zug"
    settings = localized(admin["options"], "settings")
    assert localized(settings["options"], "language")["name_localizations"]["de"] == "sprache"
    # every subcommand of /pyramid has a German description
    assert all(o.get("description_localizations", {}).get("de") for o in pyramid["options"])


async def test_a_german_player_gets_german_answers_by_german_names(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana", locale="de")
    ben = await harness.add_user("ben")
    await harness.start_bot()
    pyramid = next(c.id for c in emulator.world.commands.values() if c.name == "pyramid")
    nothing = await harness.slash(ana, emulator.general, "pyramide spiele")
    # the command named is a mention: every client shows it under its own name (test_command_mentions.py)
    assert nothing.ephemeral and nothing.text == ("Du spielst hier in keinem laufenden Spiel mit. "
                                                  f"Starte eines mit </pyramid new:{pyramid}>.")
    english = await harness.slash(ben, emulator.general, "pyramid games")
    assert english.text == f"You are not in any running game here. Start one with </pyramid new:{pyramid}>."
    rules = await harness.slash(ana, emulator.general, "pyramide regeln", spiel="Pyramido")
    assert rules.text_displays()[-1].startswith("-# Züge kannst du mit /pyramide ziehen eingeben")
    english_rules = await harness.slash(ben, emulator.general, "pyramid rules", game="pyramido")
    assert english_rules.text_displays()[-1] == ("-# Moves can be typed with /pyramid play using the notation "
                                                 "shown in autocomplete.")
    # their Discord client's language is remembered for what background work sends them later
    assert (await harness.bot.services.players.prefs(ana.id)).discord_locale == "de"

    # the lobby flow: the channel reads the server's language (English), each player their own
    lobby = await harness.slash(ana, emulator.general, "pyramide neu", spiel="flaming-pyramids")
    assert lobby.message.text_displays()[1] == "Waiting for players"
    early = await harness.click(ben, lobby.message, label="Start")
    assert early.ephemeral and early.text == "❌ Only players in the lobby can start the game."
    carl = await harness.add_user("carl", locale="de")
    also = await harness.click(carl, lobby.message, label="Start")
    assert also.text == "❌ Nur Spieler in der Lobby können das Spiel starten."
    await harness.click(ben, lobby.message, label="Join")
    await harness.click(ana, lobby.message, label="Start")
    game_id = await latest_game_id(harness)
    thread = harness.threads(emulator.general)[-1]
    session = await session_of(harness, game_id)
    waiting = {0: ana, 1: ben}[1 - session.to_act]
    early_move = await harness.click(waiting, board_of(harness, thread), label="▶ Your move")
    acting = session.seat(session.to_act).display
    if waiting is ana:
        assert early_move.text == f"Du bist nicht am Zug: Das Spiel wartet auf {acting}."
    else:
        assert early_move.text == f"It's not your turn: the game is waiting for {acting}."
    # a German player's move by a German command, answered in German
    actor = {0: ana, 1: ben}[session.to_act]
    move = session.game.legal_moves(session.state)[0]
    played = await harness.slash(actor, thread, "pyramide ziehen", zug=move, locale="de")
    # told in words (#43): "✅ Du hast 🔺 Rot 10 auf Platz A in Spiel #1 gespielt.", not the notation
    assert played.text.startswith("✅ Du hast ") and f"in Spiel #{game_id} gespielt." in played.text, played.text
    assert move not in played.text and " auf Platz " in played.text, played.text
    outsider = await harness.slash(carl, thread, "pyramide hand")
    assert outsider.text == "Du spielst in diesem Spiel nicht mit."


async def test_a_german_server_shows_german_lobbies_and_keeps_english_players_english(
    emulator: Any, harness: Harness,
) -> None:
    admin = await harness.add_user("admin")
    ben = await harness.add_user("ben")
    cleo = await harness.add_user("cleo")
    await harness.start_bot()
    saved = await harness.slash(admin, emulator.general, "pyramid-admin settings", language="Deutsch")
    assert saved.text.startswith("⚙️ Saved: games are played") and "the channel reads **Deutsch**" in saved.text
    assert (await harness.bot.services.store.guild_settings(emulator.guild.id)).language == "de"

    lobby = await harness.slash(ben, emulator.general, "pyramid new", game="flaming-pyramids")
    shown = lobby.message.text_displays()
    assert shown[1] == "Wartet auf Mitspieler" and "Spiel #" in shown[0]
    assert shown[3].startswith("**Optionen**")
    labels = {b["label"] for b in lobby.message.buttons()}
    assert labels == {"Beitreten", "Verlassen", "Starten", "Abbrechen", "⚙️ Optionen"}
    assert lobby.message.selects()[0]["placeholder"] == "🤖 KI-Mitspieler hinzufügen…"
    # an English player's private refusal stays English
    early = await harness.click(cleo, lobby.message, label="Starten")
    assert early.text == "❌ Only players in the lobby can start the game."
    joined = await harness.click(cleo, lobby.message, label="Beitreten")
    assert joined.message is not None and joined.message.text_displays()[-1] == "cleo ist beigetreten."
    await harness.click(ben, lobby.message, label="Starten")
    thread = harness.threads(emulator.general)[-1]
    footer = harness.message(lobby.message.id).text_displays()[-1]
    assert footer == f"Gespielt wird in <#{thread.id}>."

    solo = await harness.slash(ben, emulator.general, "pyramid new", game="continuous-pyramid")
    solo_id = await latest_game_id(harness)
    assert f"Spiel #{solo_id} hat in <#" in solo.text

    back = await harness.slash(admin, emulator.general, "pyramid-admin settings", language="English")
    assert "the channel reads **English**" in back.text
    english = await harness.slash(ben, emulator.general, "pyramid new", game="flaming-pyramids")
    assert english.message.text_displays()[1] == "Waiting for players"
    assert {b["label"] for b in english.message.buttons()} == {"Join", "Leave", "Start", "Cancel", "⚙️ Options"}


async def test_a_german_admin_reads_the_settings_in_german(emulator: Any, harness: Harness) -> None:
    admin = await harness.add_user("admin", locale="de")
    await harness.start_bot()
    shown = await harness.slash(admin, emulator.general, "pyramide-admin einstellungen")
    assert shown.text.startswith("⚙️ Aktuelle Einstellungen: Spiele laufen **in Threads**")
    assert "der Kanal liest **English**" in shown.text
    refused = await harness.slash(admin, emulator.general, "pyramide-admin einstellungen",
                                  erinnerung_stunden=48.0, zeitlimit_stunden=24.0)
    assert refused.text == "❌ Die Erinnerung muss vor dem Zeitlimit kommen. Es wurde nichts geändert."
    late = await harness.slash(admin, emulator.general, "pyramide-admin einstellungen", erinnerung_stunden=700.0)
    assert late.text.startswith("❌ Die Erinnerung (700 h) muss vor dem Zeitlimit (")
    saved = await harness.slash(admin, emulator.general, "pyramide-admin einstellungen", sprache="Deutsch")
    assert saved.text.startswith("⚙️ Gespeichert:") and "der Kanal liest **Deutsch**" in saved.text


async def test_lobby_refusals_with_numbers_are_german_too(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana", locale="de")
    await harness.start_bot()
    lobby = await harness.slash(ana, emulator.general, "pyramide neu", spiel="flaming-pyramids", locale="de")
    again = await harness.click(ana, lobby.message, label="Join", locale="de")
    assert again.ephemeral and again.text == ("❌ Du bist schon in diesem Spiel: Warte, bis andere beitreten, oder "
                                              "füge einen KI-Spieler hinzu, und drücke dann auf Starten.")
    alone = await harness.click(ana, lobby.message, label="Start", locale="de")
    assert alone.ephemeral and "mindestens 2 Spieler" in alone.text and "needs" not in alone.text
