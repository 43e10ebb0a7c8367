"""Reading the parts of a view every game shares (seats, turn, result, events), so
each game module only deals with its own position keys."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

from engine.core import Event
from render.canvas import names_of


def visible_events(view: dict[str, Any], events: Sequence[Event] | None) -> list[Event]:
    """Only what the viewer may see: a public board must never show a private draw."""
    seat = view.get("seat")
    return [e for e in events or () if isinstance(e, Event) and e.visible(seat if isinstance(seat, int) else None)]


def narrate(event: Event, names: Sequence[str]) -> str:
    try:
        return event.narrate(names)
    except (IndexError, KeyError, ValueError):
        return event.text


def result_text(view: dict[str, Any]) -> str:
    """The result's summary with names filled in ('{1} wins' -> 'Ana wins')."""
    result = view.get("result")
    if not isinstance(result, dict):
        return ""
    names = names_of(view)
    summary = str(result.get("summary") or "")
    with contextlib.suppress(IndexError, KeyError, ValueError):
        summary = summary.format(*names)
    winners = [names[w] for w in result.get("winners") or () if isinstance(w, int) and 0 <= w < len(names)]
    if summary:
        return "Game over: " + summary
    if winners:
        return "Game over: " + " and ".join(winners) + (" win" if len(winners) > 1 else " wins")
    return "Game over"


def winners(view: dict[str, Any]) -> set[int]:
    result = view.get("result")
    if not isinstance(result, dict):
        return set()
    return {w for w in result.get("winners") or () if isinstance(w, int)}


def to_act(view: dict[str, Any]) -> int | None:
    seat = view.get("to_act")
    return seat if isinstance(seat, int) and view.get("result") is None else None


def status_line(view: dict[str, Any], names: Sequence[str], doing: str = "to play") -> str:
    """The header's status: the result once the game is over, else the name of the seat
    to act and what it is ``doing``; empty while no named seat is to act."""
    if view.get("result") is not None:
        return result_text(view)
    acting = to_act(view)
    if acting is None or acting >= len(names):
        return ""
    return f"{names[acting]} {doing}"


def turn_text(view: dict[str, Any]) -> str:
    number = view.get("turn_number")
    return f"Move {number}" if isinstance(number, int) else ""


def game_number(view: dict[str, Any]) -> int | None:
    number = view.get("game_number")
    return number if isinstance(number, int) else None


def viewer(view: dict[str, Any]) -> int | None:
    seat = view.get("seat")
    return seat if isinstance(seat, int) else None
