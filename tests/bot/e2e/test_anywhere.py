"""Play anywhere (#27): the app installed to users only, played where its bot user is not
(a group DM), and in the DM with the bot through the user install.

Where only the user install authorizes an interaction, Discord lets the app answer
interactions and nothing else: no channel routes (403), at most five follow-ups per
interaction token, each token valid 15 minutes. The emulator refuses everything else
(``emulator/installs.py``, ``emulator/access.py``), and every refusal fails the test at
teardown; here the traffic is also read request by request."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from emulator.harness import Harness
from emulator.interactions import CommandUnavailable
from emulator.model import Channel, Message, User
from tests.bot.e2e.driver import HEADER, card_text, group_dm_game, latest_game_id, session_of


def public_cards(harness: Harness, channel: Channel) -> list[Message]:
    """The public messages of ``channel`` that show a board picture."""
    return [m for m in harness.messages(channel) if not m.ephemeral and m.png_attachments()]


async def move_by_clicks(harness: Harness, actor: User, card: Message, game_id: int) -> None:
    """▶ Your move on the card, then the private chooser's first choice at each step, until a move is made
    (or the card's first move button, when the card offers the moves themselves)."""
    session = await session_of(harness, game_id)
    version = session.version
    if "▶ Your move" not in card.button_labels:
        await harness.click(actor, card, custom_id=action_button(card)["custom_id"])
        assert (await session_of(harness, game_id)).version != version
        return
    opened = await harness.click(actor, card, label="▶ Your move")
    step = opened.last
    assert step.ephemeral and step.id != card.id, "the chooser is the mover's alone"
    for _ in range(20):
        if session.version != version:
            return
        menu = next((c for row in step.components for c in row.get("components", []) if c.get("type") == 3), None)
        if menu is not None:  # a long list of choices comes as a menu
            result = await harness.select(actor, step, menu["custom_id"], [menu["options"][0]["value"]])
        else:
            target = next(b for b in step.buttons() if "Back" not in (b.get("label") or ""))
            result = await harness.click(actor, step, custom_id=target["custom_id"])
        step = result.message or step
        session = await session_of(harness, game_id)
    assert session.version != version, "clicking through the chooser made no move"


def action_button(card: Message) -> dict[str, Any]:
    """The card's first button that acts (▶ Your move, or a move), not 🂠 My hand or 🔄 Latest board."""
    return next(b for b in card.buttons() if b.get("custom_id", "").split(":")[1] not in ("hand", "board"))


def channel_requests(emulator: Any, channel: Channel) -> list[str]:
    return [f"{r.method} {r.path}" for r in emulator.requests if f"/channels/{channel.id}" in r.path]


async def test_two_players_in_a_group_dm_with_the_user_install_only(emulator: Any, harness: Harness) -> None:
    world = harness.world
    ana, ben = world.add_user("ana"), world.add_user("ben")  # they share no server with the bot
    harness.install_app(ana)
    harness.install_app(ben)
    await harness.start_bot()
    gdm = harness.add_group_dm(ana, ben)

    res = await harness.slash(ana, gdm, "pyramid new", game="flaming-pyramids", turn_limit=2)
    assert res.interaction.payload["context"] == 2
    assert res.interaction.payload["authorizing_integration_owners"] == {"1": str(ana.id)}
    lobby = res.message
    assert lobby is not None and not lobby.ephemeral and lobby.channel_id == gdm.id
    assert "Flaming Pyramids" in lobby.text
    await harness.click(ben, lobby, label="Join")
    assert "ben" in harness.message(lobby.id).text
    await harness.click(ana, lobby, label="Start")

    game_id = await latest_game_id(harness)
    card = harness.message(lobby.id)  # the lobby became the game card, in place
    assert HEADER.search(card_text(card)) and card.png_attachments()
    assert [m.id for m in public_cards(harness, gdm)] == [card.id]
    users = {0: ana, 1: ben}

    for _ in range(40):
        session = await session_of(harness, game_id)
        if session.over:
            break
        actor, other = users[session.to_act], users[1 - session.to_act]
        # Out of turn: a friendly private refusal, and nothing changes.
        refused = await harness.click(other, card, custom_id=action_button(card)["custom_id"])
        said = [m for m in refused.messages if m.ephemeral]
        assert said and "not your turn" in said[-1].text, [m.text for m in refused.messages]
        assert (await session_of(harness, game_id)).version == session.version

        await move_by_clicks(harness, actor, card, game_id)
        after = await session_of(harness, game_id)
        card = harness.message(card.id)
        shown = HEADER.search(card_text(card))
        assert shown is not None and int(shown.group(2)) == after.version, "the card shows the latest move"
        assert [m.id for m in public_cards(harness, gdm)] == [card.id], "one card, updated in place"
        for seat in users:  # nothing of a hand in what everyone sees
            for tile in after.game.view(after.state, seat)["hands"][seat]:
                assert all(tile not in m.text for m in harness.messages(gdm) if not m.ephemeral)
        if not after.over and after.to_act != session.to_act:
            nxt = users[after.to_act]
            told = [m for m in harness.messages(gdm) if not m.ephemeral and nxt.id in m.pinged]
            assert told, "the next player is pinged when it is their turn"
        lines = [m for m in harness.messages(gdm) if not m.ephemeral and m.id != card.id]
        assert len(lines) <= 1, "one card and at most one 'your turn' line"
    session = await session_of(harness, game_id)
    assert session.over and session.result is not None
    assert "Game over" in card_text(harness.message(card.id))
    assert [m.id for m in harness.messages(gdm) if not m.ephemeral] == [card.id], "the last turn line is gone"
    # Everything went through the interactions: not one channel route, nothing refused.
    assert channel_requests(emulator, gdm) == []
    assert [f"{r.method} {r.path} {r.status}" for r in emulator.requests if r.status >= 400] == []
    record = session.record
    assert record.guild_id is None and record.channel_id == gdm.id and record.surface == "interactions"


async def test_a_game_in_the_dm_with_the_bot_through_the_user_install(emulator: Any, harness: Harness) -> None:
    cara = harness.world.add_user("cara")  # no server in common: only her install lets the bot reach her
    harness.install_app(cara)
    await harness.start_bot()
    dm = harness.dm_channel(cara)
    res = await harness.slash(cara, dm, "pyramid new", game="continuous-pyramid", undo=False)
    assert res.interaction.payload["context"] == 1
    # Her user install authorizes it (the bot's DM also counts as the guild install's: "0" → "0").
    assert res.interaction.payload["authorizing_integration_owners"].get("1") == str(cara.id)
    game_id = await latest_game_id(harness)
    session = await session_of(harness, game_id)
    assert session.record.status == "active" and session.record.surface == "channel"
    board = public_cards(harness, dm)[-1]  # the bot is in its own DM: it posts the board there itself
    await move_by_clicks(harness, cara, board, game_id)
    assert (await session_of(harness, game_id)).version >= 1
    assert [f"{r.method} {r.path} {r.status}" for r in emulator.requests if r.status >= 400] == []


async def test_admin_commands_stay_in_servers(emulator: Any, harness: Harness) -> None:
    world = harness.world
    ana, ben = world.add_user("ana"), world.add_user("ben")
    harness.install_app(ana)
    await harness.start_bot()
    for channel in (harness.add_group_dm(ana, ben), harness.dm_channel(ana)):
        with pytest.raises(CommandUnavailable):
            await harness.slash(ana, channel, "pyramid-admin check")
    elsewhere = await harness.add_guild("elsewhere", members=[ana], bot=False)
    with pytest.raises(CommandUnavailable):  # a server the bot is not in: the user install only
        await harness.slash(ana, harness.channel("general", guild=elsewhere), "pyramid-admin check")


async def test_a_server_that_did_not_add_the_bot(emulator: Any, harness: Harness) -> None:
    """A server only the players' user install reaches: the game lives in its card there too, the
    server's settings are the defaults (no admin could set any), and where the server lets apps
    answer only the user who ran them, no game is opened that nobody else could see."""
    world = harness.world
    ana = world.add_user("ana")
    harness.install_app(ana)
    await harness.start_bot()
    elsewhere = await harness.add_guild("elsewhere", members=[ana], bot=False)
    channel = harness.channel("general", guild=elsewhere)
    res = await harness.slash(ana, channel, "pyramid new", game="continuous-pyramid", undo=False)
    card = res.message
    assert card is not None and not card.ephemeral and HEADER.search(card_text(card))
    game_id = await latest_game_id(harness)
    record = (await session_of(harness, game_id)).record
    assert record.guild_id == elsewhere.id and record.thread_id is None and record.surface == "interactions"
    await move_by_clicks(harness, ana, card, game_id)
    shown = HEADER.search(card_text(harness.message(card.id)))
    assert shown is not None and int(shown.group(2)) == (await session_of(harness, game_id)).version
    assert [m.id for m in public_cards(harness, channel)] == [card.id]

    refused = await harness.slash(ana, channel, "pyramid new", game="continuous-pyramid", challenge=True)
    assert refused.ephemeral and "Challenges are played in a server that added the bot" in refused.text
    await harness.set_role_permissions(elsewhere.everyone, elsewhere.everyone.permissions & ~(1 << 50),
                                       guild=elsewhere)  # no USE_EXTERNAL_APPS: apps answer their user alone
    refused = await harness.slash(ana, channel, "pyramid new", game="continuous-pyramid", undo=False)
    assert refused.ephemeral and "Use External Apps" in refused.text
    assert await latest_game_id(harness) == game_id
    assert channel_requests(emulator, channel) == []
    assert [f"{r.method} {r.path} {r.status}" for r in emulator.requests if r.status >= 400] == []


async def test_ai_seats_restarts_reminders_and_timeouts_in_a_group_dm(
    emulator: Any, harness: Harness, clock: Any
) -> None:
    """The AI moves inside the human's click (the card already shows its move); a restart forgets
    the interaction tokens, and the next click on the card edits it with its own; the turn clock's
    reminder goes by DM where the bot may write (nowhere else where it may not), and a timeout is
    applied all the same and shown by the next click."""
    world = harness.world
    ana, ben = world.add_user("ana"), world.add_user("ben", dms_open=False)
    harness.install_app(ana)
    harness.install_app(ben)
    await harness.start_bot()
    gdm = harness.add_group_dm(ana, ben)
    res = await harness.slash(ana, gdm, "pyramid new", game="flaming-pyramids", turn_limit=6)
    lobby = res.message
    assert lobby is not None
    await harness.click(ben, lobby, label="Join")
    await harness.select(ana, lobby, None, ["easy"])
    await harness.click(ana, lobby, label="Start")
    game_id = await latest_game_id(harness)
    users = {0: ana, 1: ben}

    async def check_card() -> Any:
        session = await session_of(harness, game_id)
        shown = HEADER.search(card_text(harness.message(lobby.id)))
        assert shown is not None and int(shown.group(2)) == session.version
        assert [m.id for m in public_cards(harness, gdm)] == [lobby.id]
        return session

    session = await check_card()
    assert session.over or session.to_act in users, "the AI moved inside the click that started the game"
    await harness.restart_bot()  # the tokens that could edit the card are forgotten
    if not session.over:
        await move_by_clicks(harness, users[session.to_act], harness.message(lobby.id), game_id)
        session = await check_card()
        assert session.over or session.to_act in users, "the AI moved inside the human's click"
    if session.over:
        return
    waiting = users[session.to_act]
    assert waiting is ana  # this seeded deal: her DMs are open, ben's are not
    clock.advance(hours=60)
    sweep = harness.bot.client.host.reminders.sweep
    assert f"reminder:{game_id}" in await sweep()
    await harness.settle()
    told = [m for m in harness.dm(ana) if f"game #{game_id}" in m.text and "discord.com/channels/@me/" in m.text]
    assert told and f"/{gdm.id}/{lobby.id}" in told[-1].text and not told[-1].flags & 4096  # not silent
    clock.advance(hours=13)
    assert f"timeout:{game_id}:ai" in await sweep()
    await harness.settle()
    assert [m.id for m in public_cards(harness, gdm)] == [lobby.id], "nothing posted on its own"
    other = users[1 - next(s for s, u in users.items() if u is waiting)]
    await harness.click(other, harness.message(lobby.id), label="🔄 Latest board")
    await check_card()  # the next click shows what happened meanwhile
    assert channel_requests(emulator, gdm) == []
    closed = harness.world.dm_channel(ben, create=False)  # ben's DMs are closed: tried, refused, remembered
    refused = [f"{r.method} {r.path} {r.status}" for r in emulator.requests if r.status >= 400]
    assert closed is not None and refused and set(refused) == {f"POST /api/v10/channels/{closed.id}/messages 403"}


async def test_a_move_from_the_hand_dm_updates_the_card_in_the_group_dm(emulator: Any, harness: Harness) -> None:
    """The hand DM's chooser plays too: the card in the group DM is edited through the freshest token
    that may edit it, and nothing of the game is posted into the DM but the hands."""
    table = await group_dm_game(harness, "flaming-pyramids", turn_limit=3)
    ana, ben, gdm, lobby, game_id = table.ana, table.ben, table.channel, table.card, table.game_id
    session = await session_of(harness, game_id)
    actor = (ana, ben)[session.to_act]
    step = [m for m in harness.dm(actor) if m.buttons()][-1]
    for _ in range(20):
        if (await session_of(harness, game_id)).version != session.version:
            break
        target = next(b for b in step.buttons() if "Back" not in (b.get("label") or ""))
        step = (await harness.click(actor, step, custom_id=target["custom_id"])).message or step
    after = await session_of(harness, game_id)
    assert after.version > session.version
    shown = HEADER.search(card_text(harness.message(lobby.id)))
    assert shown is not None and int(shown.group(2)) == after.version
    assert not any(HEADER.search(card_text(m)) for m in harness.dm(actor)), "no card in the DM"
    assert [m.id for m in public_cards(harness, gdm)] == [lobby.id]


async def test_an_app_not_installable_to_users_still_gets_its_commands(emulator: Any, harness: Harness) -> None:
    """With *User Install* unticked in the developer portal, Discord refuses commands that ask for it:
    the sync then asks for the guild install alone (and no group DMs), instead of failing."""
    emulator.world.app_integration_types = {0}
    await harness.start_bot()
    synced = {c.name: c.raw for c in emulator.world.commands.values() if c.guild_id is None}
    assert synced["pyramid"]["integration_types"] == [0] and sorted(synced["pyramid"]["contexts"]) == [0, 1]
    assert synced["pyramid-admin"]["integration_types"] == [0] and synced["pyramid-admin"]["contexts"] == [0]


async def test_a_resignation_shows_on_the_card_at_the_next_click(emulator: Any, harness: Harness) -> None:
    """A game that ends without a move (``/pyramid resign``) is not announced on its own there; the
    next click on the card draws it finished, its move buttons replaced by the final card's (🔁 Rematch,
    🔐 Fair deal), and the click is told why."""
    table = await group_dm_game(harness, "flaming-pyramids", turn_limit=3)
    ana, ben, gdm, lobby, game_id = table.ana, table.ben, table.channel, table.card, table.game_id
    card = harness.message(lobby.id)
    resigned = await harness.slash(ben, gdm, "pyramid resign", game=game_id)
    assert "resigned" in resigned.text
    assert "Game over" not in card_text(harness.message(lobby.id))  # nothing posted, nothing edited on its own
    clicked = await harness.click(ana, card, custom_id=action_button(card)["custom_id"])
    card = harness.message(lobby.id)
    assert "Game over" in card_text(card) and [b["label"] for b in card.buttons()] == ["🔁 Rematch", "🔐 Fair deal"]
    assert any("over" in m.text for m in clicked.messages if m.ephemeral)
    assert channel_requests(emulator, gdm) == []
    assert [f"{r.method} {r.path} {r.status}" for r in emulator.requests if r.status >= 400] == []


async def test_a_double_click_in_a_group_dm_plays_one_move(emulator: Any, harness: Harness) -> None:
    """Two clicks on the chooser's last step at once: one move is played, the card shows it once,
    the other click is told the board moved on."""
    table = await group_dm_game(harness, "flaming-pyramids", turn_limit=3)
    ana, ben, gdm, lobby, game_id = table.ana, table.ben, table.channel, table.card, table.game_id
    session = await session_of(harness, game_id)
    actor = (ana, ben)[session.to_act]
    card = harness.message(lobby.id)
    step = (await harness.click(actor, card, label="▶ Your move")).last
    while True:  # down the chooser to a step whose buttons are whole moves
        target = next(b for b in step.buttons() if "Back" not in (b.get("label") or ""))
        moves = {m for m in session.game.legal_moves(session.state)}
        if target["custom_id"].split(":", 4)[-1] in moves:
            break
        step = (await harness.click(actor, step, custom_id=target["custom_id"])).message or step
    both = await asyncio.gather(*(harness.click(actor, step, custom_id=target["custom_id"], settle=False)
                                  for _ in range(2)))
    await harness.settle()
    after = await session_of(harness, game_id)
    assert after.version == session.version + 1
    assert len(await harness.bot.services.store.moves(game_id)) == after.version
    shown = HEADER.search(card_text(harness.message(lobby.id)))
    assert shown is not None and int(shown.group(2)) == after.version
    assert [m.id for m in public_cards(harness, gdm)] == [lobby.id]
    assert all(r.answered for r in both)
    assert channel_requests(emulator, gdm) == []


async def test_only_the_opener_needs_the_app(emulator: Any, harness: Harness) -> None:
    """The card's buttons carry the opener's install: a friend who never added the app plays by
    clicking, and sees their hand privately (the bot may not DM someone it shares nothing with)."""
    table = await group_dm_game(harness, "flaming-pyramids", ben_installs=False, turn_limit=2)
    ana, ben, gdm, lobby, game_id = table.ana, table.ben, table.channel, table.card, table.game_id
    users = {0: ana, 1: ben}
    for _ in range(2):
        session = await session_of(harness, game_id)
        if session.over:
            break
        await move_by_clicks(harness, users[session.to_act], harness.message(lobby.id), game_id)
    assert (await session_of(harness, game_id)).version >= 2
    hand = await harness.click(ben, harness.message(lobby.id), label="🂠 My hand")
    shown = [m for m in hand.messages if m.ephemeral and m.png_attachments()]
    assert shown and shown[-1].visible_to == ben.id
    assert channel_requests(emulator, gdm) == []
    refused = {f"{r.method} {r.path} {r.status}" for r in emulator.requests if r.status >= 400}
    dm = harness.world.dm_channel(ben, create=False)
    assert refused <= ({f"POST /api/v10/channels/{dm.id}/messages 403"} if dm is not None else set())


async def test_against_an_ai_in_a_group_dm_to_the_end(emulator: Any, harness: Harness) -> None:
    """A game against an AI, to its end through the card: the AI's turns are played inside each
    human click, so the card always waits for the human."""
    table = await group_dm_game(harness, "flaming-pyramids", ben_installs=False, ai="easy", turn_limit=4)
    ana, gdm, lobby, game_id = table.ana, table.channel, table.card, table.game_id
    for _ in range(200):
        session = await session_of(harness, game_id)
        if session.over:
            break
        assert session.to_act == 0, "the AI moved inside the click before"
        await move_by_clicks(harness, ana, harness.message(lobby.id), game_id)
    session = await session_of(harness, game_id)
    assert session.over and session.result is not None
    assert "Game over" in card_text(harness.message(lobby.id))
    assert [m.id for m in public_cards(harness, gdm)] == [lobby.id]
    assert channel_requests(emulator, gdm) == []
    assert [f"{r.method} {r.path} {r.status}" for r in emulator.requests if r.status >= 400] == []
