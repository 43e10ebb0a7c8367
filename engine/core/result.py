"""The outcome of a finished game, in one shape for every game, and its JSON.

:meth:`Result.to_json` is the one writer of result JSON: the bot stores it in its game
records and the games whose positions carry a result (Flaming Pyramids, Pyramido)
write it there, so :meth:`Result.from_json` is the one reader of both.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import BadPosition

Json = dict[str, Any]


@dataclass(frozen=True)
class Result:
    """``winners`` is empty for a solo loss and has several seats for a shared win.

    ``scores`` holds whatever the game ranks by (points, tiles left, tiles placed) and
    ``summary`` a sentence for the channel, with ``{0}``-style seat placeholders as in
    :class:`engine.core.events.Event`. ``resigned`` names the seats whose leaving ended
    the game (see :meth:`engine.core.contract.Game.forfeit`).
    """

    winners: tuple[int, ...]
    scores: tuple[float, ...] = ()
    summary: str = ""
    details: dict[str, float] = field(default_factory=dict)
    resigned: tuple[int, ...] = ()

    @property
    def winner(self) -> int | None:
        return self.winners[0] if len(self.winners) == 1 else None

    def to_json(self) -> Json:
        """``{"winners", "scores", "summary", "details"}``, plus ``"resigned"`` only when a
        seat resigned, so results that nobody resigned keep the shape stored before
        resignations were recorded."""
        data: Json = {
            "winners": list(self.winners),
            "scores": list(self.scores),
            "summary": self.summary,
            "details": dict(self.details),
        }
        if self.resigned:
            data["resigned"] = list(self.resigned)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Result:
        """Read any result JSON written so far: only ``winners`` is required (older
        records and hand-written positions may leave the rest out; detail values may
        be whole numbers). Raises :class:`BadPosition` naming what is wrong."""
        if not isinstance(data, Mapping):
            raise BadPosition("A result must be an object with 'winners', 'scores' and 'summary'.")
        summary = data.get("summary", "")
        if not isinstance(summary, str):
            raise BadPosition(f"result.summary must be text, not {summary!r}.")
        details = data.get("details") or {}
        if not isinstance(details, Mapping) or not all(_is_number(v) for v in details.values()):
            raise BadPosition("result.details must map names to numbers.")
        return cls(
            winners=_seats(data.get("winners"), "winners"),
            scores=tuple(float(s) for s in _numbers(data.get("scores") or [], "scores")),
            summary=summary,
            details={str(k): float(v) for k, v in details.items()},
            resigned=_seats(data.get("resigned") or [], "resigned"),
        )


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _numbers(value: Any, key: str) -> list[Any]:
    if not isinstance(value, list) or not all(_is_number(v) for v in value):
        raise BadPosition(f"result.{key} must be a list of numbers.")
    return value


def _seats(value: Any, key: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0
                                              for v in value):
        raise BadPosition(f"result.{key} must be a list of seats (whole numbers from 0).")
    return tuple(value)
