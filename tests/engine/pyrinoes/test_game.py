from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import BadOptions, BadPosition, GameOver, IllegalMove, NotYourTurn
from engine.core.registry import get_game
from engine.core.rng import Rng
from engine.pyrinoes import GAME, build_options
from engine.pyrinoes.state import PyrinoesState

FULL0 = [f"{c}{s}" for c in "RY" for s in (1, 2, 3) for _ in range(3)]
FULL1 = [f"{c}{s}" for c in "BK" for s in (1, 2, 3) for _ in range(3)]


def position(**overrides: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "round": 1, "options": {"target": 100}, "scores": [0, 0], "turn": 0, "line": ["3-5"],
        "hands": [["6-4", "5-6"], ["2-1"]], "pyrinoes": [[], []], "supply": [["R1", "Y1", "Y2"], ["B1", "K1"]],
        "green": ["G1", "G2"], "boneyard": ["0-0"], "passes": 0,
    }
    base.update(overrides)
    return base


def test_registry_and_setup() -> None:
    assert get_game("pyrinoes") is GAME
    state = GAME.setup(2, {"target": 50}, seed=4)
    pos = GAME.to_position(state)
    assert pos["options"] == {"target": 50}
    assert [len(h) for h in pos["hands"]] == [9, 9] and len(pos["boneyard"]) == 9 and len(pos["line"]) == 1
    assert sorted(pos["supply"][0]) == sorted(FULL0) and sorted(pos["supply"][1]) == sorted(FULL1)
    assert len(pos["green"]) == 9 and pos["turn"] == pos["first"]
    assert GAME.setup(2, None, seed=4) == GAME.setup(2, None, seed=4)
    firsts = {GAME.setup(2, None, seed=s).first for s in range(20)}
    assert firsts == {0, 1}


def test_options_and_players_are_checked() -> None:
    with pytest.raises(BadOptions):
        GAME.setup(3, None, seed=1)
    with pytest.raises(BadOptions):
        GAME.setup(2, {"target": 0}, seed=1)
    with pytest.raises(BadOptions):
        GAME.setup(2, {"goal": 10}, seed=1)


def test_legal_moves_lists_plays_and_every_build() -> None:
    state = GAME.from_position(position())
    moves = GAME.legal_moves(state)
    plays = [m for m in moves if m.startswith("play")]
    builds = [m for m in moves if m.startswith("build")]
    assert plays == ["play 5-6 right"]
    assert len(builds) == len(set(builds))
    assert set(builds) == {f"build {c}" for codes in build_options(state).values() for c in codes}
    # R1, Y1, Y2 with G1, G2: Y1|R1, Y2|R1, Y21|R1, and green with R1, Y1, Y2, Y21
    assert build_options(state) == {
        (1, 0): ["G1|R1", "G1|Y1", "G2|R1", "G2|Y1"],
        (1, 1): ["Y1|R1"],
        (2, 0): ["G1|Y2", "G2|Y2"],
        (2, 1): ["Y2|R1"],
        (3, 0): ["G1|Y21", "G2|Y21"],
        (3, 1): ["Y21|R1"],
    }
    assert "draw" not in moves and "pass" not in moves


def test_draw_then_pass_only_when_stuck() -> None:
    state = GAME.from_position(position(hands=[["6-6"], ["2-1"]], supply=[["R1"], ["B1"]], green=[]))
    assert GAME.legal_moves(state) == ["draw"]
    state, events = GAME.play(state, 0, "draw")
    assert GAME.to_position(state)["hands"][0] == ["6-6", "0-0"]
    drawn = [e for e in events if e.items == ("0-0",)]
    assert drawn and all(e.visible_to == 0 for e in drawn)
    assert any(e.kind == "draw" and e.visible_to is None and "0-0" not in e.text for e in events)
    state = GAME.from_position(position(hands=[["6-6"], ["2-1"]], supply=[["R1"], ["B1"]], green=[], boneyard=[]))
    assert GAME.legal_moves(state) == ["pass"]


def test_play_never_mutates_and_rejections_change_nothing() -> None:
    state = GAME.from_position(position())
    before = GAME.to_position(state)
    new, _ = GAME.play(state, 0, "play 5-6 right")
    assert GAME.to_position(state) == before
    assert GAME.to_position(new)["line"] == ["3-5", "5-6"]
    with pytest.raises(NotYourTurn):
        GAME.play(state, 1, "play 2-1 left")
    for bad in ("play 6-4 left", "draw", "pass", "build B1|K1", "build Y3|R1", "play 0-0 left"):
        with pytest.raises(IllegalMove):
            GAME.play(state, 0, bad)
    assert GAME.to_position(state) == before


def test_match_end_result_and_game_over() -> None:
    state = GAME.from_position(
        position(line=["1-3"], hands=[[], ["6-6"]], pyrinoes=[["Y2|R1"], []], supply=[[], ["B1", "K3"]],
                 options={"target": 20})
    )
    state, events = GAME.play(state, 0, "play Y2|R1 left")
    result = GAME.result(state)
    assert result is not None and result.winners == (0,) and result.scores == (26.0, 0.0)
    assert "{0}" in result.summary
    assert [e.kind for e in events][-1] == "win"
    assert GAME.to_act(state) is None and GAME.legal_moves(state) == []
    with pytest.raises(GameOver):
        GAME.play(state, 0, "pass")


def test_round_end_deals_next_round_and_narrates_scoring() -> None:
    state = GAME.from_position(position(line=["1-4"], hands=[["2-2"], ["6-6"]], pyrinoes=[["G2|R1"], []],
                                        supply=[[], ["B1"]], green=[], first=0, rng=12345))
    new, events = GAME.play(state, 0, "play G2|R1 left")
    kinds = [e.kind for e in events]
    assert kinds[:3] == ["play", "round-end", "hand-totals"]
    assert "scores" in kinds and "round-start" in kinds
    end = next(e for e in events if e.kind == "round-end")
    assert end.data["totals"] == [4, 13] and end.data["points"] == [16, 0] and end.data["condition"] == 2
    deals = [e for e in events if e.kind == "deal"]
    assert sorted(e.visible_to for e in deals) == [0, 1]
    pos = GAME.to_position(new)
    assert pos["round"] == 2 and pos["turn"] == 1 and pos["first"] == 1 and pos["scores"] == [16, 0]
    assert [len(h) for h in pos["hands"]] == [9, 9] and pos["rng"] != 12345
    again, _ = GAME.play(state, 0, "play G2|R1 left")
    assert again == new  # the deal comes from the state's RNG only


def test_view_hides_hands_boneyard_and_rng() -> None:
    state = GAME.from_position(position(pyrinoes=[["Y1|R1"], []]))
    mine = GAME.view(state, 0)
    assert mine["hands"] == [["6-4", "5-6"], 1] and mine["boneyard"] == 1 and "rng" not in mine
    assert mine["pyrinoes"] == [["Y1|R1"], []] and mine["supply"][1] == ["B1", "K1"]
    assert mine["hand_sizes"] == [2, 1] and mine["open_ends"] == [3, 5]
    assert mine["builds"] and mine["to_act"] == 0 and mine["seat"] == 0 and mine["game"] == "pyrinoes"
    for key in ("players", "pending", "result", "turn_number"):
        assert key in mine
    theirs = GAME.view(state, 1)
    assert theirs["hands"] == [2, ["2-1"]] and "builds" not in theirs
    spectator = GAME.view(state, None)
    assert spectator["hands"] == [2, 1]
    assert "6-4" not in str(theirs) and "0-0" not in str(spectator)


def test_determinize_redeals_only_hidden_dominoes() -> None:
    state = GAME.setup(2, None, seed=9)
    for _ in range(15):
        state, _ = GAME.play(state, state.turn, GAME.legal_moves(state)[-1])
    for seat in (0, 1):
        sample = GAME.determinize(state, seat, Rng(3))
        other = 1 - seat
        assert sample.hands[seat] == state.hands[seat]
        assert sorted(sample.hands[other] + sample.boneyard) == sorted(state.hands[other] + state.boneyard)
        assert len(sample.hands[other]) == len(state.hands[other])
        assert (sample.line, sample.pyrinoes, sample.supply, sample.green, sample.scores) == (
            state.line, state.pyrinoes, state.supply, state.green, state.scores)
        assert GAME.view(sample, seat) == GAME.view(state, seat)
        assert sample.rng != state.rng


def test_position_round_trip_and_defaults() -> None:
    state = GAME.setup(2, None, seed=5)
    assert GAME.from_position(GAME.to_position(state)) == state
    minimal = GAME.from_position({"line": ["3-5"]})
    assert isinstance(minimal, PyrinoesState) and minimal.target == 100 and minimal.first == 0


@pytest.mark.parametrize(
    ("overrides", "words"),
    [
        ({"line": ["3-5", "6-1"]}, "breaks"),
        ({"line": []}, "at least one"),
        ({"line": ["3-5"], "boneyard": ["5-3"]}, "twice"),
        ({"hands": [["6-4", "4-6"], []]}, "twice"),
        ({"hands": [["6-7"], []]}, "Unknown domino"),
        ({"supply": [["B1"], []]}, "supply"),
        ({"supply": [["R1", "R1", "R1"], []], "pyrinoes": [["G1|R1"], []]}, "More than 3"),
        ({"pyrinoes": [["B1|K1"], []]}, "Ice"),
        ({"pyrinoes": [["R1|R2"], []]}, "not a legal pyrino"),
        ({"green": ["R1"]}, "green"),
        ({"turn": 2}, "turn"),
        ({"hands": [[]]}, "one entry per player"),
        ({"colour": "red"}, "Unknown position key"),
        ({"options": {"target": -1}}, "options"),
    ],
)
def test_bad_positions_are_named(overrides: dict[str, Any], words: str) -> None:
    with pytest.raises(BadPosition) as info:
        GAME.from_position(position(**overrides))
    assert words in str(info.value)
