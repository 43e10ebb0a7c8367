"""The outcome of a finished game, in one shape for every game."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Result:
    """``winners`` is empty for a solo loss and has several seats for a shared win.

    ``scores`` holds whatever the game ranks by (points, tiles left, tiles placed) and
    ``summary`` a sentence for the channel, with ``{0}``-style seat placeholders as in
    :class:`engine.core.events.Event`.
    """

    winners: tuple[int, ...]
    scores: tuple[float, ...] = ()
    summary: str = ""
    details: dict[str, float] = field(default_factory=dict)

    @property
    def winner(self) -> int | None:
        return self.winners[0] if len(self.winners) == 1 else None
