"""Every word on every gallery picture, in English and German, fits: inside its box,
over no other word, and at least 9 px high when Discord shows the picture 400 px wide
on a phone (see tests/render/words_fit.py and render/textlog.py)."""

from __future__ import annotations

from functools import cache

import pytest

from render import board_image, textlog
from tests.render.words_fit import Picture, cut_off, overlapping, pictures, too_small
from tools.gallery.samples import BUILDERS, all_samples


@cache
def gallery(game: str) -> tuple[Picture, ...]:
    return tuple(pictures(all_samples([game])))


@pytest.mark.parametrize("game", sorted(BUILDERS))
def test_no_word_is_cut_off(game: str) -> None:
    found = [f"{p.name}: {line}" for p in gallery(game) for line in cut_off(p)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("game", sorted(BUILDERS))
def test_no_word_is_drawn_over_another(game: str) -> None:
    found = [f"{p.name}: {line}" for p in gallery(game) for line in overlapping(p)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("game", sorted(BUILDERS))
def test_every_word_is_legible_at_phone_width(game: str) -> None:
    found = [f"{p.name}: {line}" for p in gallery(game) for line in too_small(p)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("game", sorted(BUILDERS))
def test_every_picture_notes_its_words(game: str) -> None:
    """The checks above see the words: every picture has some, the header's among them."""
    for p in gallery(game):
        assert len(p.words) >= 3, p.name
        assert any(w.box[1] < 70 for w in p.words), p.name


def test_the_checks_catch_a_word_past_its_box_over_another_and_too_small() -> None:
    """The checks can fail: a long name in a narrow chip is wrapped, never cut, and a
    hand-made clash is found."""
    sample = all_samples(["pyramido"])[-1]
    names = ["Bartholomew-Maximilian", "Normal AI", "Zoë"]  # 24 characters at most are kept
    with textlog.recording():
        img = board_image({**sample.view, "names": names, "lang": "de"}, sample.labels, sample.events)
    picture = Picture("long names", img, textlog.words(img))
    assert not overlapping(picture)
    # in the header the name is wrapped whole (the panels' titles still shorten it with "…")
    header = [w for w in picture.words if w.box[3] < 400]
    assert not cut_off(Picture("header", img, header))
    assert "Bartholomew-Maximilian" in "".join(w.text for w in header)
    a = picture.words[0]
    clash = textlog.Word("x", a.box, (a.box[0] + 2, a.box[1], a.box[2], a.box[3]), 5.0)
    bad = Picture("clash", img, [a, clash])
    assert cut_off(bad) and overlapping(bad) and too_small(bad)
