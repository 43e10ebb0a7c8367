"""Long runs (``-m slow``): whole games at every level, every AI move checked by the engine."""

from __future__ import annotations

from typing import Any

import pytest

from engine.ai import choose_move
from engine.core import derive_seed, get_game
from tests.engine.ai.helpers import TABLES

pytestmark = pytest.mark.slow


@pytest.mark.parametrize(("kind", "players", "options"), TABLES, ids=lambda x: str(x))
@pytest.mark.parametrize("levels", ["easy", "normal", "hard"])
def test_whole_games_at_every_level(kind: str, players: int, options: dict[str, Any], levels: str) -> None:
    game = get_game(kind)
    for deal in range(2):
        state = game.setup(players, options, derive_seed(deal, kind))
        moves = 0
        # Until nobody is waited for: a stuck solitaire's take-back is the AI's to answer too.
        while game.waiting_for(state) is not None:
            seat = game.waiting_for(state)
            assert seat is not None
            move = choose_move(game, state, seat, levels, derive_seed(moves, "slow"), iterations=20)
            assert move in game.legal_moves(state)
            state, _ = game.play(state, seat, move)
            moves += 1
            assert moves < 5000
