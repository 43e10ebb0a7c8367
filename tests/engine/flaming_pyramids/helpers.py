"""Shared helpers for the Flaming Pyramids tests."""

from __future__ import annotations

from typing import Any

from engine.core.rng import Rng
from engine.flaming_pyramids import GAME
from engine.flaming_pyramids.geometry import parse_cell
from engine.flaming_pyramids.rules import find_mayhem, rest_problem
from engine.flaming_pyramids.state import State
from engine.flaming_pyramids.tiles import ALL_CODES
from tools.playout import steps


def position(
    players: int = 2,
    pyramid: dict[str, str] | None = None,
    hands: list[list[str]] | None = None,
    piles: list[list[str]] | None = None,
    turn: int = 0,
    curse: bool = False,
    removed: list[str] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "players": players,
        "options": {"curse": curse},
        "turn": turn,
        "pyramid": pyramid or {},
        "hands": hands or [[] for _ in range(players)],
        "piles": piles or [[] for _ in range(players)],
        "removed": removed or [],
        **extra,
    }


def load(**kwargs: Any) -> State:
    return GAME.from_position(position(**kwargs))


def play_all(state: State, *moves: str) -> State:
    for move in moves:
        seat = GAME.to_act(state)
        assert seat is not None
        state, _ = GAME.play(state, seat, move)
    return state


def random_game(
    players: int, seed: int, curse: bool, max_moves: int, turn_limit: int | None = None
) -> tuple[State, list[tuple[int, str]], list[State]]:
    """A random game: final state, the move log, and every state after a completed turn."""
    options: dict[str, Any] = {"curse": curse}
    if turn_limit is not None:
        options["turn_limit"] = turn_limit
    start = GAME.setup(players, options, seed)
    line = list(steps(GAME, start, Rng(seed ^ 0x5EED), max_moves))
    ends = [start, *(step.state for step in line if step.state.pending is None)]
    return (line[-1].state if line else start), [(step.seat, step.move) for step in line], ends


def all_tiles(state: State) -> list[str]:
    tiles = list(state.pyramid.values()) + list(state.removed)
    for hand in state.hands:
        tiles.extend(hand)
    for pile in state.piles:
        tiles.extend(pile)
    if state.pending is not None and state.pending.lifted:
        tiles.append(state.pending.tile)
    return tiles


def assert_conserved(state: State) -> None:
    tiles = all_tiles(state)
    assert len(tiles) == len(set(tiles)), "a tile is in two places"
    assert set(tiles) == ALL_CODES, "a tile went missing"


def assert_settled(state: State) -> None:
    """A turn's end: no free air, every upper tile obeys FP-4, no mayhem left at all."""
    for cell in state.pyramid:
        assert rest_problem(state.pyramid, cell) is None, (cell, state.pyramid)
    assert find_mayhem(state.pyramid, state.curse) is None


def cell(text: str) -> tuple[int, int]:
    parsed = parse_cell(text)
    assert parsed is not None
    return parsed
