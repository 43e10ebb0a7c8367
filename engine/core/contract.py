"""The contract every game engine implements.

Modelled on python-chess's Board (legal moves, push, text notation) and
boardgame.io's plain-data games (setup, moves, playerView): a game object is a
stateless rule book; the *state* is a separate value the rule book reads and
produces. ``play`` never mutates the state it is given, so a rejected move
changes nothing and callers can keep the previous state for undo or retries.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from engine.core.errors import BadOptions, GameOver, NotYourTurn
from engine.core.events import Event
from engine.core.result import Result
from engine.core.rng import Rng

S = TypeVar("S")
Json = dict[str, Any]


class Game(ABC, Generic[S]):
    """A rule book. Subclasses implement the abstract methods; ``play`` adds the
    checks every game shares (game over, whose turn) in one place."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_model: ClassVar[type[BaseModel]]

    # --- set-up -------------------------------------------------------------
    def parse_options(self, options: Mapping[str, Any] | BaseModel | None) -> BaseModel:
        """Validate options at the boundary, with a message a player can read."""
        if isinstance(options, self.options_model):
            return options
        raw = options.model_dump() if isinstance(options, BaseModel) else dict(options or {})
        try:
            return self.options_model.model_validate(raw)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or 'options'}: {err['msg']}"
                for err in exc.errors()
            )
            raise BadOptions(f"Those {self.title} options are not valid ({problems}).") from exc

    def player_range(self, options: BaseModel) -> tuple[int, int]:
        """Allowed seat counts; games whose count depends on options override this."""
        return self.min_players, self.max_players

    def check_players(self, players: int, options: BaseModel) -> None:
        low, high = self.player_range(options)
        if not low <= players <= high:
            wanted = f"{low}" if low == high else f"{low} to {high}"
            raise BadOptions(f"{self.title} needs {wanted} players, not {players}.")

    @abstractmethod
    def setup(self, players: int, options: Mapping[str, Any] | BaseModel | None, seed: int) -> S:
        """A new game; all randomness comes from ``seed``."""

    # --- playing ------------------------------------------------------------
    @abstractmethod
    def to_act(self, state: S) -> int | None:
        """The seat the game waits for (the pending decision's owner first), or None
        once the game is over."""

    @abstractmethod
    def legal_moves(self, state: S) -> list[str]:
        """Every move the seat to act may make, in the rules file's notation."""

    @abstractmethod
    def apply(self, state: S, player: int, move: str) -> tuple[S, list[Event]]:
        """Apply a move already known to come from the seat to act, returning a new
        state. Raises :class:`IllegalMove` with the reason; never mutates ``state``."""

    def play(self, state: S, player: int, move: str) -> tuple[S, list[Event]]:
        """The public entry point: ``apply`` after the checks all games share."""
        if self.result(state) is not None:
            raise GameOver("The game is over; no more moves can be made.")
        seat = self.to_act(state)
        if seat is None:
            raise GameOver("The game is over; no more moves can be made.")
        if player != seat:
            raise NotYourTurn(f"It is not your turn: the game is waiting for player {seat + 1}.")
        return self.apply(state, player, move.strip())

    @abstractmethod
    def pending(self, state: S) -> Json | None:
        """The decision the game waits for inside a turn (e.g. a fall), or None."""

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """None while the game goes on."""

    # --- views and notation ---------------------------------------------------
    @abstractmethod
    def view(self, state: S, player: int | None) -> Json:
        """What ``player`` may see (None: a spectator).

        Position-shaped JSON with hidden parts replaced by counts, plus the keys every
        game's view carries so the renderer and bot can read them alike:
        ``game`` (id), ``seat`` (the viewer or None), ``players`` (seat count),
        ``to_act`` (seat or None), ``pending`` (as :meth:`pending`), ``result``
        (None, or ``{"winners": [...], "scores": [...], "summary": str}``) and
        ``turn_number`` (moves made so far, for the header strip)."""

    def determinize(self, state: S, seat: int, rng: Rng) -> S:
        """A full state that ``seat`` cannot tell apart from ``state``: everything
        hidden from that seat (other hands, pile order, the stock) re-dealt at random
        from what it could be. Search AIs sample these so they never peek. Games with
        no hidden information return the state unchanged."""
        return state

    @abstractmethod
    def to_position(self, state: S) -> Json:
        """The full state as the rules file's position JSON (plus any extra keys the
        game needs to round-trip exactly, such as the RNG state)."""

    @abstractmethod
    def from_position(self, position: Mapping[str, Any]) -> S:
        """Load a position; raises :class:`BadPosition` naming what is wrong."""

    def players_in(self, state: S) -> int:
        """Seat count of a state; games store it, this reads it generically."""
        pos = self.to_position(state)
        value = pos.get("players")
        if isinstance(value, int):
            return value
        hands = pos.get("hands")
        return len(hands) if isinstance(hands, list) else 1

    def replay(
        self,
        players: int,
        options: Mapping[str, Any] | BaseModel | None,
        seed: int,
        moves: Sequence[tuple[int, str]],
    ) -> S:
        """Rebuild a game from its record; the move log is the source of truth."""
        state = self.setup(players, options, seed)
        for seat, move in moves:
            state, _ = self.play(state, seat, move)
        return state
