"""solve(): winning lines replay to wins, verdicts agree with brute force; hint()."""

from __future__ import annotations

import itertools
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.continuous_pyramid import GAME, Budget, Verdict, hint, solve
from engine.continuous_pyramid.deal import deal_state
from engine.continuous_pyramid.hint import ranked_plays
from engine.continuous_pyramid.position import to_position
from engine.continuous_pyramid.state import CPState
from engine.core.rng import Rng


def _replay(state: CPState, line: tuple[str, ...]) -> CPState:
    for move in line:
        state, _ = GAME.play(state, 0, move)
    return state


def first_deal(verdict: Verdict, start: int = 0) -> int:
    """The first deal number from ``start`` with that verdict (deals depend on the RNG,
    so tests look them up rather than hard-coding them)."""
    deal = start
    while solve(deal, Budget(nodes=20_000)).verdict is not verdict:
        deal += 1
    return deal


@pytest.mark.parametrize("start", [0, 100, 200, 300])
def test_winning_line_replays_to_a_win(start: int) -> None:
    deal = first_deal(Verdict.WINNABLE, start)
    res = solve(deal, Budget(nodes=50_000))
    assert res.verdict is Verdict.WINNABLE and len(res.line) == 144
    end = _replay(deal_state(deal), res.line)
    result = GAME.result(end)
    assert result is not None and result.winners == (0,) and result.scores[0] == 144


def test_budget_runs_out_as_unknown_and_lost_deals_are_proved() -> None:
    assert solve(0, Budget(nodes=1)).verdict is Verdict.UNKNOWN
    ticks = itertools.count()
    assert solve(0, Budget(nodes=None, clock=lambda: float(next(ticks)), seconds=0.5)).verdict is Verdict.UNKNOWN
    lost = first_deal(Verdict.NOT_WINNABLE)
    assert solve(deal_state(lost), Budget(nodes=1000)).verdict is Verdict.NOT_WINNABLE


def _brute(state: CPState) -> bool:
    @cache
    def won(key: str) -> bool:
        import json

        s = GAME.from_position(json.loads(key))
        if GAME.result(s) is not None:
            return bool(GAME.result(s).winners)  # type: ignore[union-attr]
        for move in GAME.legal_moves(s):
            nxt, _ = GAME.play(s, 0, move)
            if won(_key(nxt)):
                return True
        return False

    return won(_key(state))


def _key(state: CPState) -> str:
    import json

    pos = to_position(state)
    for k in ("history", "moves", "undos"):
        pos.pop(k)
    return json.dumps(pos, sort_keys=True)


@settings(max_examples=30, deadline=None)
@given(deal=st.sampled_from([0, 1, 2, 3, 4, 5]), left=st.integers(2, 5), seed=st.integers(0, 1000))
def test_endgame_verdicts_match_brute_force(deal: int, left: int, seed: int) -> None:
    """Near the end (stock empty) play a few random moves off the winning line, then
    compare the solver with an exhaustive search through the Game API."""
    line = solve(deal, Budget(nodes=20_000)).line
    state = _replay(deal_state(deal), line[: 144 - left - 3])
    rng = Rng(seed)
    for _ in range(3):
        moves = [m for m in GAME.legal_moves(state) if m.startswith("play")]
        if not moves:
            break
        state, _ = GAME.play(state, 0, rng.choice(moves))
    expected = _brute(state)
    got = solve(state, Budget(nodes=100_000)).verdict
    assert got is (Verdict.WINNABLE if expected else Verdict.NOT_WINNABLE)


def test_hint_is_legal_prefers_non_dragons_and_ignores_stock_order() -> None:
    state = GAME.setup(1, None, 5)
    for _ in range(40):
        move = hint(state)
        assert move is not None and move in GAME.legal_moves(state)
        shuffled = GAME.determinize(state, 0, Rng(1))
        assert hint(shuffled) == move
        state, _ = GAME.play(state, 0, move)
    assert ranked_plays(state)[0][0] >= ranked_plays(state)[-1][0]
    stuck = GAME.from_position(
        {"pyramid": {"1:4,4": "C5"}, "reserve": ["B1", "B2", "B3", "B7", "B8", "B9", "WE", "SP", None], "stock": []}
    )
    assert hint(stuck) is None


def test_hint_keeps_dragons_when_another_tile_fits() -> None:
    state = GAME.from_position(
        {"pyramid": {"1:4,4": "B5"}, "reserve": ["DR", "C4", None, None, None, None, None, None, None], "stock": []}
    )
    move = hint(state)
    assert move is not None and move.startswith("play C4")


def test_winnable_only_says_when_no_deal_was_proven() -> None:
    """Second edition: an unproven deal is never passed off as winnable; the view tells
    the bot (and the picture) that this deal is not proven."""
    from engine.continuous_pyramid.options import CPOptions
    from engine.continuous_pyramid.winnable import winnable_deal

    options = CPOptions(winnable_only=True)
    proven = winnable_deal(3, options)
    assert proven.proven is True
    unproven = winnable_deal(3, options, tries=0)
    assert unproven.proven is False and unproven.deal == 3
    game = GAME
    assert game.view(unproven, 0)["proven_winnable"] is False
    assert game.view(proven, 0)["proven_winnable"] is True
    assert game.view(game.setup(1, {}, 3), 0)["proven_winnable"] is None
    # the flag survives the position round trip (snapshots)
    assert game.from_position(game.to_position(unproven)).proven is False
