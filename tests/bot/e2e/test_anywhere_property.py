"""By property (#27, play anywhere): whatever the two players of a group-DM game click, in whatever
order (the card's buttons, their private choosers, stale ones included), the bot uses no channel
route there, Discord refuses nothing, every move is stored once, and the one public card shows the
game as it stands after each click."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emulator.harness import Harness
from emulator.model import Message, User
from emulator.server import Emulator
from tests.bot.e2e.driver import HEADER, card_text, latest_game_id, session_of
from tests.bot.e2e.fresh_world import in_fresh_world

_runs = itertools.count()
#: (who clicks: 0 the player not to act, else the one to act; where: 0 the card, 1 their latest private
#: message; which of its buttons, modulo their number: mostly the first, so that moves get made)
clicks = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 1), st.just(0) | st.integers(0, 24)),
                  min_size=6, max_size=30)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(clicks)
def test_any_clicks_in_a_group_dm_keep_one_true_card_and_no_channel_route(
    tmp_path: Path, sequence: list[tuple[int, int, int]]
) -> None:
    asyncio.run(play(tmp_path / f"bot{next(_runs)}.db", sequence))


async def play(database: Path, sequence: list[tuple[int, int, int]]) -> None:
    await in_fresh_world(database, lambda emulator, harness: check_sequence(emulator, harness, sequence))


async def check_sequence(emulator: Emulator, harness: Harness, sequence: list[tuple[int, int, int]]) -> None:
    world = harness.world
    players = [world.add_user("ana"), world.add_user("ben")]
    for user in players:
        harness.install_app(user)
    await harness.start_bot()
    gdm = harness.add_group_dm(*players)
    opened = await harness.slash(players[0], gdm, "pyramid new", game="flaming-pyramids", turn_limit=3)
    lobby = opened.message
    assert lobby is not None
    await harness.click(players[1], lobby, label="Join")
    await harness.click(players[0], lobby, label="Start")
    game_id = await latest_game_id(harness)
    for who, where, which in sequence:
        acting = (await session_of(harness, game_id)).to_act
        user = players[(acting if acting is not None else 0) if who else 1 - (acting or 0)]
        message = harness.message(lobby.id) if where == 0 else latest_private(harness, user, gdm.id)
        if message is None or not message.buttons():
            continue
        buttons = message.buttons()
        await harness.click(user, message, custom_id=buttons[which % len(buttons)]["custom_id"])
        session = await session_of(harness, game_id)
        assert len(await harness.bot.services.store.moves(game_id)) == session.version
        shown = HEADER.search(card_text(harness.message(lobby.id)))
        assert shown is not None and int(shown.group(2)) == session.version, "the card shows the game as it stands"
        cards = [m for m in harness.messages(gdm) if not m.ephemeral and m.png_attachments()]
        assert [m.id for m in cards] == [lobby.id]
    assert [r.path for r in emulator.requests if f"/channels/{gdm.id}" in r.path] == []
    assert [f"{r.method} {r.path} {r.status}" for r in emulator.requests if r.status >= 400] == []


def latest_private(harness: Harness, user: User, channel_id: int) -> Message | None:
    """The clicker's newest private message in the group DM that has buttons (a chooser, a hand)."""
    own = [m for m in harness.world.messages.values()
           if m.channel_id == channel_id and m.visible_to == user.id and not m.deleted and m.buttons()]
    return own[-1] if own else None


