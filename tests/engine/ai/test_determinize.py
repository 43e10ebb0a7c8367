"""Determinizations are canonical: what a seat cannot see never shapes the sample.

Every engine's ``determinize`` re-deals through ``engine.core.hidden.redeal``, which
sorts the hidden items before shuffling; the policies' ``canonical`` keeps the same
guarantee on the AI's side."""

from __future__ import annotations

from typing import Any

import pytest

from engine.ai.policy import policy_for
from engine.core import Rng, game_ids, get_game
from tests.engine.ai.helpers import TABLES, hidden_twin, random_position


def _without_rng(position: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in position.items() if k != "rng"}


@pytest.mark.parametrize(("kind", "players", "options"), TABLES, ids=lambda x: str(x))
@pytest.mark.parametrize("steps", [0, 15, 60])
def test_samples_depend_only_on_the_view(kind: str, players: int, options: dict[str, Any], steps: int) -> None:
    game = get_game(kind)
    policy = policy_for(game)
    state = random_position(game, players, options, 17 + steps, steps)
    seat = game.to_act(state)
    assert seat is not None
    twin = hidden_twin(game, state, seat, 5)
    for k in range(3):
        a = game.determinize(policy.canonical(state, seat), seat, Rng(k))
        b = game.determinize(policy.canonical(twin, seat), seat, Rng(k))
        assert _without_rng(game.to_position(a)) == _without_rng(game.to_position(b))
        assert game.view(a, seat) == game.view(state, seat)


@pytest.mark.parametrize(("kind", "players", "options"), TABLES, ids=lambda x: str(x))
def test_the_engines_own_determinize_is_canonical(kind: str, players: int, options: dict[str, Any]) -> None:
    game = get_game(kind)
    state = random_position(game, players, options, 3, 25)
    seat = game.to_act(state)
    assert seat is not None
    twin = hidden_twin(game, state, seat, 8)
    a = game.determinize(state, seat, Rng(1))
    b = game.determinize(twin, seat, Rng(1))
    assert _without_rng(game.to_position(a)) == _without_rng(game.to_position(b))


def test_the_tables_cover_every_registered_game() -> None:
    assert {kind for kind, _players, _options in TABLES} == set(game_ids())
