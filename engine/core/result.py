"""The outcome of a finished game, in one shape for every game, and its JSON.

:meth:`Result.to_json` is the one writer of result JSON: the bot stores it in its game
records and the games whose positions carry a result (Flaming Pyramids, Pyramido)
write it there, so :meth:`Result.from_json` is the one reader of both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import BadPosition
from engine.core.events import player_name
from engine.core.text import Gettext, Phrase

Json = dict[str, Any]


@dataclass(frozen=True)
class Result:
    """``winners`` is empty for a solo loss and has several seats for a shared win.

    ``scores`` holds whatever the game ranks by (points, tiles left, tiles placed) and
    ``summary`` a sentence for the channel in English, with ``{0}``-style seat
    placeholders as in :class:`engine.core.events.Event`. ``resigned`` names the seats
    whose leaving ended the game (see :meth:`engine.core.contract.Game.forfeit`).

    ``summary_text`` is the same sentence as a translatable template and its arguments
    (:class:`engine.core.text.Phrase`); the engine gives it and ``summary`` is then
    made from it. It does not count in comparisons, and :meth:`narrate` uses it only
    while ``summary`` still says what it says (a front end that replaces the summary
    with a sentence of its own gets that sentence back).
    """

    winners: tuple[int, ...]
    scores: tuple[float, ...] = ()
    summary: str = ""
    details: dict[str, float] = field(default_factory=dict)
    resigned: tuple[int, ...] = ()
    summary_text: Phrase | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.summary_text is not None and not self.summary:
            object.__setattr__(self, "summary", self.summary_text.english())

    @property
    def winner(self) -> int | None:
        return self.winners[0] if len(self.winners) == 1 else None

    def narrate(self, names: Sequence[str], gettext: Gettext | None = None) -> str:
        """The summary with ``names`` (by seat) filled in, translated by ``gettext`` when
        given; without it, ``summary.format(*names)`` as always."""
        text = self._text() or Phrase(self.summary)
        try:
            return text.fill(_Seats(names, gettext), gettext)
        except (IndexError, KeyError, ValueError):  # a front end's own sentence, with braces in a name
            return self.summary

    def _text(self) -> Phrase | None:
        """``summary_text`` while it still is the summary."""
        text = self.summary_text
        if text is None or text.english() != self.summary:
            return None
        return text

    def to_json(self, *, text: bool = False) -> Json:
        """``{"winners", "scores", "summary", "details"}``, plus ``"resigned"`` only when a
        seat resigned, so results that nobody resigned keep the shape stored before
        resignations were recorded.

        With ``text``, also ``"summary_text"`` (:meth:`Phrase.to_json`) when the summary
        has arguments to translate: views and positions carry it, so a picture or a
        reloaded game can tell the result in the reader's language. Stored results and
        game records keep the plain shape (readers that don't know the key read
        ``summary``; :meth:`from_json` reads it when it is there)."""
        data: Json = {
            "winners": list(self.winners),
            "scores": list(self.scores),
            "summary": self.summary,
            "details": dict(self.details),
        }
        if self.resigned:
            data["resigned"] = list(self.resigned)
        told = self._text() if text else None
        if told is not None and told.args:
            data["summary_text"] = told.to_json()
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
            summary_text=_summary_text(data.get("summary_text")),
        )


def _summary_text(value: Any) -> Phrase | None:
    if value is None:
        return None
    try:
        return Phrase.from_json(value)
    except ValueError as exc:
        raise BadPosition(f"result.summary_text is not a translatable text ({exc}).") from exc


class _Seats(Sequence[str]):
    """Names by seat; a seat without one is 'Player N'."""

    def __init__(self, names: Sequence[str], gettext: Gettext | None) -> None:
        self.names = names
        self.gettext = gettext

    def __len__(self) -> int:
        return len(self.names)

    def __getitem__(self, seat: Any) -> Any:
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return player_name(seat, self.gettext)


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
