"""Continuous Pyramid in words (``render.describe``): the pyramid level by level from
the top, each row's tiles as runs from their first cell in the rules' notation
(``1:3,4 B5 C8``: B5 at 1:3,4, C8 beside it at 1:3,5), the face-up reserve and the
open cells each reserve tile fits, the stock's *size* (CP-3: its order is never
shown), tiles placed and undos. The game has no private hand: its hand picture is the
reserve, so the hand's words are the reserve's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.continuous_pyramid.tiles import tile_name
from engine.core.text import phrase
from i18n import Lang
from render.describe import SEP, names, row_text, seat_name, status

#: Tiles in a complete pyramid (CP-2).
TOTAL = 144
#: Fitting cells named per reserve tile before the rest are counted.
NAMED_FITS = 4


def describe_board(view: dict[str, Any], lang: Lang, detail: int) -> list[str]:
    """Told again with less detail, the reserve gives up what each tile fits (the hand's words keep it)
    before the rows give up their tiles."""
    who = names(view, lang)
    return [_status(view, who, lang), _counts(view, lang), _notes(view, lang), *_pyramid(view, lang, detail),
            _reserve(view, lang, 1 if detail == 0 else 3)]


def describe_hand(view: dict[str, Any], lang: Lang, detail: int) -> list[str]:
    who = names(view, lang)
    return [_status(view, who, lang), _reserve(view, lang, detail), _counts(view, lang)]


def _status(view: Mapping[str, Any], who: list[str], lang: Lang) -> str:
    pending = view.get("pending")
    fits = view.get("fits") or []
    if isinstance(pending, Mapping) and pending.get("kind") == "stuck":  # a loss an undo may still take back
        stuck = lang.tr("{name} is stuck: no reserve tile fits. Undo a play or give up.",
                        name=seat_name(who, pending.get("player"), lang))
        return f"{status(view, who, lang)} {stuck}".strip()
    if view.get("result") is None and fits and not any(fits):
        return lang.tr("{name} is stuck: no reserve tile fits. Undo a play or give up.",
                       name=seat_name(who, 0, lang))
    return status(view, who, lang)


def _counts(view: Mapping[str, Any], lang: Lang) -> str:
    placed = view.get("tiles_placed", len(view.get("pyramid") or {}))
    return lang.tr("Placed: {placed} of {total}. Stock: {stock} face down. Undos: {undos}.", placed=placed,
                   total=TOTAL, stock=view.get("stock", 0), undos=view.get("undos", 0))


def _notes(view: Mapping[str, Any], lang: Lang) -> str:
    notes = []
    if (view.get("options") or {}).get("edition") == 1:
        notes.append(lang.tr("Played under the first edition of the rules (the top sits on 3:1,1)."))
    if view.get("proven_winnable") is False:
        notes.append(lang.tr("This deal is not proven winnable."))
    return " ".join(notes)


def _pyramid(view: Mapping[str, Any], lang: Lang, detail: int) -> list[str]:
    levels: dict[int, dict[int, list[tuple[int, str, str]]]] = {}
    for cell, code in (view.get("pyramid") or {}).items():
        try:
            level_text, rest = str(cell).split(":")
            r, c = (int(n) for n in rest.split(","))
            level = int(level_text)
        except ValueError:
            continue
        levels.setdefault(level, {}).setdefault(r, []).append((c, str(cell), str(code)))
    if not levels:
        return [lang.tr("The pyramid is empty.")]
    lines = [lang.tr("The pyramid, top level first:")]
    for level in sorted(levels, reverse=True):
        rows = levels[level]
        count = sum(len(row) for row in rows.values())
        if detail >= 2:
            lines.append(lang.trn("Level {level}: {n} tile.", "Level {level}: {n} tiles.", count, level=level,
                                  n=count))
            continue
        runs = SEP.join(row_text(rows[r], with_cells=True) for r in sorted(rows))
        lines.append(lang.tr("Level {level}: {tiles}", level=level, tiles=runs))
    return lines


def _reserve(view: Mapping[str, Any], lang: Lang, detail: int) -> str:
    """The nine reserve slots, each tile named as its face shows it ("Circles 7", not ``O7``), and the
    open cells each fits: every cell at detail 0, the first few at 1, how many at 2, and only the
    tiles after that."""
    reserve = list(view.get("reserve") or [])
    fits = list(view.get("fits") or [])
    parts = []
    for i, code in enumerate(reserve):
        if code is None:
            parts.append(lang.tr("empty"))
            continue
        cells = [str(c) for c in fits[i]] if i < len(fits) and isinstance(fits[i], list) else []
        parts.append(_fits(tile_words(str(code), lang), cells, lang, detail))
    if not parts:
        return lang.tr("The reserve is empty.")
    return lang.tr("Reserve: {tiles}.", tiles=SEP.join(parts))


def _fits(code: str, cells: Sequence[str], lang: Lang, detail: int) -> str:
    if detail >= 3:
        return code
    if not cells:
        return lang.tr("{code} fits nowhere", code=code)
    if detail >= 2 or (detail == 1 and len(cells) > NAMED_FITS + 1):
        if detail == 1:
            shown = " ".join(cells[:NAMED_FITS])
            return lang.tr("{code} fits {cells} and {n} more", code=code, cells=shown, n=len(cells) - NAMED_FITS)
        return lang.trn("{code} fits {n} cell", "{code} fits {n} cells", len(cells), code=code, n=len(cells))
    return lang.tr("{code} fits {cells}", code=code, cells=" ".join(cells))


def tile_words(code: str, lang: Lang) -> str:
    """A tile as its face shows it, in the reader's language ("Circles 7", "Ostwind")."""
    return phrase("{tile}", tile=tile_name(code)).fill([], lang.gettext)
