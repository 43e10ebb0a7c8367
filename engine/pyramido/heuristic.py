"""A fast heuristic player for self-play and as a baseline bot.

It scores each legal placement by its local consequences: progress (+100), using a
constrained upper cell, and penalties for cells it leaves unfillable (no colour the
four-colour rule allows is still in supply) or squares whose matching colour has run
out. The few best candidates then pay for a forecast of the colours the empty upper
cells will demand (majorities propagate upwards, so the dominant colour is needed
again and again) against the supply left: most lost pyramids die at the top for want
of one colour. Supply is every stone that may still reach the pyramid: the box minus
what is built, out of the game or (competitive) in a rival's reserve. In solo and
co-op that includes every teammate's hand, which is open (PD-4, second edition), and
the bag by colour; only the bag's order is never used.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.pyramido.geometry import (
    SQUARE_OFFSETS,
    Cell,
    Pyramid,
    beneath,
    colours_for,
    footprint,
    format_cell,
    open_cells,
    placements,
    square_colours,
)
from engine.pyramido.state import State
from engine.pyramido.stones import COLOURS, DISCARD_LIMIT, RESERVE_LIMIT, per_colour, sort_stones

#: Tuned on a few hundred seeded solo games per size; the colour-need forecast
#: (PROJECTION) is what lifts the solo win rate from about a quarter to well over half.
DEAD = -1000.0
#: Most stones the heuristic swaps in one turn (fewer keeps more of the 10-stone slack).
DISCARD_AT_ONCE = 3
SCARCITY = 8.0
PROJECTION = 120.0
MARGIN = 0.0
#: Candidates (best by local score) that also get the colour-need forecast.
SHORTLIST = 8
PLACE_THRESHOLD = 0.0
TIGHT = 40.0
OPEN_BONUS = 6.0
IN_HAND_BONUS = 25.0
SAME_BONUS = 4.0
_AROUND = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)
#: The search asks the same questions of the heuristic again and again (its rollouts
#: replay it from positions the tree shares), so the answers of its two dearest pure
#: functions are kept: :func:`best_placement`'s by everything it depends on, and
#: :func:`projected_need`'s by pyramid, size and footprint. A memo changes no answer,
#: only how soon it comes. At most MEMO_LIMIT answers each (then all are forgotten at
#: once): a few MB.
MEMO_LIMIT = 4096
_MEMO: dict[tuple[object, ...], tuple[float, str, Cell] | None] = {}
_NEED_MEMO: dict[tuple[object, ...], dict[str, float]] = {}


def supply_for(state: State, seat: int) -> Counter[str]:
    """Stones that may still reach ``seat``'s pyramid: everything not placed and not out
    (in co-op the teammates' open hands too; in competitive play minus the rivals'
    reserves, which only they can build from)."""
    total = Counter({c: per_colour(state.mode, state.size) for c in COLOURS})
    if state.competitive:
        for pyramid in state.pyramids:
            total.subtract(pyramid.values())
        for p, reserve in enumerate(state.reserves):
            if p != seat:
                total.subtract(reserve)
    else:
        total.subtract(state.pyramids[0].values())
    total.subtract(state.out)
    return total


def _in_frame(box: tuple[int, int, int, int] | None, size: int, x: int, y: int) -> bool:
    if box is None:
        return True
    return max(box[2], x) - min(box[0], x) < size and max(box[3], y) - min(box[1], y) < size


def _cell_options(pyramid: Pyramid, cell: Cell, supply: Counter[str]) -> int:
    return sum(1 for c in colours_for(pyramid, cell) if supply[c] > 0)


def _extend(box: tuple[int, int, int, int] | None, x: int, y: int) -> tuple[int, int, int, int]:
    if box is None:
        return (x, y, x, y)
    return (min(box[0], x), min(box[1], y), max(box[2], x), max(box[3], y))


def open_demand(pyramid: Pyramid, size: int) -> dict[str, float]:
    """Stones the open upper cells are waiting for, by colour (a two-colour cell
    counts half for each)."""
    demand = dict.fromkeys(COLOURS, 0.0)
    for cell in open_cells(pyramid, size):
        if cell[0] > 1:
            wanted = colours_for(pyramid, cell)
            for c in wanted:
                demand[c] += 1.0 / len(wanted)
    return demand


def projected_need(pyramid: Pyramid, size: int, box: tuple[int, int, int, int] | None) -> dict[str, float]:
    """A forecast of the stones the empty upper cells over the current footprint will
    demand: each empty cell takes the majority of what is (or is forecast) beneath
    it, weighted by how much of that square is known. Majorities propagate upwards,
    so a colour that dominates low down is wanted again and again higher up.
    Remembered (:data:`MEMO_LIMIT`); the caller gets a copy of its own."""
    if box is None:
        return dict.fromkeys(COLOURS, 0.0)
    key = (frozenset(pyramid.items()), size, box)
    found = _NEED_MEMO.get(key)
    if found is None:
        if len(_NEED_MEMO) >= MEMO_LIMIT:
            _NEED_MEMO.clear()
        found = _NEED_MEMO[key] = _projected_need(pyramid, size, box)
    return dict(found)


def _projected_need(pyramid: Pyramid, size: int, box: tuple[int, int, int, int]) -> dict[str, float]:
    # A cell's forecast is a share and the colours that split it evenly (None: nothing
    # known beneath it); the sums are made in the same order as ever, so the floats are
    # exactly the same.
    need = dict.fromkeys(COLOURS, 0.0)
    get = pyramid.get
    x0, y0, x1, y1 = box
    prev: dict[tuple[int, int], tuple[float, Sequence[str]] | None] = {}
    for x in range(x0, x1 + 1):
        for y in range(y0, y1 + 1):
            c = get((1, x, y))
            prev[(x, y)] = (1.0, (c,)) if c is not None else None
    for level in range(2, size + 1):
        cur: dict[tuple[int, int], tuple[float, Sequence[str]] | None] = {}
        for x in range(x0, x1 - level + 2):
            for y in range(y0, y1 - level + 2):
                placed = get((level, x, y))
                if placed is not None:
                    cur[(x, y)] = (1.0, (placed,))
                    continue
                weights: dict[str, float] = {}
                known = 0
                for dist in (prev.get((x, y)), prev.get((x + 1, y)), prev.get((x, y + 1)),
                             prev.get((x + 1, y + 1))):
                    if dist is not None:
                        known += 1
                        w, colours = dist
                        for c in colours:
                            weights[c] = weights.get(c, 0.0) + w
                if not weights:
                    cur[(x, y)] = None
                    continue
                top = max(weights.values())
                best = [c for c, w in weights.items() if w == top]
                share = known / 4.0 / len(best)
                cur[(x, y)] = (share, best)
                for c in best:
                    need[c] += share
        prev = cur
    return need


def score_placement(pyramid: dict[Cell, str], size: int, colour: str, cell: Cell, supply: Counter[str],
                    hand: Counter[str], demand: dict[str, float], box0: tuple[int, int, int, int] | None) -> float:
    """How good placing ``colour`` at ``cell`` is; ``supply`` and ``hand`` already
    exclude the stone being placed."""
    level, x, y = cell
    pyramid[cell] = colour
    try:
        score = 100.0
        box = _extend(box0, x, y) if level == 1 else box0
        # Spending a colour that open cells above are waiting for.
        need = demand[colour]
        if level > 1:
            need -= 1.0 / len(square_colours(pyramid, cell))
        slack = supply[colour] - need
        if slack < 0:
            score -= TIGHT
        else:
            score -= SCARCITY / (1.0 + slack)
        # Cells on the same level next to this one: did we make any unfillable?
        if box is not None:
            lo_x, lo_y, hi_x, hi_y = box[2] - size + 1, box[3] - size + 1, box[0] + size - 1, box[1] + size - 1
        for dx, dy in _AROUND:
            ox, oy = x + dx, y + dy
            other = (level, ox, oy)
            if other in pyramid:
                continue
            if level == 1:
                if box is not None and not (lo_x <= ox <= hi_x and lo_y <= oy <= hi_y):
                    continue
                options = _cell_options(pyramid, other, supply)
                mandatory = box is not None and box[0] <= ox <= box[2] and box[1] <= oy <= box[3]
                if options == 0:
                    score += DEAD if mandatory else -60.0
                elif options == 1:
                    score -= 12.0
                elif options == 2:
                    score -= 3.0
                if (dx == 0 or dy == 0) and pyramid.get((1, x + 2 * dx, y + 2 * dy)) is not None:
                    score -= 2.0  # a hole between stones narrows later choices
            else:
                below = ((level - 1, ox, oy), (level - 1, ox + 1, oy), (level - 1, ox, oy + 1),
                         (level - 1, ox + 1, oy + 1))
                if all(b in pyramid for b in below) and _cell_options(pyramid, other, supply) == 0:
                    score += DEAD
        # Squares this stone completes open a cell above it.
        if level < size:
            for dx, dy in SQUARE_OFFSETS:
                up = (level + 1, x + dx, y + dy)
                cx, cy = x + dx, y + dy
                square = ((level, cx, cy), (level, cx + 1, cy), (level, cx, cy + 1), (level, cx + 1, cy + 1))
                if up in pyramid or not all(s in pyramid for s in square):
                    continue
                wanted = colours_for(pyramid, up)
                room = max(supply[c] - demand[c] for c in wanted)
                if room <= 0:
                    score += DEAD if sum(supply[c] for c in wanted) == 0 else -TIGHT
                else:
                    score += OPEN_BONUS * min(room, 6.0) / len(square_colours(pyramid, up))
                    if any(hand[c] for c in wanted):
                        score += IN_HAND_BONUS
        # Same-colour neighbours keep squares single-coloured and majorities stable.
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if pyramid.get((level, x + dx, y + dy)) == colour:
                score += SAME_BONUS
        if level > 1:
            score += 30.0 + 10.0 * (5 - len(square_colours(pyramid, cell)))
        elif box is not None:
            score -= 3.0 * ((box[2] - box[0]) + (box[3] - box[1]))
        return score
    finally:
        del pyramid[cell]


def _overflow(pyramid: dict[Cell, str], size: int, colour: str, cell: Cell, supply: Counter[str],
              box0: tuple[int, int, int, int] | None) -> float:
    """How far the forecast need outruns the supply, by colour, after the placement."""
    pyramid[cell] = colour
    try:
        box = _extend(box0, cell[1], cell[2]) if cell[0] == 1 else box0
        need = projected_need(pyramid, size, box)
        return sum(max(0.0, need[c] + MARGIN - supply[c]) for c in COLOURS)
    finally:
        del pyramid[cell]


def best_placement(pyramid: Pyramid, size: int, stones: tuple[str, ...], supply: Counter[str],
                   hand: Counter[str]) -> tuple[float, str, Cell] | None:
    """The best placement: every candidate gets the cheap local score, then the few
    best also pay for the (dearer) forecast of colour needs. Only the stones' colours
    count, and of ``supply`` and ``hand`` only the counts of the colours (the key of
    its memo, :data:`MEMO_LIMIT`)."""
    key = (frozenset(pyramid.items()), size, frozenset(stones), tuple([supply[c] for c in COLOURS]),
           tuple([hand[c] for c in COLOURS]))
    try:
        return _MEMO[key]
    except KeyError:
        pass
    if len(_MEMO) >= MEMO_LIMIT:
        _MEMO.clear()
    found = _MEMO[key] = _best_placement(pyramid, size, stones, supply, hand)
    return found


def _best_placement(pyramid: Pyramid, size: int, stones: tuple[str, ...], supply: Counter[str],
                    hand: Counter[str]) -> tuple[float, str, Cell] | None:
    work = dict(pyramid)
    found = placements(work, size, sorted(set(stones)))
    if not found:
        return None
    demand = open_demand(work, size)
    box0 = footprint(work)
    scored: list[tuple[float, str, Cell]] = []
    for colour, cell in found:
        supply[colour] -= 1
        hand[colour] -= 1
        scored.append((score_placement(work, size, colour, cell, supply, hand, demand, box0), colour, cell))
        supply[colour] += 1
        hand[colour] += 1
    scored.sort(key=lambda item: -item[0])
    if not PROJECTION:
        return scored[0]
    best: tuple[float, str, Cell] | None = None
    for score, colour, cell in scored[:SHORTLIST]:
        supply[colour] -= 1
        total = score - PROJECTION * _overflow(work, size, colour, cell, supply, box0)
        supply[colour] += 1
        if best is None or total > best[0]:
            best = (total, colour, cell)
    return best


def _usefulness(pyramid: Pyramid, size: int, colour: str) -> int:
    return sum(1 for c, _cell in placements(pyramid, size, (colour,)))


def coop_move(state: State) -> str:
    seat = state.turn
    hand_stones = state.hands[seat]
    pyramid = state.pyramids[0]
    supply = supply_for(state, seat)
    hand = Counter(hand_stones)
    best = best_placement(pyramid, state.size, hand_stones, supply, hand)
    if best is not None and best[0] > PLACE_THRESHOLD:
        return f"place {best[1]} {format_cell(best[2])}"
    if state.placed or not state.bag:
        return "end"
    limit = min(DISCARD_LIMIT, len(state.bag))
    # Swap the stones with no cell now, those whose colour the pyramid will want
    # least (largest surplus over the forecast need) first.
    need = projected_need(pyramid, state.size, footprint(pyramid))
    usable = {c: _usefulness(pyramid, state.size, c) > 0 for c in set(hand_stones)}
    ranked = sorted(hand_stones, key=lambda c: (usable[c], need[c] - supply[c]))
    chosen = [c for c in ranked if not usable[c]][: min(limit, DISCARD_AT_ONCE)] or ranked[:1]
    return "discard " + " ".join(sort_stones(chosen))


def competitive_move(state: State) -> str:
    seat = state.turn
    pyramid = state.pyramids[seat]
    supply = supply_for(state, seat)
    reserve = state.reserves[seat]
    hand = Counter(reserve)
    take = best_placement(pyramid, state.size, state.quarry, supply, hand)
    build = best_placement(pyramid, state.size, reserve, supply, hand)
    if build is not None and build[0] > 0 and (take is None or build[0] + 5 >= take[0]):
        return f"build {build[1]} {format_cell(build[2])}"
    if take is not None and take[0] > 0:
        return f"take {take[1]} {format_cell(take[2])}"
    if len(reserve) < RESERVE_LIMIT and state.quarry:
        # Keep a stone a square of ours is waiting for, else the colour we are shortest of.
        wanted: Counter[str] = Counter()
        for cell in _upper_frontier(pyramid, state.size):
            present = [pyramid[b] for b in beneath(cell) if b in pyramid]
            wanted.update(c for c in set(present) if present.count(c) >= 2)
        candidates = [c for c in sort_stones(set(state.quarry)) if wanted[c] > hand[c]]
        if candidates:
            return f"reserve {max(candidates, key=lambda c: wanted[c] - hand[c])}"
    return "pass"


def _upper_frontier(pyramid: Pyramid, size: int) -> list[Cell]:
    """Upper cells that will open once one more stone lands beneath them."""
    found = []
    for level, x, y in list(pyramid):
        if level >= size:
            continue
        for dx, dy in SQUARE_OFFSETS:
            up = (level + 1, x + dx, y + dy)
            if up in pyramid:
                continue
            below = ((level, x + dx, y + dy), (level, x + dx + 1, y + dy), (level, x + dx, y + dy + 1),
                     (level, x + dx + 1, y + dy + 1))
            if sum(b in pyramid for b in below) == 3:
                found.append(up)
    return found


def choose(state: State) -> str:
    return competitive_move(state) if state.competitive else coop_move(state)
