"""Lines a board card tells besides the engine's story (issue #41), as events.

- A card shown again after a move was taken back (``bot.store.undos`` queues it with
  ``{"undone": {"seat": …}}`` in its row): one line saying who took their move back, in
  place of the moves since the last card (that card showed the move taken back).
- A move the bot made for its player (``SessionService.make_move(note=…)``): a line before
  the move's own story, stored with its events, so every card that tells the move says so."""

from __future__ import annotations

from typing import Any, Literal

from engine.core import Event
from i18n import N_

TAKEN_BACK = N_("↩ {0} took back their move.")
#: How the bot made a move for its player (``move_notes.note``).
MoveNote = Literal["auto", "forecast"]
NOTES: dict[str, str] = {
    "auto": N_("🤖 {0}: auto: the only move."),
    "forecast": N_("🔮 {0}: played as forecast."),
}


def made_for(note: MoveNote | None, seat: int) -> list[Event]:
    """The line for a move the bot made for ``seat`` (nothing for one the player made)."""
    return [] if note is None else [Event(f"note_{note}", NOTES[note], players=(seat,))]


def taken_back(undone: Any) -> list[Event]:
    """The card's story for a row's ``undone`` payload (nothing for a damaged one)."""
    seat = undone.get("seat") if isinstance(undone, dict) else None
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        return []
    return [Event("undo", TAKEN_BACK, players=(seat,))]
