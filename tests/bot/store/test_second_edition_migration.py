"""Migration 0002: Continuous Pyramid games stored before the rules' second edition.

Their move logs were played with the top cell on ``3:1,1`` (CP-2, first edition). A
log that plays ``4:0,0`` before the centre of level 3 is surrounded replays only under
that edition, so the migration marks such games ``edition: 1`` instead of letting the
new geometry reinterpret (and reject) them.
"""

from __future__ import annotations

import json

from bot.core.session_service import SessionService
from bot.games.catalogue import Catalogue
from bot.store import DatabaseTarget, GameStore
from bot.store.migrate import bundled_migrations
from engine.continuous_pyramid.deal import deal_state
from engine.continuous_pyramid.options import CPOptions
from engine.continuous_pyramid.solver import Budget, solve
from engine.core import EngineError, get_game

SEED = 0
NOW = "2026-11-01T00:00:00+00:00"


def first_edition_line() -> list[str]:
    """A winning line of deal 0 under the first edition; it plays the top cell early."""
    result = solve(deal_state(SEED, CPOptions(edition=1)), Budget(nodes=20_000))
    assert result.winnable
    return list(result.line)


async def old_database(target: DatabaseTarget, moves: list[str]) -> None:
    """A database at schema version 1 holding one running first-edition game, a lobby
    and a challenge, written the way the first-edition bot wrote them."""
    db = await target.open(migrations=bundled_migrations(target.dialect)[:1])
    try:
        assert db.schema_version == 1
        old_options = json.dumps({"undo": True, "winnable_only": False})
        async with db.transaction() as conn:
            await conn.execute(
                "INSERT INTO challenges (id, guild_id, channel_id, seed, options, created_by, created_at)"
                " VALUES (1, 1, 2, 7, ?, 5, ?)", (old_options, NOW))
            for game_id, status in ((1, "active"), (2, "lobby")):
                await conn.execute(
                    "INSERT INTO games (id, kind, guild_id, channel_id, options, status, seed, created_by,"
                    " created_at, updated_at) VALUES (?, 'continuous-pyramid', 1, 2, ?, ?, ?, 5, ?, ?)",
                    (game_id, old_options, status, SEED, NOW, NOW))
                await conn.execute(
                    "INSERT INTO seats (game_id, seat, user_id, name, joined_at) VALUES (?, 0, 5, 'Ana', ?)",
                    (game_id, NOW))
            for seq, move in enumerate(moves, start=1):
                await conn.execute(
                    "INSERT INTO moves (game_id, seq, seat, move, actor_id, created_at) VALUES (1, ?, 0, ?, 5, ?)",
                    (seq, move, NOW))
            # the first-edition bot's cached position: no edition in its options
            position = get_game("continuous-pyramid").to_position(
                get_game("continuous-pyramid").replay(1, {"edition": 1}, SEED, [(0, m) for m in moves]))
            position["options"].pop("edition")
            await conn.execute("INSERT INTO snapshots (game_id, seq, position) VALUES (1, ?, ?)",
                               (len(moves), json.dumps(position)))
    finally:
        await db.close()


async def test_first_edition_games_keep_their_rules_after_the_migration(database_target: DatabaseTarget) -> None:
    line = first_edition_line()
    top = next(i for i, move in enumerate(line) if move.endswith(" 4:0,0"))
    played = line[: top + 3]
    game = get_game("continuous-pyramid")
    # the premise: this log is not a legal game under the second edition
    try:
        game.replay(1, {}, SEED, [(0, m) for m in played])
    except EngineError:
        pass
    else:
        raise AssertionError("the first-edition line should not replay under the second edition")

    await old_database(database_target, played)
    db = await database_target.open()
    try:
        store = GameStore(db)
        running = await store.game_record(1)
        lobby = await store.game_record(2)
        challenge = await store.get_challenge(1)
        assert running is not None and running.options["edition"] == 1
        assert lobby is not None and "edition" not in lobby.options  # dealt later, under the new edition
        assert challenge is not None and challenge.options["edition"] == 1
        assert await store.snapshot(1) is None

        service = SessionService(store, Catalogue.default())
        session = await service.load(1)
        assert session.version == len(played)
        view = session.game.view(session.state, 0)
        assert view["options"]["edition"] == 1
        assert "4:0,0" in view["pyramid"]
        # the game goes on under the rules it was begun with
        following = line[len(played)]
        await service.make_move(1, following, user_id=5, expected_version=session.version)
        assert (await service.load(1)).version == len(played) + 1
    finally:
        await db.close()
