"""Events narrate what a move did, so the bot can tell the story of a turn and the
renderer can highlight what changed, without either re-deriving rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core.text import N_, Gettext, Phrase, phrase

#: What a seat is called when no name is known for it.
PLAYER = N_("Player {number}")


@dataclass(frozen=True)
class Event:
    """One step of a turn.

    ``text`` is a constant English template (a msgid, see :mod:`engine.core.text`):
    it names players by position in ``players`` (``{0}``, ``{1}``), so the engine never
    needs Discord names, and the rest by name from ``args`` (``{colour}``).
    ``narrate(names, gettext)`` fills both in, in the reader's language when given a
    ``gettext``. ``visible_to`` is the one seat allowed to see a private event (a
    draw), or None when it is public.
    """

    kind: str
    text: str
    players: tuple[int, ...] = ()
    cells: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    visible_to: int | None = None
    data: dict[str, Any] = field(default_factory=dict, compare=False)
    args: Mapping[str, object] = field(default_factory=dict, hash=False)

    def narrate(self, names: Sequence[str], gettext: Gettext | None = None) -> str:
        """The sentence with ``names`` (by seat) filled in; translated by ``gettext``
        when given, otherwise the engine's English."""
        def name(seat: int) -> str:
            if 0 <= seat < len(names):
                return names[seat]
            return player_name(seat, gettext)

        return Phrase(self.text, self.args).fill([name(p) for p in self.players], gettext)

    def visible(self, seat: int | None) -> bool:
        return self.visible_to is None or self.visible_to == seat

    def to_json(self) -> dict[str, Any]:
        """The event as JSON (``data`` as it is: callers that need it JSON-safe check)."""
        return {"kind": self.kind, "text": self.text, "players": list(self.players), "cells": list(self.cells),
                "items": list(self.items), "visible_to": self.visible_to, "data": self.data,
                "args": Phrase(self.text, self.args).to_json()["args"]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        """Read :meth:`to_json` (events stored before ``args`` existed load too: their
        ``text`` was already filled in). Raises KeyError, TypeError or ValueError."""
        text = str(data["text"])
        visible = data.get("visible_to")
        return cls(
            kind=str(data["kind"]), text=text,
            players=tuple(int(p) for p in data.get("players", ())),
            cells=tuple(str(c) for c in data.get("cells", ())),
            items=tuple(str(i) for i in data.get("items", ())),
            visible_to=None if visible is None else int(visible),
            data=dict(data.get("data") or {}),
            args=Phrase.from_json({"template": text, "args": data.get("args") or {}}).args,
        )


def player_name(seat: int, gettext: Gettext | None = None) -> str:
    """What a seat is called when no name is known: 'Player 2'."""
    return phrase(PLAYER, number=seat + 1).fill((), gettext)
