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
from engine.core.pending import Pending
from engine.core.result import Result
from engine.core.rng import Rng
from engine.core.text import N_, name_of, phrase
from engine.core.validate import problem_list

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
    #: The module whose ``make_policy(game)`` builds this game's AI policy
    #: (:mod:`engine.ai.policy`); None: the generic policy (random rollouts).
    policy_module: ClassVar[str | None] = None
    #: The ``Pending.kind`` values this game can wait for (empty: it never waits mid-turn).
    pending_kinds: ClassVar[frozenset[str]] = frozenset()

    # --- set-up -------------------------------------------------------------
    def parse_options(self, options: Mapping[str, Any] | BaseModel | None) -> BaseModel:
        """Validate options at the boundary, with a message a player can read."""
        if isinstance(options, self.options_model):
            return options
        raw = options.model_dump() if isinstance(options, BaseModel) else dict(options or {})
        try:
            return self.options_model.model_validate(raw)
        except ValidationError as exc:
            raise BadOptions(N_("Those {title} options are not valid ({problems})."), title=self.title,
                             problems=problem_list(exc)) from exc

    def player_range(self, options: BaseModel) -> tuple[int, int]:
        """Allowed seat counts; games whose count depends on options override this."""
        return self.min_players, self.max_players

    def check_players(self, players: int, options: BaseModel) -> None:
        low, high = self.player_range(options)
        if not low <= players <= high:
            if low == high:
                raise BadOptions(N_("{title} needs {count} players, not {players}."), title=self.title,
                                 count=low, players=players)
            raise BadOptions(N_("{title} needs {low} to {high} players, not {players}."), title=self.title,
                             low=low, high=high, players=players)

    @abstractmethod
    def setup(self, players: int, options: Mapping[str, Any] | BaseModel | None, seed: int) -> S:
        """A new game; all randomness comes from ``seed``."""

    # --- playing ------------------------------------------------------------
    @abstractmethod
    def to_act(self, state: S) -> int | None:
        """The seat the game waits for (the pending decision's owner first), or None
        once the game is over. The contract's invariant, for every state of every game:
        ``to_act(state) is None`` exactly when ``result(state) is not None``."""

    def waiting_for(self, state: S) -> int | None:
        """The seat whose move the game accepts next: the seat to act while the game
        goes on; once it is over, the owner of a decision the game still leaves open
        (:meth:`pending` on a finished game: a take-back, such as Continuous Pyramid's
        ``stuck``, where undo reopens a lost game). None: the game is over for good, so
        its result is final; a front end closes the game then, not before."""
        seat = self.to_act(state)
        if seat is not None:
            return seat
        pending = self.pending(state)
        return None if pending is None else pending.player

    @abstractmethod
    def legal_moves(self, state: S) -> list[str]:
        """Every move the game accepts now from :meth:`waiting_for`'s seat, in the rules
        file's notation (empty once nobody is waited for)."""

    @abstractmethod
    def apply(self, state: S, player: int, move: str) -> tuple[S, list[Event]]:
        """Apply a move already known to come from the seat waited for, returning a new
        state. Raises :class:`IllegalMove` with the reason; never mutates ``state``."""

    def play(self, state: S, player: int, move: str) -> tuple[S, list[Event]]:
        """The public entry point: ``apply`` after the checks all games share."""
        seat = self.waiting_for(state)
        if seat is None:
            raise GameOver(N_("The game is over; no more moves can be made."))
        if player != seat:
            raise NotYourTurn(N_("It is not your turn: the game is waiting for player {number}."), number=seat + 1)
        return self.apply(state, player, move.strip())

    @abstractmethod
    def pending(self, state: S) -> Pending | None:
        """The decision the game waits for inside a turn (e.g. a fall), or None; its
        ``kind`` is one of :attr:`pending_kinds`. Set on a finished game only for a
        take-back the game still offers (see :meth:`waiting_for`)."""

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """None while the game goes on (see :meth:`to_act` for the invariant)."""

    def forfeit(self, state: S, seat: int) -> Result:
        """The result when ``seat`` leaves a game that ends because of it (a two-player
        or a solo game; bigger games go on with an AI in the seat, which is the front
        end's business): every other seat wins, nothing is scored. Games with more to
        record (Continuous Pyramid's tiles placed) override this."""
        others = tuple(s for s in range(self.players_in(state)) if s != seat)
        if len(others) == 1:
            text = phrase(N_("{player} left the game. {winner} wins."), player=name_of(seat),
                          winner=name_of(others[0]))
        else:
            text = phrase(N_("{player} left the game."), player=name_of(seat))
        return Result(winners=others, summary_text=text, resigned=(seat,))

    # --- views and notation ---------------------------------------------------
    @abstractmethod
    def view(self, state: S, player: int | None) -> Json:
        """What ``player`` may see (None: a spectator).

        Position-shaped JSON with hidden parts replaced by counts, plus the keys of
        :meth:`view_fields`, which every game's view carries so the renderer and bot
        can read them alike."""

    def view_fields(self, state: S, seat: int | None) -> Json:
        """The keys every view carries: ``game`` (id), ``seat`` (the viewer or None),
        ``players`` (seat count), ``to_act`` (seat or None), ``pending``
        (:meth:`Pending.to_json` or None), ``result`` (:meth:`Result.to_json` with its
        translatable ``summary_text``, or None)
        and ``turn_number`` (:meth:`turn_number`, for the header strip)."""
        pending = self.pending(state)
        result = self.result(state)
        return {
            "game": self.id,
            "seat": seat,
            "players": self.players_in(state),
            "to_act": self.to_act(state),
            "pending": None if pending is None else pending.to_json(),
            "result": None if result is None else result.to_json(text=True),
            "turn_number": self.turn_number(state),
        }

    def turn_number(self, state: S) -> int:
        """Moves made so far, for the header strip; read generically from the
        position's ``moves``, and overridden by games that store it or count more
        (Continuous Pyramid counts undos too)."""
        moves = self.to_position(state).get("moves")
        return moves if isinstance(moves, int) else 0

    def determinize(self, state: S, seat: int, rng: Rng) -> S:
        """A full state that ``seat`` cannot tell apart from ``state``: everything
        hidden from that seat (other hands, pile order, the stock) re-dealt at random
        from what it could be (:func:`engine.core.hidden.redeal` does the re-deal,
        canonically). Search AIs sample these so they never peek. Games with no
        hidden information return the state unchanged."""
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
