"""Invariant checks shared by the property tests and ``selfplay --check``.

Each returns a list of problems (empty when the state is sound), so a failing
self-play game can say exactly what broke.
"""

from __future__ import annotations

from collections import Counter

from engine.pyramido.geometry import beneath, footprint, format_cell, matching
from engine.pyramido.state import State
from engine.pyramido.stones import COLOURS, per_colour


def everywhere(state: State) -> Counter[str]:
    stones: Counter[str] = Counter()
    for group in (state.bag, state.quarry, state.out, *state.hands, *state.reserves):
        stones.update(group)
    for pyramid in state.pyramids:
        stones.update(pyramid.values())
    return stones


def problems(state: State) -> list[str]:
    found: list[str] = []
    per = per_colour(state.mode, state.size)
    have = everywhere(state)
    for colour in COLOURS:
        if have[colour] != per:
            found.append(f"{have[colour]} {colour} stones in play, expected {per}")
    for index, pyramid in enumerate(state.pyramids):
        box = footprint(pyramid)
        if box is not None and (box[2] - box[0] >= state.size or box[3] - box[1] >= state.size):
            found.append(f"pyramid {index}: footprint {box} exceeds {state.size}×{state.size}")
        for cell, colour in pyramid.items():
            if cell[0] == 1:
                continue
            below = beneath(cell)
            if not all(b in pyramid for b in below):
                found.append(f"pyramid {index}: {format_cell(cell)} floats")
            elif colour not in matching([pyramid[b] for b in below]):
                found.append(f"pyramid {index}: {format_cell(cell)}={colour} does not match its square")
    return found
