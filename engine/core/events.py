"""Events narrate what a move did, so the bot can tell the story of a turn and the
renderer can highlight what changed, without either re-deriving rules."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """One step of a turn.

    ``text`` names players by position in ``players`` (``{0}``, ``{1}``), so the engine
    never needs Discord names: ``narrate(names)`` fills them in. ``visible_to`` is the
    one seat allowed to see a private event (a draw), or None when it is public.
    """

    kind: str
    text: str
    players: tuple[int, ...] = ()
    cells: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    visible_to: int | None = None
    data: dict[str, Any] = field(default_factory=dict, compare=False)

    def narrate(self, names: Sequence[str]) -> str:
        def name(seat: int) -> str:
            return names[seat] if 0 <= seat < len(names) else f"Player {seat + 1}"

        return self.text.format(*(name(p) for p in self.players))

    def visible(self, seat: int | None) -> bool:
        return self.visible_to is None or self.visible_to == seat
