"""Every level returns a legal move (pending decisions included) and decides from the
seat's view only: positions that differ only in hidden parts get the same move."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.ai import LEVELS, choose_move
from engine.ai.policy import Policy, policy_for
from engine.core import get_game
from tests.engine.ai.helpers import TABLES, fp_pending_position, hidden_twin, random_position
from tests.engine.continuous_pyramid.test_game import STUCK

#: Small deterministic search budget for tests (no clock: the iteration count decides);
#: Pyramido's rollouts call the engine's own heuristic, so it gets fewer.
HARD = {"pyramido": 12}
SEEDS = st.integers(min_value=0, max_value=2**32)


def _choose(game: Any, state: Any, seat: int, level: str, seed: int) -> str:
    return choose_move(game, state, seat, level, seed, iterations=HARD.get(game.id, 60))


@pytest.mark.parametrize(("kind", "players", "options"), TABLES, ids=lambda x: str(x))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, steps=st.integers(min_value=0, max_value=120), ai_seed=SEEDS)
def test_every_level_returns_a_legal_move(kind: str, players: int, options: dict[str, Any], seed: int,
                                          steps: int, ai_seed: int) -> None:
    game = get_game(kind)
    state = random_position(game, players, options, seed, steps)
    seat = game.to_act(state)
    assert seat is not None
    legal = game.legal_moves(state)
    for level in LEVELS:
        move = _choose(game, state, seat, level, ai_seed)
        assert move in legal, (level, move)
        game.play(state, seat, move)  # the engine accepts it too


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10_000), players=st.integers(min_value=2, max_value=4), ai_seed=SEEDS)
def test_fall_decisions_are_legal(seed: int, players: int, ai_seed: int) -> None:
    game = get_game("flaming-pyramids")
    state = fp_pending_position(seed, players)
    seat = game.to_act(state)
    assert seat is not None and game.pending(state) is not None
    for level in LEVELS:
        move = _choose(game, state, seat, level, ai_seed)
        assert move in ("fall left", "fall right")
        game.play(state, seat, move)


@pytest.mark.parametrize(("kind", "players", "options"), TABLES, ids=lambda x: str(x))
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, steps=st.integers(min_value=0, max_value=100), twin_seed=SEEDS, ai_seed=SEEDS)
def test_hidden_information_never_changes_the_decision(kind: str, players: int, options: dict[str, Any],
                                                       seed: int, steps: int, twin_seed: int, ai_seed: int) -> None:
    game = get_game(kind)
    state = random_position(game, players, options, seed, steps)
    seat = game.to_act(state)
    assert seat is not None
    twin = hidden_twin(game, state, seat, twin_seed)
    assert game.view(twin, seat) == game.view(state, seat)
    for level in LEVELS:
        assert _choose(game, state, seat, level, ai_seed) == _choose(game, twin, seat, level, ai_seed), level


def test_hidden_twin_really_differs() -> None:
    """The invariance test is only meaningful if the twins differ in the hidden parts."""
    for kind, players, options in TABLES:
        game = get_game(kind)
        state = random_position(game, players, options, 5, 20)
        seat = game.to_act(state)
        assert seat is not None
        assert game.to_position(hidden_twin(game, state, seat, 1)) != game.to_position(state), kind


def test_pending_fall_invariance() -> None:
    game = get_game("flaming-pyramids")
    state = fp_pending_position(11, 3)
    seat = game.to_act(state)
    assert seat is not None
    twin = hidden_twin(game, state, seat, 99)
    for level in LEVELS:
        assert _choose(game, state, seat, level, 3) == _choose(game, twin, seat, level, 3)


def test_the_same_seed_gives_the_same_move_and_the_clock_bounds_hard() -> None:
    game = get_game("flaming-pyramids")
    state = random_position(game, 2, {}, 8, 30)
    seat = game.to_act(state)
    assert seat is not None
    assert _choose(game, state, seat, "hard", 4) == _choose(game, state, seat, "hard", 4)
    ticks = iter(range(1000))
    # A fake clock that jumps a second per reading: the 1.5 s budget ends after two readings.
    move = choose_move(game, state, seat, "hard", 4, clock=lambda: float(next(ticks)))
    assert move in game.legal_moves(state)
    assert next(ticks) < 10


def test_bad_requests_are_refused() -> None:
    game = get_game("pyrinoes")
    state = game.setup(2, None, 1)
    seat = game.to_act(state)
    assert seat is not None
    with pytest.raises(ValueError, match="Unknown AI level"):
        choose_move(game, state, seat, "genius", 1)
    with pytest.raises(ValueError, match="is to act"):
        choose_move(game, state, 1 - seat, "easy", 1)


def _without_policy(game: Any) -> Any:
    """The same rule book with ``policy_module = None``, as a new game would start out."""
    bare = type(f"Bare{type(game).__name__}", (type(game),), {"policy_module": None})
    return bare()


@pytest.mark.parametrize(("kind", "players", "options"), TABLES, ids=lambda x: str(x))
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, steps=st.integers(min_value=0, max_value=80), ai_seed=SEEDS)
def test_a_game_without_a_policy_module_gets_legal_moves_at_every_level(
        kind: str, players: int, options: dict[str, Any], seed: int, steps: int, ai_seed: int) -> None:
    game = _without_policy(get_game(kind))
    assert type(policy_for(game)) is Policy
    state = random_position(game, players, options, seed, steps)
    seat = game.to_act(state)
    assert seat is not None
    legal = game.legal_moves(state)
    for level in LEVELS:
        move = choose_move(game, state, seat, level, ai_seed, iterations=12)
        assert move in legal, (level, move)
        game.play(state, seat, move)


def test_an_ai_answers_a_take_back_after_the_end() -> None:
    """A stuck solitaire is over, but still waits for its player: the AI gives up."""
    game = get_game("continuous-pyramid")
    stuck, _ = game.play(game.from_position(STUCK), 0, "play B4 1:4,5")
    assert game.to_act(stuck) is None
    for level in LEVELS:
        assert choose_move(game, stuck, 0, level, 1) == "resign"
