"""The Flaming Pyramids rule book: the core contract wired to the rules modules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel

from engine.core.contract import Game, Json
from engine.core.errors import GameOver, IllegalMove
from engine.core.events import Event
from engine.core.pending import Pending
from engine.core.result import Result
from engine.core.rng import Rng
from engine.core.text import N_, Phrase, or_list, phrase
from engine.flaming_pyramids import position as pos
from engine.flaming_pyramids import view as views
from engine.flaming_pyramids.geometry import Cell, cell_text, open_spaces
from engine.flaming_pyramids.notation import FALLS, parse_move
from engine.flaming_pyramids.rules import fall, play_tile
from engine.flaming_pyramids.state import HAND_SIZE, FlamingPyramidsOptions, State
from engine.flaming_pyramids.tiles import INCENDIARY, TILES

#: Hand order for listing moves: the tile table's order (colour, then weight).
_ORDER: dict[str, int] = {t.code: i for i, t in enumerate(TILES)}


class FlamingPyramids(Game[State]):
    id: ClassVar[str] = "flaming-pyramids"
    title: ClassVar[str] = "Flaming Pyramids"
    min_players: ClassVar[int] = pos.MIN_PLAYERS
    max_players: ClassVar[int] = pos.MAX_PLAYERS
    options_model: ClassVar[type[BaseModel]] = FlamingPyramidsOptions
    policy_module: ClassVar[str | None] = "engine.flaming_pyramids.policy"
    pending_kinds: ClassVar[frozenset[str]] = frozenset({"fall"})

    # --- set-up (FP-7) ----------------------------------------------------------------
    def setup(self, players: int, options: Mapping[str, Any] | BaseModel | None, seed: int) -> State:
        opts = self.parse_options(options)
        assert isinstance(opts, FlamingPyramidsOptions)
        self.check_players(players, opts)
        rng = Rng(seed)
        deck = [t.code for t in TILES]
        rng.shuffle(deck)
        each = len(deck) // players
        dealt, leftover = deck[: each * players], deck[each * players:]
        piles = [dealt[p::players] for p in range(players)]  # round-robin, first dealt on top
        base = [t for t in leftover if t not in INCENDIARY]
        first = rng.below(players)
        return State(
            players=players,
            curse=opts.curse,
            turn_limit=opts.turn_limit,
            turn=first,
            pyramid={(0, col): t for col, t in enumerate(base)},
            hands=tuple(tuple(p[:HAND_SIZE]) for p in piles),
            piles=tuple(tuple(p[HAND_SIZE:]) for p in piles),
            removed=tuple(t for t in leftover if t in INCENDIARY),
            first=first,
            rng=rng.state,
        )

    # --- playing ------------------------------------------------------------------------
    def to_act(self, state: State) -> int | None:
        if state.result is not None:
            return None
        if state.pending is not None:
            return state.pending.player
        return state.turn

    def legal_moves(self, state: State) -> list[str]:
        if state.result is not None:
            return []
        if state.pending is not None:
            return list(FALLS)
        hand = state.hands[state.turn]
        if len(hand) > 1:
            hand = tuple(sorted(hand, key=_ORDER.__getitem__))
        spaces = [cell_text(c) for c in open_spaces(state.pyramid)]
        return [f"play {t} {s}" for t in hand for s in spaces]

    def apply(self, state: State, player: int, move: str) -> tuple[State, list[Event]]:
        return self._apply(state, move, True)

    def advance(self, state: State, move: str) -> State:
        """``apply`` for search: the same rules, without building the narration."""
        return self._apply(state, move, False)[0]

    def _apply(self, state: State, move: str, narrate: bool) -> tuple[State, list[Event]]:
        if state.result is not None:
            raise GameOver(N_("The game is over; no more moves can be made."))
        verb, what, cell = parse_move(move)
        pending = state.pending
        if verb == "fall":
            if pending is None:
                raise IllegalMove(N_("No tile is falling: play a tile from your hand, e.g. `play R40 1,0`."))
            return fall(state, what == "right", narrate)
        if pending is not None:
            r, c = pending.cell
            raise IllegalMove(
                N_("First choose where {tile} falls: `fall left` (to {left}) or `fall right` (to {right})."),
                tile=pending.tile, left=cell_text((r - 1, c)), right=cell_text((r - 1, c + 1)),
            )
        assert cell is not None
        if what not in state.hands[state.turn]:
            raise IllegalMove(N_("You don't hold {tile}."), tile=what)
        spaces = open_spaces(state.pyramid)
        if cell not in spaces:
            raise IllegalMove(_why_not_there(state, cell, spaces))
        return play_tile(state, what, cell, narrate)

    def pending(self, state: State) -> Pending | None:
        """A fall to choose: ``tile`` falls from ``at`` (the position JSON writes the same
        decision as ``"decision": "fall"``, the rules file's notation)."""
        fall = state.pending
        if fall is None:
            return None
        return Pending("fall", fall.player, {"tile": fall.tile, "at": cell_text(fall.cell)})

    def result(self, state: State) -> Result | None:
        return state.result

    # --- views and notation -------------------------------------------------------------
    def view(self, state: State, player: int | None) -> Json:
        legal = self.legal_moves(state) if player is not None and player == self.to_act(state) else []
        return {**self.view_fields(state, player), **views.view(state, player, legal)}

    def turn_number(self, state: State) -> int:
        return state.moves

    def determinize(self, state: State, seat: int, rng: Rng) -> State:
        return views.determinize(state, seat, rng)

    def to_position(self, state: State) -> Json:
        return pos.to_position(state)

    def from_position(self, position: Mapping[str, Any]) -> State:
        return pos.from_position(position)

    def players_in(self, state: State) -> int:
        return state.players


def _why_not_there(state: State, cell: Cell, spaces: list[Cell]) -> Phrase:
    where = cell_text(cell)
    listed = or_list((cell_text(s) for s in spaces), commas=False)
    pyramid = state.pyramid
    if not pyramid:
        return phrase(N_("You can't play to {cell}: on an empty table the first tile goes to 0,0."), cell=where)
    if cell in pyramid:
        return phrase(N_("{cell} is already taken by {tile}; you can play to {spaces}."), cell=where,
                      tile=pyramid[cell], spaces=listed)
    base = [c for (r, c) in pyramid if r == 0]
    if base and all(r == 0 and not min(base) < c < max(base) for (r, c) in spaces):
        return phrase(N_("You can't play to {cell}: no space is open on the pyramid, so the base grows at {spaces}."),
                      cell=where, spaces=listed)
    if cell[0] > 0:
        return phrase(N_("You can't play to {cell}: a tile must rest on two tiles (never on one, never in free air); "
                         "the open spaces are {spaces}."), cell=where, spaces=listed)
    return phrase(N_("You can't play to {cell}: while a space is open you must use one ({spaces})."), cell=where,
                  spaces=listed)
