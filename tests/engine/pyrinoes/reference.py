"""An independent, deliberately naive reading of PY-5/PY-6 on position JSON, used to
check the engine's scoring without sharing its code."""

from __future__ import annotations

import copy
from typing import Any

FIRE, ICE = "RY", "BK"


def _digits(code: str) -> list[int]:
    return [int(ch) for ch in code if ch.isdigit()]


def domino_weight(code: str) -> int:
    return sum(_digits(code))


def pyrino_pips(code: str) -> int:
    return sum(_digits(code))


def pyrino_owner(code: str) -> int:
    letters = {ch for ch in code if ch.isalpha()}
    return 0 if letters & set(FIRE) else 1


def green_pips(code: str) -> int:
    for end in code.split("|"):
        if end.startswith("G"):
            return int(end[1:])
    return 0


def same_domino(a: str, b: str) -> bool:
    return sorted(_digits(a)) == sorted(_digits(b))


def same_pyrino(a: str, b: str) -> bool:
    return sorted(a.upper().split("|")) == sorted(b.upper().split("|"))


def after_play(position: dict[str, Any], seat: int, move: str) -> dict[str, Any]:
    """The position after a play, before any round-end bookkeeping (line order ignored)."""
    pos = copy.deepcopy(position)
    code = move.split()[1]
    if "|" in code:
        held = pos["pyrinoes"][seat]
        held.remove(next(c for c in held if same_pyrino(c, code)))
    else:
        held = pos["hands"][seat]
        held.remove(next(c for c in held if same_domino(c, code)))
    pos["line"].append(code)
    return pos


def condition(pos: dict[str, Any], seat: int, passed: bool, passes_before: int) -> int | None:
    dominoes = pos["hands"][seat]
    supply = pos["supply"][seat]
    built = pos["pyrinoes"][seat]
    colours = {p[0] for p in supply} | {end[0] for c in built for end in c.split("|")}
    if not dominoes and not supply and not built:
        return 1
    if not supply and not built:
        return 2
    if not dominoes and len(colours) == 1:
        return 3
    if passed and passes_before >= 1:
        return 4
    return None


def round_points(pos: dict[str, Any], ender: int, cond: int) -> list[int]:
    totals = [
        sum(domino_weight(d) for d in pos["hands"][s])
        + sum(int(p[1]) for p in pos["supply"][s])
        + sum(pyrino_pips(c) for c in pos["pyrinoes"][s])
        for s in (0, 1)
    ]
    points = [0, 0]
    if totals[0] < totals[1]:
        points[0] += totals[1] - totals[0]
    elif totals[1] < totals[0]:
        points[1] += totals[0] - totals[1]
    points[ender] += {1: 10, 2: 5, 3: 5, 4: 0}[cond]
    for item in pos["line"]:
        if "|" in item:
            points[pyrino_owner(item)] += green_pips(item)
    return points
