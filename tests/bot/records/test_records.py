"""Records of games the session service played, on each backend: every kind checks
out; the seed and salt are in the record only once they may be shown; games created
before seals, games still running, challenge games and games someone left."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

from bot.core.session_service import SessionService
from bot.records.fairness import commitment
from bot.records.format import RecordProblem
from bot.records.verify import check
from engine.core import get_game
from tests.bot.records.helpers import finished_game, new_game, play, record_file

KINDS = [
    ("continuous-pyramid", 1, {}),
    ("flaming-pyramids", 2, {"turn_limit": 12}),
    ("pyramido", 2, {"mode": "competitive"}),
    ("pyrinoes", 2, {}),
]


@pytest.mark.parametrize(("kind", "players", "options"), KINDS, ids=[k[0] for k in KINDS])
async def test_a_finished_game_of_every_kind_checks_out(service: SessionService, kind: str, players: int,
                                                         options: dict[str, Any]) -> None:
    game_id = await finished_game(service, kind, players, options)
    stored = await service.store.game_record(game_id)
    assert stored is not None and stored.salt is not None
    record = await record_file(service, game_id)
    assert record.game == kind and record.number == game_id and record.status == "finished"
    assert (record.seed, record.salt) == (stored.seed, stored.salt)
    assert record.commitment == commitment(kind, stored.seed, stored.salt)
    assert [m.seq for m in record.moves] == list(range(1, len(await service.store.moves(game_id)) + 1))
    assert record.result == stored.result
    assert all(m.story for m in record.moves), "every move tells a story"
    verdict = check(record)
    assert verdict.sealed and f"Game #{game_id} of {get_game(kind).title} checks out" in verdict.summary


async def test_every_game_gets_its_own_salt(service: SessionService) -> None:
    ids = [await service.store.create_game("pyrinoes", guild_id=1, channel_id=2, options={}, seed=7, created_by=1)
           for _ in range(3)]
    salts = [(await service.store.game_record(i)).salt for i in ids]  # type: ignore[union-attr]
    assert all(s is not None and re.fullmatch(r"[0-9a-f]{32}", s) for s in salts)
    assert len(set(salts)) == 3
    opened = await service.store.open_game("pyrinoes", guild_id=1, channel_id=2, options={}, seed=7, created_by=2)
    assert (await service.store.game_record(opened)).salt not in (None, *salts)  # type: ignore[union-attr]


async def test_a_running_game_keeps_its_seed_and_salt_back(service: SessionService) -> None:
    game_id = await new_game(service, "flaming-pyramids", 2, {})
    await play(service, game_id, moves=3)
    record = await record_file(service, game_id)
    assert record.status == "active" and record.result is None and len(record.moves) == 3
    assert record.seed is None and record.salt is None
    assert record.commitment is not None  # the seal is public from the first board on
    with pytest.raises(RecordProblem, match=r"has no seed \(the game is still running\)"):
        check(record)


async def test_a_challenge_game_keeps_its_deal_sealed_once_over(service: SessionService) -> None:
    challenge = await service.store.create_challenge(guild_id=1, channel_id=2, seed=42, options={}, created_by=100)
    game_id = await new_game(service, "continuous-pyramid", 1, {}, challenge_id=challenge)
    await play(service, game_id)
    record = await record_file(service, game_id)
    assert record.status == "finished" and record.challenge == challenge and record.result is not None
    assert record.seed is None and record.salt is None and record.commitment is not None
    with pytest.raises(RecordProblem, match=f"a deal of challenge #{challenge} that others may still be playing"):
        check(record)


async def test_a_game_created_before_seals_claims_none(service: SessionService) -> None:
    game_id = await new_game(service, "pyrinoes", 2, {})
    async with service.store.db.transaction() as conn:  # as migration 0007 leaves older games
        await conn.execute("UPDATE games SET salt = NULL WHERE id = ?", (game_id,))
    service.forget(game_id)
    await play(service, game_id)
    assert (await service.store.game_record(game_id)).salt is None  # type: ignore[union-attr]
    record = await record_file(service, game_id)
    assert record.seed == 42 and record.salt is None and record.commitment is None
    verdict = check(record)
    assert not verdict.sealed and "no seal to check" in verdict.summary


async def test_a_game_someone_left_checks_out_with_the_result_of_leaving(service: SessionService) -> None:
    """What ``Resignations.resign`` writes for a two-player game: the seat marked as
    resigned and the game's own forfeit result, with the bot's sentence as summary."""
    game_id = await new_game(service, "flaming-pyramids", 2, {})
    await play(service, game_id, moves=5)
    session = await service.load(game_id)
    result = session.game.forfeit(session.state, 1)
    await service.store.set_seat_ai(game_id, 1, None, resigned=True)
    left = dataclasses.replace(result, summary="<@101> resigned. <@100> wins.")
    await service.store.set_status(game_id, "finished", result=left.to_json())
    record = await record_file(service, game_id)
    assert record.players[1].resigned and record.result is not None and record.result["resigned"] == [1]
    assert record.seed == 42
    verdict = check(record)
    assert "then P1 left the game, which gives the recorded result (won by P0)" in verdict.summary
    edited = record.model_copy(update={"players": [record.players[0],
                                                   record.players[1].model_copy(update={"resigned": False})]})
    with pytest.raises(RecordProblem, match="The result says seat 1 left the game, but the players do not say so"):
        check(edited)
    won = record.model_copy(update={"result": {**record.result, "winners": [1]}})
    with pytest.raises(RecordProblem, match="P1 leaving after the last move gives won by P0"):
        check(won)
