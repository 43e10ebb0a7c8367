"""The outline of what changed since a player's turn (``view["outline"]``): drawn on
every game's board only around the cells named (a ghost where the piece is gone),
in a pattern that does not rely on colour, and nothing at all without the key."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from PIL import Image, ImageChops

from engine.core import Event, Rng
from render import board_image, render_board
from render import outline as ol
from render.art import Art
from tests.fifth_game.art import ART as PEBBLE_ART
from tests.fifth_game.art import cell_box
from tests.fifth_game.engine import GAME as PEBBLE
from tools.gallery.samples import Sample, all_samples, dress
from tools.playout import played

Box = tuple[int, int, int, int]
#: How far outside the reference box (the last-move ring, a spot's slot) an outline may reach.
SLACK = 8


@cache
def samples() -> dict[str, Sample]:
    return {s.name: s for s in all_samples()}


def pebble() -> Sample:
    state = PEBBLE.setup(2, None, 5)
    state, events = played(PEBBLE, state, Rng(5), 3)
    view = dress(PEBBLE.view(state, None), 501)
    return Sample("pebble", PEBBLE.id, view, view, {}, list(events))


def image(view: dict[str, Any], labels: dict[str, str] | None = None, events: list[Event] | None = None,
          art: Art | None = None) -> Image.Image:
    return board_image(view, labels, events, art=art).convert("RGB")


def changed(a: Image.Image, b: Image.Image) -> Box | None:
    assert a.size == b.size, "the outline never moves anything else"
    box = ImageChops.difference(a, b).getbbox()
    return None if box is None else (int(box[0]), int(box[1]), int(box[2]), int(box[3]))


def within(box: Box, outer: Box, slack: int = SLACK) -> bool:
    return (box[0] >= outer[0] - slack and box[1] >= outer[1] - slack and box[2] <= outer[2] + slack
            and box[3] <= outer[3] + slack)


def with_outline(sample: Sample, cells: list[str]) -> dict[str, Any]:
    """The sample's view with ``cells`` outlined (on seat 0's own board, where each
    seat has one)."""
    if sample.view.get("mode") == "competitive":
        cells = [c if "@" in c else f"{c}@0" for c in cells]
    return {**sample.view, "outline": cells}


def occupied(sample: Sample) -> list[str]:
    view = sample.view
    if "line" in view:
        return [f"line:{i}" for i in range(len(view["line"]))]
    if "pyramids" in view:
        return list(view["pyramids"][0])
    return list(view["pyramid"])


def ring_event(sample: Sample, cell: str, seat: int = 0) -> Event:
    """An event the game's board rings as the last move on ``cell``."""
    view = sample.view
    if "line" in view:
        at = int(cell.split(":")[1])
        return Event("play", "{0} played.", (seat,), (cell,), (view["line"][at],), data={"index": at, "side": "right"})
    if "pyramids" in view:
        return Event("take" if view.get("mode") == "competitive" else "place", "{0} built.", (seat,), (cell,),
                     (view["pyramids"][seat][cell],))
    return Event("play", "{0} played.", (seat,), (cell,), (view["pyramid"][cell],))


BOARDS = ["flaming-pyramids-mid", "continuous-pyramid-mid", "pyrinoes-mid", "pyramido-coop-mid",
          "pyramido-competitive-4p"]


@pytest.mark.parametrize("name", sorted(samples()))
def test_without_an_outline_every_board_is_drawn_as_before(name: str) -> None:
    sample = samples()[name]
    plain = render_board(sample.view, labels=sample.labels, events=sample.events)
    for outline in ([], (), "", None, ["not a cell"]):
        view = {**sample.view, "outline": outline}
        assert render_board(view, labels=sample.labels, events=sample.events) == plain, outline


def test_the_fifth_game_without_an_outline_is_drawn_as_before() -> None:
    sample = pebble()
    assert render_board(with_outline(sample, []), art=PEBBLE_ART) == render_board(sample.view, art=PEBBLE_ART)


@pytest.mark.parametrize("name", BOARDS)
def test_the_outline_changes_the_picture_only_around_its_cells(name: str) -> None:
    sample = samples()[name]
    plain = image(sample.view)
    cells = occupied(sample)
    first, second = cells[0], cells[len(cells) // 2]
    boxes = {}
    for cell in (first, second):
        ringed = changed(plain, image(sample.view, events=[ring_event(sample, cell)]))
        assert ringed is not None
        drawn = changed(plain, image(with_outline(sample, [cell])))
        assert drawn is not None, f"{cell} is outlined"
        assert within(drawn, ringed), (cell, drawn, ringed)
        boxes[cell] = drawn
    # two cells: the changes of each, and nothing else
    a, b = (ImageChops.difference(plain, image(with_outline(sample, [c]))).convert("L").point(lambda v: 255 if v
            else 0) for c in (first, second))
    both = ImageChops.difference(plain, image(with_outline(sample, [first, second]))).convert("L").point(
        lambda v: 255 if v else 0)
    outside = ImageChops.subtract(both, ImageChops.lighter(a, b))
    assert outside.getbbox() is None


@pytest.mark.parametrize("name", BOARDS)
def test_the_outline_does_not_rely_on_colour(name: str) -> None:
    """In grey, the frame is still dark band and light dashes: a pattern, not a hue."""
    sample = samples()[name]
    cell = occupied(sample)[0]
    plain, drawn = image(sample.view), image(with_outline(sample, [cell]))
    box = changed(plain, drawn)
    assert box is not None
    grey = drawn.crop(box).convert("L")
    mask = ImageChops.difference(plain.crop(box), drawn.crop(box)).convert("L").point(lambda v: 255 if v else 0)
    dark = ImageChops.multiply(grey.point(lambda v: 255 if v < 80 else 0), mask)
    light = ImageChops.multiply(grey.point(lambda v: 255 if v > 150 else 0), mask)
    assert dark.getbbox() is not None and light.getbbox() is not None


def test_a_removed_tile_gets_a_ghost_outline_where_it_was() -> None:
    sample = samples()["flaming-pyramids-mid"]
    plain = image(sample.view, sample.labels)
    empty = next(c for c in sample.labels)  # a lettered space: nothing on it
    letter = changed(image(sample.view), plain)
    ghost = changed(plain, image(with_outline(sample, [empty]), sample.labels))
    tile = changed(plain, image(with_outline(sample, [occupied(sample)[0]]), sample.labels))
    assert letter is not None and ghost is not None and tile is not None
    assert within(letter, ghost, 0), "around the space"
    for side in (0, 1):  # the size of a tile's outline
        assert abs((ghost[side + 2] - ghost[side]) - (tile[side + 2] - tile[side])) <= SLACK
    gone = image(with_outline(sample, [empty]), sample.labels)
    kept = image(with_outline(sample, [occupied(sample)[0]]), sample.labels)
    # a ghost is a dotted frame: thinner than the band around a tile still there
    assert _ink(plain, gone) < _ink(plain, kept)


def _ink(plain: Image.Image, drawn: Image.Image) -> int:
    mask = ImageChops.difference(plain, drawn).convert("L").point(lambda v: 255 if v else 0)
    return sum(1 for v in mask.get_flattened_data() if v)


def test_the_fifth_game_outlines_its_stones_and_ghosts_the_taken() -> None:
    sample = pebble()
    pyramid = sample.view["pyramid"]
    taken = next(c for c in ("3,0", "2,0", "2,1", "1,0") if c not in pyramid)
    there = next(iter(pyramid))
    plain = image(sample.view, art=PEBBLE_ART)
    top = 56  # the pyramid section's top, as tests.fifth_game.art lays it out
    for cell in (taken, there):
        drawn = changed(plain, image(with_outline(sample, [cell]), art=PEBBLE_ART))
        assert drawn is not None
        x0, y0, x1, y1 = cell_box(cell, top)
        height = drawn[3] - drawn[1]
        assert x0 - SLACK <= drawn[0] and drawn[2] <= x1 + SLACK and height <= y1 - y0 + 2 * SLACK


def test_on_a_board_per_seat_an_entry_counts_on_its_seats_board_only() -> None:
    sample = samples()["pyramido-competitive-4p"]
    plain = image(sample.view)
    cell = next(c for c in sample.view["pyramids"][1] if c in sample.view["pyramids"][0])
    ring = changed(plain, image(sample.view, events=[ring_event(sample, cell, seat=1)]))
    drawn = changed(plain, image(with_outline(sample, [f"{cell}@1"])))
    assert ring is not None and drawn is not None and within(drawn, ring)
    other = changed(plain, image(with_outline(sample, [f"{cell}@0"])))
    assert other is not None and not within(other, ring)
    # a shared board ignores whose move it was
    fp = samples()["flaming-pyramids-mid"]
    some = occupied(fp)[0]
    assert render_board(with_outline(fp, [f"{some}@2"])) == render_board(with_outline(fp, [some]))


def test_outline_entries_read_cells_and_seats() -> None:
    view = {"outline": ["0,0", "1:0,0@2", "1:0,0@2", "line:3", "a@b"]}
    assert ol.entries(view) == [("0,0", None), ("1:0,0", 2), ("line:3", None), ("a@b", None)]
    assert ol.cells(view) == ["0,0", "1:0,0", "line:3", "a@b"]
    assert ol.cells(view, 1, per_seat=True) == ["0,0", "line:3", "a@b"]
    assert ol.cells(view, 2, per_seat=True) == ["0,0", "1:0,0", "line:3", "a@b"]
    assert ol.indexes(ol.cells(view), "line:") == [3]
    assert ol.cells({}) == [] and ol.cells({"outline": "0,0"}) == []
