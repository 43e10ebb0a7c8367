"""The decision a game waits for inside a turn, in one shape for every game.

A fall to choose (Flaming Pyramids), a stuck solitaire to undo or give up
(Continuous Pyramid), more stones to place or ``end`` (Pyramido): the bot and the
renderer read ``kind`` and ``player`` alike for all of them and the game-specific
extras from ``detail``, so none of them has to know which game said it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Pending:
    """``kind`` is one of the game's ``pending_kinds``; ``player`` the seat that decides;
    ``detail`` JSON-able extras (the falling tile, the choices, ...) that keep their
    names in :meth:`to_json`, so views stay flat: ``{"kind", "player", **detail}``."""

    kind: str
    player: int
    detail: dict[str, Any] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        clash = {"kind", "player"} & set(self.detail)
        if clash:
            raise ValueError(f"Pending detail may not use the reserved key(s) {sorted(clash)}.")

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "player": self.player, **self.detail}
