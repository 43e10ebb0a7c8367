"""Flaming Pyramids in words (``render.describe``): the pyramid row by row from the
top, in the rules' notation (``Row 1: 1,0 R40 W20``: R40 at 1,0 and W20 beside it at
1,1), the open spaces, a pending fall, each player's hand and pile *sizes* and the
tiles out of the game. A player's own hand is named only in the hand's words, for its
owner's DM (FP-8: hands are private, every pile face down even to its owner).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.text import Phrase
from engine.flaming_pyramids.tiles import TILE
from i18n import N_, Lang
from render.describe import SEP, listed, names, result_text, row_text, seat_name, status, to_act, viewer

#: A tile's kind or material, as the hand's words name it.
KINDS = {"straw": N_("straw"), "wood": N_("wood"), "stone": N_("stone"), "coal": N_("coal"),
         "blowtorch": N_("blowtorch"), "millstone": N_("millstone")}


def describe_board(view: dict[str, Any], lang: Lang, detail: int) -> list[str]:
    """From public keys only (hand *sizes*, not hands), whichever seat's view it is."""
    who = names(view, lang)
    return [_status(view, who, lang), *_pyramid(view, lang, detail), _spaces(view, lang, detail),
            _counts(view, who, lang), _removed(view, lang, detail), _rules(view, lang)]


def describe_hand(view: dict[str, Any], lang: Lang, detail: int) -> list[str]:
    who = names(view, lang)
    seat = viewer(view)
    hands = view.get("hands") or []
    hand = [str(c) for c in hands[seat]] if seat is not None and seat < len(hands) and isinstance(
        hands[seat], list) else []
    piles = view.get("piles") or []
    pile = piles[seat] if seat is not None and seat < len(piles) and isinstance(piles[seat], int) else 0
    tiles = ", ".join(tile_words(code, lang) if detail < 2 else tile_name(code, lang) for code in hand)
    return [
        _hand_status(view, seat, who, lang),
        lang.tr("Your hand: {tiles}.", tiles=tiles) if hand else lang.tr("Your hand is empty."),
        lang.trn("Your pile: {n} tile face down.", "Your pile: {n} tiles face down.", pile, n=pile),
        _counts(view, who, lang),
        _removed(view, lang, detail),
    ]


def _status(view: Mapping[str, Any], who: list[str], lang: Lang) -> str:
    fall = _fall(view)
    if fall is not None and view.get("result") is None:
        player, tile, _left, _right = fall
        # which way, as the card's buttons say (⬅ left, right ➡): the notation's cells are on no picture (#43)
        return lang.tr("{name} chooses where {tile} falls: left or right.", name=seat_name(who, player, lang),
                       tile=tile_name(tile, lang))
    return status(view, who, lang)


def _hand_status(view: Mapping[str, Any], seat: int | None, who: list[str], lang: Lang) -> str:
    if view.get("result") is not None:
        return result_text(view, who, lang)
    fall = _fall(view)
    if fall is not None and fall[0] == seat:
        return lang.tr("Your choice: {tile} falls left or right.", tile=tile_name(fall[1], lang))
    if seat is not None and to_act(view) == seat and fall is None:
        return lang.tr("Your turn: play a tile to an open space.")
    return _status(view, who, lang)


def _fall(view: Mapping[str, Any]) -> tuple[int | None, str, str, str] | None:
    """The pending fall: who chooses, the tile, and where each answer lands."""
    pending, falling = view.get("pending"), view.get("falling")
    if not isinstance(pending, Mapping) or pending.get("kind") != "fall" or not isinstance(falling, Mapping):
        return None
    player = pending.get("player")
    return (player if isinstance(player, int) else None, str(falling.get("tile", "")),
            str(falling.get("left", "")), str(falling.get("right", "")))


def _pyramid(view: Mapping[str, Any], lang: Lang, detail: int) -> list[str]:
    rows: dict[int, list[tuple[int, str, str]]] = {}
    for cell, code in (view.get("pyramid") or {}).items():
        try:
            r, c = (int(n) for n in str(cell).split(","))
        except ValueError:
            continue
        rows.setdefault(r, []).append((c, str(cell), str(code)))
    if not rows:
        return [lang.tr("The pyramid is empty.")]
    count = sum(len(row) for row in rows.values())
    top = max(rows)
    if detail >= 2:
        return [lang.trn("The pyramid: {n} tile in rows 0 to {top}.", "The pyramid: {n} tiles in rows 0 to {top}.",
                         count, n=count, top=top),
                lang.tr("Row {row} (the top): {tiles}.", row=top, tiles=row_text(rows[top], with_cells=True))]
    lines = [lang.trn("The pyramid, {n} tile, top row first:", "The pyramid, {n} tiles, top row first:", count,
                      n=count)]
    for r in sorted(rows, reverse=True):
        lines.append(lang.tr("Row {row}: {tiles}", row=r, tiles=row_text(rows[r], with_cells=detail == 0)))
    return lines


def _spaces(view: Mapping[str, Any], lang: Lang, detail: int) -> str:
    spaces = [str(c) for c in view.get("open_spaces") or []]
    if not spaces or detail >= 2 or view.get("result") is not None:
        return ""
    return lang.tr("Open spaces: {cells}.", cells=SEP.join(spaces))


def _counts(view: Mapping[str, Any], who: list[str], lang: Lang) -> str:
    sizes = view.get("hand_sizes") or [h if isinstance(h, int) else len(h) for h in view.get("hands") or []]
    piles = view.get("piles") or []
    parts = []
    for seat, name in enumerate(who):
        hand = sizes[seat] if seat < len(sizes) else 0
        pile = piles[seat] if seat < len(piles) else 0
        parts.append(lang.tr("{name}: {hand} in hand, {pile} in pile", name=name, hand=hand, pile=pile))
    return SEP.join(parts) + "."


def _removed(view: Mapping[str, Any], lang: Lang, detail: int) -> str:
    removed = [str(t) for t in view.get("removed") or []]
    if not removed:
        return ""
    if detail >= 2:
        return lang.trn("{n} tile out of the game.", "{n} tiles out of the game.", len(removed), n=len(removed))
    return lang.tr("Out of the game: {tiles}.", tiles=listed(removed, lang))


def _rules(view: Mapping[str, Any], lang: Lang) -> str:
    options = view.get("options") or {}
    parts = []
    if options.get("curse"):
        parts.append(lang.tr("The curse rule is on."))
    limit = options.get("turn_limit")
    if isinstance(limit, int):
        parts.append(lang.trn("The game ends after {n} turn.", "The game ends after {n} turns.", limit, n=limit))
    return " ".join(parts)


def tile_name(code: str, lang: Lang) -> str:
    """A tile as the picture shows it and the narration names it, in ``lang``: its colour's word and
    its weight ("Yellow 60", "Coal Green 1", "Millstone 200"), never the notation's code ("Y60"),
    whose letter another language reads as another colour (G is Gelb in German)."""
    tile = TILE.get(code)
    if tile is None:
        return code
    name = tile.name()
    return name.fill([], lang.gettext) if isinstance(name, Phrase) else str(name)


def tile_words(code: str, lang: Lang) -> str:
    """A tile with what it is made of ("Yellow 100 stone"); a special tile's name says what it is
    ("Coal Yellow 1"). The hand picture's captions and the hand's alt text."""
    tile = TILE.get(code)
    if tile is None:
        return code
    name = tile_name(code, lang)
    return f"{name} {lang.gettext(KINDS[tile.material])}" if tile.kind == "regular" and tile.material in KINDS \
        else name
