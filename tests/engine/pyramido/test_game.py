"""The Game contract for Pyramido: set-up, moves, events, views, positions."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import BadOptions, BadPosition, IllegalMove, NotYourTurn
from engine.core.pending import Pending
from engine.core.registry import get_game
from engine.core.rng import Rng
from engine.pyramido import GAME
from engine.pyramido.audit import problems
from engine.pyramido.setup import cross_cells

CROSS = {"1:2,2": "R", "1:1,2": "Y", "1:3,2": "G", "1:2,1": "B", "1:2,3": "W"}


def coop_position(**changes: Any) -> dict[str, Any]:
    position: dict[str, Any] = {
        "mode": "coop", "size": 5, "turn": 0, "pyramids": [dict(CROSS)], "hands": [["R", "R", "G"], ["Y", "W", "B"]],
        "reserves": [[], []], "quarry": [], "bag": ["Y", "W", "B", "G", "R"], "out": [],
    }
    position.update(changes)
    return position


def test_registry_finds_the_game() -> None:
    assert get_game("pyramido") is GAME


@pytest.mark.parametrize(("mode", "size", "players", "hand", "bag"), [
    ("solo", 5, 1, 6, 65 - 5 - 6), ("solo", 4, 1, 6, 40 - 5 - 6),
    ("coop", 5, 3, 3, 65 - 5 - 9), ("coop", 4, 4, 3, 40 - 17),
])
def test_solo_and_coop_setup(mode: str, size: int, players: int, hand: int, bag: int) -> None:
    state = GAME.setup(players, {"mode": mode, "size": size}, seed=3)
    assert state.size == size and state.players == players
    assert set(state.pyramids[0]) == set(cross_cells(size))
    assert all(len(h) == hand for h in state.hands)
    assert len(state.bag) == bag
    assert problems(state) == []
    assert GAME.to_act(state) == 0


@pytest.mark.parametrize(("players", "size"), [(2, 4), (3, 3), (4, 3)])
def test_competitive_setup(players: int, size: int) -> None:
    state = GAME.setup(players, {"mode": "competitive"}, seed=5)
    assert state.size == size
    assert all(set(p) == {(1, 0, 0), (1, 1, 0)} for p in state.pyramids)
    assert len(state.quarry) == 5 and len(state.bag) == 65 - 2 * players - 5
    assert problems(state) == []


def test_setup_is_seeded() -> None:
    a = GAME.setup(1, {"mode": "solo"}, seed=9)
    b = GAME.setup(1, {"mode": "solo"}, seed=9)
    c = GAME.setup(1, {"mode": "solo"}, seed=10)
    assert a == b and a != c


@pytest.mark.parametrize(("players", "options"), [
    (2, {"mode": "solo"}), (1, {"mode": "coop"}), (5, {"mode": "coop"}), (1, {"mode": "competitive"}),
])
def test_player_counts(players: int, options: dict[str, Any]) -> None:
    with pytest.raises(BadOptions):
        GAME.setup(players, options, seed=1)


@pytest.mark.parametrize("options", [
    {"mode": "duel"}, {"mode": "solo", "size": 3}, {"mode": "competitive", "size": 4}, {"mode": "coop", "rounds": 2},
    {"mode": "solo", "colour": "R"},
])
def test_bad_options(options: dict[str, Any]) -> None:
    with pytest.raises(BadOptions):
        GAME.parse_options(options)


def test_turn_stays_while_placing_and_pending() -> None:
    state = GAME.from_position(coop_position())
    assert GAME.pending(state) is None
    assert any(m.startswith("discard") for m in GAME.legal_moves(state))
    state, events = GAME.play(state, 0, "place R 1:1,1")
    assert GAME.to_act(state) == 0
    assert GAME.pending(state) == Pending("placing", 0, {"placed": 1, "moves": ["place", "end"]})
    assert events[0].cells == ("1:1,1",) and events[0].items == ("R",)
    assert events[0].narrate(["Ann"]) == "Ann placed red on level 1."
    assert not any(m.startswith("discard") for m in GAME.legal_moves(state))
    with pytest.raises(NotYourTurn):
        GAME.play(state, 1, "end")
    state, events = GAME.play(state, 0, "end")
    assert GAME.to_act(state) == 1 and GAME.pending(state) is None
    # Hands are open (PD-4, second edition): the draw is public and names the stone.
    assert all(e.visible_to is None for e in events)
    draws = [e for e in events if e.kind == "draw"]
    assert draws and draws[0].items == ("Y",) and draws[0].narrate(["Ann"]) == "Ann drew yellow; 4 left in the bag."


def test_play_never_mutates() -> None:
    state = GAME.from_position(coop_position())
    before = GAME.to_position(state)
    GAME.play(state, 0, "place R 1:1,1")
    GAME.play(state, 0, "discard R G")
    with pytest.raises(IllegalMove):
        GAME.play(state, 0, "place G 1:1,1")
    assert GAME.to_position(state) == before


@pytest.mark.parametrize("move", ["", "jump", "place R", "place R 1:1", "place Q 1:1,1", "end now", "reserve",
                                  "discard X", "place R 1:a,1"])
def test_unparseable_moves(move: str) -> None:
    state = GAME.from_position(coop_position())
    with pytest.raises(IllegalMove) as info:
        GAME.play(state, 0, move)
    assert info.value.reason


def test_every_listed_move_is_legal_and_others_are_not() -> None:
    state = GAME.setup(1, {"mode": "solo"}, seed=4)
    legal = GAME.legal_moves(state)
    assert legal == sorted(set(legal), key=legal.index)
    for move in legal:
        GAME.play(state, 0, move)
    for colour in "RYGBW":
        for x in range(-1, 6):
            for y in range(-1, 6):
                move = f"place {colour} 1:{x},{y}"
                if move in legal:
                    continue
                with pytest.raises(IllegalMove):
                    GAME.play(state, 0, move)


def test_competitive_legal_moves() -> None:
    state = GAME.setup(2, {"mode": "competitive"}, seed=2)
    legal = GAME.legal_moves(state)
    assert legal[-1] == "pass"
    assert any(m.startswith("take") for m in legal) and any(m.startswith("reserve") for m in legal)
    for move in legal:
        GAME.play(state, 0, move)


def test_views_show_open_hands_and_hide_the_bag() -> None:
    """PD-4 (second edition): every co-op hand is public, to teammates and spectators
    alike; only the bag's order is hidden (its colour counts are public)."""
    state = GAME.from_position(coop_position())
    view = GAME.view(state, 1)
    assert view["hands"] == [["R", "R", "G"], ["Y", "W", "B"]]
    assert view["bag"] == 5 and "rng" not in view
    assert view["unseen"] == {"R": 1, "Y": 1, "G": 1, "B": 1, "W": 1}
    for key in ("game", "seat", "players", "to_act", "pending", "result", "turn_number"):
        assert key in view
    spectator = GAME.view(state, None)
    assert spectator["hands"] == [["R", "R", "G"], ["Y", "W", "B"]]
    assert {k: v for k, v in GAME.view(state, 0).items() if k != "seat"} == {
        k: v for k, v in spectator.items() if k != "seat"}
    comp = GAME.setup(3, {"mode": "competitive"}, seed=1)
    view = GAME.view(comp, 0)
    assert view["reserves"] == [[], [], []] and view["quarry"] == list(comp.quarry) and view["bag"] == len(comp.bag)


def test_determinize_keeps_what_the_seat_sees() -> None:
    """Only the bag is re-dealt: teammates' hands are open (PD-4, second edition)."""
    state = GAME.setup(3, {"mode": "coop"}, seed=8)
    other = GAME.determinize(state, 1, Rng(5))
    assert other.hands == state.hands
    assert sorted(other.bag) == sorted(state.bag) and other.bag != state.bag
    assert GAME.view(other, 1) == GAME.view(state, 1)
    assert problems(other) == []
    assert other != state


def test_position_round_trip_through_a_game() -> None:
    for mode, players in (("solo", 1), ("coop", 3), ("competitive", 2)):
        state = GAME.setup(players, {"mode": mode}, seed=12)
        for _ in range(30):
            if GAME.result(state) is not None:
                break
            assert GAME.from_position(GAME.to_position(state)) == state
            state, _ = GAME.play(state, state.turn, GAME.legal_moves(state)[0])
        assert GAME.from_position(GAME.to_position(state)) == state


@pytest.mark.parametrize("change", [
    {"mode": "chess"},
    {"pyramids": []},
    {"pyramids": [{"1:0,0": "Q"}]},
    {"pyramids": [{"0,0": "R"}]},
    {"pyramids": [{"2:0,0": "R", "1:0,0": "R"}]},
    {"pyramids": [{f"1:{x},0": "R" for x in range(6)}]},
    {"hands": [["R"] * 14, []]},
    {"bag": ["R", "X"]},
    {"turn": 2},
    {"quarry": ["R"]},
    {"reserves": [["R"], []]},
    {"size": 3},
    {"hands": [["R"]]},
])
def test_bad_positions(change: dict[str, Any]) -> None:
    with pytest.raises(BadPosition):
        GAME.from_position(coop_position(**change))


def test_minimal_position_defaults() -> None:
    state = GAME.from_position({"mode": "solo", "pyramids": [CROSS], "hands": [["R"]]})
    assert state.size == 5 and state.players == 1 and state.bag == ()
    comp = GAME.from_position({"pyramids": [{"1:0,0": "R"}, {"1:0,0": "G"}, {"1:0,0": "B"}]})
    assert comp.mode == "competitive" and comp.size == 3 and comp.plus == comp.minus == (0, 0, 0)


def test_competitive_several_rounds_start_fresh() -> None:
    position = {
        "mode": "competitive", "turn": 0, "rounds": 2, "pyramids": [
            {"1:0,0": "R", "1:1,0": "R", "1:2,0": "G", "1:0,1": "R", "1:1,1": "R", "1:2,1": "G", "1:0,2": "B",
             "1:1,2": "B", "1:2,2": "G", "2:0,0": "R", "2:1,0": "G", "2:0,1": "B", "2:1,1": "G"},
            {"1:0,0": "Y", "1:1,0": "W"}, {"1:0,0": "W", "1:1,0": "Y"}],
        "quarry": ["G"], "bag": ["Y"] * 5,
    }
    state = GAME.from_position(position)
    state, events = GAME.play(state, 0, "take G 3:0,0")
    assert state.closer == 0 and GAME.result(state) is None
    state, _ = GAME.play(state, 1, "pass")
    state, events = GAME.play(state, 2, "pass")
    assert state.round == 2 and state.first == 1 and state.turn == 1
    assert state.plus == (1, 0, 0) and state.minus == (0, 12, 12)
    assert [e.kind for e in events][-2:] == ["score", "round"]
    assert problems(state) == []
    assert all(len(p) == 2 for p in state.pyramids) and len(state.quarry) == 5


def test_determinize_depends_only_on_what_the_seat_knows() -> None:
    state = GAME.setup(2, {"mode": "coop"}, seed=21)
    twin = state.with_(bag=tuple(reversed(state.bag)))
    assert GAME.view(twin, 0) == GAME.view(state, 0)
    assert GAME.determinize(state, 0, Rng(3)) == GAME.determinize(twin, 0, Rng(3))
