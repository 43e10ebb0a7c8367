"""Hostile users: games seen from other servers and DMs, resigned players who keep
acting, forged clicks from other servers and channels, and races around a lobby's
start and a challenge's entry. Each test drives the real bot through the emulator."""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from emulator.harness import Harness
from emulator.model import Channel, Message
from tests.bot.e2e.driver import challenge_of, flaming_game_of, latest_game_id, session_of

MANAGE_GUILD = 1 << 5
ADMINISTRATOR = 1 << 3
PLEB = (1 << 40) - 1 - MANAGE_GUILD - ADMINISTRATOR
NO_GAME = "no game #"


async def forged(harness: Harness, channel: Channel, *custom_ids: str) -> Message:
    """A message with buttons carrying ``custom_ids`` (anyone can forge a custom id:
    a client may send any id in a component interaction)."""
    view = discord.ui.View(timeout=None)
    for n, cid in enumerate(custom_ids):
        view.add_item(discord.ui.Button(label=f"b{n}", custom_id=cid))
    await harness.bot.client.get_partial_messageable(channel.id).send("forged", view=view)
    return harness.messages(channel)[-1]


# --- 1. games are seen only in their own server, or by DM by their players ----------------------------------


async def test_a_game_is_not_readable_from_dms_or_other_servers(emulator: Any, harness: Harness) -> None:
    (alice, bob), thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob")
    carol = await harness.add_user("carol")  # a member of the game's server, but not a player
    elsewhere = await harness.add_guild("elsewhere")
    eve = await harness.add_user("eve", guild=elsewhere)
    before = (await session_of(harness, game_id)).version

    for user in (carol, eve):
        dm = harness.dm_channel(user)
        for command in ("pyramid status", "pyramid history", "pyramid hand", "pyramid resign"):
            res = await harness.slash(user, dm, command, game=game_id)
            assert NO_GAME in res.text and not res.attachments, (user.username, command, res.text)
        res = await harness.slash(user, dm, "pyramid play", move="fall left", game=game_id)
        assert NO_GAME in res.text
        assert await harness.autocomplete(user, dm, "pyramid play", "move", "", game=game_id) == []
    other_general = harness.channel("general", guild=elsewhere)
    for command in ("pyramid status", "pyramid history"):
        res = await harness.slash(eve, other_general, command, game=game_id)
        assert NO_GAME in res.text and not res.attachments

    # Players see their game by DM; members see it in its server.
    mine = await harness.slash(alice, harness.dm_channel(alice), "pyramid status", game=game_id)
    assert mine.attachments and f"#{game_id}" in mine.text
    there = await harness.slash(carol, emulator.general, "pyramid status", game=game_id)
    assert there.attachments
    log = await harness.slash(bob, harness.dm_channel(bob), "pyramid history", game=game_id)
    assert log.attachments
    record = await harness.bot.services.store.game_record(game_id)
    assert record is not None and record.status == "active"
    assert (await session_of(harness, game_id)).version == before

    # Once it is over, its result counts on its own server's leaderboard only.
    await harness.slash(bob, thread, "pyramid resign")
    assert str(alice.id) in (await harness.slash(carol, emulator.general, "pyramid leaderboard")).text
    for user, place in ((eve, harness.dm_channel(eve)), (eve, other_general), (alice, harness.dm_channel(alice))):
        board = await harness.slash(user, place, "pyramid leaderboard")
        assert str(alice.id) not in board.text and str(bob.id) not in board.text, board.text


# --- 2. a resigned player no longer acts ---------------------------------------------------------------------


async def test_a_resigned_player_cannot_play_see_a_hand_or_use_buttons(emulator: Any, harness: Harness) -> None:
    users, thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob", "carol")
    session = await session_of(harness, game_id)
    leaver = users[session.to_act]
    board = [m for m in harness.messages(thread) if m.png_attachments()][-1]
    # The moment after a resignation: an AI holds the seat but has not moved yet (it
    # thinks for PYRAMID_AI_DELAY_SECONDS), so the seat is still the one to act.
    await harness.bot.services.store.set_seat_ai(game_id, session.to_act, "easy", resigned=True)
    harness.bot.services.sessions.forget(game_id)
    legal = session.game.legal_moves(session.state)

    assert await harness.autocomplete(leaver, thread, "pyramid play", "move", "") == []
    assert await harness.autocomplete(leaver, thread, "pyramid play", "move", "", game=game_id) == []
    played = await harness.slash(leaver, thread, "pyramid play", move=legal[0])
    assert "You left this game; an AI plays your seat now." in played.text
    assert (await session_of(harness, game_id)).version == 0
    hand = await harness.slash(leaver, thread, "pyramid hand")
    assert "You left this game" in hand.text and not hand.attachments
    for label in ("▶ Your move", "🂠 My hand"):
        click = await harness.click(leaver, board, label=label)
        assert click.ephemeral and "You left this game" in click.text and not click.attachments, label
    assert (await session_of(harness, game_id)).version == 0


async def test_after_resigning_for_real_the_hand_and_buttons_refuse(emulator: Any, harness: Harness) -> None:
    users, thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob", "carol")
    session = await session_of(harness, game_id)
    leaver = users[(session.to_act + 1) % 3]  # not the player to act: the AI does not move at once
    resigned = await harness.slash(leaver, thread, "pyramid resign")
    assert "resigned" in resigned.text
    board = [m for m in harness.messages(thread) if m.png_attachments()][-1]
    for label in ("▶ Your move", "🂠 My hand"):
        click = await harness.click(leaver, board, label=label)
        assert "You left this game" in click.text, label
    assert "You left this game" in (await harness.slash(leaver, thread, "pyramid hand")).text
    again = await harness.slash(leaver, thread, "pyramid play", move="fall left")
    assert "You left this game" in again.text


# --- 4. every button checks the server and channel it was clicked in ------------------------------------------


async def test_forged_lobby_buttons_from_elsewhere_change_nothing(emulator: Any, harness: Harness) -> None:
    alice = await harness.add_user("alice")
    await harness.start_bot()
    lobby = (await harness.slash(alice, emulator.general, "pyramid new", game="flaming-pyramids")).message
    assert lobby is not None
    game_id = await latest_game_id(harness)
    elsewhere = await harness.add_guild("elsewhere")
    eve = await harness.add_user("eve", guild=elsewhere)  # may manage *her* server
    ids = [f"pb:{action}:{game_id}:0" for action in ("join", "leave", "start", "cancel")]
    foreign = await forged(harness, harness.channel("general", guild=elsewhere), *ids)
    for n in range(len(ids)):
        res = await harness.click(eve, foreign, label=f"b{n}")
        assert res.ephemeral and "another channel" in res.text, res.text
    # Same server, another channel: a server admin there still can't reach the lobby.
    random = await harness.add_channel("random")
    mod = await harness.add_user("mod")
    here = await forged(harness, random, *ids)
    for n in range(len(ids)):
        res = await harness.click(mod, here, label=f"b{n}")
        assert res.ephemeral and "another channel" in res.text, res.text
    # In a DM too.
    dm = harness.dm_channel(eve)
    private = await forged(harness, dm, ids[0], ids[3])
    for n in range(2):
        res = await harness.click(eve, private, label=f"b{n}")
        assert "another channel" in res.text
    record = await harness.bot.services.store.game_record(game_id)
    seats = await harness.bot.services.store.seats(game_id)
    assert record is not None and record.status == "lobby" and [s.user_id for s in seats] == [alice.id]


async def test_only_the_opener_or_an_admin_of_the_lobbys_server_may_cancel(emulator: Any, harness: Harness) -> None:
    alice = await harness.add_user("alice")
    pleb = await harness.add_user("pleb", permissions=PLEB)
    admin = await harness.add_user("admin")
    await harness.start_bot()
    lobby = (await harness.slash(alice, emulator.general, "pyramid new", game="flaming-pyramids")).message
    assert lobby is not None
    game_id = await latest_game_id(harness)
    refused = await harness.click(pleb, lobby, label="Cancel")
    assert "Only the player who opened the lobby" in refused.text
    assert (await harness.bot.services.store.game_record(game_id)).status == "lobby"  # type: ignore[union-attr]
    await harness.click(admin, lobby, label="Cancel")
    assert (await harness.bot.services.store.game_record(game_id)).status == "cancelled"  # type: ignore[union-attr]


async def test_forged_refresh_and_challenge_buttons_from_elsewhere_show_nothing(
    emulator: Any, harness: Harness
) -> None:
    (alice, _bob), thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob")
    challenge = (await harness.slash(alice, emulator.general, "pyramid new", game="continuous-pyramid",
                                     challenge=True)).message
    assert challenge is not None
    challenge_id = int(challenge.buttons()[0]["custom_id"].split(":")[2])
    games_before = len(await harness.bot.services.store.all_games())
    elsewhere = await harness.add_guild("elsewhere")
    eve = await harness.add_user("eve", guild=elsewhere)
    ids = (f"pb:board:{game_id}:0", f"pb:chal:{challenge_id}:0")
    places = [harness.channel("general", guild=elsewhere), harness.dm_channel(eve)]
    for place in places:
        message = await forged(harness, place, *ids)
        for n in range(len(ids)):
            res = await harness.click(eve, message, label=f"b{n}")
            assert "another channel" in res.text and not res.attachments, res.text
    # A member of the game's own server, in another of its channels.
    carol = await harness.add_user("carol")
    random = await harness.add_channel("random")
    message = await forged(harness, random, *ids)
    for n in range(len(ids)):
        res = await harness.click(carol, message, label=f"b{n}")
        assert "another channel" in res.text and not res.attachments, res.text
    assert len(await harness.bot.services.store.all_games()) == games_before
    # The real buttons, where they were posted, still work.
    board = [m for m in harness.messages(thread) if m.png_attachments()][-1]
    assert (await harness.click(carol, board, label="🔄 Latest board")).attachments
    entered = await harness.click(carol, challenge, label="▶ Play this deal")
    assert "❌" not in entered.text
    assert len(await harness.bot.services.store.challenge_games(challenge_id)) == 1


# --- 5. a start and a join or leave at the same moment; a double click on a challenge --------------------------


async def test_a_double_click_on_play_this_deal_makes_one_game(emulator: Any, harness: Harness) -> None:
    (_, bob), challenge = await challenge_of(emulator, harness, "alice", "bob")
    clicks = [harness.click(bob, challenge, label="▶ Play this deal", settle=False, check=False) for _ in range(3)]
    results = await asyncio.gather(*clicks)
    await harness.settle()
    challenge_id = int(challenge.buttons()[0]["custom_id"].split(":")[2])
    games = await harness.bot.services.store.challenge_games(challenge_id)
    assert len(games) == 1, [g.id for g in games]
    assert sum("already have a game of this deal" in r.text for r in results if r.answered) == 2
