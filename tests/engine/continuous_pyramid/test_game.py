"""The Game contract: set-up, moves, events, results, views."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.continuous_pyramid import GAME
from engine.continuous_pyramid.deal import deal_state
from engine.continuous_pyramid.view import cell_geometry, open_cell_names, reserve_fits
from engine.core.errors import BadOptions, GameOver, IllegalMove
from engine.core.pending import Pending
from engine.core.registry import get_game
from engine.core.rng import Rng

STUCK = {
    "pyramid": {"1:4,4": "C5"},
    "reserve": ["B4", "B1", "B2", "B3", "B7", "B8", "B9", "WE", "SP"],
    "stock": ["B9"],
    "options": {"undo": True},
}


def test_registered_and_one_seat() -> None:
    assert get_game("continuous-pyramid") is GAME
    with pytest.raises(BadOptions):
        GAME.setup(2, None, 1)
    with pytest.raises(BadOptions):
        GAME.setup(1, {"undo": "sometimes"}, 1)


def test_deal_is_fixed_by_the_deal_number() -> None:
    a, b, c = GAME.setup(1, None, 7), GAME.setup(1, None, 7), GAME.setup(1, None, 8)
    assert a == b and a != c
    assert a.deal == 7 and len(a.stock) == 135 and a.placed == 0
    assert GAME.legal_moves(a)[0].endswith("1:4,4")
    assert all(m.endswith("1:4,4") for m in GAME.legal_moves(a))
    assert len(GAME.legal_moves(a)) == len(set(a.reserve))


def test_play_events_name_cells_and_tiles() -> None:
    state = GAME.setup(1, None, 7)
    move = GAME.legal_moves(state)[0]
    new, events = GAME.play(state, 0, move)
    kinds = [e.kind for e in events]
    assert kinds[:2] == ["play", "refill"]
    assert events[0].cells == ("1:4,4",) and events[0].narrate(["Ann"]).startswith("Ann played")
    assert new.moves == 1 and state.moves == 0


def test_illegal_moves_have_reasons() -> None:
    state = GAME.from_position({**STUCK, "pyramid": {"1:4,4": "C5"}, "reserve": ["B4", "C6", *[None] * 7]})
    cases = {
        "play DR 1:4,5": "don't have Red dragon",
        "play B4 1:4,4": "already holds",
        "play B4 1:2,2": "not open",
        "play B4 2:3,3": "not open",
        "play C6 1:4,5": "does not fit",
        "play B4": "not a move",
        "jump": "not a move",
        "resign": "only resign when you are stuck",
        "undo": "nothing to undo",
    }
    for move, words in cases.items():
        with pytest.raises(IllegalMove, match=words):
            GAME.play(state, 0, move)


def test_stuck_with_undo_is_provisional_then_resign_is_final() -> None:
    state = GAME.from_position(STUCK)
    state, events = GAME.play(state, 0, "play B4 1:4,5")
    assert events[-1].kind == "stuck"
    result = GAME.result(state)
    assert result is not None and result.winners == () and result.details["final"] == 0.0
    # Over (nobody is to act) but not settled: the player may still take the loss back.
    assert GAME.to_act(state) is None and GAME.waiting_for(state) == 0
    assert GAME.legal_moves(state) == ["undo", "resign"]
    assert GAME.pending(state) == Pending("stuck", 0, {"choices": ["undo", "resign"]})
    back, _ = GAME.play(state, 0, "undo")
    assert GAME.result(back) is None and back.undos == 1
    done, _ = GAME.play(state, 0, "resign")
    final = GAME.result(done)
    assert final is not None and final.details["final"] == 1.0 and final.scores == (2.0, 1.0, 0.0)
    assert GAME.to_act(done) is None and GAME.waiting_for(done) is None and GAME.legal_moves(done) == []
    with pytest.raises(GameOver):
        GAME.play(done, 0, "undo")


def test_view_hides_the_stock_order() -> None:
    state = GAME.setup(1, None, 3)
    view = GAME.view(state, 0)
    assert view["stock"] == 135
    for key in ("game", "seat", "players", "to_act", "pending", "result", "turn_number"):
        assert key in view
    assert view["open"] == ["1:4,4"] and view["fits"] == [["1:4,4"]] * 9
    assert open_cell_names(state) == ["1:4,4"] and reserve_fits(state)[0] == ["1:4,4"]
    assert len(cell_geometry()) == 144


def test_determinize_reshuffles_only_the_stock() -> None:
    state = GAME.setup(1, None, 3)
    other = GAME.determinize(state, 0, Rng(99))
    assert other.reserve == state.reserve and other.pyramid == state.pyramid
    assert Counter(other.stock) == Counter(state.stock) and other.stock != state.stock


def test_winnable_only_skips_lost_deals_and_records_the_deal() -> None:
    from engine.continuous_pyramid.solver import Budget, Verdict, solve

    lost = 0
    while solve(deal_state(lost), Budget(nodes=10_000)).verdict is not Verdict.NOT_WINNABLE:
        lost += 1
    state = GAME.setup(1, {"winnable_only": True}, lost)
    assert state.deal is not None and state.deal > lost
    assert solve(state, Budget(nodes=10_000)).verdict is Verdict.WINNABLE
    assert GAME.to_position(state)["deal"] == state.deal
    assert GAME.setup(1, {"winnable_only": True}, lost) == state
