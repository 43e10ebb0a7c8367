"""Pictures in words: the alt text of every picture the bot posts, and ``/pyramid
status text:true``.

A description is built from the same view as the picture, and says what the picture
shows: the game and move, who is to play (or the result), the pyramid row by row in
the rules files' notation, and the counts of what lies face down. Each game words its
position in ``render.<game>_text``, found through its :class:`render.Art`
(``describe_board``, ``describe_hand``); a game without them gets a generic sentence.

A board's description reads only what every seat may see, whichever view it is given:
the channel's alt text is never a way round the picture's hidden information. A hand's
description (a DM, ``/pyramid hand``) names what the viewing seat holds, as its
picture does.

Discord takes at most 1024 characters of alt text, so a description that is too long
is told again with less detail (the cells left out of the rows, then the rows
summarised), and as a last resort cut. Only ``engine`` and ``i18n`` are imported.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from engine.core import EngineError, Result, UnknownGame, get_game
from i18n import Lang, shared_texts
from render.art import Art, TextFn
from render.canvas import clean_name
from render.registry import art_of

#: Discord's limit for an attachment's description.
MAX_DESCRIPTION = 1024
#: Detail levels a game's words are asked for, fullest first.
DETAILS = (0, 1, 2)
#: Between the parts of a list read aloud (tiles of a row, players).
SEP = " · "


# --- the entry points -------------------------------------------------------------------
def describe_board(view: Mapping[str, Any], *, art: Art | None = None, lang: Lang | None = None,
                   labels: Mapping[str, str] | None = None, limit: int = MAX_DESCRIPTION) -> str:
    """The shared board in words, at most ``limit`` characters. ``labels`` are the
    button letters drawn on it (cell -> letter), named at full detail."""
    view = dict(view)
    art, lang = _art(view, art), lang_of(view, lang)
    lettered = _letters(labels or {}, lang)

    def lines(detail: int) -> list[str]:
        body = _call(art.describe_board, view, lang, detail)
        return [header(view, lang), *body, *(lettered if detail == 0 else [])]

    return fit(lines, limit)


def describe_hand(view: Mapping[str, Any], *, art: Art | None = None, lang: Lang | None = None,
                  limit: int = MAX_DESCRIPTION) -> str:
    """What the viewing seat (``view["seat"]``) holds, in words: for its owner only."""
    view = dict(view)
    art, lang = _art(view, art), lang_of(view, lang)
    return fit(lambda detail: [header(view, lang), *_call(art.describe_hand, view, lang, detail)], limit)


def describe_replay(view: Mapping[str, Any], *, moves: int, art: Art | None = None, lang: Lang | None = None,
                    limit: int = MAX_DESCRIPTION) -> str:
    """An animated replay of ``moves`` moves ending in the public ``view``: what it is,
    then its last picture in words."""
    lang = lang_of(dict(view), lang)
    lead = lang.trn("Animated replay, {n} move. The final position:",
                    "Animated replay, {n} moves. The final position:", moves, n=moves)
    return lead + "\n" + describe_board(view, art=art, lang=lang, limit=max(1, limit - len(lead) - 1))


def fit(lines: Callable[[int], list[str]], limit: int = MAX_DESCRIPTION) -> str:
    """The fullest of ``lines(detail)`` that fits ``limit`` characters, else the
    shortest cut to fit (with an ellipsis)."""
    text = ""
    for detail in DETAILS:
        text = "\n".join(line for line in lines(detail) if line)
        if len(text) <= limit:
            return text
    return text[: max(0, limit - 1)].rstrip() + "…"


# --- what every game's words share ---------------------------------------------------
def lang_of(view: Mapping[str, Any], lang: Lang | None) -> Lang:
    """The given language, else the view's (``view["lang"]``), else English."""
    return lang if lang is not None else shared_texts().lang(view.get("lang"))


def names(view: Mapping[str, Any], lang: Lang) -> list[str]:
    """The seats' names as the pictures print them ('Player 2' for a seat without one)."""
    players = view.get("players")
    count = players if isinstance(players, int) and players > 0 else 1
    raw = view.get("names")
    given = list(raw) if isinstance(raw, list | tuple) else []
    return [clean_name(given[i] if i < len(given) else None, lang.tr("Player {number}", number=i + 1))
            for i in range(count)]


def seat_name(who: Sequence[str], seat: object, lang: Lang) -> str:
    if isinstance(seat, int) and 0 <= seat < len(who):
        return who[seat]
    return lang.tr("someone")


def header(view: Mapping[str, Any], lang: Lang) -> str:
    """'Flaming Pyramids, game #12, move 20.'"""
    title = lang.gettext(game_title(str(view.get("game"))))
    number, move = view.get("game_number"), view.get("turn_number")
    move = move if isinstance(move, int) else 0
    if isinstance(number, int):
        return lang.tr("{title}, game #{number}, move {move}.", title=title, number=number, move=move)
    return lang.tr("{title}, move {move}.", title=title, move=move)


def game_title(game: str) -> str:
    """The registered game's title, else its id made readable ('pebble-pyramid' ->
    'Pebble Pyramid': a test's own game is not in the registry)."""
    try:
        return get_game(game).title
    except UnknownGame:
        return game.replace("-", " ").replace("_", " ").title()


def to_act(view: Mapping[str, Any]) -> int | None:
    seat = view.get("to_act")
    return seat if isinstance(seat, int) and view.get("result") is None else None


def status(view: Mapping[str, Any], who: Sequence[str], lang: Lang) -> str:
    """The result once the game is over, else who is to play."""
    if view.get("result") is not None:
        return result_text(view, who, lang)
    seat = to_act(view)
    if seat is None:
        return ""
    return lang.tr("{name} to play.", name=seat_name(who, seat, lang))


def result_text(view: Mapping[str, Any], who: Sequence[str], lang: Lang) -> str:
    """'Game over: Ana wins.' with the engine's summary in the reader's language."""
    data = view.get("result")
    if not isinstance(data, Mapping):
        return ""
    try:
        result = Result.from_json(data)
    except (EngineError, ValueError):
        return lang.tr("Game over.")
    narrate = getattr(result, "narrate", None)
    try:
        summary = str(narrate(list(who), lang.gettext)) if callable(narrate) else result.summary.format(*who)
    except (IndexError, KeyError, ValueError):
        summary = result.summary
    if summary:
        return lang.tr("Game over: {summary}", summary=summary)
    won = [seat_name(who, w, lang) for w in result.winners]
    if won:
        return lang.tr("Game over: {names} won.", names=", ".join(won))
    return lang.tr("Game over.")


def viewer(view: Mapping[str, Any]) -> int | None:
    seat = view.get("seat")
    return seat if isinstance(seat, int) else None


def row_text(cells: Iterable[tuple[int, str, str]], *, with_cells: bool) -> str:
    """One row of a pyramid: ``cells`` are (column, cell in notation, code). Tiles in
    touching columns form a run, written from its first cell rightwards
    ('1,0 R40 W20 · 1,3 G6'); without cells, only the runs' codes ('R40 W20 · G6')."""
    parts: list[str] = []
    run: list[str] = []
    last: int | None = None
    for col, cell, code in sorted(cells):
        if last is None or col != last + 1:
            if run:
                parts.append(" ".join(run))
            run = [cell, code] if with_cells else [code]
        else:
            run.append(code)
        last = col
    if run:
        parts.append(" ".join(run))
    return SEP.join(parts)


def counted(codes: Iterable[str]) -> str:
    """'R1 ×3, R2, Y3 ×2': codes with their counts, in order of first appearance."""
    counts = Counter(codes)
    return ", ".join(code if n == 1 else f"{code} ×{n}" for code, n in counts.items())


def listed(codes: Iterable[object], lang: Lang) -> str:
    """Codes one after another, or 'none'."""
    text = " ".join(str(c) for c in codes)
    return text or lang.tr("none")


# --- pieces ----------------------------------------------------------------------------
def _art(view: dict[str, Any], art: Art | None) -> Art:
    return art_of(view, art)


def _call(fn: TextFn | None, view: dict[str, Any], lang: Lang, detail: int) -> list[str]:
    """The game's words, or the generic sentence for a game without them."""
    if fn is None:
        return [status(view, names(view, lang), lang)]
    return fn(view, lang, detail)


def _letters(labels: Mapping[str, str], lang: Lang) -> list[str]:
    if not labels:
        return []
    spots = SEP.join(f"{letter} {cell}" for cell, letter in sorted(labels.items(), key=lambda kv: kv[1]))
    return [lang.tr("Letters on the board: {spots}.", spots=spots)]


__all__ = [
    "DETAILS",
    "MAX_DESCRIPTION",
    "SEP",
    "counted",
    "describe_board",
    "describe_hand",
    "describe_replay",
    "fit",
    "game_title",
    "header",
    "lang_of",
    "listed",
    "names",
    "result_text",
    "row_text",
    "seat_name",
    "status",
    "to_act",
    "viewer",
]
