"""``solve(deal, budget)``: a depth-first search over a whole deal, stock order known.

The search works on mutable arrays with in-place do/undo (copying states would cost
more than the rules themselves) and keeps every rule lookup incremental:

* open cells: a per-cell counter of filled sides (level 1) or of empty cells still
  needed underneath (upper levels), updated only around the cell just played;
* what fits a cell: a bitmask of tile types, OR-ed when a neighbour is filled;
* transposition table: a set of exact keys of states already proven lost. The key is
  one int: the placed cells, the tiles on the *frontier* only (a tile whose every
  neighbour is filled can never matter again) and the reserve as a multiset. The
  stock position is implied by the number of tiles placed, so states reached by
  different orders, or differing only in buried tiles, share one entry;
* dead-state pruning: (1) an empty cell whose fit-neighbours are all filled accepts
  a fixed set of types from then on; if no tile left (reserve or stock) is of those
  types the state can never be won. (2) a geometry-free relaxation: replay the
  stock in order, playing any tile that fits something already placed next to an
  empty cell; if even that stalls before the pyramid is full, the state is lost.
  Most lost deals die in the opening and are proved lost in one node this way;
  (2) is re-run only when a placed tile gets walled in, the one event that can
  make the relaxation stricter than at the parent;
* move ordering: dragons last (they are the only jokers), constrained cells and
  hard-to-place tiles first, stock-aware tie-breaks (see ``_order``).

The engine reads no clock: a :class:`Budget` carries a node limit and, optionally, a
clock and seconds limit injected by the caller (the benchmark uses
``time.perf_counter``). Anything that must be deterministic uses nodes only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from engine.continuous_pyramid.deal import deal_state
from engine.continuous_pyramid.geometry import CENTRE, EDITIONS, LEVEL_OF, NUM_CELLS, SIDES, geometry
from engine.continuous_pyramid.notation import play_text
from engine.continuous_pyramid.state import EMPTY, CPState
from engine.continuous_pyramid.tiles import ALL_TYPES_MASK, FIRST_DRAGON, FIT, NUM_TYPES, TOTAL_TILES
from engine.core.rng import Rng, derive_seed


class Verdict(StrEnum):
    WINNABLE = "winnable"
    NOT_WINNABLE = "not winnable"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Budget:
    """How much search ``solve`` may spend. ``clock``/``seconds`` are optional and
    injected, so the engine itself never reads the time."""

    nodes: int | None = 200_000
    clock: Callable[[], float] | None = None
    seconds: float | None = None


@dataclass(frozen=True)
class SolveResult:
    verdict: Verdict
    line: tuple[str, ...] = ()
    nodes: int = 0
    table_size: int = 0
    stats: dict[str, int] = field(default_factory=dict)

    @property
    def winnable(self) -> bool:
        return self.verdict is Verdict.WINNABLE


class _OutOfBudget(Exception):
    pass


class _Restart(Exception):
    pass


#: Nodes in the first search pass; each restart doubles it (see ``_Search.run``).
_FIRST_PASS_NODES = 2048
_NOISE = 12


# --- precomputed tables ---------------------------------------------------------------
_CELL_BITS = 6
_INTERIOR = 63
_RESERVE_SHIFT = NUM_CELLS * _CELL_BITS
#: _PLACE[c][t]: key delta for tile t appearing on the frontier at cell c.
_PLACE = [[(t + 1) << (_CELL_BITS * c) for t in range(NUM_TYPES)] for c in range(NUM_CELLS)]
#: _BURY[c][t]: key delta when the tile t at c stops mattering (all neighbours filled).
_BURY = [[(_INTERIOR - t - 1) << (_CELL_BITS * c) for t in range(NUM_TYPES)] for c in range(NUM_CELLS)]
_RBIT = [1 << (_RESERVE_SHIFT + 3 * t) for t in range(NUM_TYPES)]
_LEVEL1 = [LEVEL_OF[c] == 1 for c in range(NUM_CELLS)]
_SIDES1 = [SIDES[c] if LEVEL_OF[c] == 1 else () for c in range(NUM_CELLS)]


@dataclass(frozen=True)
class _Tables:
    """The geometry-dependent tables of one rules edition (CP-2 moved the top cell)."""

    #: Cells that may later be filled and count as neighbours of c (sides and top).
    future: tuple[tuple[int, ...], ...]
    #: Cells q whose ``future`` contains c (sides and the cell below).
    rev_future: tuple[tuple[int, ...], ...]
    open_needs: tuple[tuple[int, ...], ...]
    fit_neighbours: tuple[tuple[int, ...], ...]
    unlocks: tuple[tuple[int, ...], ...]


def _tables_of(edition: int) -> _Tables:
    geo = geometry(edition)
    return _Tables(
        future=tuple(SIDES[c] + ((geo.top[c],) if geo.top[c] >= 0 else ()) for c in range(NUM_CELLS)),
        rev_future=tuple(SIDES[c] + ((geo.below[c],) if geo.below[c] >= 0 else ()) for c in range(NUM_CELLS)),
        open_needs=geo.open_needs,
        fit_neighbours=geo.fit_neighbours,
        unlocks=geo.unlocks,
    )


_TABLES = {edition: _tables_of(edition) for edition in EDITIONS}


def relaxed_replay(wait: list[int], waitmask: int, acc: int, stock: Sequence[int], sp: int,
                   cap: int = TOTAL_TILES) -> int:
    """Tiles played when geometry never gets in the way: a tile in hand is playable
    once any tile it fits is down, each play draws the next tile of ``stock`` from
    ``sp`` on, and the replay stops when nothing in hand fits or ``cap`` tiles are
    down. Once a dragon is down every tile fits, so all that is left counts as played.

    ``wait``: tiles in hand per type (used up); ``waitmask``: the types in it;
    ``acc``: the types that fit somewhere already. The solver's dead-state proof and
    the hint's opening rollouts both ask this, with the real stock and with sampled
    ones."""
    end = len(stock)
    played = 0
    ready = waitmask & acc
    while ready and played < cap:
        if acc == ALL_TYPES_MASK:
            return played + sum(wait) + end - sp
        low = ready & -ready
        t = low.bit_length() - 1
        n = wait[t]
        wait[t] = 0
        waitmask ^= low
        played += n
        acc |= FIT[t]
        for _ in range(n):
            if sp < end:
                d = stock[sp]
                sp += 1
                wait[d] += 1
                waitmask |= 1 << d
        ready = waitmask & acc
    return played


class _Search:
    """One solve: the mutable mirror of a state plus the search itself."""

    def __init__(self, state: CPState, budget: Budget, hidden_stock: bool = False) -> None:
        """With ``hidden_stock`` the stock's order is not used (plays draw nothing) but
        its tiles still count as "left": what a player can work out by counting."""
        tables = _TABLES[state.options.edition]
        #: Cells whose fit set grows when c is filled (c is their side or the cell below them).
        self.acc_targets = tables.future
        self.rev_future = tables.rev_future
        self.unlocks = tables.unlocks
        self.fit_neighbours = fit_neighbours = tables.fit_neighbours
        self.budget = budget
        self.node_limit = budget.nodes
        self.deadline: float | None = None
        if budget.clock is not None and budget.seconds is not None:
            self.deadline = budget.clock() + budget.seconds
        self.nodes = 0
        self.check_at = 0
        self.restart_at: int | None = None
        self.noise: list[list[int]] | None = None
        self.restarts = 0
        self.dead: set[int] = set()
        self.prunes = 0
        self.relaxed_prunes = 0
        board = list(state.pyramid)
        self.board = board
        self.stock = [] if hidden_stock else list(state.stock)
        self.sp = 0
        self.rc = [0] * NUM_TYPES
        self.left = [0] * NUM_TYPES
        key = 0
        for t in state.reserve:
            if t != EMPTY:
                self.rc[t] += 1
                self.left[t] += 1
                key += _RBIT[t]
        for t in state.stock:
            self.left[t] += 1
        self.rmask = sum(1 << t for t in range(NUM_TYPES) if self.rc[t])
        self.leftmask = sum(1 << t for t in range(NUM_TYPES) if self.left[t])
        empty_board = all(t == EMPTY for t in board)
        self.occ = [sum(1 for s in _SIDES1[c] if board[s] != EMPTY) for c in range(NUM_CELLS)]
        self.need = [sum(1 for x in tables.open_needs[c] if board[x] == EMPTY) for c in range(NUM_CELLS)]
        self.emptyn = [sum(1 for q in tables.future[c] if board[q] == EMPTY) for c in range(NUM_CELLS)]
        self.fn_empty = [sum(1 for q in fit_neighbours[c] if board[q] == EMPTY) for c in range(NUM_CELLS)]
        self.accept = [0] * NUM_CELLS
        for c in range(NUM_CELLS):
            for q in fit_neighbours[c]:
                if board[q] != EMPTY:
                    self.accept[c] |= FIT[board[q]]
        self.opens: set[int] = set()
        if empty_board:
            self.opens.add(CENTRE)
            self.accept[CENTRE] = ALL_TYPES_MASK
        else:
            for c in range(NUM_CELLS):
                if board[c] == EMPTY and ((_LEVEL1[c] and self.occ[c]) or (not _LEVEL1[c] and not self.need[c])):
                    self.opens.add(c)
        self.touched = {c for c in range(NUM_CELLS) if board[c] == EMPTY and self.accept[c]}
        self.holes = {c for c in range(NUM_CELLS) if board[c] == EMPTY and not self.fn_empty[c] and fit_neighbours[c]}
        for c in range(NUM_CELLS):
            t = board[c]
            if t != EMPTY:
                key += _PLACE[c][t]
                if not self.emptyn[c]:
                    key += _BURY[c][t]
        self.key = key
        self.empties = board.count(EMPTY)
        self.line: list[tuple[int, int]] = []

    # --- do / undo ---------------------------------------------------------------
    def place(self, t: int, c: int) -> tuple[int, list[tuple[int, int]], int]:
        """Play type t to c; returns what undo needs (old key, old fit sets, refill)."""
        board = self.board
        old_key = self.key
        key = old_key + _PLACE[c][t] - _RBIT[t]
        board[c] = t
        self.empties -= 1
        self.opens.discard(c)
        self.holes.discard(c)
        self.touched.discard(c)
        # reserve and stock
        rc = self.rc
        rc[t] -= 1
        if not rc[t]:
            self.rmask ^= 1 << t
        left = self.left
        left[t] -= 1
        if not left[t]:
            self.leftmask ^= 1 << t
        refill = -1
        if self.sp < len(self.stock):
            refill = self.stock[self.sp]
            self.sp += 1
            if not rc[refill]:
                self.rmask |= 1 << refill
            rc[refill] += 1
            key += _RBIT[refill]
        # what fits where, holes
        saved: list[tuple[int, int]] = []
        fit = FIT[t]
        accept = self.accept
        fn_empty = self.fn_empty
        touched = self.touched
        for q in self.acc_targets[c]:
            saved.append((q, accept[q]))
            accept[q] |= fit
            fn_empty[q] -= 1
            if board[q] == EMPTY:
                touched.add(q)
                if not fn_empty[q]:
                    self.holes.add(q)
        # open cells
        for s in _SIDES1[c]:
            self.occ[s] += 1
            if board[s] == EMPTY:
                self.opens.add(s)
        need = self.need
        for u in self.unlocks[c]:
            need[u] -= 1
            if not need[u] and board[u] == EMPTY:
                self.opens.add(u)
        # frontier key
        emptyn = self.emptyn
        for q in self.rev_future[c]:
            emptyn[q] -= 1
            if not emptyn[q] and board[q] != EMPTY:
                key += _BURY[q][board[q]]
        if not emptyn[c]:
            key += _BURY[c][t]
        self.key = key
        return old_key, saved, refill

    def unplace(self, t: int, c: int, old_key: int, saved: list[tuple[int, int]], refill: int) -> None:
        board = self.board
        emptyn = self.emptyn
        for q in self.rev_future[c]:
            emptyn[q] += 1
        need = self.need
        for u in self.unlocks[c]:
            if not need[u] and board[u] == EMPTY:
                self.opens.discard(u)
            need[u] += 1
        occ = self.occ
        for s in _SIDES1[c]:
            occ[s] -= 1
            if not occ[s] and board[s] == EMPTY:
                self.opens.discard(s)
        accept = self.accept
        fn_empty = self.fn_empty
        touched = self.touched
        for q, mask in saved:
            accept[q] = mask
            if not mask:
                touched.discard(q)
            if not fn_empty[q]:
                self.holes.discard(q)
            fn_empty[q] += 1
        rc = self.rc
        if refill >= 0:
            self.sp -= 1
            rc[refill] -= 1
            if not rc[refill]:
                self.rmask ^= 1 << refill
        if not rc[t]:
            self.rmask |= 1 << t
        rc[t] += 1
        if not self.left[t]:
            self.leftmask |= 1 << t
        self.left[t] += 1
        board[c] = EMPTY
        self.empties += 1
        self.opens.add(c)
        if accept[c]:
            touched.add(c)
        if not fn_empty[c] and self.fit_neighbours[c]:
            self.holes.add(c)
        self.key = old_key

    def doomed(self) -> bool:
        """A filled-around empty cell that no tile left can ever fit."""
        leftmask = self.leftmask
        accept = self.accept
        return any(not (accept[h] & leftmask) for h in self.holes)

    # --- search --------------------------------------------------------------------
    def moves(self) -> list[tuple[int, int]]:
        rmask = self.rmask
        accept = self.accept
        fn_empty = self.fn_empty
        scored: list[tuple[int, int, int]] = []
        places = [0] * NUM_TYPES
        cand: list[tuple[int, int]] = []
        for c in self.opens:
            m = accept[c] & rmask
            while m:
                low = m & -m
                t = low.bit_length() - 1
                m ^= low
                places[t] += 1
                cand.append((t, c))
        noise = self.noise
        for t, c in cand:
            score = 1000 if t >= FIRST_DRAGON else places[t] * 4 + fn_empty[c] * 2 - LEVEL_OF[c] * 3
            if noise is not None:
                score += noise[c][t]
            scored.append((score, c, t))
        scored.sort()
        return [(t, c) for _, c, t in scored]

    def relaxed_reach(self, acc: int) -> int:
        """How many more tiles could be played if geometry never got in the way (see
        :func:`relaxed_replay`). Every real line is such a line, so falling short of
        the empty cells proves the state lost. ``acc``: the types some empty cell
        already accepts (a tile whose neighbours are all filled no longer counts, which
        is what makes this bite after the first tile)."""
        return relaxed_replay(self.rc[:], self.rmask, acc, self.stock, self.sp)

    def reach_mask(self) -> int:
        acc = 0
        accept = self.accept
        for c in self.touched:
            acc |= accept[c]
        return acc

    def dfs(self, parent_acc: int) -> bool:
        """``parent_acc``: the parent's reach mask plus the fits of the tile just
        played; the relaxed check is only re-run when the reach mask lost some of
        that (a tile got walled in), since otherwise the parent's check still holds."""
        if not self.empties:
            return True
        key = self.key
        if key in self.dead:
            return False
        self.nodes += 1
        if self.nodes >= self.check_at:
            self._check_budget()
        moves = self.moves()
        if self.empties == NUM_CELLS:
            moves = [(t, c) for t, c in moves if self._first_tile_hopeful(t)]
        acc = self.reach_mask()
        for t, c in moves:
            undo = self.place(t, c)
            try:
                child_acc = self.reach_mask()
                expected = acc | FIT[t]
                if self.doomed():
                    self.prunes += 1
                elif expected & ~child_acc and self.relaxed_reach(child_acc) < self.empties:
                    self.relaxed_prunes += 1
                elif self.dfs(child_acc | expected):
                    self.line.append((t, c))
                    return True
            finally:
                self.unplace(t, c, *undo)
        self.dead.add(key)
        return False

    def _first_tile_hopeful(self, t: int) -> bool:
        """The starter tile is the one choice the relaxation cannot see past (before it
        every tile fits), so it is checked per candidate."""
        self.rc[t] -= 1
        wait_refill = -1
        if self.sp < len(self.stock):
            wait_refill = self.stock[self.sp]
            self.rc[wait_refill] += 1
            self.sp += 1
        saved_mask = self.rmask
        self.rmask = sum(1 << d for d in range(NUM_TYPES) if self.rc[d])
        reach = 1 + self.relaxed_reach(FIT[t])
        self.rmask = saved_mask
        if wait_refill >= 0:
            self.sp -= 1
            self.rc[wait_refill] -= 1
        self.rc[t] += 1
        return reach >= self.empties

    def _check_budget(self) -> None:
        nodes = self.nodes
        if self.node_limit is not None and nodes >= self.node_limit:
            raise _OutOfBudget
        clock = self.budget.clock
        if self.deadline is not None and clock is not None and clock() >= self.deadline:
            raise _OutOfBudget
        if self.restart_at is not None and nodes >= self.restart_at:
            raise _Restart
        self.check_at = nodes + 1024
        if self.node_limit is not None:
            self.check_at = min(self.check_at, self.node_limit)
        if self.restart_at is not None:
            self.check_at = min(self.check_at, self.restart_at)

    def run(self) -> SolveResult:
        """Restarts: a few unlucky early choices can leave the search proving a lost
        ending over and over (heavy-tailed run times), so each pass gets twice the
        nodes of the last and a different deterministic jitter in the move order. The
        lost-state table carries over (its entries are proofs), and a pass that ends
        before its cap has searched everything, so "not winnable" stays exact."""
        pass_nodes = _FIRST_PASS_NODES
        while True:
            self.restart_at = self.nodes + pass_nodes
            self.check_at = 0
            try:
                won = self.dfs(ALL_TYPES_MASK)
                break
            except _OutOfBudget:
                return self._result(Verdict.UNKNOWN)
            except _Restart:
                self.restarts += 1
                pass_nodes *= 2
                rng = Rng(derive_seed(self.restarts, "continuous-pyramid/solver"))
                self.noise = [[rng.below(_NOISE) for _ in range(NUM_TYPES)] for _ in range(NUM_CELLS)]
        if not won:
            return self._result(Verdict.NOT_WINNABLE)
        line = tuple(play_text(t, c) for t, c in reversed(self.line))
        return self._result(Verdict.WINNABLE, line)

    def _result(self, verdict: Verdict, line: tuple[str, ...] = ()) -> SolveResult:
        stats = {"prunes": self.prunes, "relaxed_prunes": self.relaxed_prunes, "restarts": self.restarts}
        return SolveResult(verdict, line, self.nodes, len(self.dead), stats)


def solve(deal: int | CPState, budget: Budget | None = None) -> SolveResult:
    """Winnable (with a winning line of moves from ``deal``), not winnable, or unknown
    when the budget runs out. ``deal`` is a deal number or any state to solve from."""
    state = deal_state(deal) if isinstance(deal, int) else deal
    if state.resigned:
        return SolveResult(Verdict.NOT_WINNABLE)
    return _Search(state, budget or Budget()).run()
