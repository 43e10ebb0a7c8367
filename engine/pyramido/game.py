"""The Pyramido rule book: the contract's entry points, dispatching to the solo/coop
and competitive rules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel

from engine.core.contract import Game, Json
from engine.core.events import Event
from engine.core.pending import Pending
from engine.core.result import Result
from engine.core.rng import Rng
from engine.pyramido import competitive, coop
from engine.pyramido.notation import parse_move
from engine.pyramido.options import PyramidoOptions
from engine.pyramido.position import from_position, to_position
from engine.pyramido.setup import new_game
from engine.pyramido.state import State
from engine.pyramido.view import determinize, redact


class Pyramido(Game[State]):
    id: ClassVar[str] = "pyramido"
    title: ClassVar[str] = "Pyramido"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 4
    options_model: ClassVar[type[BaseModel]] = PyramidoOptions
    policy_module: ClassVar[str | None] = "engine.pyramido.policy"
    pending_kinds: ClassVar[frozenset[str]] = frozenset({"placing"})

    def player_range(self, options: BaseModel) -> tuple[int, int]:
        mode = getattr(options, "mode", "solo")
        return (1, 1) if mode == "solo" else (2, 4)

    def options(self, options: Mapping[str, Any] | BaseModel | None) -> PyramidoOptions:
        parsed = self.parse_options(options)
        assert isinstance(parsed, PyramidoOptions)
        return parsed

    def setup(self, players: int, options: Mapping[str, Any] | BaseModel | None, seed: int) -> State:
        opts = self.options(options)
        self.check_players(players, opts)
        return new_game(players, opts, seed)

    def to_act(self, state: State) -> int | None:
        return None if state.result is not None else state.turn

    def legal_moves(self, state: State) -> list[str]:
        if state.result is not None:
            return []
        return competitive.legal_moves(state) if state.competitive else coop.legal_moves(state)

    def apply(self, state: State, player: int, move: str) -> tuple[State, list[Event]]:
        parsed = parse_move(move)
        if state.competitive:
            return competitive.apply(state, player, parsed)
        return coop.apply(state, player, parsed)

    def pending(self, state: State) -> Pending | None:
        """Mid-turn in solo/coop, after the first placement: place more or ``end``
        (a swap is no longer possible)."""
        if state.result is not None or state.competitive or state.placed == 0:
            return None
        return Pending("placing", state.turn, {"placed": state.placed, "moves": ["place", "end"]})

    def result(self, state: State) -> Result | None:
        return state.result

    def view(self, state: State, player: int | None) -> Json:
        return {**redact(state, player), **self.view_fields(state, player)}

    def turn_number(self, state: State) -> int:
        return state.moves

    def determinize(self, state: State, seat: int, rng: Rng) -> State:
        return determinize(state, seat, rng)

    def to_position(self, state: State) -> Json:
        return to_position(state)

    def from_position(self, position: Mapping[str, Any]) -> State:
        return from_position(position)

    def players_in(self, state: State) -> int:
        return state.players


GAME = Pyramido()
