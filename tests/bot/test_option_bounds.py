"""Game options are bounded in the engines' own models, not only by Discord's
min/max: a forged interaction (or a bug in the bot) cannot start a game with a turn
limit of 10**12 or a Pyrinoes target of 1."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import BadOptions, get_game


@pytest.mark.parametrize(("kind", "options"), [
    ("flaming-pyramids", {"turn_limit": 0}),
    ("flaming-pyramids", {"turn_limit": 2001}),
    ("flaming-pyramids", {"turn_limit": 10**12}),
    ("pyrinoes", {"target": 1}),
    ("pyrinoes", {"target": 9}),
    ("pyrinoes", {"target": 1001}),
    ("pyrinoes", {"target": 100_000}),
    ("pyramido", {"mode": "competitive", "rounds": 0}),
    ("pyramido", {"mode": "competitive", "rounds": 21}),
])
def test_out_of_range_options_are_refused_with_a_reason(kind: str, options: dict[str, Any]) -> None:
    game = get_game(kind)
    with pytest.raises(BadOptions, match="options are not valid"):
        game.parse_options(options)


@pytest.mark.parametrize(("kind", "options"), [
    ("flaming-pyramids", {"turn_limit": 1}),
    ("flaming-pyramids", {"turn_limit": 2000}),
    ("pyrinoes", {"target": 10}),
    ("pyrinoes", {"target": 1000}),
    ("pyramido", {"mode": "competitive", "rounds": 20}),
])
def test_the_bounds_themselves_are_allowed(kind: str, options: dict[str, Any]) -> None:
    assert get_game(kind).parse_options(options).model_dump(exclude_defaults=True) == options | (
        {"mode": "competitive"} if kind == "pyramido" else {})
