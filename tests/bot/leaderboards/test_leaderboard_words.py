"""Issue #43, finding 10: a challenge's leaderboard counts one undo in the singular."""

from __future__ import annotations

from bot.leaderboards.leaderboards import leader_line
from bot.store import GameRecord
from i18n import shared_texts

EN, DE = shared_texts().lang("en"), shared_texts().lang("de")


def finished(placed: int, undos: int) -> GameRecord:
    result = {"winners": [], "scores": [float(placed)], "details": {"tiles_placed": float(placed),
                                                                    "undos": float(undos)}}
    return GameRecord(id=1, kind="continuous-pyramid", guild_id=1, channel_id=2, thread_id=3, options={},
                      status="finished", seed=1, created_by=100, challenge_id=7, result=result, created_at="",
                      updated_at="", salt="0" * 32)


def test_one_undo_and_several() -> None:
    assert leader_line(1, finished(97, 1), "ana", EN) == "1. ana — 97/144 tiles, 1 undo"
    assert leader_line(2, finished(144, 2), "ben", EN) == "2. 🏆 ben — 144/144 tiles, 2 undos"
    assert leader_line(1, finished(97, 1), "ana", DE) == "1. ana — 97/144 Steine, 1 Rücknahme"
    assert leader_line(3, finished(97, 0), "cy", DE) == "3. cy — 97/144 Steine, 0 Rücknahmen"
