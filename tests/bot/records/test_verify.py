"""``verify`` accepts a record as the bot writes it and names the first thing wrong
with an edited one: a move, a story, the result, the seal, the format."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from bot.records.format import RecordProblem, read_record
from bot.records.verify import Verdict, check, positions, verify_text
from engine.core import get_game
from tests.bot.records.helpers import as_json, pure_record


@pytest.fixture(scope="module")
def played() -> dict[str, Any]:
    return as_json(pure_record("flaming-pyramids", 2, {"turn_limit": 6}))


@pytest.fixture
def finished(played: dict[str, Any]) -> dict[str, Any]:
    """A whole Flaming Pyramids game for two, as its record's JSON (a copy to edit)."""
    return copy.deepcopy(played)


def verdict(data: dict[str, Any]) -> Verdict:
    return verify_text(json.dumps(data))


def problem(data: dict[str, Any] | str) -> str:
    with pytest.raises(RecordProblem) as caught:
        verify_text(data if isinstance(data, str) else json.dumps(data))
    return str(caught.value)


def test_a_record_as_the_bot_writes_it_checks_out(finished: dict[str, Any]) -> None:
    result = verdict(finished)
    assert result.sealed
    moves = len(finished["moves"])
    assert moves >= 6
    assert result.summary.startswith("Game #9 of Flaming Pyramids checks out.")
    assert f"all {moves} moves are legal" in result.summary and finished["commitment"] in result.summary
    assert "\n" not in result.summary  # one paragraph


def test_a_move_changed_to_an_illegal_one(finished: dict[str, Any]) -> None:
    finished["moves"][3]["move"] = "play Z99 7,7"
    assert problem(finished).startswith("Move 4 (seat ")
    assert "`play Z99 7,7`) is not legal there" in problem(finished)


def test_a_move_changed_to_another_legal_one(finished: dict[str, Any]) -> None:
    record = read_record(json.dumps(finished))
    before = next(p for p in positions(record) if p.number == 2)
    game = get_game("flaming-pyramids")
    other = next(m for m in game.legal_moves(before.state) if m != finished["moves"][2]["move"])
    finished["moves"][2]["move"] = other
    # legal, but the game narrates it differently from the story the board told
    assert problem(finished).startswith("Move 3's story does not match the move: the game narrates")


def test_a_move_made_by_the_wrong_seat(finished: dict[str, Any]) -> None:
    finished["moves"][0]["seat"] = 1 - finished["moves"][0]["seat"]
    assert "Move 1 (seat" in problem(finished) and "not your turn" in problem(finished)


def test_a_story_edited(finished: dict[str, Any]) -> None:
    finished["moves"][1]["story"][0] = "P0 played the best tile ever."
    assert problem(finished).startswith("Move 2's story does not match the move: the game narrates")


def test_a_player_renamed_changes_the_stories(finished: dict[str, Any]) -> None:
    finished["players"][0]["name"] = "Mallory"
    assert "story does not match" in problem(finished)


def test_the_result_changed(finished: dict[str, Any]) -> None:
    finished["result"]["winners"] = [1 - finished["result"]["winners"][0]]
    assert problem(finished).startswith("The result does not match the moves: they give won by")


def test_the_last_move_removed(finished: dict[str, Any]) -> None:
    finished["moves"].pop()
    assert "the game is not over and nobody left it" in problem(finished)


def test_the_salt_changed(finished: dict[str, Any]) -> None:
    finished["salt"] = "0" * 32
    assert problem(finished).startswith("The commitment does not match the seed and salt")


def test_the_seed_changed(finished: dict[str, Any]) -> None:
    finished["seed"] += 1
    assert problem(finished).startswith("The commitment does not match the seed and salt")


def test_the_seal_left_out(finished: dict[str, Any]) -> None:
    finished["commitment"] = None
    assert problem(finished) == "The record has a salt but no commitment: the seal posted at the start is missing."


def test_not_json_not_a_record_and_other_versions() -> None:
    assert problem('{"format": "pyramid-bot/game-record",').startswith("The record is not valid JSON:")
    assert problem({"game": "pyrinoes", "seed": 1}).startswith("This is not a pyramid-bot game record")
    assert problem("[1, 2]").startswith("This is not a pyramid-bot game record")
    text = problem({"format": "pyramid-bot/game-record", "version": 2})
    assert text.startswith("This record is in format version 2, which this pyramid-bot does not know")


def test_a_field_of_the_wrong_shape(finished: dict[str, Any]) -> None:
    finished["moves"][0]["seq"] = "first"
    assert problem(finished).startswith("The record does not fit format version 1: moves.0.seq:")


def test_unknown_fields_are_read_past(finished: dict[str, Any]) -> None:
    """A new optional field keeps version 1: readers ignore what they do not know."""
    finished["rating_changes"] = {"0": 12.5}
    finished["moves"][0]["think_seconds"] = 3
    assert verdict(finished).sealed


def test_an_unknown_game(finished: dict[str, Any]) -> None:
    finished["game"] = "tic-tac-toe"
    assert problem(finished) == "The record is of a game this pyramid-bot does not know: 'tic-tac-toe'."


def test_a_record_without_its_seed_cannot_be_re_dealt() -> None:
    running = as_json(pure_record("pyrinoes", 2, {}, moves=4))
    assert running["status"] == "active" and running["seed"] is None and running["salt"] is None
    assert running["commitment"], "the seal is public from the start"
    assert "has no seed (the game is still running)" in problem(running)
    challenge = as_json(pure_record("continuous-pyramid", 1, {}, challenge_id=3))
    assert challenge["seed"] is None and challenge["status"] == "finished"
    text = problem(challenge)
    assert "it is a deal of challenge #3 that others may still be playing" in text and "cannot be made again" in text


def test_a_game_dealt_before_seals_checks_out_without_one() -> None:
    old = as_json(pure_record("pyramido", 2, {"mode": "competitive"}, salt=None))
    assert old["commitment"] is None and old["salt"] is None and old["seed"] == 42
    result = verdict(old)
    assert not result.sealed
    assert "dealt before deals were sealed, so it has no seal to check" in result.summary
    old["salt"] = "ab" * 16  # a salt with no seal is an edit
    assert problem(old).startswith("The record has a salt but no commitment")


def test_check_takes_a_parsed_record(finished: dict[str, Any]) -> None:
    assert check(read_record(json.dumps(finished).encode())).sealed
