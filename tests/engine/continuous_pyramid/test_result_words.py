"""Issue #43, finding 10: a result counts its undos in the singular when there is one
("(1 undo)", not "(1 undos)"), in English and in German."""

from __future__ import annotations

from engine.continuous_pyramid import GAME
from i18n import shared_texts
from tests.engine.continuous_pyramid.test_game import STUCK

DE = shared_texts().lang("de")


def summary(state: object, gettext: object = None) -> str:
    result = GAME.result(state)
    assert result is not None and result.summary_text is not None
    return result.summary_text.fill(["Ann"], gettext)  # type: ignore[arg-type]


def test_one_undo_is_one_undo() -> None:
    stuck, _ = GAME.play(GAME.from_position(STUCK), 0, "play B4 1:4,5")
    assert "(0 undos)" in summary(stuck)
    back, _ = GAME.play(stuck, 0, "undo")
    again, _ = GAME.play(back, 0, "play B4 1:4,5")
    assert "(1 undo);" in summary(again) and "(1 Rücknahme);" in summary(again, DE.gettext), summary(again)
    done, _ = GAME.play(again, 0, "resign")
    assert summary(done) == "Ann placed 2 of 144 tiles (1 undo)."
    assert summary(done, DE.gettext) == "Ann hat 2 von 144 Steinen gelegt (1 Rücknahme)."
