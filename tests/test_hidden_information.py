"""What the channel sees is a function of public information only.

For every game, positions from real play are compared with a re-deal of everything
some seat cannot see (``determinize``: other hands, pile and bag order, the face-down
stock). Whatever the bot publishes in the channel — the public view, the board
picture's bytes, its alt text, the letters on it and the moves offered as public buttons — must be
identical for the two, or the channel would learn something hidden (CP-3 for the
Continuous Pyramid stock; PD-4 for Pyramido co-op, whose hands are open anyway).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import render
from bot.games.catalogue import Catalogue
from engine.core import Game, Rng, get_game
from render.describe import describe_board
from render.labels import move_labels
from tools.playout import steps

#: (game, players, options) tables whose hidden information differs in kind.
TABLES = [
    ("continuous-pyramid", 1, {}),
    ("continuous-pyramid", 1, {"winnable_only": True}),
    ("flaming-pyramids", 3, {}),
    ("flaming-pyramids", 2, {"curse": True}),
    ("pyrinoes", 2, {}),
    ("pyramido", 2, {"mode": "coop"}),
    ("pyramido", 3, {"mode": "competitive"}),
    ("pyramido", 1, {"mode": "solo"}),
]


def positions(game: Game[Any], players: int, options: dict[str, Any], seed: int) -> list[Any]:
    """A few positions along one game of random legal moves (opening to late)."""
    state = game.setup(players, options, seed)
    line = steps(game, state, Rng(seed * 31 + 7), 89)
    return [state, *(step.state for n, step in enumerate(line, start=1) if n % 15 == 0)]


def published(game: Game[Any], state: Any) -> dict[str, Any]:
    """Everything the bot derives from a position for the channel."""
    kind = game.id
    view = game.view(state, None)
    moves = game.legal_moves(state) if game.to_act(state) is not None else []
    labels = move_labels(moves)
    public_moves = [m for m in moves if m.split()[0] in Catalogue.default().presenter(kind).public_verbs]
    return {
        "view": json.dumps(view, sort_keys=True),
        "labels": labels,
        "public_moves": public_moves,
        "png": render.render_board(view, labels=labels, events=[], art=render.art_for(kind)),
        "alt text": describe_board(view, labels=labels, art=render.art_for(kind)),
    }


@pytest.mark.parametrize(("kind", "players", "options"), TABLES, ids=lambda v: str(v))
def test_the_channel_learns_nothing_hidden(kind: str, players: int, options: dict[str, Any]) -> None:
    game = get_game(kind)
    checked = 0
    for seed in (11, 12):
        for state in positions(game, players, options, seed):
            before = published(game, state)
            for seat in range(players):
                for k in range(2):
                    other = game.determinize(state, seat, Rng(seed * 1000 + seat * 10 + k))
                    if game.to_position(other) == game.to_position(state):
                        continue  # nothing hidden from this seat here
                    after = published(game, other)
                    for key in before:
                        assert before[key] == after[key], f"{kind}: the public {key} depends on hidden pieces"
                    checked += 1
    assert checked > 0, "no position had anything hidden to re-deal"
