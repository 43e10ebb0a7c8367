"""Property tests over random games: stones are conserved, every upper stone sits on
a complete matching square, and the footprint never exceeds the pyramid's size."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.rng import Rng
from engine.pyramido import GAME, heuristic
from engine.pyramido.audit import problems

MODES = st.sampled_from([
    ("solo", 1, {}), ("solo", 1, {"size": 4}), ("coop", 2, {}), ("coop", 3, {"size": 4}), ("coop", 4, {}),
    ("competitive", 2, {}), ("competitive", 3, {}), ("competitive", 4, {"rounds": 2}),
])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(MODES, st.integers(min_value=0, max_value=2**32), st.floats(min_value=0.0, max_value=1.0))
def test_random_games_keep_invariants(mode: tuple[str, int, dict[str, int]], seed: int, greed: float) -> None:
    name, players, extra = mode
    state = GAME.setup(players, {"mode": name, **extra}, seed)
    rng = Rng(seed ^ 0x5EED)
    assert problems(state) == []
    for _ in range(400):
        seat = GAME.to_act(state)
        if seat is None:
            break
        legal = GAME.legal_moves(state)
        move = heuristic.choose(state) if rng.random() < greed else rng.choice(legal)
        assert move in legal
        state, _events = GAME.play(state, seat, move)
        assert problems(state) == []
        assert GAME.from_position(GAME.to_position(state)) == state


@settings(max_examples=10, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_heuristic_games_end(seed: int) -> None:
    state = GAME.setup(1, {"mode": "solo"}, seed)
    for _ in range(2000):
        if GAME.to_act(state) is None:
            break
        state, _ = GAME.play(state, 0, heuristic.choose(state))
    result = GAME.result(state)
    assert result is not None
    assert (result.winners == (0,)) == (len(state.pyramids[0]) == 55)
