"""Records tell how people left, name nobody by Discord id, and ``verify`` refuses
endings the bot never produces (issue #25)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.records.build import player, story, without_ids
from bot.records.format import Move, Player, Record, RecordProblem
from bot.records.verify import check
from bot.store.departures import Departure
from bot.store.records import SeatRecord
from engine.core import derive_seed, get_game

T0 = "2025-01-01T00:00:00+00:00"


def seat(n: int, user: int | None, ai: str | None = None, resigned: bool = False) -> SeatRecord:
    return SeatRecord(game_id=1, seat=n, user_id=user, ai_level=ai, name=f"p{n}", resigned=resigned,  # type: ignore[arg-type]
                      joined_at=T0)


def test_mentions_in_an_old_result_become_seat_placeholders() -> None:
    seats = [seat(0, 111), seat(1, 222)]
    old = {"winners": [1], "summary": "<@111> resigned. <@!222> wins.", "resigned": [0],
           "summary_text": {"template": "{name} resigned. {winner} wins.",
                            "args": {"name": "<@111>", "winner": "<@222>"}}}
    clean = without_ids(old, seats)
    assert clean["summary"] == "{0} resigned. {1} wins."
    assert "111" not in json.dumps(clean) and "222" not in json.dumps(clean)
    assert without_ids({"summary": "<@999> and <#5>"}, seats)["summary"] == "someone and someone"


def test_a_seat_says_how_its_person_left() -> None:
    timed_out = Departure(game_id=1, seat=1, how="timed out", after_move=7, ai_level="normal")
    assert player(seat(1, 222, "normal"), timed_out, 20, None).model_dump() == {
        "seat": 1, "name": "p1", "ai": None, "resigned": True, "left": "timed out", "left_after": 7,
        "then_ai": "normal"}
    # Before departures were noted: a timeout is still a timeout, the ender left after the last move.
    assert (player(seat(1, 222, "normal"), None, 20, None).left, player(seat(1, 222, "normal"), None, 20, None)
            .left_after) == ("timed out", None)
    ender = player(seat(0, 111, resigned=True), None, 20, 0)
    assert (ender.left, ender.left_after, ender.then_ai) == ("resigned", 20, None)
    assert player(seat(0, None, "hard"), None, 20, None).left is None


def game_of(players: int, moves: int, seed: int = 3) -> tuple[Record, Any, Any]:
    """A real Flaming Pyramids game of ``players`` people, ``moves`` moves in."""
    game = get_game("flaming-pyramids")
    state = game.setup(players, {}, seed)
    played = []
    for n in range(moves):
        who = game.to_act(state)
        move = game.legal_moves(state)[derive_seed(seed, str(n)) % len(game.legal_moves(state))]
        state, _ = game.play(state, who, move)
        played.append(Move(seq=n + 1, seat=who, move=move, at=T0))

    replayed = game.setup(players, {}, seed)
    told = []
    for m in played:
        replayed, events = game.play(replayed, m.seat, m.move)
        told.append(m.model_copy(update={"story": story(events, [f"p{i}" for i in range(players)])}))
    record = Record(game="flaming-pyramids", number=1, status="finished", seed=seed,
                    players=[Player(seat=i, name=f"p{i}") for i in range(players)], moves=told)
    return record, game, state


@pytest.mark.parametrize("players", [3, 4])
def test_verify_refuses_a_bigger_game_ended_by_one_leaving(players: int) -> None:
    record, game, state = game_of(players, 4)
    ended = record.model_copy(update={
        "result": game.forfeit(state, 1).to_json(),
        "players": [p.model_copy(update={"resigned": p.seat == 1}) for p in record.players]})
    with pytest.raises(RecordProblem, match=f"never ends a game of {players} players"):
        check(ended)


def test_verify_takes_a_two_player_resignation_and_refuses_what_does_not_fit_it() -> None:
    record, game, state = game_of(2, 4)
    result = game.forfeit(state, 1).to_json()

    def leaver(**fields: Any) -> Record:
        return record.model_copy(update={"result": result, "players": [
            p.model_copy(update={"resigned": True, "left": "resigned", **fields}) if p.seat == 1 else p
            for p in record.players]})

    check(leaver(left_after=4))
    with pytest.raises(RecordProblem, match="left after move 2"):
        check(leaver(left_after=2))
    with pytest.raises(RecordProblem, match="an AI played their seat on"):
        check(leaver(left_after=4, then_ai="easy"))
    with pytest.raises(RecordProblem, match="only people leave"):
        check(record.model_copy(update={"result": result, "players": [
            p.model_copy(update={"resigned": p.seat == 1, "ai": "easy" if p.seat == 1 else None})
            for p in record.players]}))


def test_verify_refuses_a_persons_move_after_they_left() -> None:
    record, _, _ = game_of(2, 6)
    gone = record.players[0].model_copy(update={"resigned": True, "left": "timed out", "left_after": 1,
                                                "then_ai": "normal"})
    players = [gone, record.players[1]]
    after = [m.seq for m in record.moves if m.seat == 0 and m.seq > 1]
    assert after
    unmarked = record.model_copy(update={"players": players, "status": "active", "seed": record.seed})
    with pytest.raises(RecordProblem, match="not marked as the AI's"):
        check(unmarked)
    marked = unmarked.model_copy(update={"moves": [m.model_copy(update={"ai": m.seat == 0 and m.seq > 1})
                                                   for m in record.moves]})
    check(marked)
