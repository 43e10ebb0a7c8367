"""The AI plays Pebble Pyramid through the game's own ``policy_module``."""

from __future__ import annotations

from engine.ai import LEVELS, choose_move
from engine.ai.policy import policy_for
from engine.core import Rng
from tests.fifth_game.engine import GAME
from tests.fifth_game.policy import PebblePolicy


def test_the_rule_book_names_its_policy() -> None:
    assert isinstance(policy_for(GAME), PebblePolicy)


def test_every_level_plays_legal_moves_to_the_end() -> None:
    for level in LEVELS:
        state = GAME.setup(2, {"tokens_per_colour": 3}, 21)
        turn = 0
        while (seat := GAME.to_act(state)) is not None:
            move = choose_move(GAME, state, seat, level, turn, iterations=60)
            assert move in GAME.legal_moves(state)
            state, _ = GAME.play(state, seat, move)
            turn += 1
        assert GAME.result(state) is not None


def test_the_ai_decides_from_what_its_seat_sees() -> None:
    state = GAME.setup(2, {}, 8)
    for _ in range(3):
        seat = GAME.to_act(state)
        assert seat is not None
        state, _ = GAME.play(state, seat, GAME.legal_moves(state)[0])
    seat = GAME.to_act(state)
    assert seat is not None
    for k in range(4):
        other = GAME.determinize(state, seat, Rng(k))
        for level in LEVELS:
            assert choose_move(GAME, other, seat, level, 5, iterations=60) == choose_move(
                GAME, state, seat, level, 5, iterations=60)


def test_normal_beats_random_play() -> None:
    wins = {"normal": 0, "easy": 0}
    for game in range(100):
        levels = ("normal", "easy") if game % 2 == 0 else ("easy", "normal")
        state = GAME.setup(2, {}, game)
        turn = 0
        while (seat := GAME.to_act(state)) is not None:
            state, _ = GAME.play(state, seat, choose_move(GAME, state, seat, levels[seat], game * 100 + turn))
            turn += 1
        result = GAME.result(state)
        assert result is not None
        if result.winner is not None:
            wins[levels[result.winner]] += 1
    assert wins["normal"] > wins["easy"]
