"""Pyramido: each pyramid level by level, side by side (level 1 large on the left,
the upper levels beside it), with the quarry, reserves, hands and bag.

Everything drawn comes from the view, and the public board draws only what every
seat may see: pyramids, quarry, reserves, stones out, the bag's size and colour
counts, the PD-6 tallies and, in solo/co-op, every player's stones in hand, which
lie open (PD-4, second edition). The lettered cells are :func:`public_spots`: the
cells the player to act can build on with stones everyone sees, so two positions
that differ only in the bag's order draw the same picture.

Levels are drawn as separate grids rather than stacked because a stone's colour
rule depends on the 2×2 square beneath it, which a top view would hide. Each upper
level's grid is the part of the level-1 footprint it can cover, so the empty slots
show how much is still to build.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.core import Event
from engine.pyramido import legal_cells, open_cells
from i18n import N_, Lang
from render import canvas as cv
from render import layout as lo
from render import outline as ol
from render import pyramido_text as words
from render import shapes as sh
from render.art import Art
from render.canvas import RGB, Box
from render.common import game_number, status_line, to_act, turn_text, viewer, visible_events, winners
from render.labels import spot_labels
from render.layout import Chip
from render.words import lang as lang_of

TITLE = "Pyramido"
ACCENT: RGB = (200, 150, 40)
WIDTH = 960
#: The smallest words: legible at phone width (render.canvas.legible).
SMALL = cv.legible(WIDTH)
STONE_COLOURS: dict[str, RGB] = {
    "R": (235, 77, 19), "Y": (242, 192, 30), "G": (12, 150, 101), "B": (34, 79, 195), "W": (244, 244, 240),
}  # fmt: skip
STONE_SYMBOLS: dict[str, str] = {"R": "triangle", "Y": "star", "G": "circle", "B": "square", "W": "diamond"}
COLOUR_WORDS: dict[str, str] = {"R": N_("red"), "Y": N_("yellow"), "G": N_("green"), "B": N_("blue"),
                                 "W": N_("white")}
#: The words of a reader who named no language (pieces drawn without a view).
ENGLISH = Lang("en")
TOTALS = {3: 14, 4: 30, 5: 55}

Cell = tuple[int, int, int]


def _parse(cell: str) -> Cell | None:
    try:
        level, rest = cell.split(":", 1)
        x, y = rest.split(",", 1)
        return int(level), int(x), int(y)
    except ValueError:
        return None


@lru_cache(maxsize=128)
def stone_sprite(colour: str, size: int) -> Image.Image:
    return cv.supersample(size, size, lambda img, d, s: _paint_stone(d, colour, size * s, s))


def _paint_stone(d: ImageDraw.ImageDraw, colour: str, w: float, s: int) -> None:
    fill = STONE_COLOURS.get(colour, (150, 150, 150))
    lip = w * 0.07
    radius = int(w * 0.16)
    edge = cv.shade(fill, 0.55) if colour != "W" else (150, 146, 136)
    d.rounded_rectangle((0, lip, w - 1, w - 1), radius, fill=edge)
    d.rounded_rectangle((0, 0, w - 1, w - 1 - lip), radius, fill=fill, outline=cv.shade(fill, 0.4) if colour != "W"
                        else (110, 106, 96), width=max(2, int(w * 0.035)))
    # a soft highlight along the top edge for a stone-like bevel
    d.rounded_rectangle((w * 0.1, w * 0.08, w * 0.9, w * 0.2), int(w * 0.06), fill=cv.shade(fill, 1.25))
    mark_fill = cv.WHITE if colour != "W" else (60, 60, 64)
    mark_edge = cv.shade(fill, 0.35) if colour != "W" else (60, 60, 64)
    sh.symbol(d, STONE_SYMBOLS.get(colour, "circle"), (w / 2, w * 0.52), w * 0.27, mark_fill, mark_edge,
              max(2, int(w * 0.03)))


@dataclass
class Level:
    level: int
    x0: int
    y0: int
    w: int
    h: int


def _levels(pyramid: dict[str, str], size: int, extra: Sequence[str]) -> list[Level]:
    """The grid to draw for each level: placed stones, open/labelled cells, and for
    upper levels the part of the level-1 footprint they will cover."""
    cells = [c for c in (_parse(k) for k in [*pyramid, *extra]) if c is not None]
    base = [(x, y) for lv, x, y in cells if lv == 1] or [(0, 0)]
    fx0, fy0 = min(x for x, _ in base), min(y for _, y in base)
    fx1, fy1 = max(x for x, _ in base), max(y for _, y in base)
    placed1 = [(x, y) for lv, x, y in (c for c in (_parse(k) for k in pyramid) if c is not None) if lv == 1]
    if placed1:
        px0, py0 = min(x for x, _ in placed1), min(y for _, y in placed1)
        px1, py1 = max(x for x, _ in placed1), max(y for _, y in placed1)
    else:
        px0, py0, px1, py1 = fx0, fy0, fx1, fy1
    out = [Level(1, fx0, fy0, fx1 - fx0 + 1, fy1 - fy0 + 1)]
    for level in range(2, size + 1):
        mine = [(x, y) for lv, x, y in cells if lv == level]
        # the footprint a full base would have: the placed base grown to `size`
        span = size - level + 1
        x0 = min([px0, *(x for x, _ in mine)])
        y0 = min([py0, *(y for _, y in mine)])
        w = max([span if px1 - px0 + 1 >= size else max(1, px1 - px0 + 2 - level), *(x - x0 + 1 for x, _ in mine)])
        h = max([span if py1 - py0 + 1 >= size else max(1, py1 - py0 + 2 - level), *(y - y0 + 1 for _, y in mine)])
        out.append(Level(level, x0, y0, min(w, span + 2), min(h, span + 2)))
    return out


def _place_levels(levels: list[Level], cell: int, width: int,
                  lang: Lang = ENGLISH) -> tuple[list[tuple[float, float]], int, int]:
    """Level 1 at the left; the others flow in rows to its right (or below it, when
    there is no room), top-aligned. Returns origins and the used size."""
    gap, caption = 22, 30
    origins: list[tuple[float, float]] = []
    l1 = levels[0]
    origins.append((0, caption))
    label_w = int(cv.text_width(lang.tr("Level {level}", level=5), cv.font(SMALL, True))) + 6
    l1_w = max(l1.w * cell, label_w)  # a small level 1's caption is wider than its stones
    right_x = l1_w + gap
    x, y, row_h = right_x, 0.0, 0
    used_w, used_h = l1_w, l1.h * cell + caption
    for lv in levels[1:]:
        w, h = max(lv.w * cell, label_w), lv.h * cell + caption
        if x + w > width and x > right_x:
            x, y = right_x, y + row_h + 10
            row_h = 0
        if x + w > width:  # no room beside level 1 at all: go below it
            right_x = 0
            x, y = 0, max(used_h, y + row_h) + 10
        origins.append((x, y + caption))
        row_h = max(row_h, h)
        used_w = max(used_w, int(x + w))
        used_h = max(used_h, int(y + h))
        x += w + gap
    return origins, used_w, used_h


def pyramid_panel(pyramid: dict[str, str], size: int, width: int, labels: dict[str, str], last: Sequence[str],
                  title: str, detail: str, active: bool, max_cell: int = 72, side: Image.Image | None = None,
                  show_open: bool = True, outlined: Collection[str] = (), lang: Lang = ENGLISH) -> Image.Image:
    """One player's (or the team's) pyramid as a framed panel ``width`` px wide;
    ``outlined``: its cells changed since the viewer's turn (``render.outline``);
    ``lang``: the language of its level captions."""
    cells = {k: v for k, v in pyramid.items() if _parse(k) is not None}
    structural = open_cells(cells, size) if show_open and _parse_all(cells) else []
    extra = [*labels, *structural]
    levels = _levels(cells, size, extra)
    inner = width - 28
    cell = max_cell
    while cell > 28:
        _, used_w, _ = _place_levels(levels, cell, inner, lang)
        if used_w <= inner:
            break
        cell -= 2
    origins, used_w, used_h = _place_levels(levels, cell, inner, lang)
    # The title and the detail share a line when both fit whole, else the detail
    # goes under the title (tallies, missing stones and names are never cut).
    detail_f = cv.font(SMALL)
    detail_w = cv.text_width(detail, detail_f)
    title_f = cv.fit_font(title, max(24, SMALL), width - 42 - detail_w, bold=True, min_size=SMALL)
    line_h = round(SMALL * 1.3)
    if cv.text_width(title, title_f) + detail_w + 14 <= width - 28:
        title_lines, detail_y, top = [title], 28.0, 50
    else:
        title_f, title_lines = cv.fit_lines(title, max(24, SMALL), width - 28, True, SMALL, 2)
        detail_y = 28 + len(title_lines) * line_h
        top = int(detail_y + line_h + 14)
    side_h = side.height + 10 if side is not None else 0
    height = top + used_h + 16 + side_h
    img = Image.new("RGB", (width, height), cv.PANEL)
    d = cv.draw(img)
    d.rounded_rectangle((0, 0, width - 1, height - 1), 14, fill=cv.PANEL,
                        outline=cv.ACTIVE if active else cv.PANEL_EDGE, width=4 if active else 2)
    for i, line in enumerate(title_lines):
        d.text((14, 28 + i * line_h), line, font=title_f, fill=cv.INK, anchor="lm")
    d.text((width - 14, detail_y), detail, font=detail_f, fill=cv.MUTED, anchor="rm")
    left = 14 + (inner - used_w) / 2
    for lv, (ox, oy) in zip(levels, origins, strict=True):
        ox += left
        oy += top
        cv.static_text(img, (ox, oy - 8), lang.tr("Level {level}", level=lv.level), SMALL, True, cv.MUTED, "ls")
        for gy in range(lv.h):
            for gx in range(lv.w):
                name = f"{lv.level}:{lv.x0 + gx},{lv.y0 + gy}"
                box: Box = (ox + gx * cell + 2, oy + gy * cell + 2, ox + (gx + 1) * cell - 2, oy + (gy + 1) * cell - 2)
                colour = cells.get(name)
                if colour is not None:
                    cv.paste(img, stone_sprite(colour, cell - 4), box[0], box[1])
                    if name in last:
                        cv.last_ring(d, box, radius=int(cell * 0.16), width=4)
                elif name in labels:
                    cv.spot_slot(img, box, labels[name], radius=int(cell * 0.14))
                elif name in structural:
                    cv.dashed_rect(d, box, (150, 160, 180), width=2, dash=6, gap=5)
                else:
                    d.rounded_rectangle(box, int(cell * 0.14), fill=(226, 215, 195))
                if name in outlined:
                    ol.draw(d, box, gone=colour is None)
    if side is not None:
        cv.place(img, side, (14, height - side.height - 12))
    return img


def _parse_all(cells: dict[str, str]) -> bool:
    """The engine helper wants well-formed cells and known colours only."""
    return all(_parse(k) is not None and v in STONE_COLOURS for k, v in cells.items())


def stone_row(stones: Sequence[str], size: int, width: int, caption: str, empty: str = "none") -> Image.Image:
    """A captioned row of stones (hand, reserve, quarry)."""
    f = cv.font(SMALL, True)
    cap_w = int(cv.text_width(caption, f)) + 14
    h = max(size, 30) + 8
    img = Image.new("RGB", (width, h), cv.PANEL)
    d = cv.draw(img)
    cv.static_text(img, (0, h / 2), caption, SMALL, True, cv.INK, "lm")
    x = cap_w
    for s in stones:
        if x + size > width:
            d.text((x, h / 2), "…", font=f, fill=cv.MUTED, anchor="lm")
            break
        cv.paste(img, stone_sprite(s, size), x, (h - size) / 2)
        x += size + 6
    if not stones:
        d.text((x, h / 2), empty, font=cv.font(SMALL), fill=cv.MUTED, anchor="lm")
    return img


def _size(view: dict[str, Any]) -> int:
    size = view.get("size")
    return size if isinstance(size, int) and size > 0 else 5


def _competitive(view: dict[str, Any]) -> bool:
    return view.get("mode") == "competitive"


def _missing(pyramid: dict[str, str], size: int) -> int:
    return max(0, TOTALS.get(size, sum(k * k for k in range(1, size + 1))) - len(pyramid))


def tally_text(view: dict[str, Any], seat: int) -> str:
    """A seat's PD-6 tallies, "1 plus · 5 minus", or "" outside the several-rounds game.
    Both are shown since the ranking takes minus points first and plus points only on
    a tie (second edition): a net figure would mislead."""
    if not _competitive(view) or int(view.get("rounds") or 1) <= 1:
        return ""
    plus = list(view.get("plus") or [])
    minus = list(view.get("minus") or [])
    if seat >= len(plus) or seat >= len(minus):
        return ""
    return lang_of(view).tr("{plus} plus · {minus} minus", plus=plus[seat], minus=minus[seat])


def _chips(view: dict[str, Any], names: list[str]) -> list[Chip]:
    pyramids = list(view.get("pyramids") or [])
    size = _size(view)
    hands = list(view.get("hands") or [])
    reserves = list(view.get("reserves") or [])
    acting = to_act(view)
    won = winners(view)
    lang = lang_of(view)
    chips = []
    for seat, name in enumerate(names):
        you = lang.gettext(" (you)") if viewer(view) == seat else ""
        if _competitive(view):
            pyr = pyramids[seat] if seat < len(pyramids) else {}
            res = len(reserves[seat]) if seat < len(reserves) else 0
            tally = tally_text(view, seat)
            # The tallies first: they matter most (a narrow chip wraps the line).
            missing = lang.tr("missing {count}", count=_missing(pyr, size))
            detail = f"{tally} · {missing}" if tally else f"{missing} · " + lang.tr("reserve {count}", count=res)
        else:
            hand = hands[seat] if seat < len(hands) else 0
            n = hand if isinstance(hand, int) else len(hand)
            detail = lang.trn("{count} stone in hand", "{count} stones in hand", n, count=n)
        chips.append(Chip(name + you, detail, seat == acting, seat in won))
    return chips


def _status(view: dict[str, Any], names: list[str]) -> str:
    pending = view.get("pending")
    if isinstance(pending, dict) and pending.get("kind") == "placing":
        return status_line(view, names, N_("{name} is placing stones ({count} placed this turn)"),
                           count=pending.get("placed", 0))
    return status_line(view, names)


def _right_text(view: dict[str, Any]) -> str:
    lang = lang_of(view)
    parts = [lang.tr("Bag {count}", count=view.get("bag", 0))]
    rounds = int(view.get("rounds") or 1)
    if rounds > 1:
        parts.append(lang.tr("Round {round}/{rounds}", round=view.get("round", 1), rounds=rounds))
    parts.append(turn_text(view))
    return " · ".join(p for p in parts if p)


def _mode_title(view: dict[str, Any]) -> str:
    mode = str(view.get("mode") or "")
    return f"{TITLE} · {lang_of(view).gettext(mode)}" if mode else TITLE


def draw_board(view: dict[str, Any], labels: dict[str, str], events: Sequence[Event]) -> Image.Image:
    names = cv.names_of(view)
    shown = visible_events(view, events)
    # competitive cell names repeat across players' pyramids: keep who built where
    last_by_seat: dict[int | None, list[str]] = {}
    for e in shown:
        if e.kind in {"place", "take", "build"} and e.cells:
            owner = e.players[0] if e.players and _competitive(view) else None
            last_by_seat.setdefault(owner, []).append(e.cells[0])
    pyramids = [dict(p) for p in view.get("pyramids") or [] if isinstance(p, dict)] or [{}]
    size = _size(view)
    acting = to_act(view)
    sections: list[Image.Image | None] = []
    inner = WIDTH - 2 * cv.MARGIN
    lang = lang_of(view)
    if _competitive(view):
        reserves = list(view.get("reserves") or [])
        panels = []
        two_up = len(pyramids) > 2
        pw = (inner - 16) // 2 if two_up else inner
        for seat, pyr in enumerate(pyramids):
            side = stone_row([str(s) for s in (reserves[seat] if seat < len(reserves) else [])], 34, pw - 28,
                             lang.gettext("Reserve:"), lang.gettext("none"))
            tally = tally_text(view, seat)
            missing = lang.tr("missing {count}", count=_missing(pyr, size))
            panels.append(pyramid_panel(
                pyr, size, pw, labels if seat == acting else {}, last_by_seat.get(seat, []),
                names[seat] if seat < len(names) else lang.tr("Player {number}", number=seat + 1),
                f"{tally} · {missing}" if tally else missing,
                seat == acting, max_cell=64 if not two_up else 56, side=side, show_open=seat == acting,
                outlined=ol.cells(view, seat, per_seat=True), lang=lang,
            ))
        sections.append(_quarry(view))
        sections.append(_grid(panels, 2 if two_up else 1))
    else:
        pyr = pyramids[0]
        title = lang.gettext("The team's pyramid") if len(names) > 1 else lang.gettext("Your pyramid")
        detail = lang.tr("{placed}/{total} stones · missing {count}", placed=len(pyr), total=TOTALS.get(size, 55),
                         count=_missing(pyr, size))
        panel = pyramid_panel(pyr, size, inner, labels, last_by_seat.get(None, []), title, detail, False,
                              outlined=ol.cells(view), lang=lang)
        sections.append(_grid([panel], 1))
        sections.append(open_hands(view, names, lang.gettext("Stones in hand (open to all)") if len(names) > 1 else
                                   lang.gettext("Stones in hand")))
        sections.append(_bag_row(view))
    header = lo.header(WIDTH, _mode_title(view), game_number(view), _right_text(view), _chips(view, names), ACCENT,
                       _status(view, names))
    return lo.stack([header, *sections, _legend(lang)], WIDTH)


def _grid(panels: Sequence[Image.Image], columns: int) -> Image.Image:
    rows = [panels[i:i + columns] for i in range(0, len(panels), columns)]
    heights = [max(p.height for p in row) for row in rows]
    img = Image.new("RGB", (WIDTH, sum(heights) + 14 * len(rows) + 10), cv.BG)
    y = 14
    for row, h in zip(rows, heights, strict=True):
        x = cv.MARGIN
        for p in row:
            cv.place(img, p, (x, y))
            x += p.width + 16
        y += h + 14
    return img


def _quarry(view: dict[str, Any]) -> Image.Image:
    lang = lang_of(view)
    row = stone_row([str(s) for s in view.get("quarry") or []], 56, 560, lang.gettext("Quarry:"),
                    empty=lang.gettext("empty"))
    bag = lang.tr("bag: {bag} · out: {out}", bag=view.get("bag", 0), out=len(view.get("out") or []))
    inner = WIDTH - 2 * cv.MARGIN
    # the counts right of the stones, or under them when they would meet
    quarry = view.get("quarry") or []
    used = min(row.width, cv.text_width(lang.gettext("Quarry:"), cv.font(SMALL, True)) + 14 + 62 * max(1, len(quarry)))
    below = 14 + used + 20 + cv.text_width(bag, cv.font(SMALL)) > inner - 14
    extra = round(SMALL * 1.4) if below else 0
    bg = Image.new("RGB", (inner, row.height + 16 + extra), cv.PANEL)
    d = cv.draw(bg)
    d.rounded_rectangle((0, 0, bg.width - 1, bg.height - 1), 14, fill=cv.PANEL, outline=cv.PANEL_EDGE, width=2)
    cv.place(bg, row, (14, 8))
    d.text((bg.width - 14, (bg.height - extra) / 2 + extra), bag, font=cv.font(SMALL), fill=cv.MUTED, anchor="rm")
    img = Image.new("RGB", (WIDTH, 84 + extra), cv.BG)
    cv.place(img, bg, (cv.MARGIN, 12))
    return img


def open_hands(view: dict[str, Any], names: list[str], title: str, skip: int | None = None) -> Image.Image:
    """Every solo/co-op player's stones (but ``skip``'s), one row each, in a panel:
    hands lie open in front of each player (PD-4, second edition), so the team plans
    on the board. A hand the view gives only as a count (an older view) is written as
    that count."""
    acting = to_act(view)
    hands = [(seat, hand) for seat, hand in enumerate(view.get("hands") or []) if seat != skip]
    stone, row_h, top = 34, 44, 44
    inner = WIDTH - 2 * cv.MARGIN
    name_font = cv.font(SMALL, True)
    lang = lang_of(view)
    shown = [names[seat] if seat < len(names) else lang.tr("Player {number}", number=seat + 1)
             for seat, _hand in hands]
    name_w = min(math.ceil(max((cv.text_width(n, name_font) for n in shown), default=0)) + 18, inner // 3)
    # a name too long for its column goes on over two lines, never cut
    name_lines = [cv.wrap_words(n, name_font, name_w - 12) for n in shown]
    line_h = round(SMALL * 1.2)
    heights = [max(row_h, len(lines) * line_h + 10) for lines in name_lines] or [row_h]
    panel = Image.new("RGB", (inner, top + sum(heights) + 8), cv.PANEL)
    d = cv.draw(panel)
    d.rounded_rectangle((0, 0, panel.width - 1, panel.height - 1), 14, fill=cv.PANEL, outline=cv.PANEL_EDGE, width=2)
    cv.static_text(panel, (14, 24), title, SMALL, True, cv.INK, "lm")
    y = top
    for row, (seat, hand) in enumerate(hands):
        mid = y + heights[row] / 2
        y += heights[row]
        for i, line in enumerate(name_lines[row]):
            d.text((14, mid + (i - (len(name_lines[row]) - 1) / 2) * line_h), line, font=name_font,
                   fill=cv.INK if seat == acting else cv.MUTED, anchor="lm")
        x = 14 + name_w
        if not isinstance(hand, list):
            count = hand if isinstance(hand, int) else 0
            d.text((x, mid), lang.trn("{count} stone", "{count} stones", count, count=count), font=cv.font(SMALL),
                   fill=cv.MUTED, anchor="lm")
            continue
        if not hand:
            d.text((x, mid), lang.gettext("no stones"), font=cv.font(SMALL), fill=cv.MUTED, anchor="lm")
            x += round(cv.text_width(lang.gettext("no stones"), cv.font(SMALL))) + 6
        for colour in hand:
            cv.paste(panel, stone_sprite(str(colour), stone), x, mid - stone / 2)
            x += stone + 6
        if seat == acting:
            d.text((x + 8, mid), lang.gettext("to play"), font=cv.font(SMALL), fill=cv.MUTED, anchor="lm")
    img = Image.new("RGB", (WIDTH, panel.height + 8), cv.BG)
    cv.place(img, panel, (cv.MARGIN, 0))
    return img


def _bag_row(view: dict[str, Any]) -> Image.Image:
    """The bag's colour counts, and the stones out of the game right of them, or under
    them when they would meet."""
    unseen = view.get("unseen") if isinstance(view.get("unseen"), dict) else {}
    f = cv.font(SMALL)
    lang = lang_of(view)
    # The bag is the only hidden thing; its colour counts (not its order) are public.
    bag = int(view.get("bag", 0) or 0)
    caption = lang.trn("Bag: {count} stone ·", "Bag: {count} stones ·", bag, count=bag)
    counts = [unseen.get(colour, 0) if isinstance(unseen, dict) else 0 for colour in STONE_COLOURS]
    out = lang.tr("out of the game: {count}", count=len(view.get("out") or []))
    end = cv.MARGIN + cv.text_width(caption, cv.font(SMALL, True)) + 12 + sum(
        34 + cv.text_width(str(n), f) + 18 for n in counts)
    below = end + 12 + cv.text_width(out, f) > WIDTH - cv.MARGIN
    img = Image.new("RGB", (WIDTH, 44 + (round(SMALL * 1.4) if below else 0)), cv.BG)
    d = cv.draw(img)
    x = cv.MARGIN
    d.text((x, 22), caption, font=cv.font(SMALL, True), fill=cv.INK, anchor="lm")
    x += int(cv.text_width(caption, cv.font(SMALL, True))) + 12
    for colour, n in zip(STONE_COLOURS, counts, strict=True):
        cv.paste(img, stone_sprite(colour, 28), x, 8)
        d.text((x + 34, 22), str(n), font=f, fill=cv.INK, anchor="lm")
        x += 34 + round(cv.text_width(str(n), f)) + 18
    d.text((WIDTH - cv.MARGIN, img.height - 22), out, font=f, fill=cv.MUTED, anchor="rm")
    return img


def _legend(lang: Lang = ENGLISH) -> Image.Image:
    img = Image.new("RGB", (WIDTH, 46), cv.BG)
    d = cv.draw(img)
    x = cv.MARGIN
    f = cv.font(SMALL)
    for colour, msgid in COLOUR_WORDS.items():
        word = lang.gettext(msgid)
        sh.symbol(d, STONE_SYMBOLS[colour], (x + 11, 23), 11, STONE_COLOURS[colour], cv.INK, 2)
        cv.static_text(img, (x + 26, 23), word, SMALL, False, cv.INK, "lm")
        x += 26 + int(cv.text_width(word, f)) + 18
    cv.static_text(img, (WIDTH - cv.MARGIN, 23), lang.gettext("no 2×2 of four colours"), SMALL, False, cv.MUTED, "rm")
    return img


# --- the hand ------------------------------------------------------------------------
def public_spots(view: dict[str, Any]) -> list[str]:
    """The cells the player to act may build on now, from public facts only: the
    stones they may use (their open hand in solo/co-op; the quarry and their reserve
    in competitive play) through the engine's own ``legal_cells``. These are exactly
    the cells in the legal moves, so ``spot_labels`` gives the same letters as the
    buttons; and since they never touch the bag, a spectator's view gives the same
    cells as the mover's own."""
    seat = to_act(view)
    if seat is None:
        return []
    pyramids = list(view.get("pyramids") or [])
    if _competitive(view):
        reserves = list(view.get("reserves") or [])
        usable = [*(view.get("quarry") or []), *(reserves[seat] if seat < len(reserves) else [])]
        pyr = pyramids[seat] if seat < len(pyramids) else {}
    else:
        hands = list(view.get("hands") or [])
        hand = hands[seat] if seat < len(hands) else []
        usable = list(hand) if isinstance(hand, list) else []
        pyr = pyramids[0] if pyramids else {}
    if not isinstance(pyr, dict) or not _parse_all(pyr):
        return []
    size = _size(view)
    cells: dict[str, None] = {}
    for colour in sorted({str(c) for c in usable if str(c) in STONE_COLOURS}):
        cells.update(dict.fromkeys(legal_cells(pyr, size, colour)))
    return list(cells)


def viewer_spots(view: dict[str, Any]) -> list[str]:
    """The cells the viewer may build on now, when it is their turn (else none)."""
    seat = viewer(view)
    if seat is None or to_act(view) != seat:
        return []
    return public_spots(view)


def draw_hand(view: dict[str, Any]) -> Image.Image:
    names = cv.names_of(view)
    seat = viewer(view)
    lang = lang_of(view)
    who = names[seat] if seat is not None and seat < len(names) else lang.gettext("Spectator")
    sections: list[Image.Image | None] = []
    inner = WIDTH - 2 * cv.MARGIN
    labels = spot_labels(viewer_spots(view))
    pyramids = list(view.get("pyramids") or [])
    size = _size(view)
    if _competitive(view):
        reserves = list(view.get("reserves") or [])
        mine = [str(s) for s in reserves[seat]] if seat is not None and seat < len(reserves) else []
        sections.append(_big_stones(lang.tr("{name}'s reserve", name=who), mine, inner,
                                    lang.gettext("empty (up to 5)"), lang))
        sections.append(_big_stones(lang.gettext("Quarry (shared)"), [str(s) for s in view.get("quarry") or []],
                                    inner, lang.gettext("empty"), lang))
        pyr = dict(pyramids[seat]) if seat is not None and seat < len(pyramids) and isinstance(
            pyramids[seat], dict) else {}
        title = lang.gettext("Your pyramid")
    else:
        hands = list(view.get("hands") or [])
        mine = [str(s) for s in hands[seat]] if seat is not None and seat < len(hands) and isinstance(
            hands[seat], list) else []
        sections.append(_big_stones(lang.tr("{name}'s stones", name=who), mine, inner,
                                    lang.gettext("no stones in hand"), lang))
        if len(hands) > 1:
            title = (lang.gettext("Teammates' stones (open to all)") if seat is not None
                     else lang.gettext("Stones in hand (open to all)"))
            sections.append(open_hands(view, names, title, skip=seat))
        pyr = dict(pyramids[0]) if pyramids and isinstance(pyramids[0], dict) else {}
        title = lang.gettext("The team's pyramid") if len(names) > 1 else lang.gettext("Your pyramid")
    if seat is not None:
        sections.append(_grid([pyramid_panel(pyr, size, inner, labels, [], title,
                                             lang.tr("missing {count}", count=_missing(pyr, size)),
                                             False, max_cell=56, lang=lang)], 1))
    if not _competitive(view):
        sections.append(_bag_row(view))
    header = lo.header(WIDTH, _mode_title(view), game_number(view), _right_text(view), _chips(view, names), ACCENT,
                       _hand_status(view, seat, names, bool(labels)))
    return lo.stack([header, *sections, _legend(lang)], WIDTH)


def _hand_status(view: dict[str, Any], seat: int | None, names: list[str], lettered: bool) -> str:
    if seat is not None and view.get("result") is None and to_act(view) == seat:
        lang = lang_of(view)
        if lettered:
            return lang.gettext("Your turn: the lettered cells match the buttons")
        return lang.gettext("Your turn")
    return _status(view, names)


def _big_stones(title: str, stones: list[str], width: int, empty: str, lang: Lang = ENGLISH) -> Image.Image:
    size = 96
    per_row = max(1, (width + 16) // (size + 16))
    rows = -(-len(stones) // per_row)
    img = Image.new("RGB", (WIDTH, 52 + rows * (size + 40) + 6 if stones else 60), cv.BG)
    d = cv.draw(img)
    lo.section_title(img, (cv.MARGIN, 38), title, size=26, fill=cv.INK)
    if not stones:
        title_px = max(26, cv.legible(img.width))  # as lo.section_title draws it
        d.text((cv.MARGIN + cv.text_width(title, cv.font(title_px, True)) + 16, 38), empty, font=cv.font(SMALL),
               fill=cv.MUTED, anchor="ls")
    for i, s in enumerate(stones):
        r, k = divmod(i, per_row)
        x = cv.MARGIN + k * (size + 16)
        y = 52 + r * (size + 40)
        cv.paste(img, stone_sprite(s, size), x, y)
        word = lang.gettext(COLOUR_WORDS[s]) if s in COLOUR_WORDS else s
        cv.static_text(img, (x + size / 2, y + size + 18), word, SMALL, True, cv.INK)
    return img


ART = Art("pyramido", draw_board, draw_hand, palette="pyramido.rgb", public_spots=public_spots,
          describe_board=words.describe_board, describe_hand=words.describe_hand)
