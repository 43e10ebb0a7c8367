"""The words drawn on pictures come in the view's language (``view["lang"]``).

A small hook records every text Pillow draws (the sprite cache of recurring texts is
emptied first and the glyph cache bypassed, so those are drawn too). With ``lang`` "de" the board and the hand of
each game draw the German catalogue's words and none of the English ones; and with
the German catalogue swapped for an empty one, a German view draws exactly the English
picture, so every difference comes from the catalogue."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import ImageDraw

from i18n import Texts, shared_texts
from render import canvas, flaming_pyramids, render_board, render_hand, words
from tools.gallery.samples import Sample, all_samples

DE = shared_texts().lang("de")
EN = shared_texts().lang("en")

#: Per game: (msgid, arguments) drawn on the opening's board or hand, and English words
#: that must not be drawn for a German reader.
EXPECTED: dict[str, tuple[list[tuple[str, dict[str, Any]]], list[str]]] = {
    "pyramido": ([("Level {level}", {"level": 1}), ("Stones in hand (open to all)", {}),
                  ("Move {number}", {"number": 0}), ("no 2×2 of four colours", {}), ("red", {}),
                  ("The team's pyramid", {}),
                  ("Your turn: the lettered cells match the buttons", {})],
                 ["Level", "Stones in hand", "Move", "Bag", "to play", "stones", "red", "(you)"]),
    "flaming-pyramids": ([("hand {hand} · pile {pile}", {"hand": 5, "pile": 6}), ("straw 2–10", {}),
                          ("{name}'s hand", {"name": "Ana"}), ("pile: {count} face down", {"count": 6})],
                         ["hand 5", "straw", "wood", "Move", "to play", "face down", "Your turn"]),
    "pyrinoes": ([("LINE OF PLAY", {}), ("Green pool (0 spots):", {}), ("{name}'s hand", {"name": "Ana"}),
                  ("Boneyard: {count} face down", {"count": 9})],
                 ["LINE OF PLAY", "Boneyard", "Round", "Move", "dominoes", "Fire", "Ice", "Your turn"]),
    "continuous-pyramid": ([("LEVELS", {}), ("level {level}", {"level": 1}), ("Undos: {count}", {"count": 0}),
                            ("stock: {count} face down", {"count": 135})],
                           ["LEVELS", "level 1", "Undos", "Placed", "face down", "to play", "Move"]),
}


def openings() -> list[Sample]:
    """Each game's first gallery sample (its opening)."""
    seen: dict[str, Sample] = {}
    for sample in all_samples():
        seen.setdefault(sample.game, sample)
    return list(seen.values())


OPENINGS = {s.game: s for s in openings()}


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text drawn while the test runs (with the text sprite cache emptied, and the
    glyph cache bypassed, so every word goes through Pillow's ``text``)."""
    texts: list[str] = []
    original = ImageDraw.ImageDraw.text

    def record(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        texts.append(str(text))
        original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", record)
    monkeypatch.setattr(canvas, "cached_text", lambda *args: False)
    canvas.text_sprite.cache_clear()
    yield texts
    canvas.text_sprite.cache_clear()


def pictures(sample: Sample, lang: str, texts: list[str]) -> tuple[bytes, bytes, list[str]]:
    """The board and the hand of ``sample`` in ``lang``, and the texts they drew."""
    texts.clear()
    canvas.text_sprite.cache_clear()
    flaming_pyramids._legend_rows.cache_clear()  # kept per language: a kept copy draws no word
    board = render_board({**sample.view, "lang": lang}, labels=sample.labels, events=sample.events)
    hand = render_hand({**sample.hand_view, "lang": lang})
    return board, hand, list(texts)


@pytest.mark.parametrize("game", sorted(EXPECTED))
def test_the_words_on_pictures_are_german(game: str, drawn: list[str]) -> None:
    sample = OPENINGS[game]
    board_en, hand_en, english = pictures(sample, "en", drawn)
    board_de, hand_de, german = pictures(sample, "de", drawn)
    assert board_de != board_en and hand_de != hand_en
    wanted, banned = EXPECTED[game]
    for msgid, args in wanted:
        in_german, in_english = DE.tr(msgid, **args), EN.tr(msgid, **args)
        assert in_german != in_english, msgid
        # a long line is wrapped into several texts, drawn one after the other
        assert in_german in " ".join(german), (msgid, in_german, german)
        assert in_english in " ".join(english), (msgid, in_english, english)
    leaked = [t for t in german if any(word in t for word in banned)]
    assert not leaked, leaked


def test_a_view_without_a_language_is_drawn_in_english(drawn: list[str]) -> None:
    sample = OPENINGS["pyramido"]
    board_en, hand_en, _ = pictures(sample, "en", drawn)
    drawn.clear()
    canvas.text_sprite.cache_clear()
    assert render_board(dict(sample.view), labels=sample.labels, events=sample.events) == board_en
    assert render_hand(dict(sample.hand_view)) == hand_en


@pytest.mark.parametrize("game", sorted(EXPECTED))
def test_every_difference_comes_from_the_german_catalogue(game: str, drawn: list[str], tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """With an empty German catalogue a German view draws the English picture."""
    sample = OPENINGS[game]
    board_en, hand_en, _ = pictures(sample, "en", drawn)
    (tmp_path / "de" / "LC_MESSAGES").mkdir(parents=True)
    empty = Texts.load(tmp_path)
    monkeypatch.setattr(words, "shared_texts", lambda: empty)
    board_de, hand_de, german = pictures(sample, "de", drawn)
    assert (board_de, hand_de) == (board_en, hand_en)
    assert DE.tr("Move {number}", number=0) not in german
