"""A result that a move can still take back (a stuck solitaire that may undo) is not
called "Game over" on the picture; a final one is."""

from __future__ import annotations

import pytest

from render import board_image, textlog
from tools.gallery.samples import all_samples

SAMPLES = {s.name: s for s in all_samples(["continuous-pyramid"])}


def header_text(name: str, lang: str) -> str:
    s = SAMPLES[name]
    with textlog.recording():
        img = board_image({**s.view, "lang": lang}, s.labels, s.events)
    return " ".join(w.text for w in textlog.words(img) if w.box[3] < 200)


@pytest.mark.parametrize(("lang", "over", "not_yet"), [("en", "Game over", "Not over yet"),
                                                       ("de", "Spiel vorbei", "Noch nicht vorbei")])
def test_stuck_with_an_undo_left_is_not_over(lang: str, over: str, not_yet: str) -> None:
    stuck = header_text("continuous-pyramid-stuck", lang)
    assert not_yet in stuck and over not in stuck, stuck
    final = header_text("continuous-pyramid-over", lang)
    assert over in final and not_yet not in final, final
