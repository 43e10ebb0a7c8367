"""A render worker draws ahead, as it starts, the pieces nearly every picture reuses
(``Art.warm``, called by ``render.warm_up``): a Flaming Pyramids opening's board and
hand then paint no tile face of their own."""

from __future__ import annotations

from render import board_image, hand_image, warm_up
from render import flaming_pyramids as fp
from tools.gallery.samples import all_samples


def test_the_opening_pictures_paint_no_tile_after_the_warm_up() -> None:
    opening = next(s for s in all_samples() if s.game == "flaming-pyramids")
    fp.tile_sprite.cache_clear()
    warm_up([fp.ART])
    painted = fp.tile_sprite.cache_info().misses
    board_image(opening.view, opening.labels, opening.events, art=fp.ART)
    hand_image(opening.hand_view, art=fp.ART)
    assert fp.tile_sprite.cache_info().misses == painted, "a tile face was painted after the warm-up"
    assert fp.tile_sprite.cache_info().hits > 0
