"""Pebble Pyramid's pictures go through the renderer's public functions with its own
``Art``: no entry in ``render/`` names the game."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

import render
from engine.core import Event, Rng
from render.labels import move_labels
from tests.fifth_game.art import ART, cell_box
from tests.fifth_game.engine import GAME, GAME_ID
from tests.fifth_game.state import PebbleState
from tools import playout


def played(seed: int, moves: int) -> tuple[PebbleState, list[Event]]:
    return playout.played(GAME, GAME.setup(2, {"tokens_per_colour": 3}, seed), Rng(seed), moves)


def dressed(state: PebbleState, seat: int | None) -> dict[str, Any]:
    view = GAME.view(state, seat)
    view.update(names=["Ann", "Bob"], game_number=5)
    return view


def png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    assert 300 <= img.width <= 1600 and 150 <= img.height <= 1600
    return img.convert("RGB")


@pytest.mark.parametrize("moves", [0, 3, 8, 60])
def test_board_and_hand_render_as_pngs(moves: int) -> None:
    state, events = played(4, moves)
    labels = move_labels(GAME.legal_moves(state))
    board = render.render_board(dressed(state, None), labels=labels, events=events, art=ART)
    png(board)
    assert board == render.render_board(dressed(state, None), labels=labels, events=events, art=ART)
    for seat in (0, 1):
        png(render.render_hand(dressed(state, seat), art=ART))


def test_the_art_is_the_games_and_needs_no_palette() -> None:
    assert ART.game == GAME_ID and ART.palette is None
    state, _ = played(1, 0)
    with pytest.raises(ValueError, match="cannot draw"):
        render.render_board({**dressed(state, None), "game": "pyrinoes"}, art=ART)


def test_each_legal_stone_is_marked_with_its_letter() -> None:
    state = GAME.from_position({
        "options": {"tokens_per_colour": 3},
        "pyramid": {"0,0": "R", "0,1": "G", "0,2": "B", "0,3": "R", "1,0": "G", "1,2": "B"},
        "taken": [["R", "B"], ["G", "R"]],
        "hands": [["G", "B"], ["R", "G"]],
        "deck": ["B"],
        "discards": ["R", "B", "G", "R"],
    })
    moves = GAME.legal_moves(state)
    assert moves == ["take G 1,0", "take G 1,2", "take B 1,0", "take B 1,2", "pass G", "pass B"]
    labels = move_labels(moves)
    assert labels == {"1,0": "A", "1,2": "B"}
    plain = png(render.render_board(dressed(state, None), labels={}, art=ART))
    marked = png(render.render_board(dressed(state, None), labels=labels, art=ART))
    assert plain.size == marked.size
    changed = [x for y in range(plain.height) for x in range(plain.width)
               if plain.getpixel((x, y)) != marked.getpixel((x, y))]
    left, right = cell_box("1,0", 0)[0] - 8, cell_box("1,2", 0)[2] + 8
    assert changed and left <= min(changed) and max(changed) <= right
    assert min(changed) < cell_box("1,0", 0)[2] and max(changed) > cell_box("1,2", 0)[0]


def test_the_hand_shows_the_viewers_tokens_and_nothing_hidden() -> None:
    state, _ = played(2, 0)
    assert state.hands[0] != state.hands[1]
    hands = [render.render_hand(dressed(state, seat), art=ART) for seat in (0, 1)]
    assert hands[0] != hands[1]
    for seat in (0, 1):
        for k in range(3):
            sample = GAME.determinize(state, seat, Rng(k))
            assert render.render_hand(dressed(sample, seat), art=ART) == hands[seat]
            board = render.render_board(dressed(sample, None), art=ART)
            assert board == render.render_board(dressed(state, None), art=ART)
