"""A game's pictures are one ``Art``, found by game id in one registry or passed in
by a caller for a game outside the default table; Arts travel to worker processes."""

from __future__ import annotations

import io
import pickle
from collections.abc import Sequence
from typing import Any

import pytest
from PIL import Image, ImageDraw

import render
from engine.core import Event, game_ids
from render import Art, UnknownArt, art_for, art_ids, render_board, render_hand
from render.pyramido import public_spots
from tools.gallery.samples import BUILDERS

GAME = "tiny-test-game"
#: Colours no shipped palette holds exactly: they survive only an adaptive palette.
PAPER = (3, 201, 77)
INK = (201, 7, 133)


def tiny_board(view: dict[str, Any], labels: dict[str, str], events: Sequence[Event]) -> Image.Image:
    img = Image.new("RGB", (400, 200 + 20 * len(labels)), PAPER)
    ImageDraw.Draw(img).rectangle((40, 40, 360, 160), outline=INK, width=8)
    return img


def tiny_hand(view: dict[str, Any]) -> Image.Image:
    img = Image.new("RGB", (320, 160), INK)
    ImageDraw.Draw(img).rectangle((20, 20, 300, 140), fill=PAPER)
    return img


TINY = Art(GAME, tiny_board, tiny_hand, palette=None)


def decoded(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(io.BytesIO(data)) as img:
        assert img.mode == "P"
        return img.convert("RGB")


def test_every_game_has_pictures_registered_under_its_id() -> None:
    assert art_ids() == game_ids()
    for game in game_ids():
        assert art_for(game).game == game


def test_an_unknown_game_is_refused_by_name() -> None:
    with pytest.raises(UnknownArt, match=r"'chess'.*flaming-pyramids"):
        art_for("chess")


def test_every_registered_game_has_gallery_samples() -> None:
    """The gallery, the palette learner and the render bench all work from samples."""
    assert sorted(BUILDERS) == sorted(art_ids())


def test_a_game_outside_the_table_draws_with_its_own_art_on_an_adaptive_palette() -> None:
    view = {"game": GAME, "seat": None, "players": 1}
    assert render.palette(TINY) is None
    board = decoded(render_board(view, labels={"0,0": "A"}, events=[], art=TINY))
    assert board.size == (400, 220)
    assert board.getpixel((5, 5)) == PAPER
    assert board.getpixel((42, 100)) == INK
    hand = decoded(render_hand({**view, "seat": 0}, art=TINY))
    assert hand.size == (320, 160)
    assert (hand.getpixel((5, 5)), hand.getpixel((160, 80))) == (INK, PAPER)
    render.warm_up([TINY])
    with pytest.raises(UnknownArt):
        render_board(view)


def test_a_shipped_palette_would_not_keep_those_colours() -> None:
    """The check above can fail: on a learnt palette the same picture changes colour."""
    img = tiny_board({}, {}, [])
    shipped = render.palette(art_for("pyrinoes"))
    assert shipped is not None
    assert decoded(render.canvas.encode(img, shipped)).getpixel((5, 5)) != PAPER


def test_an_art_draws_only_its_own_game() -> None:
    with pytest.raises(ValueError, match="tiny-test-game"):
        render_board({"game": "pyrinoes"}, art=TINY)


@pytest.mark.parametrize("art", [TINY, *(art_for(g) for g in art_ids())], ids=lambda a: a.game)
def test_arts_pickle_for_worker_processes(art: Art) -> None:
    again = pickle.loads(pickle.dumps(art))
    assert again == art
    assert (again.board, again.hand, again.public_spots) == (art.board, art.hand, art.public_spots)


def test_pyramido_letters_its_public_spots() -> None:
    """The bot reads the function from the art instead of importing the module."""
    assert art_for("pyramido").public_spots is public_spots
