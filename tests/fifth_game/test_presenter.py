"""Pebble Pyramid's presenter joins the bot's catalogue beside the four games, and
what it publishes in the channel depends on public information only."""

from __future__ import annotations

import json
from typing import Any

import render
from bot.games.catalogue import Catalogue
from bot.lobbies.options import lobby_options
from engine.core import Rng
from tests.fifth_game.engine import GAME, GAME_ID
from tests.fifth_game.presenter import PRESENTER
from tests.fifth_game.state import PebbleState


def test_the_catalogue_offers_the_fifth_game_and_its_option() -> None:
    catalogue = Catalogue.default().with_games(PRESENTER)
    assert catalogue.kinds[-1] == GAME_ID and len(catalogue) == 5
    assert catalogue.game(GAME_ID) is GAME and catalogue.art(GAME_ID) is PRESENTER.art
    [option] = [o for o in lobby_options(catalogue) if o.name == "tokens_per_colour"]
    assert option.titles == ("Pebble Pyramid",) and (option.minimum, option.maximum) == (3, 6)


def published(state: PebbleState) -> dict[str, Any]:
    """Everything the bot derives from a position for the channel."""
    view = GAME.view(state, None)
    moves = GAME.legal_moves(state)
    labels = PRESENTER.public_labels(view, moves)
    return {
        "view": json.dumps(view, sort_keys=True),
        "labels": labels,
        "public_moves": [m for m in moves if m.split()[0] in PRESENTER.public_verbs],
        "png": render.render_board(view, labels=labels, art=PRESENTER.art),
    }


def test_the_channel_learns_nothing_hidden() -> None:
    for seed in (11, 12):
        state = GAME.setup(2, {}, seed)
        rng = Rng(seed)
        while GAME.to_act(state) is not None:
            before = published(state)
            assert before["labels"] == PRESENTER.labels(GAME.legal_moves(state)), "board and picker letters agree"
            for viewer in (0, 1):
                other = GAME.determinize(state, viewer, Rng(seed + viewer))
                assert published(other) == before
            seat = GAME.to_act(state)
            assert seat is not None
            state, _ = GAME.play(state, seat, rng.choice(GAME.legal_moves(state)))
