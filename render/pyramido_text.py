"""Pyramido in words (``render.describe``): each pyramid level by level from the top,
each row's stones as runs from their first cell in the rules' notation (``1:1,2 W B
B``: W at 1:1,2, then B at 1:2,2 and 1:3,2), the stones in hand (open in solo and
co-op, PD-4), the quarry and reserves (competitive, PD-5), the round's tallies, and the
bag's *size* and colour counts (only its order is hidden).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from i18n import N_, Lang
from render.describe import SEP, listed, names, row_text, seat_name, status, to_act, viewer

#: Stones in a complete pyramid, by base size (PD-4, PD-5).
TOTALS = {3: 14, 4: 30, 5: 55}
STONE_COLOURS = "RYGBW"
MODES = {"solo": N_("Solo game"), "coop": N_("Co-op game"), "competitive": N_("Competitive game")}


def describe_board(view: dict[str, Any], lang: Lang, detail: int) -> list[str]:
    who = names(view, lang)
    lines = [_mode(view, lang), _status(view, who, lang)]
    pyramids = [p for p in view.get("pyramids") or [] if isinstance(p, Mapping)] or [{}]
    if _competitive(view):  # each player's pyramid with their reserve and points, so names are said once
        reserves = list(view.get("reserves") or [])
        for seat, pyramid in enumerate(pyramids):
            reserve = reserves[seat] if seat < len(reserves) and isinstance(reserves[seat], list) else []
            extra = " ".join(t for t in (lang.tr("Reserve: {stones}.", stones=listed(reserve, lang)),
                                         _tally(view, seat, lang)) if t)
            lines += _pyramid(pyramid, _size(view), lang, detail,
                              lang.tr("{name}'s pyramid", name=seat_name(who, seat, lang)), extra)
        lines.append(_quarry(view, lang))
    else:
        lines += _pyramid(pyramids[0], _size(view), lang, detail, lang.tr("The pyramid"))
        lines.append(_hands(view, who, lang, skip=None))
    lines.append(_bag(view, lang, detail))
    return lines


def describe_hand(view: dict[str, Any], lang: Lang, detail: int) -> list[str]:
    who = names(view, lang)
    seat = viewer(view)
    lines = [_mode(view, lang), _hand_status(view, seat, who, lang)]
    pyramids = [p for p in view.get("pyramids") or [] if isinstance(p, Mapping)] or [{}]
    if _competitive(view):
        reserves = list(view.get("reserves") or [])
        mine = reserves[seat] if seat is not None and seat < len(reserves) else []
        lines += [lang.tr("Your reserve: {stones}.", stones=listed(mine, lang)), _quarry(view, lang)]
        if seat is not None and seat < len(pyramids):
            lines += _pyramid(pyramids[seat], _size(view), lang, detail, lang.tr("Your pyramid"),
                              _tally(view, seat, lang))
    else:
        hands = list(view.get("hands") or [])
        mine = hands[seat] if seat is not None and seat < len(hands) and isinstance(hands[seat], list) else []
        lines.append(lang.tr("Your stones: {stones}.", stones=listed(mine, lang)))
        if len(hands) > 1:
            lines.append(_hands(view, who, lang, skip=seat))
        lines += _pyramid(pyramids[0], _size(view), lang, detail, lang.tr("The pyramid"))
        lines.append(_bag(view, lang, detail))
    return lines


def _competitive(view: Mapping[str, Any]) -> bool:
    return view.get("mode") == "competitive"


def _size(view: Mapping[str, Any]) -> int:
    size = view.get("size")
    return size if isinstance(size, int) and size > 0 else 5


def _mode(view: Mapping[str, Any], lang: Lang) -> str:
    mode = MODES.get(str(view.get("mode")))
    size = _size(view)
    text = lang.tr("{mode}, base {size}×{size}.", mode=lang.gettext(mode), size=size) if mode else ""
    rounds = view.get("rounds")
    if isinstance(rounds, int) and rounds > 1:
        text += " " + lang.tr("Round {round} of {rounds}.", round=view.get("round", 1), rounds=rounds)
    return text


def _status(view: Mapping[str, Any], who: list[str], lang: Lang) -> str:
    pending = view.get("pending")
    if isinstance(pending, Mapping) and pending.get("kind") == "placing" and view.get("result") is None:
        placed = pending.get("placed", 0)
        return lang.tr("{name} is placing stones ({n} placed this turn).",
                       name=seat_name(who, pending.get("player"), lang), n=placed)
    return status(view, who, lang)


def _hand_status(view: Mapping[str, Any], seat: int | None, who: list[str], lang: Lang) -> str:
    if seat is not None and view.get("result") is None and to_act(view) == seat:
        return lang.tr("Your turn.")
    return _status(view, who, lang)


def _pyramid(pyramid: Mapping[str, Any], size: int, lang: Lang, detail: int, title: str,
             extra: str = "") -> list[str]:
    """``title``'s pyramid (then ``extra``), top level first, each row (same level and
    y) as runs along x."""
    levels: dict[int, dict[int, list[tuple[int, str, str]]]] = {}
    for cell, colour in pyramid.items():
        try:
            level_text, rest = str(cell).split(":")
            x, y = (int(n) for n in rest.split(","))
            level = int(level_text)
        except ValueError:
            continue
        levels.setdefault(level, {}).setdefault(y, []).append((x, str(cell), str(colour)))
    total = TOTALS.get(size, sum(k * k for k in range(1, size + 1)))
    count = len(pyramid)
    head = " ".join(t for t in (lang.tr("{title}: {n} of {total} stones.", title=title, n=count, total=total),
                                extra) if t)
    if not levels or detail >= 2:
        counts = SEP.join(lang.tr("level {level}: {n}", level=level, n=sum(len(r) for r in levels[level].values()))
                          for level in sorted(levels, reverse=True))
        return [f"{head} {counts}".strip()]
    lines = [head]
    for level in sorted(levels, reverse=True):
        rows = levels[level]
        runs = SEP.join(row_text(rows[y], with_cells=detail == 0) for y in sorted(rows))
        lines.append(lang.tr("Level {level}: {stones}", level=level, stones=runs))
    return lines


def _hands(view: Mapping[str, Any], who: list[str], lang: Lang, *, skip: int | None) -> str:
    """Solo and co-op hands lie open (PD-4, second edition)."""
    parts = []
    for seat, hand in enumerate(view.get("hands") or []):
        if seat == skip:
            continue
        stones = listed(hand, lang) if isinstance(hand, list) else str(hand)
        parts.append(f"{seat_name(who, seat, lang)}: {stones}")
    if not parts:
        return ""
    return lang.tr("Stones in hand (open to all): {hands}.", hands=SEP.join(parts))


def _quarry(view: Mapping[str, Any], lang: Lang) -> str:
    return lang.tr("Quarry: {stones}.", stones=listed(view.get("quarry") or [], lang))


def _tally(view: Mapping[str, Any], seat: int | None, lang: Lang) -> str:
    """A seat's PD-6 plus and minus points, in a game of several rounds."""
    rounds = view.get("rounds")
    plus, minus = list(view.get("plus") or []), list(view.get("minus") or [])
    if seat is None or not isinstance(rounds, int) or rounds <= 1 or seat >= min(len(plus), len(minus)):
        return ""
    return lang.tr("Points: {plus} plus, {minus} minus.", plus=plus[seat], minus=minus[seat])


def _bag(view: Mapping[str, Any], lang: Lang, detail: int) -> str:
    bag = view.get("bag", 0)
    bag = bag if isinstance(bag, int) else len(bag or [])
    unseen = view.get("unseen")
    text = lang.trn("Bag: {n} stone face down.", "Bag: {n} stones face down.", bag, n=bag)
    if isinstance(unseen, Mapping) and detail < 2:
        counts = " ".join(f"{c} {unseen.get(c, 0)}" for c in STONE_COLOURS)
        text += " " + lang.tr("Not seen yet: {counts}.", counts=counts)
    out = [str(s) for s in view.get("out") or []]
    if out:
        text += " " + (lang.tr("Out of the game: {stones}.", stones=" ".join(out)) if detail < 1 else
                       lang.trn("{n} stone out of the game.", "{n} stones out of the game.", len(out), n=len(out)))
    return text
