"""FP-5: a turn, its errors, and the contract's shared checks."""

from __future__ import annotations

import pytest

from engine.core.errors import GameOver, IllegalMove, MoveRejected, NotYourTurn
from engine.flaming_pyramids import GAME

from .helpers import load, play_all


def _start() -> object:
    return load(pyramid={"0,0": "R40", "0,1": "B20"}, hands=[["R6", "G2"], ["Y4"]], piles=[["B2"], []])


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("play Y4 1,0", "You don't hold Y4."),
        ("play R8 1,0", "There is no tile called 'R8'"),
        ("play R6 0,2", "while a space is open you must use one (1,0)"),
        ("play R6 0,0", "0,0 is already taken by R40"),
        ("play R6 2,0", "a tile must rest on two tiles"),
        ("play R6 -1,0", "There is no row -1"),
        ("play R6 1;0", "is not a cell"),
        ("play R6", "Say where to play R6"),
        ("fall left", "No tile is falling"),
        ("fall down", "A fall is `fall left` or `fall right`."),
        ("pass", "is not a move"),
        ("", "That move is empty"),
    ],
)
def test_fp5_rejections_explain_themselves(move: str, message: str) -> None:
    state = _start()
    before = GAME.to_position(state)  # type: ignore[arg-type]
    with pytest.raises(IllegalMove) as err:
        GAME.play(state, 0, move)  # type: ignore[arg-type]
    assert message in str(err.value)
    assert GAME.to_position(state) == before  # type: ignore[arg-type]


def test_lenient_notation() -> None:
    state = _start()
    a, _ = GAME.play(state, 0, "  PLAY   r6  1, 0 ")  # type: ignore[arg-type]
    b, _ = GAME.play(state, 0, "play R6 1,0")  # type: ignore[arg-type]
    assert a == b


def test_not_your_turn_and_game_over() -> None:
    state = _start()
    with pytest.raises(NotYourTurn):
        GAME.play(state, 1, "play Y4 1,0")  # type: ignore[arg-type]
    done = play_all(load(pyramid={"0,0": "R40", "0,1": "B2"}, hands=[["R6"], ["Y4"]]), "play R6 1,0")
    assert GAME.result(done) is not None and GAME.to_act(done) is None
    assert GAME.legal_moves(done) == []
    with pytest.raises(GameOver):
        GAME.play(done, 1, "play Y4 0,2")
    with pytest.raises(MoveRejected):
        GAME.apply(done, 1, "play Y4 0,2")


def test_fp5_win_result_and_event() -> None:
    state = load(pyramid={"0,0": "R40", "0,1": "B2"}, hands=[["Y4"], ["R6"]], piles=[["G2"], ["G4"]], turn=1)
    state, events = GAME.play(state, 1, "play R6 1,0")
    # Player 1's pile is not empty, so no win: they draw.
    assert GAME.result(state) is None and state.hands[1] == ("G4",)
    state = load(pyramid={"0,0": "R40", "0,1": "B2"}, hands=[["Y4"], ["R6"]], piles=[["G2"], []], turn=1)
    state, events = GAME.play(state, 1, "play R6 1,0")
    result = GAME.result(state)
    assert result is not None and result.winners == (1,) and result.winner == 1
    assert result.scores == (2.0, 0.0)
    assert result.summary.format("Ana", "Bo") == "Bo placed their last tile and wins."
    assert events[-1].kind == "win" and events[-1].narrate(["Ana", "Bo"]) == "Bo has no tile left and wins the game!"


def test_fp5_hand_never_refills_beyond_five() -> None:
    state = load(pyramid={"0,0": "R40", "0,1": "B20"}, hands=[["R6", "G2", "G4", "G6", "G10", "G20"], ["Y4"]],
                 piles=[["B2"], []])
    state = play_all(state, "play R6 1,0")
    assert len(state.hands[0]) == 5 and state.piles[0] == ("B2",)


def test_moves_count_plays_and_falls() -> None:
    state = load(pyramid={"0,0": "B30", "0,1": "R4"}, hands=[["Y60", "G2"], ["R2"]])
    state = play_all(state, "play Y60 1,0", "fall left")
    assert state.moves == 2 and state.turns == 1
    assert GAME.view(state, 0)["turn_number"] == 2


def test_advance_matches_apply() -> None:
    state = load(pyramid={"0,0": "B30", "0,1": "R4"}, hands=[["Y60", "G2"], ["R2"]])
    quiet = GAME.advance(GAME.advance(state, "play Y60 1,0"), "fall right")
    loud = play_all(state, "play Y60 1,0", "fall right")
    assert quiet == loud
