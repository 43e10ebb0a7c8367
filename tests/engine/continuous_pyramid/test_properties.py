"""Property tests over random games: conservation, exact undo, round trips."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.continuous_pyramid import GAME
from engine.continuous_pyramid.rules import tiles_in_play
from engine.continuous_pyramid.state import EMPTY, CPState
from engine.continuous_pyramid.tiles import COPIES, NUM_TYPES

COUNTERS = ("moves", "undos")


def _board(state: CPState) -> dict[str, object]:
    pos = GAME.to_position(state)
    return {k: v for k, v in pos.items() if k not in COUNTERS}


def _all_tiles(state: CPState) -> Counter[int]:
    return Counter(t for t in (*state.pyramid, *state.reserve, *state.stock) if t != EMPTY)


@settings(max_examples=25, deadline=None)
@given(deal=st.integers(0, 10**9), picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=160))
def test_random_games_conserve_tiles_and_undo_exactly(deal: int, picks: list[int]) -> None:
    state = GAME.setup(1, None, deal)
    full = Counter({t: COPIES[t] for t in range(NUM_TYPES)})
    for pick in picks:
        assert tiles_in_play(state) == 144
        assert _all_tiles(state) == full
        moves = GAME.legal_moves(state)
        if not moves:
            break
        move = moves[pick % len(moves)]
        new, _ = GAME.play(state, 0, move)
        assert GAME.from_position(GAME.to_position(new)) == new
        if move.startswith("play"):
            assert new.placed == state.placed + 1
            back, _ = GAME.play(new, 0, "undo")
            assert _board(back) == _board(state)
            assert back.pyramid == state.pyramid and back.reserve == state.reserve and back.stock == state.stock
            assert (back.moves, back.undos) == (state.moves + 1, state.undos + 1)
        state = new


@settings(max_examples=10, deadline=None)
@given(deal=st.integers(0, 10**9), picks=st.lists(st.integers(0, 10**6), min_size=5, max_size=60))
def test_every_listed_move_is_accepted_and_plays_fit(deal: int, picks: list[int]) -> None:
    state = GAME.setup(1, {"undo": False}, deal)
    for pick in picks:
        moves = GAME.legal_moves(state)
        if not moves:
            assert GAME.result(state) is not None
            break
        assert "undo" not in moves
        for move in moves:
            GAME.play(state, 0, move)
        state, _ = GAME.play(state, 0, moves[pick % len(moves)])


def test_undo_is_exact_all_along_a_winning_line() -> None:
    from engine.continuous_pyramid import Budget, solve

    state = GAME.setup(1, None, 6)
    line = solve(state, Budget(nodes=50_000)).line
    for i, move in enumerate(line):
        new, _ = GAME.play(state, 0, move)
        if i < len(line) - 1:  # a won game is final: no undo after the last tile
            back, _ = GAME.play(new, 0, "undo")
            assert _board(back) == _board(state)
        assert tiles_in_play(new) == 144 and _all_tiles(new) == _all_tiles(state)
        state = new
    assert GAME.result(state) is not None and GAME.legal_moves(state) == []
