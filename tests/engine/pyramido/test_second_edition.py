"""The second edition of the Pyramido rulings: PD-6 tallies (fewest minus points
win), PD-4 open co-op hands and the bag-limited swap, PD-1's small edition, and how
the position loader treats first-edition positions."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import BadPosition, IllegalMove
from engine.core.events import Event
from engine.core.rng import Rng
from engine.pyramido import GAME
from engine.pyramido.audit import problems
from engine.pyramido.policy import PyramidoPolicy
from engine.pyramido.setup import cross_cells
from engine.pyramido.state import State

#: A complete 3×3 level 1 and level 2 (13 stones): ``take G 3:0,0`` completes it.
NEARLY = {"1:0,0": "R", "1:1,0": "R", "1:2,0": "G", "1:0,1": "R", "1:1,1": "R", "1:2,1": "G", "1:0,2": "B",
          "1:1,2": "B", "1:2,2": "G", "2:0,0": "R", "2:1,0": "G", "2:0,1": "B", "2:1,1": "G"}
CROSS = {"1:2,2": "R", "1:1,2": "Y", "1:3,2": "G", "1:2,1": "B", "1:2,3": "W"}
NAMES = ["Ana", "Ben", "Chidi"]


def last_round(plus: list[int], minus: list[int], **changes: Any) -> dict[str, Any]:
    """Seat 0 of three completes with ``take G 3:0,0``; seat 0 is last in the round's
    order (``first`` 1), so the move ends the last of two rounds at once."""
    position: dict[str, Any] = {
        "mode": "competitive", "turn": 0, "first": 1, "rounds": 2, "round": 2,
        "pyramids": [dict(NEARLY), {"1:0,0": "Y", "1:1,0": "W"}, {"1:0,0": "W", "1:1,0": "Y"}],
        "quarry": ["G"], "bag": ["Y"] * 5, "plus": plus, "minus": minus,
    }
    position.update(changes)
    return position


def end_last_round(plus: list[int], minus: list[int], **changes: Any) -> tuple[State, list[Event]]:
    """The game after seat 0's ``take G 3:0,0`` ends the round of :func:`last_round`."""
    return GAME.play(GAME.from_position(last_round(plus, minus, **changes)), 0, "take G 3:0,0")


# --- PD-6: plus and minus points ----------------------------------------------------


def test_position_json_keeps_plus_and_minus_not_a_net_score() -> None:
    state = GAME.from_position(last_round([0, 1, 0], [4, 0, 10]))
    position = GAME.to_position(state)
    assert position["plus"] == [0, 1, 0] and position["minus"] == [4, 0, 10]
    assert "scores" not in position
    assert GAME.from_position(position) == state


def test_fewest_minus_points_win_even_with_a_worse_net_total() -> None:
    # After the round: seat 0 has 1 plus and 10 minus (net -9), seat 1 4 plus and 12
    # minus (net -8). The first edition crowned seat 1; the second edition seat 0.
    state, events = end_last_round([0, 4, 0], [10, 0, 0], rounds=5, round=5)
    result = GAME.result(state)
    assert state.plus == (1, 4, 0) and state.minus == (10, 12, 12)
    assert result is not None and result.winners == (0,)
    # Result scores are minus the minus points; details carry both tallies per seat.
    assert result.scores == (-10.0, -12.0, -12.0)
    assert result.details["plus_1"] == 4.0 and result.details["minus_1"] == 12.0
    assert result.summary.format(*NAMES) == (
        "After 5 rounds Ana has the fewest minus points (10, with 1 plus point) and won.")
    assert [e.kind for e in events][-2:] == ["score", "win"]


def test_the_story_shows_plus_and_minus_for_every_player() -> None:
    _, events = end_last_round([0, 1, 0], [4, 0, 10])
    score = next(e for e in events if e.kind == "score")
    assert score.narrate(NAMES) == (
        "Round 2 of 2: Ana +1 plus point, Ben 12 minus points, Chidi 12 minus points. "
        "Tallies: Ana 1 plus · 4 minus, Ben 1 plus · 12 minus, Chidi 0 plus · 22 minus."
    )
    assert score.data["plus"] == [1, 1, 0] and score.data["minus"] == [4, 12, 22]


def test_equal_minus_points_go_to_the_most_plus_points() -> None:
    state, _ = end_last_round([0, 0, 2], [12, 12, 0], rounds=3, round=3)
    result = GAME.result(state)
    # Seat 0 and seat 2 both have 12 minus points; seat 0 has 1 plus point, seat 2 has 2.
    assert state.minus == (12, 24, 12) and state.plus == (1, 0, 2)
    assert result is not None and result.winners == (2,)
    assert result.summary.format(*NAMES) == (
        "After 3 rounds Chidi and Ana tie on the fewest minus points (12); Chidi has the most plus points (2) and won."
    )


def test_equal_minus_and_plus_points_share_the_win() -> None:
    state, _ = end_last_round([0, 0, 1], [12, 12, 0], rounds=3, round=3)
    result = GAME.result(state)
    assert result is not None and result.winners == (0, 2) and result.winner is None
    assert "share the win" in result.summary


def test_the_first_completer_gets_exactly_one_plus_point() -> None:
    """Only the round's first completer scores a plus point; a later completer scores
    nothing at all (PD-6)."""
    both = last_round([0, 0, 0], [0, 0, 0], rounds=3, round=1, turn=1, first=0, quarry=["G", "G"])
    both["pyramids"] = [{"1:0,0": "Y", "1:1,0": "W"}, dict(NEARLY), dict(NEARLY)]
    state = GAME.from_position(both)
    state, _ = GAME.play(state, 1, "take G 3:0,0")
    state, events = GAME.play(state, 2, "take G 3:0,0")
    assert state.round == 2 and state.plus == (0, 1, 0) and state.minus == (12, 0, 0)
    assert "Chidi no minus points" in next(e for e in events if e.kind == "score").narrate(NAMES)


# --- Old positions: the first edition's net ``scores`` -------------------------------


def old(scores: list[int], **changes: Any) -> dict[str, Any]:
    position = {k: v for k, v in last_round([], []).items() if k not in ("plus", "minus")}
    position.update(scores=scores, **changes)
    return position


def test_old_scores_after_one_round_convert_unambiguously() -> None:
    state = GAME.from_position(old([-4, 1, -10]))
    assert state.plus == (0, 1, 0) and state.minus == (4, 0, 10)
    assert GAME.from_position(old([0, 0, 0], round=1)).plus == (0, 0, 0)
    # The solo/co-op positions of the first edition carried an empty list.
    coop = GAME.from_position({"mode": "coop", "pyramids": [CROSS], "hands": [["R"], ["G"]], "scores": []})
    assert coop.plus == coop.minus == ()


@pytest.mark.parametrize(("position", "why"), [
    (old([-4, 1, -10], rounds=3, round=3), "cannot be converted"),
    (old([-3, -11, -22], rounds=2, round=2, result={"winners": [0], "scores": [], "summary": ""}),
     "cannot be converted"),
    (old([2, 0, -3]), "cannot come from one scored round"),
    (old([1, 1, -3]), "cannot come from one scored round"),
    (old([0, -1, 0], round=1), "no round has been scored yet"),
    (old([1, 0, -3]) | {"plus": [1, 0, 0]}, "'plus' and 'minus' only"),
])
def test_ambiguous_or_impossible_old_scores_are_refused(position: dict[str, Any], why: str) -> None:
    with pytest.raises(BadPosition, match=why):
        GAME.from_position(position)


@pytest.mark.parametrize(("change", "why"), [
    ({"plus": [1, 0]}, "one number per competitive player"),
    ({"minus": [-4, 0, 0]}, "no negative numbers"),
    ({"plus": [True, 0, 0]}, "whole numbers"),
    ({"plus": [2, 1, 0]}, "at most one"),
    ({"rounds": 1, "round": 1, "plus": [1, 0, 0]}, "several-rounds option"),
])
def test_bad_tallies_are_refused(change: dict[str, Any], why: str) -> None:
    with pytest.raises(BadPosition, match=why):
        GAME.from_position(last_round([0, 0, 0], [0, 0, 0]) | change)


def test_coop_positions_have_no_tallies() -> None:
    with pytest.raises(BadPosition, match="competitive game"):
        GAME.from_position({"mode": "coop", "pyramids": [CROSS], "hands": [["R"], ["G"]], "plus": [0, 0]})


# --- PD-4: open hands, the bag-limited swap ---------------------------------------------


def coop(**changes: Any) -> dict[str, Any]:
    position: dict[str, Any] = {"mode": "coop", "turn": 0, "pyramids": [dict(CROSS)],
                                "hands": [["R", "R", "G"], ["Y", "W", "B"], ["G", "G", "W"]],
                                "bag": ["Y", "W", "B", "G", "R"]}
    position.update(changes)
    return position


@pytest.mark.parametrize("seat", [None, 0, 1, 2])
def test_every_seat_and_spectators_see_every_coop_hand(seat: int | None) -> None:
    state = GAME.from_position(coop())
    view = GAME.view(state, seat)
    assert view["hands"] == [["R", "R", "G"], ["Y", "W", "B"], ["G", "G", "W"]]
    assert view["bag"] == 5 and "rng" not in view


def test_the_solo_hand_is_public_too() -> None:
    state = GAME.setup(1, {"mode": "solo"}, seed=3)
    assert GAME.view(state, None)["hands"] == [list(state.hands[0])]


def test_the_ai_keeps_teammates_real_hands() -> None:
    """Nothing among teammates is hidden: neither the policy's canonical form nor the
    engine's determinize re-deals a hand; only the bag's order is re-shuffled."""
    state = GAME.setup(4, {"mode": "coop"}, seed=31)
    policy = PyramidoPolicy(GAME)
    known = policy.canonical(state, 2)
    assert known.hands == state.hands and sorted(known.bag) == sorted(state.bag)
    for k in range(5):
        seen = GAME.determinize(known, 2, Rng(k))
        assert seen.hands == state.hands
        assert sorted(seen.bag) == sorted(state.bag)
        assert problems(seen) == []


def test_a_swap_returns_at_most_as_many_stones_as_the_bag_holds() -> None:
    """PD-4 (second edition): with two stones in the bag, a swap takes at most two."""
    state = GAME.from_position(coop(bag=["Y", "W"]))
    discards = [m for m in GAME.legal_moves(state) if m.startswith("discard")]
    assert "discard R G" in discards and "discard R R" in discards
    assert all(len(m.split()) - 1 <= 2 for m in discards)
    with pytest.raises(IllegalMove, match="holds only 2 stones"):
        GAME.play(state, 0, "discard R R G")
    after, _ = GAME.play(state, 0, "discard R G")
    assert after.bag == () and sorted(after.hands[0]) == ["R", "W", "Y"] and sorted(after.out) == ["G", "R"]
    empty = GAME.from_position(coop(bag=[]))
    assert not any(m.startswith("discard") for m in GAME.legal_moves(empty))
    with pytest.raises(IllegalMove, match="bag is empty"):
        GAME.play(empty, 0, "discard R")


# --- PD-1: the small edition has 8 stones per colour ---------------------------------------


def small(extra_red: int) -> dict[str, Any]:
    """A 4×4 co-op position with ``extra_red`` red stones in the bag beside the cross's one."""
    cross = dict(zip(("1:1,1", "1:0,1", "1:2,1", "1:1,0", "1:1,2"), "RYGBW", strict=True))
    return {"mode": "coop", "size": 4, "pyramids": [cross], "hands": [["Y"], ["G"]], "bag": ["R"] * extra_red}


def test_the_small_edition_holds_eight_stones_of_a_colour() -> None:
    assert GAME.from_position(small(7)).bag.count("R") == 7
    with pytest.raises(BadPosition, match=r"9 red \(R\) stones, but the small edition .* only 8"):
        GAME.from_position(small(8))


@pytest.mark.parametrize("where", ["hands", "out", "pyramid"])
def test_every_stone_counts_towards_the_small_edition_limit(where: str) -> None:
    position = small(4)
    if where == "hands":
        position["hands"] = [["R", "R", "R"], ["R"]]
    elif where == "out":
        position["out"] = ["R"] * 4
    else:
        position["pyramids"][0].update({"1:0,0": "R", "1:2,0": "R", "1:0,2": "R", "1:2,2": "R"})
    with pytest.raises(BadPosition, match="only 8"):
        GAME.from_position(position)


def test_the_full_box_still_holds_thirteen() -> None:
    big = small(12) | {"size": 5, "pyramids": [dict(CROSS)]}
    assert GAME.from_position(big).bag.count("R") == 12
    with pytest.raises(BadPosition, match="the box has only 13"):
        GAME.from_position(big | {"bag": ["R"] * 13})
    # The competitive 4×4 pyramid (two players) is built from the full box.
    duel = {"mode": "competitive", "pyramids": [{"1:0,0": "R"}, {"1:0,0": "R"}], "bag": ["R"] * 11}
    assert GAME.from_position(duel).size == 4


def test_a_fresh_small_edition_game_loads_back() -> None:
    state = GAME.setup(2, {"mode": "coop", "size": 4}, seed=5)
    assert set(state.pyramids[0]) == set(cross_cells(4))
    assert GAME.from_position(GAME.to_position(state)) == state
