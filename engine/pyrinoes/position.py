"""Position JSON (rules file, Notation) <-> state, with every check a hand-written
setup needs: known codes, no piece twice, a line whose neighbours match, colours that
belong to the seat holding them.

Extra keys beyond the rules file, all optional on input: ``first`` (who started the
round; default: the seat to move), ``rng`` (the deal RNG state), ``moves`` (turns
played) and ``winner`` (set once the match is over).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.core.contract import Json
from engine.core.errors import BadPosition
from engine.core.rng import derive_seed
from engine.core.validate import options_in, position_object, whole, whole_at
from engine.pyrinoes.pieces import (
    DOMINOES,
    GREEN,
    PER_SIZE,
    PYRINO_SPELLINGS,
    SEAT_COLOURS,
    SIDE_NAMES,
    green_codes,
    parse_pyramid,
    supply_codes,
)
from engine.pyrinoes.state import PyrinoesOptions, PyrinoesState

KNOWN_KEYS = frozenset(
    {"round", "options", "scores", "turn", "line", "hands", "pyrinoes", "supply", "green", "boneyard", "passes",
     "first", "rng", "moves", "winner", "players", "game"}
)
DEFAULT_RNG = derive_seed(0, "pyrinoes")


def to_position(state: PyrinoesState) -> Json:
    return {
        "round": state.round,
        "options": {"target": state.target},
        "scores": list(state.scores),
        "turn": state.turn,
        "line": list(state.line),
        "hands": [list(h) for h in state.hands],
        "pyrinoes": [list(p) for p in state.pyrinoes],
        "supply": [supply_codes(seat, state.supply[seat]) for seat in (0, 1)],
        "green": green_codes(state.green),
        "boneyard": list(state.boneyard),
        "passes": state.passes,
        "first": state.first,
        "rng": state.rng,
        "moves": state.moves,
        "winner": state.winner,
    }


def _strings(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadPosition(f"{what} must be a list of codes.")
    return list(value)


def _per_seat(position: Mapping[str, Any], key: str, default: Any = None) -> list[Any]:
    value = position.get(key, default)
    if not isinstance(value, list) or len(value) != 2:
        raise BadPosition(f"'{key}' must be a list with one entry per player (2).")
    return value


def from_position(position: Mapping[str, Any]) -> PyrinoesState:
    position = position_object(position, "Pyrinoes", KNOWN_KEYS, players=2)
    options = options_in(position, PyrinoesOptions)

    scores_raw = _per_seat(position, "scores", [0, 0])
    if not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in scores_raw):
        raise BadPosition("'scores' must be two whole numbers, 0 or more.")
    turn = whole_at(position, "turn", 0, 0, 1)

    seen: dict[str, str] = {}  # domino identity -> where it is

    def take_domino(code: str, where: str) -> str:
        d = DOMINOES.get(code.replace(" ", ""))
        if d is None:
            raise BadPosition(f"Unknown domino code {code!r} in {where}.")
        if d.key in seen:
            raise BadPosition(f"Domino {d.key} appears twice ({seen[d.key]} and {where}).")
        seen[d.key] = where
        return d.code

    pyramids: Counter[str] = Counter()

    def take_pyrino(code: str, where: str, seat: int | None) -> tuple[str, int, int]:
        found = PYRINO_SPELLINGS.get(code.replace(" ", "").upper())
        if found is None:
            raise BadPosition(f"{code!r} in {where} is not a legal pyrino.")
        p, flipped = found
        if seat is not None and p.owner != seat:
            raise BadPosition(f"{p.code} in {where} is {SIDE_NAMES[p.owner]}'s, not {SIDE_NAMES[seat]}'s.")
        for end in p.ends:
            for size in end.sizes:
                pyramids[f"{end.colour}{size}"] += 1
        a, b = p.spots
        return (p.oriented(flipped), b, a) if flipped else (p.code, a, b)

    # the line
    line_raw = _strings(position.get("line"), "'line'")
    if not line_raw:
        raise BadPosition("The line of play needs at least one piece.")
    line: list[str] = []
    ends: list[tuple[int, int]] = []
    for i, item in enumerate(line_raw):
        where = f"the line (item {i + 1})"
        if "|" in item:
            text, a, b = take_pyrino(item, where, None)
        else:
            text = take_domino(item, where)
            a, b = DOMINOES[text].a, DOMINOES[text].b
        if ends and ends[-1][1] != a:
            raise BadPosition(
                f"The line breaks at item {i + 1}: {line[-1]} ends in {ends[-1][1]} but {text} starts with {a}."
            )
        line.append(text)
        ends.append((a, b))

    hands_raw = _per_seat(position, "hands", [[], []])
    hands = tuple(
        tuple(take_domino(c, f"player {seat + 1}'s hand") for c in _strings(hands_raw[seat], "A hand"))
        for seat in (0, 1)
    )
    built_raw = _per_seat(position, "pyrinoes", [[], []])
    built = tuple(
        tuple(take_pyrino(c, f"player {seat + 1}'s pyrinoes", seat)[0] for c in _strings(built_raw[seat], "Pyrinoes"))
        for seat in (0, 1)
    )
    boneyard = tuple(take_domino(c, "the boneyard") for c in _strings(position.get("boneyard", []), "'boneyard'"))

    supply_raw = _per_seat(position, "supply", [[], []])
    supplies: list[tuple[int, ...]] = []
    for seat in (0, 1):
        counts = [0] * 6
        for code in _strings(supply_raw[seat], "A supply"):
            parsed = parse_pyramid(code)
            if parsed is None:
                raise BadPosition(f"Unknown pyramid code {code!r} in player {seat + 1}'s supply.")
            colour, size = parsed
            if colour not in SEAT_COLOURS[seat]:
                raise BadPosition(
                    f"{colour}{size} can't be in player {seat + 1}'s supply: {SIDE_NAMES[seat]} plays "
                    f"{' and '.join(SEAT_COLOURS[seat])}."
                )
            counts[SEAT_COLOURS[seat].index(colour) * 3 + size - 1] += 1
            pyramids[f"{colour}{size}"] += 1
        supplies.append(tuple(counts))
    green = [0, 0, 0]
    for code in _strings(position.get("green", []), "'green'"):
        parsed = parse_pyramid(code)
        if parsed is None or parsed[0] != GREEN:
            raise BadPosition(f"{code!r} in the green pool is not a green pyramid (G1, G2 or G3).")
        green[parsed[1] - 1] += 1
        pyramids[f"G{parsed[1]}"] += 1
    too_many = sorted(code for code, n in pyramids.items() if n > PER_SIZE)
    if too_many:
        raise BadPosition(f"More than {PER_SIZE} of {', '.join(too_many)} in play (there are {PER_SIZE} of each).")

    winner = position.get("winner")
    if winner is not None and winner not in (0, 1):
        raise BadPosition(f"'winner' must be 0, 1 or null, not {winner!r}.")
    rng = whole(position.get("rng", DEFAULT_RNG), "'rng' (the RNG state)", 0, (1 << 64) - 1)
    return PyrinoesState(
        round=whole_at(position, "round", 1, 1),
        target=options.target,
        scores=(int(scores_raw[0]), int(scores_raw[1])),
        turn=turn,
        line=tuple(line),
        left=ends[0][0],
        right=ends[-1][1],
        hands=(hands[0], hands[1]),
        pyrinoes=(built[0], built[1]),
        supply=(supplies[0], supplies[1]),
        green=tuple(green),
        boneyard=boneyard,
        passes=whole_at(position, "passes", 0, 0),
        first=whole_at(position, "first", turn, 0, 1),
        rng=rng,
        moves=whole_at(position, "moves", 0, 0),
        winner=winner,
    )
