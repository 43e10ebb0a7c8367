"""Flaming Pyramids pictures tell the whole story of a turn's mayhem: every tile it
removed is drawn (a burned straw tile's spot reopens at once, so it has no ghost
there: the legend's "Removed this turn" row shows it), and the legend names the
special tiles."""

from __future__ import annotations

from typing import Any

from engine.core import Event, Rng, get_game
from render import board_image, textlog
from render.flaming_pyramids import REMOVING, TABLE
from render.textlog import Word
from tools.gallery.samples import dress, labels_for
from tools.playout import steps

GAME = get_game("flaming-pyramids")


def reopened_fire() -> tuple[dict[str, Any], dict[str, str], list[Event]]:
    """The first move of a seeded game whose fire burned a tile whose spot is open again."""
    for seed in range(40):
        for step in steps(GAME, GAME.setup(2, None, seed), Rng(seed), 300):
            events = [e for e in step.events if e.visible(None)]
            labels = labels_for(GAME, step.state)
            burned = [c for e in events if e.kind == "fire" for c in e.cells[1:]]
            if len(burned) >= 3 and any(c in labels for c in burned):
                return dress(GAME.view(step.state, None), 7), labels, events
    raise AssertionError("no such position in 40 seeded games")


def removed_tiles(events: list[Event]) -> list[str]:
    return [tile for e in events if e.kind in REMOVING
            for tile in list(e.items)[REMOVING[e.kind]:]]


def words_of(view: dict[str, Any], labels: dict[str, str], events: list[Event]) -> list[Word]:
    with textlog.recording():
        img = board_image(view, labels, events)
    return textlog.words(img)


def test_every_tile_a_fire_removed_is_drawn_even_where_its_spot_reopened() -> None:
    view, labels, events = reopened_fire()
    gone = removed_tiles(events)
    words = words_of(view, labels, events)
    caption = next((w for w in words if w.text == "Removed this turn:"), None)
    assert caption is not None, [w.text for w in words]
    band = [w for w in words if w.piece and w.box[0] > caption.box[2]
            and w.box[1] < caption.box[3] + 30 and w.box[3] > caption.box[1] - 30]
    assert [w.text for w in sorted(band, key=lambda w: w.box[0])] == [str(TABLE[t]["weight"]) for t in gone]


def test_the_legend_names_the_special_tiles_in_the_readers_language() -> None:
    view, labels, events = reopened_fire()
    english = {w.text for w in words_of(view, labels, events)}
    assert {"Coal", "Blowtorch", "Millstone"} <= english
    german = {w.text for w in words_of({**view, "lang": "de"}, labels, events)}
    assert {"Kohle", "Lötlampe", "Mühlstein"} <= german


def test_fall_words_sit_on_an_opaque_slot_not_over_a_ghost() -> None:
    """A pending fall whose landing cells lost tiles this turn: LEFT and RIGHT are the
    only words there (the removed tiles' numbers don't show through)."""
    for seed in range(40):
        for step in steps(GAME, GAME.setup(3, None, seed), Rng(seed), 300):
            events = [e for e in step.events if e.visible(None)]
            view = dress(GAME.view(step.state, None), 7)
            falling = view.get("falling")
            if not isinstance(falling, dict):
                continue
            targets = {str(falling.get("left")), str(falling.get("right"))}
            removed_at = {c for e in events if e.kind in REMOVING for c in e.cells[REMOVING[e.kind]:]}
            if not targets & removed_at:
                continue
            words = words_of(view, labels_for(GAME, step.state), events)
            fall = [w for w in words if w.text in {"LEFT", "RIGHT"}]
            assert len(fall) == 2
            for w in fall:
                assert not [o.text for o in words if o is not w and _meets(o.box, w.box)]
            return
    raise AssertionError("no fall onto a cleared cell in 40 seeded games")


def _meets(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])
