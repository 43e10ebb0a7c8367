"""Position JSON in and out (the rules file's notation section).

``to_position`` writes the rules file's keys plus what an exact round trip needs
(``pending``, ``first``, ``rng``, ``moves``, ``turns_played``, ``result``);
``from_position`` accepts positions without those extras, as scenario set-ups are.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.contract import Json
from engine.core.errors import BadPosition
from engine.core.result import Result
from engine.core.validate import options_in, position_object, whole
from engine.flaming_pyramids.geometry import Cell, cell_text, parse_cell
from engine.flaming_pyramids.state import Fall, FlamingPyramidsOptions, State
from engine.flaming_pyramids.tiles import TILE

MIN_PLAYERS = 2
MAX_PLAYERS = 6


def pending_json(pending: Fall | None) -> Json | None:
    """The rules file's pending-fall shape (clarified in the second edition): a tile that
    was just played and collapsed is not in ``pyramid`` while its fall is pending; a
    tile that was already standing stays on its cell until it falls (scenario
    ruling-played-tile-hangs-outside-pyramid)."""
    if pending is None:
        return None
    return {"player": pending.player, "decision": "fall", "tile": pending.tile, "at": cell_text(pending.cell)}


def to_position(state: State) -> Json:
    options: Json = {"curse": state.curse}
    if state.turn_limit is not None:
        options["turn_limit"] = state.turn_limit
    return {
        "players": state.players,
        "options": options,
        "turn": state.turn,
        "pyramid": {cell_text(cell): state.pyramid[cell] for cell in sorted(state.pyramid)},
        "hands": [list(h) for h in state.hands],
        "piles": [list(p) for p in state.piles],
        "removed": list(state.removed),
        "pending": pending_json(state.pending),
        "first": state.first,
        "rng": state.rng,
        "moves": state.moves,
        "turns_played": state.turns,
        "result": None if state.result is None else state.result.to_json(text=True),
    }


# --- loading ----------------------------------------------------------------------------
class _Ledger:
    """Where each tile has been seen, so a duplicate names both places."""

    def __init__(self) -> None:
        self.seen: dict[str, str] = {}

    def add(self, code: Any, where: str) -> str:
        if not isinstance(code, str):
            raise BadPosition(f"{where} holds {code!r}, which is not a tile code.")
        tile = code.strip().upper()
        if tile not in TILE:
            raise BadPosition(f"{where} holds {code!r}, which is not a Flaming Pyramids tile.")
        if tile in self.seen:
            raise BadPosition(f"{tile} is used twice: {self.seen[tile]} and {where}.")
        self.seen[tile] = where
        return tile


def _tile_lists(value: Any, key: str, players: int, ledger: _Ledger, noun: str) -> tuple[tuple[str, ...], ...]:
    if value is None:
        return tuple(() for _ in range(players))
    if not isinstance(value, list) or len(value) != players:
        raise BadPosition(f"{key} must be a list with one list per player ({players}).")
    out = []
    for seat, items in enumerate(value):
        if not isinstance(items, list):
            raise BadPosition(f"{key}[{seat}] must be a list of tile codes.")
        out.append(tuple(ledger.add(code, f"player {seat + 1}'s {noun}") for code in items))
    return tuple(out)


def _result(value: Any, players: int) -> Result | None:
    if value is None:
        return None
    result = Result.from_json(value)
    if not result.winners:
        raise BadPosition("result.winners must be a non-empty list of seats.")
    for seat in result.winners:
        whole(seat, "a winner's seat", 0, players - 1)
    return result


def from_position(position: Mapping[str, Any]) -> State:
    position = position_object(position, "Flaming Pyramids", (
        "players", "options", "turn", "pyramid", "hands", "piles", "removed", "pending", "first", "rng", "moves",
        "turns_played", "result", "game"))
    hands_raw = position.get("hands")
    default_players = len(hands_raw) if isinstance(hands_raw, list) else None
    players = whole(position.get("players", default_players), "players", MIN_PLAYERS, MAX_PLAYERS)

    options = options_in(position, FlamingPyramidsOptions)

    turn = whole(position.get("turn", 0), "turn", 0, players - 1)
    ledger = _Ledger()

    raw_pyramid = position.get("pyramid") or {}
    if not isinstance(raw_pyramid, Mapping):
        raise BadPosition('pyramid must be an object of "row,col": tile.')
    pyramid: dict[Cell, str] = {}
    for key, code in raw_pyramid.items():
        cell = parse_cell(str(key))
        if cell is None or cell[0] < 0:
            raise BadPosition(f"{key!r} is not a cell: write it as row,col with row 0 or more, e.g. \"1,0\".")
        if cell in pyramid:
            raise BadPosition(f"The cell {cell_text(cell)} is given twice.")
        pyramid[cell] = ledger.add(code, f"the pyramid at {cell_text(cell)}")

    pending = _pending(position.get("pending"), players, pyramid, ledger)
    hands = _tile_lists(hands_raw, "hands", players, ledger, "hand")
    piles = _tile_lists(position.get("piles"), "piles", players, ledger, "pile")
    raw_removed = position.get("removed") or []
    if not isinstance(raw_removed, list):
        raise BadPosition("removed must be a list of tile codes.")
    removed = tuple(ledger.add(code, "the removed tiles") for code in raw_removed)

    result = _result(position.get("result"), players)
    if result is None and pending is None and not hands[turn]:
        raise BadPosition(f"Player {turn + 1} is to play but holds no tile (a player with no tile has already won).")

    return State(
        players=players,
        curse=options.curse,
        turn_limit=options.turn_limit,
        turn=turn,
        pyramid=pyramid,
        hands=hands,
        piles=piles,
        removed=removed,
        pending=pending,
        first=whole(position.get("first", turn), "first", 0, players - 1),
        rng=whole(position.get("rng", 0), "rng", 0),
        moves=whole(position.get("moves", 0), "moves", 0),
        turns=whole(position.get("turns_played", 0), "turns_played", 0),
        result=result,
    )


def _pending(value: Any, players: int, pyramid: Mapping[Cell, str], ledger: _Ledger) -> Fall | None:
    """A pending tile found at ``at`` in the pyramid falls from there; one absent from the
    pyramid is the tile just played, held above ``at`` (see :class:`Fall`)."""
    if value is None:
        return None
    if not isinstance(value, Mapping) or value.get("decision") != "fall":
        raise BadPosition('pending must be null or {"player": 0, "decision": "fall", "tile": "R6", "at": "1,0"}.')
    player = whole(value.get("player"), "pending.player", 0, players - 1)
    cell = parse_cell(str(value.get("at", "")))
    if cell is None or cell[0] < 1:
        raise BadPosition(f"pending.at {value.get('at')!r} is not a cell above the base.")
    raw_tile = value.get("tile")
    tile = str(raw_tile).strip().upper()
    lifted = pyramid.get(cell) != tile
    if lifted:
        if cell in pyramid:
            raise BadPosition(f"The pending fall names {tile} at {cell_text(cell)}, but {pyramid[cell]} is there.")
        tile = ledger.add(raw_tile, "the pending fall")
    r, c = cell
    if (r - 1, c) in pyramid or (r - 1, c + 1) in pyramid:
        raise BadPosition(f"{tile} at {cell_text(cell)} cannot fall: both cells below it must be empty.")
    return Fall(player, tile, cell, lifted)
