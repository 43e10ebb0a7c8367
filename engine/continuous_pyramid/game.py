"""The Continuous Pyramid rule book (``Game`` contract) over :class:`CPState`.

Ruling (CP-6 is silent on undo after being stuck): being stuck ends the game as a
loss, so ``result`` is set and, as for every game, ``to_act`` is None (the shared
scenario ``stuck-is-lost`` has the game over). While undo is on and there is a play
to take back, the loss is *provisional*: the game leaves a decision open after its
end, ``pending`` ``{"kind": "stuck", "player": 0, "choices": ["undo", "resign"]}``,
so :meth:`~engine.core.contract.Game.waiting_for` is still seat 0 and the contract's
``play`` takes ``undo`` (which reopens the game) or ``resign`` (which makes the loss
final; ``result.details["final"]`` says which).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar

from pydantic import BaseModel

from engine.continuous_pyramid import rules
from engine.continuous_pyramid.deal import deal_state
from engine.continuous_pyramid.geometry import LEVEL_OF, NAMES, NUM_CELLS
from engine.continuous_pyramid.notation import Move, parse_move, play_text
from engine.continuous_pyramid.options import CPOptions
from engine.continuous_pyramid.position import from_position, to_position
from engine.continuous_pyramid.state import EMPTY, CPState
from engine.continuous_pyramid.tiles import CODES, tile_name
from engine.continuous_pyramid.view import view_of
from engine.continuous_pyramid.winnable import winnable_deal
from engine.core.contract import Game, Json
from engine.core.errors import IllegalMove
from engine.core.events import Event
from engine.core.hidden import redeal
from engine.core.pending import Pending
from engine.core.result import Result
from engine.core.rng import Rng
from engine.core.text import N_, Listing, Phrase, phrase, plural

STUCK_CHOICES = ("undo", "resign")


def undo_count(undos: int) -> Phrase:
    """"1 undo", "2 undos": a result's count of take-backs, singular for one."""
    return phrase(plural(undos, N_("{undos} undo"), N_("{undos} undos")), undos=undos)


class ContinuousPyramid(Game[CPState]):
    id: ClassVar[str] = "continuous-pyramid"
    title: ClassVar[str] = "Continuous Pyramid"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 1
    options_model: ClassVar[type[BaseModel]] = CPOptions
    policy_module: ClassVar[str | None] = "engine.continuous_pyramid.policy"
    pending_kinds: ClassVar[frozenset[str]] = frozenset({"stuck"})

    # --- set-up -------------------------------------------------------------
    def setup(self, players: int, options: Mapping[str, Any] | BaseModel | None, seed: int) -> CPState:
        """``seed`` is the public deal number; with ``winnable_only`` the deal actually
        used (recorded as ``deal``) is the first from ``seed`` on proven winnable."""
        opts = self.parse_options(options)
        assert isinstance(opts, CPOptions)
        self.check_players(players, opts)
        return winnable_deal(seed, opts) if opts.winnable_only else deal_state(seed, opts)

    # --- playing ------------------------------------------------------------
    def to_act(self, state: CPState) -> int | None:
        return None if rules.is_over(state) else 0

    def legal_moves(self, state: CPState) -> list[str]:
        if rules.is_final(state):
            return []
        if rules.is_stuck(state):
            return list(STUCK_CHOICES)
        moves = [play_text(t, c) for _slot, t, c in rules.legal_plays(state)]
        if state.can_undo:
            moves.append("undo")
        return moves

    def apply(self, state: CPState, player: int, move: str) -> tuple[CPState, list[Event]]:
        parsed = parse_move(move)
        if parsed.kind == "undo":
            return self._undo(state)
        if parsed.kind == "resign":
            if not (rules.is_stuck(state) and not rules.is_final(state)):
                raise IllegalMove(N_("You can only resign when you are stuck; there are still plays to make."))
            return self._resign(state)
        if rules.is_stuck(state):
            raise IllegalMove(N_("You are stuck: no reserve tile fits an open cell. Undo a play or resign."))
        return self._play(state, parsed)

    def _play(self, state: CPState, move: Move) -> tuple[CPState, list[Event]]:
        tile, cell = move.tile, move.cell
        if tile not in state.reserve:
            raise IllegalMove(N_("You don't have {tile} in the reserve."), tile=tile_name(CODES[tile]))
        slot = state.reserve.index(tile)
        _check_cell(state, tile, cell)
        new = rules.apply_play(state, slot, cell)
        events = [
            Event(
                "play",
                N_("{0} played {tile} on level {level}."),
                players=(0,),
                cells=(NAMES[cell],),
                items=(CODES[tile],),
                data={"tile": CODES[tile], "cell": NAMES[cell], "slot": slot},
                # In words: the tile as its face shows it, the cell by its level (the picture outlines it).
                args={"tile": tile_name(CODES[tile]), "level": LEVEL_OF[cell]},
            )
        ]
        if len(new.stock) < len(state.stock):
            dealt = CODES[new.reserve[slot]]
            events.append(
                Event(
                    "refill",
                    N_("{tile} came from the stock to reserve slot {slot}."),
                    items=(dealt,),
                    data={"tile": dealt, "slot": slot, "stock": len(new.stock)},
                    args={"tile": tile_name(dealt), "slot": slot},
                )
            )
            if not new.stock:
                events.append(Event("stock-empty",
                                    N_("The stock is empty: the reserve will not be refilled any more.")))
        geo = rules.geometry_of(new)
        opened = tuple(NAMES[u] for u in geo.unlocks[cell] if rules.is_open(new.pyramid, u, geo))
        if opened:
            # Told in words: the cells themselves are lettered on the next picture (and kept in ``cells``).
            level = int(opened[0].split(":")[0])
            events.append(Event("open", plural(len(opened), N_("A cell opened on level {level}."),
                                               N_("{count} cells opened on level {level}.")), cells=opened,
                                args={"count": len(opened), "level": level}))
        events.extend(_ending_events(new))
        return new, events

    def _undo(self, state: CPState) -> tuple[CPState, list[Event]]:
        if not state.options.undo:
            raise IllegalMove(N_("Undo is turned off for this game."))
        if not state.history:
            raise IllegalMove(N_("There is nothing to undo."))
        step = state.history[-1]
        tile = CODES[state.pyramid[step.cell]]
        new = rules.apply_undo(state)
        events = [
            Event(
                "undo",
                N_("{0} took back {tile} from level {level} (undo {undos})."),
                players=(0,),
                cells=(NAMES[step.cell],),
                items=(tile,),
                data={"tile": tile, "cell": NAMES[step.cell], "slot": step.slot, "undos": new.undos},
                args={"tile": tile_name(tile), "level": LEVEL_OF[step.cell], "undos": new.undos},
            )
        ]
        if step.refill:
            back = CODES[state.reserve[step.slot]]
            events.append(
                Event("unrefill", N_("{tile} went back on top of the stock."), items=(back,), data={"tile": back},
                      args={"tile": tile_name(back)})
            )
        return new, events

    def _resign(self, state: CPState) -> tuple[CPState, list[Event]]:
        new = replace(state, resigned=True, plays_cache=None)
        return new, [Event("resign", N_("{0} gave up with {placed} of {total} tiles placed."), players=(0,),
                           data={"tiles_placed": new.placed}, args={"placed": new.placed, "total": NUM_CELLS})]

    def pending(self, state: CPState) -> Pending | None:
        if rules.is_stuck(state) and not rules.is_final(state):
            return Pending("stuck", 0, {"choices": list(STUCK_CHOICES)})
        return None

    def result(self, state: CPState) -> Result | None:
        placed = state.placed
        scores = (float(placed), float(state.moves), float(state.undos))
        details = {"tiles_placed": float(placed), "moves": float(state.moves), "undos": float(state.undos)}
        if placed == NUM_CELLS:
            text = phrase(N_("{0} completed the pyramid: all {total} tiles in {moves} moves, {undos}."),
                          total=NUM_CELLS, moves=state.moves, undos=undo_count(state.undos))
            return Result((0,), scores, details={**details, "final": 1.0}, summary_text=text)
        if state.resigned or rules.is_stuck(state):
            final = rules.is_final(state)
            if final:
                template = N_("{0} placed {placed} of {total} tiles ({undos}).")
            else:
                # not final: it must not read as over (pictures put "Not over yet:" before it)
                template = N_("{0} is stuck with {placed} of {total} tiles placed ({undos}); "
                              "an undo can still go on.")
            text = phrase(template, placed=placed, total=NUM_CELLS, undos=undo_count(state.undos))
            return Result((), scores, details={**details, "final": 1.0 if final else 0.0}, summary_text=text)
        return None

    # --- views and notation ---------------------------------------------------
    def view(self, state: CPState, player: int | None) -> Json:
        return {**self.view_fields(state, player), **view_of(state, "undo" in self.legal_moves(state))}

    def turn_number(self, state: CPState) -> int:
        """Plays and take-backs alike: each is a move the player made."""
        return state.moves + state.undos

    def forfeit(self, state: CPState, seat: int) -> Result:
        """Leaving a solitaire loses it, recording the tiles placed and undos used (the
        challenge leaderboards rank by them, CP-6)."""
        return Result(
            winners=(),
            summary_text=phrase(N_("{0} left the game with {placed} of {total} tiles placed."),
                                placed=state.placed, total=NUM_CELLS),
            details={"tiles_placed": float(state.placed), "undos": float(state.undos)},
            resigned=(seat,),
        )

    def determinize(self, state: CPState, seat: int, rng: Rng) -> CPState:
        """The stock order is the only hidden thing; its tiles are known by counting."""
        (stock,) = redeal([state.stock], rng)
        return replace(state, stock=stock, plays_cache=None)

    def to_position(self, state: CPState) -> Json:
        return to_position(state)

    def from_position(self, position: Mapping[str, Any]) -> CPState:
        return from_position(position)

    def players_in(self, state: CPState) -> int:
        return 1


def _check_cell(state: CPState, tile: int, cell: int) -> None:
    """Why ``tile`` may not go to ``cell`` (CP-4, CP-5), or nothing if it may."""
    pyramid = state.pyramid
    geo = rules.geometry_of(state)
    name = NAMES[cell]
    if pyramid[cell] != EMPTY:
        raise IllegalMove(N_("Cell {cell} already holds {tile}."), cell=name, tile=tile_name(CODES[pyramid[cell]]))
    if not rules.is_open(pyramid, cell, geo):
        if all(t == EMPTY for t in pyramid):
            raise IllegalMove(N_("The first tile must go to the centre, 1:4,4."))
        if LEVEL_OF[cell] == 1:
            raise IllegalMove(N_("Cell {cell} is not open: a level-1 cell opens once a tile lies beside it."),
                              cell=name)
        missing = ", ".join(NAMES[x] for x in geo.open_needs[cell] if pyramid[x] == EMPTY)
        raise IllegalMove(
            N_("Cell {cell} is not open: the cell under it and every cell beside that one must hold tiles "
               "(still empty: {missing})."), cell=name, missing=missing,
        )
    if not rules.accepts(pyramid, cell, geo) >> tile & 1:
        around = Listing(tuple(
            phrase(N_("{tile} at {cell}"), tile=tile_name(CODES[pyramid[n]]), cell=NAMES[n])
            for n in geo.fit_neighbours[cell] if pyramid[n] != EMPTY
        ))
        raise IllegalMove(N_("{tile} does not fit next to any of its neighbours at {cell} ({around})."),
                          tile=tile_name(CODES[tile]), cell=name, around=around)


def _ending_events(state: CPState) -> list[Event]:
    if rules.is_full(state):
        return [Event("win", N_("{0} completed the pyramid: all {total} tiles placed!"), players=(0,),
                      args={"total": NUM_CELLS})]
    if rules.is_stuck(state):
        if state.can_undo:
            text = N_("{0} is stuck: no reserve tile fits an open cell. Undo a play or resign.")
        else:
            text = N_("{0} is stuck: no reserve tile fits an open cell. The game is lost with {placed} tiles.")
        return [Event("stuck", text, players=(0,), data={"tiles_placed": state.placed},
                      args={"placed": state.placed})]
    return []
