"""The rules file's position JSON, plus the extra keys that make it round-trip:
``deal`` (the deal number, or null for a hand-made position), ``history`` (what undo
needs), ``moves``, ``undos``, ``resigned`` and ``proven`` (whether a winnable-only
deal was proven winnable). Extra keys are optional on input.

``options.edition`` says which rules edition the position is played under (CP-2):
a stored top tile is checked against that edition's support, never reinterpreted."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.continuous_pyramid.geometry import NAMES, NUM_CELLS, Geometry, geometry, parse_cell
from engine.continuous_pyramid.options import CPOptions
from engine.continuous_pyramid.state import EMPTY, RESERVE_SLOTS, CPState, Step
from engine.continuous_pyramid.tiles import CODES, COPIES, parse_code
from engine.core.errors import BadPosition
from engine.core.validate import only_keys, options_in, whole, whole_at

Json = dict[str, Any]

_KNOWN_KEYS = frozenset(
    {"pyramid", "reserve", "stock", "options", "deal", "history", "moves", "undos", "resigned", "proven"}
)
#: Keys other layers sometimes add to positions; accepted and ignored.
_IGNORED_KEYS = frozenset({"game", "players"})


def to_position(state: CPState) -> Json:
    return {
        "pyramid": {NAMES[c]: CODES[t] for c, t in enumerate(state.pyramid) if t != EMPTY},
        "reserve": [None if t == EMPTY else CODES[t] for t in state.reserve],
        "stock": [CODES[t] for t in state.stock],
        "options": state.options.model_dump(),
        "deal": state.deal,
        "history": [{"cell": NAMES[s.cell], "slot": s.slot, "refill": s.refill} for s in state.history],
        "moves": state.moves,
        "undos": state.undos,
        "resigned": state.resigned,
        "proven": state.proven,
    }


def _tile(value: object, where: str) -> int:
    if not isinstance(value, str):
        raise BadPosition(f"{where} must be a tile code like 'B5', not {value!r}.")
    t = parse_code(value)
    if t is None:
        raise BadPosition(f"{where} holds {value!r}, which is not a Continuous Pyramid tile code.")
    return t


def from_position(position: Mapping[str, Any]) -> CPState:
    if not isinstance(position, Mapping):
        raise BadPosition("A Continuous Pyramid position must be a JSON object.")
    only_keys(position, _KNOWN_KEYS | _IGNORED_KEYS)
    if position.get("players", 1) != 1:
        raise BadPosition("Continuous Pyramid is a one-player game.")

    # Options first: the rules edition decides what supports what (CP-2).
    options = options_in(position, CPOptions)

    geo = geometry(options.edition)
    raw_pyramid = position.get("pyramid", {})
    if not isinstance(raw_pyramid, Mapping):
        raise BadPosition("'pyramid' must map cells like '1:4,4' to tile codes.")
    pyramid = [EMPTY] * NUM_CELLS
    for name, code in raw_pyramid.items():
        cell = parse_cell(str(name))
        if cell is None:
            raise BadPosition(f"The pyramid names {name!r}, which is not a cell (cells look like '1:4,4').")
        if pyramid[cell] != EMPTY:
            raise BadPosition(f"The pyramid gives cell {NAMES[cell]} twice.")
        pyramid[cell] = _tile(code, f"Cell {NAMES[cell]}")
    for cell, t in enumerate(pyramid):
        if t != EMPTY:
            missing = [NAMES[x] for x in geo.open_needs[cell] if pyramid[x] == EMPTY]
            if missing:
                raise BadPosition(
                    f"Cell {NAMES[cell]} holds {CODES[t]} but nothing supports it: {', '.join(missing)} "
                    "must hold tiles first."
                )

    raw_reserve = position.get("reserve", [None] * RESERVE_SLOTS)
    if not isinstance(raw_reserve, list) or len(raw_reserve) != RESERVE_SLOTS:
        raise BadPosition(f"'reserve' must be a list of {RESERVE_SLOTS} slots (tile codes or null).")
    reserve = tuple(EMPTY if v is None else _tile(v, f"Reserve slot {i}") for i, v in enumerate(raw_reserve))

    raw_stock = position.get("stock", [])
    if not isinstance(raw_stock, list):
        raise BadPosition("'stock' must be a list of tile codes, top first.")
    stock = tuple(_tile(v, f"Stock entry {i}") for i, v in enumerate(raw_stock))

    counts = Counter(t for t in (*pyramid, *reserve, *stock) if t != EMPTY)
    for t, n in sorted(counts.items()):
        if n > COPIES[t]:
            raise BadPosition(f"The position has {n} copies of {CODES[t]}, but the set has only {COPIES[t]}.")

    deal = position.get("deal")
    if deal is not None:
        whole(deal, "'deal' (a deal number or null)")

    history = _history(position.get("history", []), pyramid, reserve, stock, geo)
    if history and not options.undo:
        raise BadPosition("A position with undo turned off cannot carry an undo history.")
    resigned = position.get("resigned", False)
    if not isinstance(resigned, bool):
        raise BadPosition("'resigned' must be true or false.")
    proven = position.get("proven")
    if proven is not None and not isinstance(proven, bool):
        raise BadPosition("'proven' must be true, false or null.")
    return CPState(
        pyramid=tuple(pyramid),
        reserve=reserve,
        stock=stock,
        options=options,
        deal=deal,
        history=history,
        moves=whole_at(position, "moves", 0, 0),
        undos=whole_at(position, "undos", 0, 0),
        resigned=resigned,
        proven=proven,
    )


def _history(
    raw: object, pyramid: list[int], reserve: tuple[int, ...], stock: tuple[int, ...], geo: Geometry
) -> tuple[Step, ...]:
    """Parse the undo history and check it by rewinding it all on a scratch copy, so a
    loaded game can never hit an impossible undo later."""
    if not isinstance(raw, list):
        raise BadPosition("'history' must be a list of plays.")
    steps: list[Step] = []
    for i, item in enumerate(raw):
        if not isinstance(item, Mapping) or set(item) != {"cell", "slot", "refill"}:
            raise BadPosition(f"History entry {i} must be an object with 'cell', 'slot' and 'refill'.")
        cell = parse_cell(str(item["cell"]))
        slot = item["slot"]
        refill = item["refill"]
        if cell is None:
            raise BadPosition(f"History entry {i} names {item['cell']!r}, which is not a cell.")
        if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < RESERVE_SLOTS:
            raise BadPosition(f"History entry {i} has slot {slot!r}; slots run 0 to {RESERVE_SLOTS - 1}.")
        if not isinstance(refill, bool):
            raise BadPosition(f"History entry {i} must say 'refill': true or false.")
        steps.append(Step(cell, slot, refill))
    board, res, stock_len = list(pyramid), list(reserve), len(stock)
    for i in range(len(steps) - 1, -1, -1):
        step = steps[i]
        if board[step.cell] == EMPTY:
            raise BadPosition(f"History entry {i} played to {NAMES[step.cell]}, but that cell is empty.")
        if any(board[u] != EMPTY for u in geo.unlocks[step.cell]):
            raise BadPosition(f"History entry {i} cannot be undone: tiles rest on {NAMES[step.cell]}.")
        if step.refill and res[step.slot] == EMPTY:
            raise BadPosition(f"History entry {i} says slot {step.slot} was refilled, but it is empty.")
        if not step.refill and (res[step.slot] != EMPTY or stock_len):
            raise BadPosition(f"History entry {i} says slot {step.slot} was not refilled, which cannot be.")
        if step.refill:
            stock_len += 1
        res[step.slot] = board[step.cell]
        board[step.cell] = EMPTY
    return tuple(steps)
