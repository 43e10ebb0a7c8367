"""The Pyrinoes rule book: wires the modules into the core :class:`Game` contract."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel

from engine.core.contract import Game, Json
from engine.core.events import Event
from engine.core.pending import Pending
from engine.core.result import Result
from engine.core.rng import Rng
from engine.core.text import N_, name_of, phrase, plural
from engine.pyrinoes import moves, position, rules, view
from engine.pyrinoes.state import PyrinoesOptions, PyrinoesState


class Pyrinoes(Game[PyrinoesState]):
    id: ClassVar[str] = "pyrinoes"
    title: ClassVar[str] = "Pyrinoes"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options_model: ClassVar[type[BaseModel]] = PyrinoesOptions
    policy_module: ClassVar[str | None] = "engine.pyrinoes.policy"
    #: A turn is one move: Pyrinoes never waits for a decision inside it.
    pending_kinds: ClassVar[frozenset[str]] = frozenset()

    def setup(self, players: int, options: Mapping[str, Any] | BaseModel | None, seed: int) -> PyrinoesState:
        state, _ = self.setup_with_events(players, options, seed)
        return state

    def setup_with_events(
        self, players: int, options: Mapping[str, Any] | BaseModel | None, seed: int
    ) -> tuple[PyrinoesState, list[Event]]:
        """Like :meth:`setup`, plus the events narrating the first deal (private hands)."""
        parsed = self.parse_options(options)
        self.check_players(players, parsed)
        assert isinstance(parsed, PyrinoesOptions)
        return rules.new_match(players, parsed.target, seed)

    def to_act(self, state: PyrinoesState) -> int | None:
        return None if state.over else state.turn

    def legal_moves(self, state: PyrinoesState) -> list[str]:
        return moves.legal_moves(state)

    def apply(self, state: PyrinoesState, player: int, move: str) -> tuple[PyrinoesState, list[Event]]:
        return rules.apply_move(state, player, move)

    def pending(self, state: PyrinoesState) -> Pending | None:
        return None

    def result(self, state: PyrinoesState) -> Result | None:
        if state.winner is None:
            return None
        w = state.winner
        return Result(
            winners=(w,),
            scores=(float(state.scores[0]), float(state.scores[1])),
            summary_text=phrase(plural(state.round, N_("{player} wins {score} to {other} after {rounds} round."),
                                       N_("{player} wins {score} to {other} after {rounds} rounds.")),
                                player=name_of(w), score=state.scores[w], other=state.scores[1 - w],
                                rounds=state.round),
            details={"rounds": float(state.round), "target": float(state.target)},
        )

    def view(self, state: PyrinoesState, player: int | None) -> Json:
        return {**view.view(state, player), **self.view_fields(state, player)}

    def turn_number(self, state: PyrinoesState) -> int:
        return state.moves

    def determinize(self, state: PyrinoesState, seat: int, rng: Rng) -> PyrinoesState:
        return view.determinize(state, seat, rng)

    def to_position(self, state: PyrinoesState) -> Json:
        return position.to_position(state)

    def from_position(self, position_json: Mapping[str, Any]) -> PyrinoesState:
        return position.from_position(position_json)

    def players_in(self, state: PyrinoesState) -> int:
        return 2
