"""Property tests over random games (hypothesis picks the seeds, seat counts and options)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.rng import Rng
from engine.flaming_pyramids import GAME
from engine.flaming_pyramids.state import HAND_SIZE

from .helpers import assert_conserved, assert_settled, random_game

GAMES = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**63)
players = st.integers(min_value=2, max_value=6)


@GAMES
@given(seed=seeds, n=players, curse=st.booleans())
def test_tiles_are_conserved_and_turns_end_settled(seed: int, n: int, curse: bool) -> None:
    """Every one of the 45 tiles is in exactly one hand, pile, the pyramid or removed (or, while
    a played tile's fall is pending, in the air); no tile rests in free air or breaks FP-4 at a
    turn's end."""
    state = GAME.setup(n, {"curse": curse}, seed)
    rng = Rng(seed)
    for _ in range(400):
        assert_conserved(state)
        if state.pending is None:
            assert_settled(state)
            assert all(len(h) <= HAND_SIZE for h in state.hands)
        else:
            r, c = state.pending.cell
            assert (r - 1, c) not in state.pyramid and (r - 1, c + 1) not in state.pyramid
            assert GAME.to_act(state) == state.pending.player
        seat = GAME.to_act(state)
        if seat is None:
            break
        state, _ = GAME.play(state, seat, rng.choice(GAME.legal_moves(state)))


@GAMES
@given(seed=seeds, n=players, curse=st.booleans(), limit=st.one_of(st.none(), st.integers(1, 60)))
def test_replaying_the_log_gives_the_same_state(seed: int, n: int, curse: bool, limit: int | None) -> None:
    state, log, _ = random_game(n, seed, curse, 300, turn_limit=limit)
    options: dict[str, object] = {"curse": curse}
    if limit is not None:
        options["turn_limit"] = limit
    assert GAME.replay(n, options, seed, log) == state


@GAMES
@given(seed=seeds, n=players, curse=st.booleans())
def test_positions_round_trip_and_play_never_mutates(seed: int, n: int, curse: bool) -> None:
    state = GAME.setup(n, {"curse": curse}, seed)
    rng = Rng(~seed)
    for _ in range(120):
        pos = GAME.to_position(state)
        assert GAME.from_position(pos) == state
        seat = GAME.to_act(state)
        if seat is None:
            break
        legal = GAME.legal_moves(state)
        assert len(legal) == len(set(legal))
        nxt, _ = GAME.play(state, seat, rng.choice(legal))
        assert GAME.to_position(state) == pos
        state = nxt


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(seed=seeds, n=players, curse=st.booleans())
def test_many_complete_games(seed: int, n: int, curse: bool) -> None:
    state, _, ends = random_game(n, seed, curse, 20_000, turn_limit=2_000)
    assert GAME.result(state) is not None
    for end in ends:
        assert_conserved(end)
        assert_settled(end)
