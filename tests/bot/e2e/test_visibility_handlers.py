"""Every registered handler that can name a game asks the visibility rule (issue #37).

Walked from what the running bot registered, not from a list kept by hand: every kind of
component (its dynamic items' actions) and every command of the synced tree that takes a
``game`` number. Each is used by a rival entrant of a challenge, naming another entrant's
game, from the challenge's channel (the game's own channel: the place checks pass there)
and by DM. Each must answer with a refusal and show nothing of the game; those that show a
game must answer with the rule's own words. A new kind of component must be classified
here before it passes. A command without a ``game`` option reaches only the caller's own
games, or the game of the thread it is typed in (a place Discord lets the caller see).

Then by property (hypothesis): random clicks, stale or not, naming random games, by random
users in random places, never show a board or a hand to someone the rule refuses.
"""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.visibility import Verdict, Viewer, judge
from emulator.harness import Harness, InteractionResult
from emulator.model import Channel, User
from emulator.server import Emulator
from tests.bot.e2e.driver import HEADER, card_text, session_of, start_flaming
from tests.bot.e2e.fresh_world import in_fresh_world
from tests.bot.e2e.test_daily_privacy import first_move
from tests.bot.e2e.test_visibility import STALE, forge, shows_nothing
from tools.forge import INTEGER, leaves

#: Components that show something of the game their id names: each must be refused in the rule's words.
GAME_VIEWS = frozenset({"turn", "pick", "sel", "page", "move", "hand", "board", "replay", "pvok", "pvbk",
                        "fair", "again"})
#: Components that show nothing of a game (and must still show nothing when forged), and why.
NOT_VIEWS = {
    "join": "a lobby's: an active game's lobby buttons are refused", "leave": "a lobby's", "start": "a lobby's",
    "cancel": "a lobby's", "addai": "a lobby's select", "lopts": "a lobby's options form, its opener's",
    "setform": "the server's settings form: names no game", "chal": "names a challenge: starts the clicker's own game",
    "undo": "↩ Take back: the clicker's own last move, refused to anyone without a seat; its card goes where the "
            "game is, through the outbox",
    "fcast": "🔮 Forecast: the clicker's own forecast as a form, refused to anyone without a seat",
    "hush": "🔕 no more pings this turn: asks the rule, then is the turn's player's alone; shows nothing of a game",
    "nform": "the clicker's own notification settings as a form: names no game",
    "tjoin": "a tournament card's Join: names a tournament, and signs the clicker up or refuses; shows no game",
    "tleave": "a tournament card's Leave: strikes out the clicker's own sign-up; shows no game",
}
#: The rule's refusals (bot.core.visibility), the replay buttons' word for a game out of reach, and the place
#: check's for a public control used away from its game's channel (bot.interactions.access: refused before the rule).
RULE_WORDS = ("shared deal", "no game #", "damaged or out of date", "another channel")
ARGS = {"pick": "play", "move": "play", "page": "1|", "replay": "next", "pvok": "play", "pvbk": "play"}
SELECTS = frozenset({"sel", "addai"})


async def rival_entrants(emulator: Any, harness: Harness) -> tuple[User, User, int]:
    """Ana and Ben each play a challenge's deal; ana has moved once. Returns them and ana's game."""
    ana, ben = await harness.add_user("ana"), await harness.add_user("ben")
    await harness.start_bot()
    post = (await harness.slash(ana, emulator.general, "pyramid new", game="continuous-pyramid",
                                challenge=True)).message
    assert post is not None
    for user in (ana, ben):
        await harness.click(user, post, label="▶ Play this deal")
    store = harness.bot.services.store
    entries = {(await store.seats(g.id))[0].user_id: g for g in await store.all_games() if g.challenge_id}
    theirs = entries[ana.id]
    move = await first_move(harness, theirs.id)
    assert "✅" in (await harness.slash(ana, harness.dm_channel(ana), "pyramid play", move=move, game=theirs.id)).text
    return ana, ben, theirs.id


def registered_actions(harness: Harness) -> set[str]:
    return {a for kind in harness.bot.client._items for a in kind.actions}


async def click(harness: Harness, user: User, where: Channel, action: str, game_id: int, version: int) -> Any:
    cid = f"pb:{action}:{game_id}:{version}" + (f":{ARGS[action]}" if action in ARGS else "")
    if action in SELECTS:
        message = forge(harness, where, [], cid)
        return await harness.select(user, message, cid, ["x"])
    message = forge(harness, where, [cid])
    return await harness.click(user, message, custom_id=cid)


def shows_no_board(answer: InteractionResult, what: str) -> None:
    for message in answer.messages:
        assert not message.attachments and not message.png_attachments(), (what, card_text(message))
        assert not HEADER.search(card_text(message)), (what, card_text(message))


async def test_every_registered_component_asks_the_rule(emulator: Any, harness: Harness) -> None:
    _ana, ben, game_id = await rival_entrants(emulator, harness)
    actions = registered_actions(harness)
    known = GAME_VIEWS | set(NOT_VIEWS)
    assert actions == known, f"classify the new kinds: {sorted(actions ^ known)}"
    version = (await session_of(harness, game_id)).version
    for where in (emulator.general, harness.dm_channel(ben)):
        for action in sorted(actions):
            for v in (STALE, version):
                what = f"ben {action} v{v} in {where.name}"
                answer = await click(harness, ben, where, action, game_id, v)
                shows_no_board(answer, what)
                if action in GAME_VIEWS:
                    said = shows_nothing(answer, game_id, what)
                    assert any(words in said for words in RULE_WORDS), (what, said)
    assert (await session_of(harness, game_id)).version == version
    harness.assert_no_bot_errors()


def fill(spec: dict[str, Any], game_id: int) -> Any:
    """A valid value for a required option (the game option: the game)."""
    if spec["name"] == "game" and spec["type"] == INTEGER:
        return game_id
    if spec.get("choices"):
        return spec["choices"][0]["value"]
    return {3: "play", 4: 1, 5: False, 10: 1.0}.get(spec["type"], "x")


async def test_every_command_naming_a_game_asks_the_rule(emulator: Any, harness: Harness) -> None:
    _ana, ben, game_id = await rival_entrants(emulator, harness)
    commands = [leaf for leaf in leaves(list(harness.world.commands.values()))
                if any(o["name"] == "game" and o["type"] == INTEGER for o in leaf.options)]
    names = {" ".join([leaf.command.name, *leaf.path]) for leaf in commands}
    assert {"pyramid status", "pyramid hand", "pyramid history", "pyramid replay", "pyramid play"} <= names, names
    for where in (emulator.general, harness.dm_channel(ben)):
        for leaf in commands:
            name = " ".join([leaf.command.name, *leaf.path])
            options = {o["name"]: fill(o, game_id) for o in leaf.options if o.get("required") or o["name"] == "game"}
            answer = await harness.slash(ben, where, name, options=options)
            said = shows_nothing(answer, game_id, f"/{name} in {where.name}")
            assert any(words in said for words in RULE_WORDS), (name, said)
            offered = [o for o in leaf.options if o.get("autocomplete")]
            for option in offered:
                assert await harness.autocomplete(ben, where, name, option["name"], "", game=game_id) == []
    harness.assert_no_bot_errors()


# --- by property ------------------------------------------------------------------------------------------------

_runs = itertools.count()
#: (who: ana, ben, carol, eve; where: 0 the server's general, 1 their DM; which game: ana's challenge game,
#: ben's, the public game of ana and carol; the action; stale or the current version)
clicks = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 1), st.integers(0, 2),
                            st.sampled_from(sorted(GAME_VIEWS)), st.booleans()), min_size=8, max_size=16)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(clicks)
def test_forged_clicks_never_show_a_game_the_rule_refuses(tmp_path: Path, sequence: list[tuple[int, int, int, str,
                                                                                                bool]]) -> None:
    asyncio.run(world(tmp_path / f"bot{next(_runs)}.db", sequence))


async def world(database: Path, sequence: list[tuple[int, int, int, str, bool]]) -> None:
    await in_fresh_world(database, lambda emulator, harness: forged_clicks(emulator, harness, sequence))


async def forged_clicks(emulator: Emulator, harness: Harness, sequence: list[tuple[int, int, int, str, bool]]) -> None:
    ana, ben, ana_game = await rival_entrants(emulator, harness)
    carol = await harness.add_user("carol")
    elsewhere = await harness.add_guild("elsewhere")
    eve = await harness.add_user("eve", guild=elsewhere)
    _thread, public = await start_flaming(emulator, harness, [ana, carol])
    store = harness.bot.services.store
    ben_game = next(g.id for g in await store.all_games() if g.challenge_id and g.id != ana_game)
    users = [ana, ben, carol, eve]
    homes = [emulator.general, emulator.general, emulator.general, harness.channel("general", guild=elsewhere)]
    games = [ana_game, ben_game, public]
    for who, dm, which, action, stale in sequence:
        user, game_id = users[who], games[which]
        where = harness.dm_channel(user) if dm else homes[who]
        record = await store.game_record(game_id)
        assert record is not None
        viewer = Viewer(user.id, where.guild_id, where.id)
        verdict = await judge(store, record, viewer, store.db.clock())
        version = STALE if stale else (await session_of(harness, game_id)).version
        answer = await click(harness, user, where, action, game_id, version)
        what = f"{user.username} {action} v{version} on #{game_id} in {where.name}: {verdict}"
        if verdict is not Verdict.SEEN:
            shows_nothing(answer, game_id, what)
            assert any(words in answer.last.text for words in RULE_WORDS), (what, answer.last.text)
