"""Which turns are legal (PY-4): plays, builds, and when draw or pass is allowed.

Builds depend only on the seat's supply counts and the green pool, which repeat
constantly during search, so they are memoised on those counts.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import product

from engine.pyrinoes.notation import build_text, play_text
from engine.pyrinoes.pieces import DOMINOES, OWNER_PYRINOES, PYRINOES, Pyrino
from engine.pyrinoes.state import PyrinoesState


def _index(counts: tuple[int, ...]) -> int:
    return counts[0] * 16 + counts[1] * 4 + counts[2]


def _masks(seat: int) -> tuple[list[int], list[int], list[int]]:
    """Availability bitmasks over the seat's pyrino list, one table per colour.

    A pyrino uses at most one end per colour, so it is buildable exactly when each
    colour's three counts can make its end of that colour: availability is the AND of
    one mask per colour (own first colour, own second colour, green), each looked up by
    that colour's counts (0-3 of each size: 64 entries)."""
    pyrinoes = OWNER_PYRINOES[seat]

    def table(ok: Callable[[Pyrino, tuple[int, ...]], bool]) -> list[int]:
        masks = []
        for counts in product(range(4), repeat=3):
            masks.append(sum(1 << i for i, p in enumerate(pyrinoes) if ok(p, counts)))
        return masks

    def own(slot: int) -> Callable[[Pyrino, tuple[int, ...]], bool]:
        return lambda p, counts: all(n <= c for n, c in zip(p.need[slot * 3 : slot * 3 + 3], counts, strict=True))

    return table(own(0)), table(own(1)), table(lambda p, counts: not p.green_size or counts[p.green_size - 1] > 0)


_MASKS = (_masks(0), _masks(1))
_BUILD_TEXTS = tuple(tuple(build_text(p.code) for p in OWNER_PYRINOES[seat]) for seat in (0, 1))


@lru_cache(maxsize=1 << 16)
def _builds(seat: int, supply: tuple[int, ...], green: tuple[int, ...]) -> tuple[tuple[Pyrino, ...], tuple[str, ...]]:
    first, second, greens = _MASKS[seat]
    mask = first[_index(supply[0:3])] & second[_index(supply[3:6])] & greens[_index(green)]
    pyrinoes, texts = OWNER_PYRINOES[seat], _BUILD_TEXTS[seat]
    found: list[Pyrino] = []
    moves: list[str] = []
    while mask:
        low = mask & -mask
        i = low.bit_length() - 1
        found.append(pyrinoes[i])
        moves.append(texts[i])
        mask ^= low
    return tuple(found), tuple(moves)


def available_builds(seat: int, supply: tuple[int, ...], green: tuple[int, ...]) -> tuple[Pyrino, ...]:
    """Every distinct pyrino ``seat`` can build with these counts, in spot-group order
    (memoised on the counts, which repeat constantly during search)."""
    return _builds(seat, supply, green)[0]


def can_build(state: PyrinoesState, seat: int) -> bool:
    return bool(available_builds(seat, state.supply[seat], state.green))


def build_options(state: PyrinoesState, seat: int | None = None) -> dict[tuple[int, int], list[str]]:
    """The seat's buildable pyrinoes grouped by spot counts (high end first), then the
    codes that make each: what a bot needs to choose a build in two steps."""
    who = state.turn if seat is None else seat
    groups: dict[tuple[int, int], list[str]] = {}
    for p in available_builds(who, state.supply[who], state.green):
        groups.setdefault(p.group, []).append(p.code)
    return groups


def can_play(state: PyrinoesState, seat: int) -> bool:
    left, right = state.left, state.right
    for code in state.hands[seat]:
        d = DOMINOES[code]
        if d.a in (left, right) or d.b in (left, right):
            return True
    for code in state.pyrinoes[seat]:
        a, b = PYRINOES[code].spots
        if a in (left, right) or b in (left, right):
            return True
    return False


def _texts(code: str) -> tuple[str, str]:
    return play_text(code, "left"), play_text(code, "right")


_PLAY_TEXTS = {code: _texts(code) for code in (*DOMINOES, *PYRINOES)}


def play_moves(state: PyrinoesState, seat: int) -> list[str]:
    """Every play, side always named, hand order (dominoes, then built pyrinoes)."""
    left, right = state.left, state.right
    out: list[str] = []
    for code in state.hands[seat]:
        d = DOMINOES[code]
        if d.a == left or d.b == left:
            out.append(_PLAY_TEXTS[code][0])
        if d.a == right or d.b == right:
            out.append(_PLAY_TEXTS[code][1])
    built = state.pyrinoes[seat]
    for i, code in enumerate(built):
        if code in built[:i]:
            continue
        a, b = PYRINOES[code].spots
        if a == left or b == left:
            out.append(_PLAY_TEXTS[code][0])
        if a == right or b == right:
            out.append(_PLAY_TEXTS[code][1])
    return out


def legal_moves(state: PyrinoesState) -> list[str]:
    if state.over:
        return []
    seat = state.turn
    moves = play_moves(state, seat)
    moves.extend(_builds(seat, state.supply[seat], state.green)[1])
    if moves:
        return moves
    return ["draw"] if state.boneyard else ["pass"]
