"""One game as loaded: its rows, its presenter (rule book and pictures) and its state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.core.errors import REPLACED, RESIGNED, PlayError
from bot.games.presenter import Presenter
from bot.store import GameRecord, SeatRecord
from engine.core import Event, Game, Result
from i18n import N_


@dataclass
class Session:
    record: GameRecord
    seats: list[SeatRecord]
    presenter: Presenter
    state: Any
    version: int
    last_events: list[Event] = field(default_factory=list)
    last_mover: int | None = None
    #: What is worked out from this session's state and kept for its later readers (a cached
    #: session serves every click until the game changes): each entry names the state it
    #: was worked out from. Not copied by ``dataclasses.replace``, not compared.
    memo: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def game(self) -> Game[Any]:
        return self.presenter.game

    @property
    def to_act(self) -> int | None:
        """The seat whose move the game takes now: the seat to act, or the owner of a
        decision a finished game still leaves open (a stuck solitaire may undo)."""
        return self.game.waiting_for(self.state)

    @property
    def result(self) -> Result | None:
        return self.game.result(self.state)

    @property
    def over(self) -> bool:
        """Nothing more can be played. A result alone is not enough: a stuck
        solitaire reports its (provisional) loss while undo is still possible."""
        return self.to_act is None

    def seat_of(self, user_id: int) -> SeatRecord | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    def human_seat(self, user_id: int) -> SeatRecord:
        """The seat ``user_id`` plays in person. A seat that an AI took over (the
        player resigned or timed out) still carries their user id, so every way of
        acting for a user goes through here rather than :meth:`seat_of`."""
        mine = self.seat_of(user_id)
        if mine is None:
            raise PlayError(N_("You are not playing in this game."))
        if mine.resigned:
            raise PlayError(RESIGNED)
        if mine.is_ai:
            raise PlayError(REPLACED)
        return mine

    def seat(self, number: int) -> SeatRecord | None:
        return next((s for s in self.seats if s.seat == number), None)
