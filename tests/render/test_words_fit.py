"""Every word on every gallery picture, in English and German, fits: inside its box,
over no other word, at least 9 px high when Discord shows the picture 300 px wide in a
card on a phone, and nothing under the ALT badge Discord draws in the bottom-left
corner (see tests/render/words_fit.py and render/textlog.py)."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import ImageDraw

from engine.core import Result
from engine.core.text import N_, Phrase, phrase
from render import board_image, canvas, hand_image, textlog
from tests.render.test_render import FAST, reach
from tests.render.words_fit import (
    Picture,
    broken_words,
    cut_off,
    overlapping,
    pictures,
    too_small,
    under_badge,
)
from tools.gallery.samples import BUILDERS, all_samples, dress, labels_for


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
def test_no_word_is_broken_across_lines(game: str) -> None:
    """Words at a phone's size can be wider than their place ("7 Felde r", "→ über all" under
    Continuous Pyramid's reserve in German): the layout makes room instead."""
    found = [f"{p.name}: {line}" for p in gallery(game) for line in broken_words(p)]
    assert not found, "\n".join(found)


def test_a_broken_word_is_noted() -> None:
    with textlog.recording():
        canvas.fit_lines("→ überall", 23, 74, True, 23, 2)
        assert textlog.broken() == ["überall"]
        canvas.fit_lines("→ any", 23, 74, True, 23, 2)
        assert textlog.broken() == ["überall"]
    assert textlog.broken() == []


@pytest.mark.parametrize("game", sorted(BUILDERS))
def test_nothing_is_under_the_alt_badge(game: str) -> None:
    """Discord's ALT badge covers the bottom-left corner on a phone (it read "ALTed" over
    "red", and hid the Coal legend tile and "Stock: 135"): no word and no drawing there."""
    found = [f"{p.name}: {line}" for p in gallery(game) for line in under_badge(p)]
    assert not found, "\n".join(found)


def test_the_phone_sizes_are_those_of_a_card_on_a_phone() -> None:
    """A picture in a card on a 400 px phone is about 305 px wide: words are sized for 300."""
    assert canvas.PHONE_WIDTH == 300 and canvas.MIN_PHONE_PX == 9
    assert canvas.legible(900) == 27
    assert canvas.alt_corner(900, 600) == (0.0, 600 - 84.0, 132.0, 600.0)


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
    # a word, or only a drawing, in the corner the ALT badge covers
    corner = canvas.alt_corner(img.width, img.height)
    low = textlog.Word("red", (10, corner[1] + 4, 60, corner[1] + 30), (0, 0, img.width, img.height), 40.0)
    assert under_badge(Picture("word in the corner", img, [low]))
    inked = img.copy()
    ImageDraw.Draw(inked).rectangle((30, round(corner[1]) + 20, 60, round(corner[1]) + 40), fill=(200, 30, 30))
    assert not under_badge(Picture("clear", img, [])) and under_badge(Picture("tile in the corner", inked, []))


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_longest_result_and_names_fit_the_header(lang: str) -> None:
    """Pyramido's longest game-over sentence (it ended "started lates…") and names that
    fill the 24 characters a name may have: all drawn whole, in both languages."""
    sample = next(s for s in all_samples(["pyramido"]) if s.name == "pyramido-competitive-over")
    summary = phrase(N_("Nobody completed a pyramid; {0} missed the fewest stones ({count}), and started latest "
                        "of those tied and won."), count=2)
    result = Result(winners=(1,), scores=(0.0, 0.0, 0.0), summary_text=Phrase(summary.template, summary.args, (1,)))
    names = ["Maximiliane Oberhuber-Kr", "Normal AI (hard)", "Zoë Ångström-Lindqvist"]
    view = {**sample.view, "result": result.to_json(text=True), "names": names, "lang": lang}
    with textlog.recording():
        img = board_image(view, sample.labels, sample.events)
    picture = Picture("long result", img, textlog.words(img))
    assert not cut_off(picture) and not overlapping(picture) and not too_small(picture)
    drawn = " ".join(w.text for w in picture.words)
    ending = {"en": "started latest of those tied and won.", "de": "gewinnt."}[lang]
    assert ending in drawn, drawn


@pytest.mark.parametrize("game", sorted(BUILDERS))
def test_the_longest_names_fit_the_hand_pictures(game: str) -> None:
    """A hand's title with a name of the 24 characters a name may have, and its note at the
    right ("9 Dominosteine · 6 Pyrinos · Summe 103" ran into "Hand von …"): the note goes
    under the title when they would meet."""
    names = ["Maximiliane Oberhuber-Kr", "Bartholomäus Wendelin-Ox", "Zoë Ångström-Lindqvist", "Normal AI (hard)"]
    for sample in all_samples([game]):
        for lang in ("en", "de"):
            with textlog.recording():
                img = hand_image({**sample.hand_view, "names": names[:len(sample.view.get("names") or [])] or names,
                                  "lang": lang})
            picture = Picture(f"{sample.name} hand {lang}", img, textlog.words(img))
            # (a single 18-letter word in a third of a four-seat header is broken: shown whole, never cut)
            for check in (cut_off, overlapping, too_small, under_badge):
                assert not check(picture), (picture.name, check(picture))


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_long_turn_line_fits_beside_or_under_the_title(lang: str) -> None:
    """Continuous Pyramid's turn line with both of its notes (first-edition rules, not
    proven winnable), in the German of the issue's cut-off header too."""
    sample = all_samples(["continuous-pyramid"])[0]
    view = {**sample.view, "options": {**sample.view.get("options", {}), "edition": 1}, "proven_winnable": False,
            "lang": lang}
    with textlog.recording():
        img = board_image(view, sample.labels, sample.events)
    picture = Picture("long subtitle", img, textlog.words(img))
    assert not cut_off(picture) and not overlapping(picture) and not too_small(picture)
    drawn = " ".join(w.text for w in picture.words)
    assert {"en": "not proven winnable", "de": "nicht als gewinnbar bewiesen"}[lang] in drawn, drawn


@FAST
@pytest.mark.parametrize("kind", sorted(BUILDERS))
@given(data=st.data())
def test_words_fit_in_any_reachable_position(kind: str, data: st.DataObject) -> None:
    """The invariant, for any position random play reaches (any options, seats, moves):
    board and hand, English and German, no word cut, over another, or too small."""
    game, state, events, _ = reach(kind, data)
    seat = game.to_act(state)
    for lang in ("en", "de"):
        with textlog.recording():
            board = board_image({**dress(game.view(state, None), 5), "lang": lang}, labels_for(game, state),
                                [e for e in events if e.visible(None)])
            board_broken = tuple(textlog.broken())
        with textlog.recording():
            hand = hand_image({**dress(game.view(state, seat if seat is not None else 0), 5), "lang": lang})
            hand_broken = tuple(textlog.broken())
        for name, img, broken in (("board", board, board_broken), ("hand", hand, hand_broken)):
            picture = Picture(f"{kind} {name} {lang}", img, textlog.words(img), broken)
            assert not cut_off(picture), cut_off(picture)
            assert not overlapping(picture), overlapping(picture)
            assert not too_small(picture), too_small(picture)
            assert not under_badge(picture), under_badge(picture)
            assert not broken_words(picture), broken_words(picture)
