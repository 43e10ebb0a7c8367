"""The story of a board card shown again after a move was taken back (``bot.store.undos``
queues it with ``{"undone": {"seat": …}}`` in its row): one line saying who took their move
back, in place of the moves since the last card (that card showed the move taken back)."""

from __future__ import annotations

from typing import Any

from engine.core import Event
from i18n import N_

TAKEN_BACK = N_("↩ {0} took back their move.")


def taken_back(undone: Any) -> list[Event]:
    """The card's story for a row's ``undone`` payload (nothing for a damaged one)."""
    seat = undone.get("seat") if isinstance(undone, dict) else None
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        return []
    return [Event("undo", TAKEN_BACK, players=(seat,))]
