"""Pyrinoes in words (``render.describe``): the line of play from its left open end to
its right (dominoes by their spots, ``5-3``; a pyrino by its ends in words, "yellow 2+1 · red 1",
never ``Y21|R1``; a pyramid by its colour and size, "red 3", never ``R3``), the two open ends,
scores and target, each side's supply, built pyrinoes and hand *size*, the green
pyramids and the boneyard's size. Domino hands and the boneyard are hidden (PY-7): a
player's own dominoes are named only in the hand's words, for its owner.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.text import Phrase
from engine.pyrinoes.pieces import parse_pyramid, piece_name, pyramid_words
from i18n import Lang
from render.describe import SEP, counted, listed, names, result_text, status, to_act, viewer

#: Pieces named at each end of a long line in the summary.
LINE_ENDS = 3


def describe_board(view: dict[str, Any], lang: Lang, detail: int) -> list[str]:
    """From public keys only (hand *sizes*, not hands), whichever seat's view it is."""
    who = names(view, lang)
    return [status(view, who, lang), _ends(view, lang), _scores(view, who, lang), _line(view, lang, detail),
            *(_side(view, who, seat, lang, detail) for seat in range(min(2, len(who)))), _middle(view, lang, detail)]


def describe_hand(view: dict[str, Any], lang: Lang, detail: int) -> list[str]:
    who = names(view, lang)
    seat = viewer(view)
    hands = view.get("hands") or []
    hand = [str(p) for p in hands[seat]] if seat is not None and seat < len(hands) and isinstance(
        hands[seat], list) else []
    built = _built(view, seat)
    supply = _supply(view, seat)
    if view.get("result") is not None:
        state = result_text(view, who, lang)
    elif seat is not None and to_act(view) == seat:
        state = lang.tr("Your turn.")
    else:
        state = status(view, who, lang)
    return [
        state,
        _ends(view, lang),
        lang.tr("Your dominoes ({n}): {pieces}.", n=len(hand), pieces=listed(hand, lang)),
        lang.tr("Your built pyrinoes: {pieces}.", pieces=_pieces(built, lang)),
        lang.tr("Your supply: {pyramids}.", pyramids=_pyramids(supply, lang) or lang.tr("none")),
        _scores(view, who, lang),
        _line(view, lang, max(detail, 1)),
    ]


def _ends(view: Mapping[str, Any], lang: Lang) -> str:
    ends = view.get("open_ends") or []
    if len(ends) != 2 or view.get("result") is not None:
        return ""
    return lang.tr("Open ends: {left} on the left, {right} on the right.", left=ends[0], right=ends[1])


def _scores(view: Mapping[str, Any], who: list[str], lang: Lang) -> str:
    scores = list(view.get("scores") or [])
    sides = [str(s) for s in view.get("sides") or []]
    parts = []
    for seat, name in enumerate(who[:2]):
        side = lang.gettext(sides[seat]) if seat < len(sides) else ""
        score = scores[seat] if seat < len(scores) else 0
        parts.append(lang.tr("{name} ({side}) {score}", name=name, side=side, score=score) if side
                     else f"{name} {score}")
    target = (view.get("options") or {}).get("target", 100)
    return lang.tr("Round {round}, playing to {target}. Scores: {scores}.", round=view.get("round", 1),
                   target=target, scores=SEP.join(parts))


def _piece(code: str, lang: Lang) -> str:
    """A domino by its spots (``6-4``), a pyrino by its ends in words ("blue 3+2 · black 3+1")."""
    name = piece_name(code)
    return name.fill([], lang.gettext) if isinstance(name, Phrase) else str(name)


def _pyramids(codes: list[str], lang: Lang) -> str:
    """Pyramids by colour and size with their counts ("red 3 ×2, yellow 1"), never ``R3 ×2, Y1``."""
    found = [pyramid_words(c[0], int(c[1:])).fill([], lang.gettext) if parse_pyramid(c) else c for c in codes]
    return counted(found)


def _pieces(codes: list[str], lang: Lang) -> str:
    """Pieces one after another (commas between them once a pyrino's words are among them), or 'none'."""
    if not codes:
        return listed(codes, lang)
    words = [_piece(c, lang) for c in codes]
    return (", " if any("|" in c for c in codes) else " ").join(words)


def _line(view: Mapping[str, Any], lang: Lang, detail: int) -> str:
    line = [str(p) for p in view.get("line") or []]
    if not line:
        return lang.tr("The line of play is empty.")
    if detail >= 2 and len(line) > 2 * LINE_ENDS:
        return lang.trn("The line of play, {n} piece: {first} … {last}.",
                        "The line of play, {n} pieces: {first} … {last}.", len(line), n=len(line),
                        first=_pieces(line[:LINE_ENDS], lang), last=_pieces(line[-LINE_ENDS:], lang))
    return lang.tr("The line of play, left to right: {pieces}.", pieces=_pieces(line, lang))


def _side(view: Mapping[str, Any], who: list[str], seat: int, lang: Lang, detail: int) -> str:
    sizes = view.get("hand_sizes") or [h if isinstance(h, int) else len(h) for h in view.get("hands") or []]
    hand = sizes[seat] if seat < len(sizes) else 0
    built, supply = _built(view, seat), _supply(view, seat)
    if detail >= 2:
        return lang.tr("{name}: {hand} in hand, {built} pyrinoes built, {supply} pyramids in supply.",
                       name=who[seat], hand=hand, built=len(built), supply=len(supply))
    return lang.tr("{name}: {hand} in hand; built: {built}; supply: {supply}.", name=who[seat], hand=hand,
                   built=_pieces(built, lang), supply=_pyramids(supply, lang) or lang.tr("none"))


def _middle(view: Mapping[str, Any], lang: Lang, detail: int) -> str:
    green = [str(g) for g in view.get("green") or []]
    boneyard = view.get("boneyard", 0)
    boneyard = boneyard if isinstance(boneyard, int) else len(boneyard or [])
    greens = _pyramids(green, lang) if detail < 2 else str(len(green))
    return lang.tr("Green pyramids in the middle: {green}. Boneyard: {n} face down.",
                   green=greens or lang.tr("none"), n=boneyard)


def _built(view: Mapping[str, Any], seat: int | None) -> list[str]:
    built = view.get("pyrinoes") or []
    return [str(p) for p in built[seat]] if seat is not None and seat < len(built) and isinstance(
        built[seat], list) else []


def _supply(view: Mapping[str, Any], seat: int | None) -> list[str]:
    supply = view.get("supply") or []
    return [str(p) for p in supply[seat]] if seat is not None and seat < len(supply) and isinstance(
        supply[seat], list) else []
