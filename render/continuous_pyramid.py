"""Continuous Pyramid: the four levels seen from above as a stack, and the reserve.

Upper levels are drawn shifted up-left with a side in the level's colour, the way a
MahJongg layout looks on a table: a tile that is covered is simply under another,
and every visible tile shows its level by its side colour (legend beside it). A
covered tile can never matter again (all its sides are full by then), so nothing a
player needs is hidden. Open cells are dashed slots with their button letters; on
upper levels only the outline and a corner badge, so the tile beneath stays visible.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.continuous_pyramid.geometry import EDITIONS, LATEST_EDITION
from engine.continuous_pyramid.view import cell_geometry
from engine.core import Event
from i18n import Lang
from render import canvas as cv
from render import continuous_pyramid_text as words
from render import layout as lo
from render import outline as ol
from render import textlog
from render.art import Art
from render.canvas import RGB, Box
from render.common import game_number, result_text, to_act, turn_text, visible_events, winners
from render.labels import spot_labels
from render.layout import Chip
from render.mahjong import LEVEL_EDGES, face_sprite, level_dots
from render.words import lang as lang_of

TITLE = "Continuous Pyramid"
ACCENT: RGB = (40, 150, 110)
PITCH_X = 72
PITCH_Y = 92
#: How far each level sits up and left of the one below.
LIFT_X = 9
LIFT_Y = 11
#: The board is narrow and tall (the reserve under the pyramid), so on a phone its
#: words stay large.
WIDTH = 9 * PITCH_X + 3 * LIFT_X + 2 * 40
TOTAL = 144


Layout = dict[str, tuple[int, float, float]]


@lru_cache(maxsize=len(EDITIONS))
def _layout(edition: int) -> Layout:
    """cell -> (level, x, y) in level-1 grid units, from the engine's own table of what
    lies on what, so the top tile is drawn centred (CP-2, second edition) and games
    played under the first edition still show it where it rests for them."""
    table = {str(row["cell"]): row for row in cell_geometry(edition)}
    placed: dict[str, tuple[int, float, float]] = {}

    def where(name: str) -> tuple[int, float, float]:
        if name in placed:
            return placed[name]
        row = table[name]
        level = int(str(row["level"]))
        below = row["below"]
        if below is None:
            spot = (level, float(str(row["col"])), float(str(row["row"])))
        else:
            _, bx, by = where(str(below))
            spot = (level, bx, by)
        placed[name] = spot
        return spot

    for name in table:
        where(name)
    return placed


def _edition(view: dict[str, Any]) -> int:
    edition = (view.get("options") or {}).get("edition", LATEST_EDITION)
    return edition if edition in EDITIONS else LATEST_EDITION


def _box(layout: Layout, cell: str, left: float, top: float) -> Box:
    level, gx, gy = layout[cell]
    x = left + gx * PITCH_X - (level - 1) * LIFT_X
    y = top + gy * PITCH_Y - (level - 1) * LIFT_Y
    return (x, y, x + PITCH_X - 2, y + PITCH_Y - 2)


def _chips(view: dict[str, Any], names: list[str]) -> list[Chip]:
    placed = view.get("tiles_placed", len(view.get("pyramid") or {}))
    undos = view.get("undos", 0)
    lang = lang_of(view)
    detail = lang.tr("placed {placed}/{total} · stock {stock} · undos {undos}", placed=placed, total=TOTAL,
                     stock=view.get("stock", 0), undos=undos)
    name = names[0] if names else lang.tr("Player {number}", number=1)
    return [Chip(name, detail, to_act(view) == 0, 0 in winners(view))]


def _status(view: dict[str, Any], names: list[str]) -> str:
    """One seat, so the status line names it and there is no chip row."""
    if view.get("result") is not None:
        return result_text(view)
    fits = view.get("fits") or []
    lang = lang_of(view)
    name = names[0] if names else lang.tr("Player {number}", number=1)
    if fits and not any(fits):
        return lang.tr("{name} is stuck: no reserve tile fits. Undo a play or give up.", name=name)
    count = len({c for f in fits for c in f})
    return lang.trn("{name} to play · a reserve tile fits {count} open cell",
                    "{name} to play · a reserve tile fits {count} open cells", count, name=name, count=count)


def _subtitle(view: dict[str, Any]) -> str:
    """No deal number: it would rebuild the face-down stock (CP-3). A winnable-only
    deal the solver could not prove says so; a game begun under the first edition of
    the rulings says which rule it is played under."""
    text = turn_text(view)
    lang = lang_of(view)
    if _edition(view) == 1:
        text += " · " + lang.gettext("first-edition rules (top on 3:1,1)")
    if view.get("proven_winnable") is False:
        text += " · " + lang.gettext("not proven winnable")
    return text


def draw_board(view: dict[str, Any], labels: dict[str, str], events: Sequence[Event]) -> Image.Image:
    names = cv.names_of(view)
    layout = _layout(_edition(view))
    pyramid: dict[str, str] = {k: v for k, v in (view.get("pyramid") or {}).items() if k in layout}
    shown = visible_events(view, events)
    last = [e.cells[0] for e in shown if e.kind == "play" and e.cells and pyramid.get(e.cells[0])]
    undone = [e.cells[0] for e in shown if e.kind == "undo" and e.cells and e.cells[0] not in pyramid]
    open_cells = [c for c in view.get("open") or [] if c in layout]

    grid_w, grid_h = 9 * PITCH_X, 9 * PITCH_Y
    height = cv.MARGIN * 2 + 3 * LIFT_Y + grid_h
    board = Image.new("RGB", (WIDTH, height), cv.BG)
    d = cv.draw(board)
    left = (WIDTH - grid_w - 3 * LIFT_X) / 2 + 3 * LIFT_X
    top = cv.MARGIN + 3 * LIFT_Y
    # the level-1 footprint, so the pyramid's shape shows from the first move
    for cell, (level, _, _) in layout.items():
        if level == 1 and cell not in pyramid:
            d.rounded_rectangle(_box(layout, cell, left, top), 8, fill=cv.PANEL, outline=cv.PANEL_EDGE, width=1)
    order = sorted(layout.items(), key=lambda kv: (kv[1][0], kv[1][2], kv[1][1]))
    spots = {c: labels.get(c) for c in dict.fromkeys([*open_cells, *labels]) if c in layout}
    for level in (1, 2, 3, 4):
        for cell, (lv, _, _) in order:
            if lv != level:
                continue
            b = _box(layout, cell, left, top)
            code = pyramid.get(cell)
            if code is not None:
                cv.paste(board, _tile(code, level), b[0], b[1])
            elif spots.get(cell):
                if level > 1:
                    # a spot over tiles: a veil hides them, so the spot reads as a place
                    cv.paste(board, _shadow(), b[0], b[1], covers=False)
                    cv.paste(board, _veil(), b[0], b[1])
                cv.spot_slot(board, _inner(b), spots[cell], radius=8)
            elif cell in spots:
                # open, but no reserve tile fits it now
                cv.dashed_rect(d, _inner(b), (150, 160, 180), width=2, dash=7, gap=5)
            elif cell in undone:
                cv.gone_mark(d, _inner(b))
    for cell in last:
        cv.last_ring(d, _inner(_box(layout, cell, left, top)), radius=8, width=4)
    for cell in ol.cells(view):  # changed since the viewer's turn
        if cell in layout:
            ol.draw(d, _inner(_box(layout, cell, left, top)), gone=cell not in pyramid)
    header = lo.header(WIDTH, TITLE, game_number(view),
                       _subtitle(view), [], ACCENT, _status(view, names))
    return lo.stack([header, board, _reserve_row(view, labels), _facts_row(view)], WIDTH)


@lru_cache(maxsize=512)
def _tile(code: str, level: int) -> Image.Image:
    """A tile as the board shows it: above level 1 with the shadow it throws on the
    level below (down and to the right), so height reads at a glance and without colour.
    One sprite, so a tile costs one paste; the tiles of a level are drawn from the top
    left, so a later neighbour covers the shadow where it stands."""
    face = face_sprite(code, PITCH_X - 2, PITCH_Y - 2, level)
    if level == 1:
        return face
    shadow = _shadow()
    combined = Image.new("RGBA", shadow.size, (0, 0, 0, 0))
    combined.alpha_composite(shadow)
    combined.alpha_composite(face)
    textlog.transform(combined, face)
    return combined


@lru_cache(maxsize=1)
def _shadow() -> Image.Image:
    """The soft shadow a tile one level up throws down and to the right."""
    w, h = PITCH_X - 2, PITCH_Y - 2

    def paint(img: Image.Image, d: ImageDraw.ImageDraw, s: int) -> None:
        off = (LIFT_X + 3) * s
        d.rounded_rectangle((off, off, w * s + off * 0.6, h * s + off * 0.6), 10 * s, fill=(40, 30, 20, 110))

    return cv.supersample(w + LIFT_X + 4, h + LIFT_Y + 4, paint)


@lru_cache(maxsize=1)
def _veil() -> Image.Image:
    """An open upper-level cell: the tiles under it fade behind a cream veil."""
    w, h = PITCH_X - 2, PITCH_Y - 2
    return cv.supersample(w, h, lambda img, d, s: d.rounded_rectangle((0, 0, w * s - 1, h * s - 1), 8 * s,
                                                                      fill=(*cv.BG, 235)))


def _inner(b: Box) -> Box:
    """The face part of a cell's box (without the tile's side)."""
    side = max(3, (b[2] - b[0]) * 0.07)
    return (b[0], b[1], b[2] - side, b[3] - side)


def _fit_caption(cells: Sequence[str], labels: dict[str, str], open_count: int, per_line: int,
                 lang: Lang) -> str:
    """Which lettered spots a reserve tile fits: '→ A C F', '→ any', or a count."""
    letters = [labels[c] for c in cells if c in labels]
    if not cells:
        return lang.gettext("no fit")
    if letters and len(letters) == open_count and open_count > per_line:
        return lang.gettext("→ any")
    if not letters or len(letters) > per_line:
        return lang.trn("{count} spot", "{count} spots", len(cells), count=len(cells))
    return "→ " + " ".join(letters)


def _reserve_row(view: dict[str, Any], labels: dict[str, str]) -> Image.Image:
    """The nine reserve places under the pyramid, each tile (its face says which: the chooser's
    buttons name it as the face shows it, "Circles 7", and no notation's code is drawn) and the
    lettered spots it fits (wrapped to two lines when the words need it). In one row of
    nine when every caption's words fit a ninth of the width at a size a phone can read,
    else in two (five and four): a word is never broken ("→ überall")."""
    reserve = list(view.get("reserve") or [])
    fits = list(view.get("fits") or [])
    lang = lang_of(view)
    no_fit = lang.gettext("no fit")
    small = cv.legible(WIDTH)
    bold = cv.font(small, True)
    tile_w, tile_h = PITCH_X - 2, PITCH_Y - 2
    open_count = len({c for f in fits for c in f})
    texts = [_fit_caption(fits[i] if i < len(fits) else [], labels, open_count, 2, lang)
             if i < len(reserve) and reserve[i] is not None else "" for i in range(9)]
    widest = max((cv.text_width(w, bold) for t in texts for w in t.split()), default=0.0)
    per_row = 9 if widest <= (WIDTH - 2 * cv.MARGIN) / 9 - 4 else 5
    slot = (WIDTH - 2 * cv.MARGIN) / per_row
    captions: list[tuple[cv.Font, list[str], bool]] = []
    for fit in texts:
        f, lines = cv.fit_lines(fit, small, slot - 4, True, small, 2) if fit else (bold, [])
        captions.append((f, lines, fit == no_fit))
    lines_most = max((len(c[1]) for c in captions), default=0)
    line_h = round(small * 1.2)
    first = 48
    row_h = tile_h + 8 + line_h * max(1, lines_most) + 12
    rows = -(-9 // per_row)
    height = first + rows * row_h
    img = Image.new("RGB", (WIDTH, height), cv.BG)
    d = cv.draw(img)
    lo.section_title(img, (cv.MARGIN, 36), lang.gettext("RESERVE"), size=small + 2, fill=cv.INK)
    for i in range(9):
        r, k = divmod(i, per_row)
        count = min(per_row, 9 - r * per_row)
        x0 = (WIDTH - count * slot) / 2 + k * slot
        top = first + r * row_h
        cx = x0 + slot / 2
        x = cx - tile_w / 2
        code = reserve[i] if i < len(reserve) else None
        limit: Box = (x0 + 1, top, x0 + slot - 1, top + row_h)
        if code is None:
            # an empty place is its outline alone: "empty" at a size a phone can read is wider than the place
            d.rounded_rectangle((x + 2, top + 2, x + tile_w - 6, top + tile_h - 6), 8, outline=cv.PANEL_EDGE, width=2)
            continue
        cv.paste(img, face_sprite(str(code), tile_w, tile_h, 1), x, top)
        y = top + tile_h + 8 - line_h / 2
        f, lines, none_fits = captions[i]
        for line in lines:
            y += line_h
            cv.static_text(img, (cx, y), line, int(getattr(f, "size", small)), True,
                           cv.MUTED if none_fits else cv.SPOT, "mm", limit=limit)
    return img


def _facts_row(view: dict[str, Any]) -> Image.Image:
    """Placed, stock and undos on the left; the level key on the right."""
    lang = lang_of(view)
    small = cv.legible(WIDTH)
    f = cv.font(small)
    line_h = round(small * 1.45)
    stock, undos = int(view.get("stock", 0) or 0), int(view.get("undos", 0) or 0)
    facts = [lang.tr("Placed: {placed} of {total}", placed=view.get("tiles_placed", 0), total=TOTAL),
             lang.tr("Stock: {count} face down", count=stock),
             lang.tr("Undos: {count}", count=undos)]
    height = 14 + line_h * 3 + 16
    img = Image.new("RGB", (WIDTH, height), cv.BG)
    d = cv.draw(img)
    half = WIDTH / 2
    y = 14 + line_h / 2
    for text in facts:
        cv.text_at(d, (cv.MARGIN, y), text, f, cv.INK, "lm", limit=(0, 0, half, height))
        y += line_h
    x0 = half + 10
    lo.section_title(img, (x0, 14 + line_h * 0.75), lang.gettext("LEVELS"), size=small)
    for level in (1, 2, 3, 4):
        col, row = divmod(level - 1, 2)
        x, y = x0 + col * (WIDTH - cv.MARGIN - x0) / 2, 14 + line_h * (1.5 + row)
        colour = LEVEL_EDGES[level]
        d.rounded_rectangle((x, y - 11, x + 26, y + 11), 5, fill=colour, outline=cv.shade(colour, 0.6), width=2)
        level_dots(d, (x + 13, y), level, 3.0)
        cv.static_text(img, (x + 34, y), lang.tr("level {level}", level=level), small, False, cv.INK, "lm")
    return img


def _hand_centres(width: int, tile_w: int, gap: float) -> list[float]:
    """The centre of each of the hand picture's nine places (five, then four)."""
    centres = []
    for i in range(9):
        r, k = divmod(i, 5)
        count = 5 if r == 0 else 4
        centres.append((width - count * tile_w - (count - 1) * gap) / 2 + k * (tile_w + gap) + tile_w / 2)
    return centres


def draw_hand(view: dict[str, Any]) -> Image.Image:
    """The reserve alone, big, with the open cells each tile fits (there is no private
    hand in this game)."""
    names = cv.names_of(view)
    reserve = list(view.get("reserve") or [])
    fits = list(view.get("fits") or [])
    labels = spot_labels(c for f in fits for c in f)
    width = 900
    tile_w, tile_h = 112, 142
    gap = (width - 2 * cv.MARGIN - 5 * tile_w) / 4
    small = cv.legible(width, 22)
    line_h = round(small * 1.2)
    lang = lang_of(view)
    # each caption as wide as a place; the outer ones moved in to stay on the card ("Characters" is one word)
    room = tile_w + gap - 8
    centres = [min(max(cx, room / 2 + 6), width - room / 2 - 6) for cx in _hand_centres(width, tile_w, gap)]
    captions: list[tuple[cv.Font, list[str], bool]] = []
    for i in range(9):
        code = reserve[i] if i < len(reserve) else None
        if code is None:
            captions.append((cv.font(small, True), [], False))
            continue
        fit = _fit_caption(fits[i] if i < len(fits) else [], labels, len(labels), 6, lang)
        f, lines = cv.fit_lines(f"{words.tile_words(str(code), lang)} {fit}", small, room, True, small, 2)
        captions.append((f, lines, fit == lang.gettext("no fit")))
    # two lines of caption, or as many as a caption's words need (a word is never cut)
    row_h = tile_h + 14 + max(2, *(len(c[1]) for c in captions)) * line_h
    title, note = lang.gettext("Reserve"), lang.tr("stock: {count} face down", count=view.get("stock", 0))
    top = 60 + lo.note_drop(width, title, note)
    body = Image.new("RGB", (width, top + 2 * row_h + 10), cv.BG)
    d = cv.draw(body)
    lo.title_and_note(body, 40, title, note)
    for i in range(9):
        r, k = divmod(i, 5)
        count = 5 if r == 0 else 4
        x = (width - count * tile_w - (count - 1) * gap) / 2 + k * (tile_w + gap)
        y = top + r * row_h
        code = reserve[i] if i < len(reserve) else None
        if code is None:
            d.rounded_rectangle((x, y, x + tile_w - 8, y + tile_h - 8), 10, outline=cv.PANEL_EDGE, width=2)
            continue
        cv.paste(body, face_sprite(str(code), tile_w, tile_h, 1), x, y)
        f, lines, none_fits = captions[i]
        for n, line in enumerate(lines):
            d.text((centres[i], y + tile_h + 8 + line_h * (n + 0.5)), line, font=f,
                   fill=cv.MUTED if none_fits else cv.SPOT, anchor="mm")
    header = lo.header(width, TITLE, game_number(view),
                       _subtitle(view), _chips(view, names), ACCENT, _status(view, names))
    return lo.stack([header, body], width)


ART = Art("continuous-pyramid", draw_board, draw_hand, palette="continuous-pyramid.rgb",
          describe_board=words.describe_board, describe_hand=words.describe_hand)
