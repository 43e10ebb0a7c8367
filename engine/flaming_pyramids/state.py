"""The game state: a plain value that the rules copy rather than change.

Hands, piles and the removed list are tuples and the pyramid a small dict, so a copy
for the next state costs well under a microsecond — search AIs copy a lot.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from engine.core.result import Result
from engine.core.text import N_
from engine.flaming_pyramids.geometry import Cell

HAND_SIZE = 5


class FlamingPyramidsOptions(BaseModel):
    """FP-9."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    curse: bool = Field(default=False, title=N_("The curse"),
                        description=N_("three equal weights in a mini-pyramid go to the previous player"))
    #: Bounded so a forged option can't be absurd. Random games have run to ~940
    #: turns and self-play caps games at 2000 (``--turn-limit``), so that is the
    #: ceiling here; the bot's ``/pyramid new`` offers 1 to 1000.
    turn_limit: int | None = Field(
        default=None, ge=1, le=2000, title=N_("Turn limit"),
        description=N_("a short game: end after this many turns, fewest tiles wins"),
        json_schema_extra={"lobby": {"min": 1, "max": 1000}},
    )


@dataclass(frozen=True, slots=True)
class Fall:
    """A fall the responsible player must choose (FP-6 checks 1 and 2).

    ``lifted``: the tile is the one just played and broke FP-4 where it was played, so it
    was never placed — it hangs over ``cell`` outside the pyramid (the shared scenarios'
    ruling). A tile already in the pyramid that must fall stays at ``cell`` until it does.
    """

    player: int
    tile: str
    cell: Cell
    lifted: bool = False


@dataclass(slots=True)
class State:
    """Treated as immutable: every rule builds a new one (see :meth:`copy`)."""

    players: int
    curse: bool
    turn_limit: int | None
    turn: int  # the active seat
    pyramid: dict[Cell, str]
    hands: tuple[tuple[str, ...], ...]
    piles: tuple[tuple[str, ...], ...]  # top first
    removed: tuple[str, ...]
    pending: Fall | None = None
    first: int = 0  # the seat that started, for the record
    rng: int = 0  # the Rng state after the deal
    moves: int = 0  # moves and decisions applied so far
    turns: int = 0  # turns completed (what turn_limit counts)
    result: Result | None = None

    def copy(self) -> State:
        return State(
            self.players,
            self.curse,
            self.turn_limit,
            self.turn,
            dict(self.pyramid),
            self.hands,
            self.piles,
            self.removed,
            self.pending,
            self.first,
            self.rng,
            self.moves,
            self.turns,
            self.result,
        )

    def options(self) -> FlamingPyramidsOptions:
        return FlamingPyramidsOptions(curse=self.curse, turn_limit=self.turn_limit)

    def tiles_left(self, seat: int) -> int:
        return len(self.hands[seat]) + len(self.piles[seat])
