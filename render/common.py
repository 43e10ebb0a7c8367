"""Reading the parts of a view every game shares (seats, turn, result, events), so
each game module only deals with its own position keys. The words come in the
view's language (:mod:`render.words`)."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

from engine.core import BadPosition, Event, Result
from engine.core.text import Phrase, and_list
from i18n import N_, Lang
from render.canvas import names_of
from render.words import lang as lang_of


def visible_events(view: dict[str, Any], events: Sequence[Event] | None) -> list[Event]:
    """Only what the viewer may see: a public board must never show a private draw."""
    seat = view.get("seat")
    return [e for e in events or () if isinstance(e, Event) and e.visible(seat if isinstance(seat, int) else None)]


def narrate(event: Event, names: Sequence[str], lang: Lang | None = None) -> str:
    """An event's story line, in ``lang`` when given."""
    try:
        return event.narrate(names, lang.gettext if lang is not None else None)
    except (IndexError, KeyError, ValueError):
        return event.text


def summary_text(result: dict[str, Any], names: Sequence[str], lang: Lang) -> str:
    """A result's summary with the names filled in ('{1} wins' -> 'Ana wins'), in ``lang``."""
    try:
        return Result.from_json(result).narrate(names, lang.gettext)
    except (BadPosition, KeyError, TypeError, ValueError):
        summary = str(result.get("summary") or "")
        with contextlib.suppress(IndexError, KeyError, ValueError):
            summary = summary.format(*names)
        return summary


def result_text(view: dict[str, Any]) -> str:
    """The result's summary with names filled in ('{1} wins' -> 'Ana wins')."""
    result = view.get("result")
    if not isinstance(result, dict):
        return ""
    words = lang_of(view)
    names = names_of(view)
    summary = summary_text(result, names, words)
    winners = [names[w] for w in result.get("winners") or () if isinstance(w, int) and 0 <= w < len(names)]
    if summary and provisional(result):
        return words.tr("Not over yet: {summary}", summary=summary)
    if summary:
        return words.tr("Game over: {summary}", summary=summary)
    if len(winners) > 1:
        joined = and_list(winners, commas=False)  # "Ana and Bo and Cy"
        names_text = joined.fill((), words.gettext) if isinstance(joined, Phrase) else str(joined)
        return words.tr("Game over: {names} win", names=names_text)
    if winners:
        return words.tr("Game over: {name} wins", name=winners[0])
    return words.gettext("Game over")


def provisional(result: dict[str, Any]) -> bool:
    """A result that a move can still take back (a stuck solitaire that may undo: its
    ``details["final"]`` is 0), so the picture must not say "Game over"."""
    details = result.get("details")
    return isinstance(details, dict) and details.get("final") == 0.0


def winners(view: dict[str, Any]) -> set[int]:
    result = view.get("result")
    if not isinstance(result, dict):
        return set()
    return {w for w in result.get("winners") or () if isinstance(w, int)}


def to_act(view: dict[str, Any]) -> int | None:
    seat = view.get("to_act")
    return seat if isinstance(seat, int) and view.get("result") is None else None


#: The header's status while a seat is to play (``{name}``: the seat's name).
TO_PLAY = N_("{name} to play")


def status_line(view: dict[str, Any], names: Sequence[str], doing: str = TO_PLAY, **args: object) -> str:
    """The header's status: the result once the game is over, else ``doing`` (a msgid
    with ``{name}``, the seat to act, and ``args``) in the view's language; empty while
    no named seat is to act."""
    if view.get("result") is not None:
        return result_text(view)
    acting = to_act(view)
    if acting is None or acting >= len(names):
        return ""
    return lang_of(view).tr(doing, name=names[acting], **args)


def turn_text(view: dict[str, Any]) -> str:
    number = view.get("turn_number")
    return lang_of(view).tr("Move {number}", number=number) if isinstance(number, int) else ""


def game_number(view: dict[str, Any]) -> int | None:
    number = view.get("game_number")
    return number if isinstance(number, int) else None


def viewer(view: dict[str, Any]) -> int | None:
    seat = view.get("seat")
    return seat if isinstance(seat, int) else None
