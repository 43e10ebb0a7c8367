"""Pyrinoes: the line of play as a snake (rows turn at the edges, like a domino line
on a table), each player's supply and built pyrinoes, the green pool, the
boneyard, and scores in the header.

Pieces in a row drawn right-to-left are flipped, so touching halves always match;
the two open ends carry ◀ / ▶ tags with their spot counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from engine.core import Event
from engine.pyrinoes.pieces import COLOUR_NAMES
from i18n import N_, Lang
from render import canvas as cv
from render import layout as lo
from render import outline as ol
from render import pyrinoes_text as words
from render.art import Art
from render.canvas import RGB, Box
from render.common import game_number, narrate, status_line, to_act, turn_text, viewer, visible_events, winners
from render.dominoes import PYRAMID_COLOURS, piece_ends, piece_sprite, pyramid_sprite
from render.layout import Chip
from render.words import lang as lang_of

TITLE = "Pyrinoes"
ACCENT: RGB = (196, 70, 60)
WIDTH = 960
#: The smallest words: legible at phone width (render.canvas.legible).
SMALL = cv.legible(WIDTH)
LINE_UNIT = 56
SMALL_UNIT = 56
DEFAULT_COLOURS = (("R", "Y"), ("B", "K"))
DEFAULT_SIDES = ("Fire", "Ice")
ROUND_EVENTS = {"round-end", "hand-totals", "score", "scores", "win", "round-start"}


def _colours(view: dict[str, Any]) -> list[tuple[str, str]]:
    raw = view.get("colours")
    if isinstance(raw, list) and len(raw) == 2 and all(isinstance(c, list) and len(c) == 2 for c in raw):
        return [(str(c[0]), str(c[1])) for c in raw]
    return [DEFAULT_COLOURS[0], DEFAULT_COLOURS[1]]


def _sides(view: dict[str, Any]) -> list[str]:
    """The seats' sides ("Fire", "Ice"), in the view's language."""
    raw = view.get("sides")
    sides = [str(s) for s in raw] if isinstance(raw, list) and len(raw) == 2 else list(DEFAULT_SIDES)
    lang = lang_of(view)
    return [lang.gettext(s) for s in sides]


def _chips(view: dict[str, Any], names: list[str]) -> list[Chip]:
    scores = list(view.get("scores") or [0, 0])
    hands = list(view.get("hand_sizes") or [h if isinstance(h, int) else len(h) for h in view.get("hands") or []])
    built = list(view.get("pyrinoes") or [[], []])
    target = (view.get("options") or {}).get("target", 100)
    colours = _colours(view)
    sides = _sides(view)
    acting = to_act(view)
    won = winners(view)
    lang = lang_of(view)
    chips = []
    for seat, name in enumerate(names[:2]):
        score = scores[seat] if seat < len(scores) else 0
        hand = hands[seat] if seat < len(hands) else 0
        nbuilt = len(built[seat]) if seat < len(built) else 0
        you = lang.gettext(" (you)") if viewer(view) == seat else ""
        chips.append(Chip(
            f"{name}{you} · {sides[seat]}",
            lang.tr("score {score}/{target} · {dominoes} · {built} built", score=score, target=target,
                    dominoes=_dominoes(hand, lang), built=nbuilt),
            seat == acting, seat in won,
            tuple(PYRAMID_COLOURS.get(c, (150, 150, 150)) for c in colours[seat]),
        ))
    return chips


def _dominoes(n: int, lang: Lang) -> str:
    return lang.trn("{count} domino", "{count} dominoes", n, count=n)


def _status(view: dict[str, Any], names: list[str]) -> str:
    ends = view.get("open_ends") or []
    if len(ends) == 2:
        return status_line(view, names, N_("{name} to play · open ends {left} and {right}"), left=ends[0],
                           right=ends[1])
    return status_line(view, names)


def _right_text(view: dict[str, Any]) -> str:
    rnd = view.get("round")
    move = turn_text(view)
    return lang_of(view).tr("Round {round} · {move}", round=rnd, move=move) if rnd is not None else move


def _last_indexes(events: Sequence[Event], line_len: int) -> list[int]:
    """Where this batch's plays now sit in the line (left plays shift the others)."""
    found: list[int] = []
    for e in events:
        if e.kind == "round-start":
            found = []
        if e.kind != "play":
            continue
        side = e.data.get("side") if isinstance(e.data, dict) else None
        index = e.data.get("index") if isinstance(e.data, dict) else None
        if index is None and e.cells and e.cells[0].startswith("line:"):
            try:
                index = int(e.cells[0].split(":", 1)[1])
            except ValueError:
                index = None
        if side == "left" or index == 0:
            found = [i + 1 for i in found] + [0]
        elif isinstance(index, int):
            found.append(index)
    return [i for i in found if 0 <= i < line_len]


def draw_board(view: dict[str, Any], labels: dict[str, str], events: Sequence[Event]) -> Image.Image:
    names = cv.names_of(view)
    shown = visible_events(view, events)
    line = [str(p) for p in view.get("line") or []]
    last = _last_indexes(shown, len(line))
    line_img = _line_section(view, line, last)
    players = _players_section(view, names)
    lang = lang_of(view)
    lines = [narrate(e, names, lang) for e in shown if e.kind in ROUND_EVENTS - {"round-start"}]
    footer = lo.footer_lines(WIDTH, lines, lang.gettext("Round over")) if lines else None
    header = lo.header(WIDTH, TITLE, game_number(view),
                       _right_text(view), _chips(view, names), ACCENT, _status(view, names))
    return lo.stack([header, line_img, players, footer], WIDTH)


def _line_section(view: dict[str, Any], line: list[str], last: list[int]) -> Image.Image:
    unit = LINE_UNIT
    pw, gap = 2 * unit, 8
    inner = WIDTH - 2 * cv.MARGIN - 24
    per_row = max(1, (inner + gap) // (pw + gap))
    rows = [line[i:i + per_row] for i in range(0, len(line), per_row)] or [[]]
    row_h = unit + 48
    height = 50 + len(rows) * row_h + 40
    img = Image.new("RGB", (WIDTH, height), cv.BG)
    d = cv.draw(img)
    ends = view.get("open_ends") or []
    lang = lang_of(view)
    lo.section_title(img, (cv.MARGIN, 38), lang.gettext("LINE OF PLAY"), size=24, fill=cv.INK)
    if len(ends) == 2:
        f = cv.font(SMALL, True)
        text = lang.tr("left end {left}   ·   right end {right}", left=ends[0], right=ends[1])
        d.text((WIDTH - cv.MARGIN, 38), text, font=f, fill=cv.SPOT, anchor="rs")
    d.rounded_rectangle((cv.MARGIN - 6, 50, WIDTH - cv.MARGIN + 6, height - 8), 14, fill=(40, 96, 72),
                        outline=(26, 66, 50), width=3)
    boxes: list[Box] = []
    for r, row in enumerate(rows):
        y = 50 + 44 + r * row_h
        rtl = r % 2 == 1
        for k, piece in enumerate(row):
            x = cv.MARGIN + 12 + (inner - (k + 1) * pw - k * gap if rtl else k * (pw + gap))
            boxes.append((x, y, x + pw, y + unit))
            cv.paste(img, piece_sprite(piece, unit, flipped=rtl), x, y)
        if r + 1 < len(rows) and row:
            # the turn to the next row
            bx = boxes[-1]
            edge_x = bx[0] + pw / 2
            d.line((edge_x, bx[3] + 2, edge_x, bx[3] + row_h - unit + 2), fill=(200, 220, 205), width=6)
    if not line:
        d.text((WIDTH / 2, 50 + row_h / 2 + 10), lang.gettext("The line is empty"), font=cv.font(max(24, SMALL), True),
               fill=cv.WHITE, anchor="mm")
    for i in last:
        if i < len(boxes):
            cv.last_ring(d, boxes[i], radius=9, width=4)
    for i in ol.indexes(ol.cells(view), "line:"):  # played since the viewer's turn
        if i < len(boxes):
            ol.draw(d, boxes[i])
    if boxes and len(ends) == 2:
        _end_tag(d, boxes[0], f"{ends[0]}", "left", rtl=False, lang=lang)
        _end_tag(d, boxes[-1], f"{ends[1]}", "right", rtl=((len(line) - 1) // per_row) % 2 == 1, lang=lang)
    return img


def _end_tag(d: ImageDraw.ImageDraw, box: Box, value: str, side: str, rtl: bool, lang: Lang) -> None:
    """'left 6' above the line's first piece, 'right 1' below its last, each over the
    open half, so the two never collide even when the line is one domino."""
    x0, y0, x1, y1 = box
    open_half_left = (side == "left") != rtl
    text = lang.tr("left {value}", value=value) if side == "left" else lang.tr("right {value}", value=value)
    f = cv.font(SMALL, True)
    w, h = cv.text_width(text, f) + 26, 28
    cx = x0 + (x1 - x0) * (0.25 if open_half_left else 0.75)
    cx = min(max(cx, cv.MARGIN + 4 + w / 2), WIDTH - cv.MARGIN - 4 - w / 2)
    top = y0 - h - 5 if side == "left" else y1 + 5
    d.rounded_rectangle((cx - w / 2, top, cx + w / 2, top + h), 13, fill=cv.SPOT, outline=cv.WHITE, width=2)
    d.text((cx, top + h / 2), text, font=f, fill=cv.WHITE, anchor="mm")


def _players_section(view: dict[str, Any], names: list[str]) -> Image.Image:
    col_w = (WIDTH - 2 * cv.MARGIN - 16) // 2
    supply = list(view.get("supply") or [[], []])
    built = list(view.get("pyrinoes") or [[], []])
    colours = _colours(view)
    sides = _sides(view)
    lang = lang_of(view)
    panels = []
    for seat in range(2):
        panels.append(_player_panel(
            names[seat] if seat < len(names) else lang.tr("Player {number}", number=seat + 1), sides[seat],
            colours[seat], [str(p) for p in (supply[seat] if seat < len(supply) else [])],
            [str(p) for p in (built[seat] if seat < len(built) else [])], col_w,
            active=to_act(view) == seat, lang=lang,
        ))
    extra = _pool_row(view)
    height = max(p.height for p in panels) + extra.height + 16
    img = Image.new("RGB", (WIDTH, height), cv.BG)
    for seat, panel in enumerate(panels):
        cv.place(img, panel, (cv.MARGIN + seat * (col_w + 16), 8))
    cv.place(img, extra, (0, max(p.height for p in panels) + 12))
    return img


def _player_panel(name: str, side: str, colours: tuple[str, str], supply: list[str], built: list[str] | None,
                  width: int, active: bool, lang: Lang) -> Image.Image:
    """A seat's supply by colour and, unless ``built`` is None, its built pyrinoes. Each supply row is
    headed by its colour's word ("Red", not the notation's ``R``), on a line of its own: a full row of
    pyramids leaves no room beside it for "Schwarz"."""
    pyr = 44  # big enough that a small pyramid shows its colour's shape
    rows_supply = 2
    label_h = round(SMALL * 1.2)
    per_row_built = max(1, (width - 24 + 8) // (2 * SMALL_UNIT + 8))
    built_rows = max(1, -(-len(built or []) // per_row_built))
    built_h = 34 + built_rows * (SMALL_UNIT + 8) if built is not None else 0
    title = f"{name} · {side}"
    title_x = 14 + 26 * len(colours) + 4
    tf, lines = cv.fit_lines(title, 22, width - title_x - 16, True, SMALL, 2)
    extra = (len(lines) - 1) * round(SMALL * 1.2)
    height = 44 + extra + rows_supply * (label_h + pyr + 6) + built_h + 14
    img = Image.new("RGB", (width, height), cv.BG)
    d = cv.draw(img)
    d.rounded_rectangle((0, 0, width - 1, height - 1), 12, fill=cv.PANEL,
                        outline=cv.ACTIVE if active else cv.PANEL_EDGE, width=4 if active else 2)
    x = 14
    for c in colours:
        d.rounded_rectangle((x, 12, x + 20, 32), 5, fill=PYRAMID_COLOURS.get(c, (150, 150, 150)), outline=cv.INK,
                            width=1)
        x += 26
    for i, line in enumerate(lines):
        d.text((title_x, 22 + i * round(SMALL * 1.2)), line, font=tf, fill=cv.INK, anchor="lm")
    y = 44 + extra
    for c in colours:
        mine = sorted((p for p in supply if p[:1] == c), key=lambda p: -int(p[1:] or 1))
        word = lang.gettext(COLOUR_NAMES[c]) if c in COLOUR_NAMES else c
        cv.static_text(img, (14, y + label_h / 2), word[:1].upper() + word[1:], SMALL, True, cv.MUTED, "lm",
                       limit=(0, y, width - 14, y + label_h))
        y += label_h
        xx = 14
        for p in mine:
            cv.paste(img, pyramid_sprite(p, pyr), xx, y)
            xx += pyr - 6
        if not mine:
            cv.static_text(img, (xx, y + pyr / 2), lang.gettext("none left"), SMALL, False, cv.MUTED, "lm")
        y += pyr + 6
    if built is None:
        return img
    d.text((14, y + 22), lang.tr("Built pyrinoes ({count})", count=len(built)), font=cv.font(SMALL, True),
           fill=cv.MUTED, anchor="ls")
    y += 34
    if not built:
        cv.static_text(img, (14, y + SMALL_UNIT / 2), lang.gettext("none yet"), SMALL, False, cv.MUTED, "lm")
    for i, p in enumerate(built):
        r, k = divmod(i, per_row_built)
        cv.paste(img, piece_sprite(p, SMALL_UNIT), 14 + k * (2 * SMALL_UNIT + 8), y + r * (SMALL_UNIT + 8))
    return img


def _pool_row(view: dict[str, Any]) -> Image.Image:
    """The green pool, and the boneyard right of it, or under it when the pool's
    pyramids would reach it."""
    green = sorted((str(g) for g in view.get("green") or []), key=lambda p: -int(p[1:] or 1))
    lang = lang_of(view)
    pool = lang.gettext("Green pool (0 spots):")
    bold = cv.font(SMALL, True)
    boneyard = lang.tr("Boneyard: {count} face down", count=view.get("boneyard", 0))
    start = cv.MARGIN + cv.text_width(pool, bold) + 10
    end = start + (36 * len(green) + 8 if green else cv.text_width(lang.gettext("empty"), cv.font(SMALL)))
    below = end + 24 + cv.text_width(boneyard, bold) > WIDTH - cv.MARGIN
    img = Image.new("RGB", (WIDTH, 64 + (round(SMALL * 1.4) if below else 0)), cv.BG)
    d = cv.draw(img)
    cv.static_text(img, (cv.MARGIN, 32), pool, SMALL, True, cv.INK, "lm")
    x = start
    for g in green:
        cv.paste(img, pyramid_sprite(g, 44), x, 8)
        x += 36
    if not green:
        d.text((x, 32), lang.gettext("empty"), font=cv.font(SMALL), fill=cv.MUTED, anchor="lm")
    d.text((WIDTH - cv.MARGIN, img.height - 32), boneyard, font=bold, fill=cv.INK, anchor="rm")
    return img


# --- the hand ------------------------------------------------------------------------
def draw_hand(view: dict[str, Any]) -> Image.Image:
    names = cv.names_of(view)
    seat = viewer(view)
    hands = view.get("hands") or []
    hand = [str(p) for p in hands[seat]] if seat is not None and seat < len(hands) and isinstance(
        hands[seat], list) else []
    built = list(view.get("pyrinoes") or [[], []])
    mine_built = [str(p) for p in built[seat]] if seat is not None and seat < len(built) else []
    unit = 64
    pw, gap = 2 * unit, 12
    inner = WIDTH - 2 * cv.MARGIN
    per_row = max(1, (inner + gap) // (pw + gap))
    items = sorted(hand, key=_domino_order) + mine_built
    rows = max(1, -(-len(items) // per_row))
    lang = lang_of(view)
    who = names[seat] if seat is not None and seat < len(names) else lang.gettext("Spectator")
    title = lang.tr("{name}'s hand", name=who)
    total = sum(_weight(p) for p in items)
    note = lang.tr("{dominoes} · {pyrinoes} · total {total}", dominoes=_dominoes(len(hand), lang),
                   pyrinoes=lang.trn("{count} pyrino", "{count} pyrinoes", len(mine_built), count=len(mine_built)),
                   total=total)
    top = 56 + lo.note_drop(WIDTH, title, note)
    height = top + rows * (unit + 40) + 10
    body = Image.new("RGB", (WIDTH, height), cv.BG)
    d = cv.draw(body)
    lo.title_and_note(body, 40, title, note)
    for i, p in enumerate(items):
        r, k = divmod(i, per_row)
        x = cv.MARGIN + k * (pw + gap)
        y = top + r * (unit + 40)
        cv.paste(body, piece_sprite(p, unit), x, y)
        cv.static_text(body, (x + pw / 2, y + unit + 18), p, SMALL, True, cv.INK if "|" not in p else cv.SPOT)
    if not items:
        d.text((WIDTH / 2, top + unit / 2), lang.gettext("Nothing in hand"), font=cv.font(max(26, SMALL), True),
               fill=cv.MUTED, anchor="mm")
    builds = view.get("builds")
    supply = list(view.get("supply") or [[], []])
    colours = _colours(view)
    sides = _sides(view)
    panel = None
    if seat is not None and seat < 2:
        panel_img = _player_panel(lang.tr("{name}'s supply", name=who), sides[seat], colours[seat],
                                  [str(p) for p in (supply[seat] if seat < len(supply) else [])], None,
                                  WIDTH - 2 * cv.MARGIN, active=False, lang=lang)
        can_build = isinstance(builds, list) and bool(builds)
        line = round(SMALL * 1.5) if can_build else 0  # its own line under the panel: the title takes the width
        panel = Image.new("RGB", (WIDTH, panel_img.height + 12 + line), cv.BG)
        cv.place(panel, panel_img, (cv.MARGIN, 0))
        pd = cv.draw(panel)
        if isinstance(builds, list) and builds:
            pd.text((WIDTH - cv.MARGIN - 14, panel_img.height + 6 + line / 2),
                    lang.trn("you can build: {count} spot pair", "you can build: {count} spot pairs", len(builds),
                             count=len(builds)),
                    font=cv.font(SMALL, True), fill=cv.SPOT, anchor="rm")
    header = lo.header(WIDTH, TITLE, game_number(view),
                       _right_text(view), _chips(view, names), ACCENT, _hand_status(view, seat, names))
    return lo.stack([header, body, panel, _pool_row(view)], WIDTH)


def _domino_order(piece: str) -> tuple[int, int]:
    """Highest end first, like a player sorts a hand."""
    ends = piece_ends(piece) or ("0", "0")
    try:
        a, b = int(ends[0]), int(ends[1])
    except ValueError:
        return (0, 0)
    return (-max(a, b), -min(a, b))


def _weight(piece: str) -> int:
    ends = piece_ends(piece)
    if ends is None:
        return 0
    if "|" in piece:
        return sum(int(ch) for end in ends for ch in end[1:] if ch.isdigit())
    try:
        return int(ends[0]) + int(ends[1])
    except ValueError:
        return 0


def _hand_status(view: dict[str, Any], seat: int | None, names: list[str]) -> str:
    if view.get("result") is None and seat is not None and to_act(view) == seat:
        ends = view.get("open_ends") or []
        lang = lang_of(view)
        if len(ends) == 2:
            return lang.tr("Your turn: open ends {left} and {right}", left=ends[0], right=ends[1])
        return lang.gettext("Your turn")
    return _status(view, names)


ART = Art("pyrinoes", draw_board, draw_hand, palette="pyrinoes.rgb",
          describe_board=words.describe_board, describe_hand=words.describe_hand)
