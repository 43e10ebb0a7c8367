"""Game options are bounded in the engines' own models, not only by Discord's
min/max: a forged interaction (or a bug in the bot) cannot start a game with a turn
limit of 10**12 or a Pyrinoes target of 1. ``/pyramid new``'s options, their
Discord bounds and the bot's own check of them all come from the models' offers
(``engine.core.options.offered``)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games.catalogue import Catalogue
from bot.lobbies.options import lobby_options, refusal
from engine.core import BadOptions, get_game
from engine.core.options import offered


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


def test_new_offers_the_options_of_every_game_with_discords_bounds() -> None:
    options = {o.name: o for o in lobby_options(Catalogue.default())}
    assert list(options) == ["curse", "turn_limit", "undo", "winnable_only", "target", "mode", "size", "rounds"]
    assert {n: o.kind for n, o in options.items() if o.kind != "int"} == {
        "curse": "bool", "undo": "bool", "winnable_only": "bool", "mode": "choice", "size": "choice"}
    bounds = {n: (o.minimum, o.maximum) for n, o in options.items() if o.kind == "int"}
    assert bounds == {"turn_limit": (1, 1000), "target": (10, 1000), "rounds": (1, 10)}
    assert options["size"].choices == (4, 5) and options["mode"].choices == ("solo", "coop", "competitive")
    assert options["curse"].description.startswith("Flaming Pyramids: three equal weights in a mini-pyramid")
    assert options["rounds"].description.startswith("Pyramido: ")
    assert all(len(o.description) <= 100 for o in options.values())


@pytest.mark.parametrize(("kind", "given", "reason"), [
    ("flaming-pyramids", {"turn_limit": 1500}, "Turn limit must be from 1 to 1000."),  # the model allows 2000
    ("flaming-pyramids", {"turn_limit": 0}, "Turn limit must be from 1 to 1000."),
    ("pyrinoes", {"target": 9}, "Target score must be from 10 to 1000."),
    ("pyramido", {"mode": "competitive", "rounds": 11}, "Rounds must be from 1 to 10."),  # the model allows 20
    ("pyramido", {"size": 6}, "Pyramid size must be one of 4, 5."),
    ("pyramido", {"mode": "tournament"}, "Mode must be one of solo, coop, competitive."),
])
def test_the_bot_refuses_what_discord_would_not_send(kind: str, given: dict[str, Any], reason: str) -> None:
    assert refusal(offered(get_game(kind).options_model), given) == reason


@pytest.mark.parametrize(("kind", "given"), [
    ("flaming-pyramids", {"turn_limit": 1, "curse": True}),
    ("flaming-pyramids", {"turn_limit": 1000}),
    ("pyrinoes", {"target": 10}),
    ("pyramido", {"mode": "competitive", "rounds": 10}),
    ("pyramido", {"mode": "solo", "size": 4}),
    ("continuous-pyramid", {}),
])
def test_what_discord_allows_the_bot_and_the_engine_accept(kind: str, given: dict[str, Any]) -> None:
    game = get_game(kind)
    assert refusal(offered(game.options_model), given) is None
    game.parse_options(given)
