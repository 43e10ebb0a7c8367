"""Issue #43, findings 4 to 6: what a newcomer reads on a card speaks to them in words. A card
whose seat to act is an AI (the first card of a game an AI opens) does not tell the AI "it's
your turn"; English and German."""

from __future__ import annotations

from typing import Any

from bot.games.catalogue import Catalogue
from bot.play.session import Session
from bot.play.views.boards import status_line
from bot.store import GameRecord, SeatRecord
from i18n import shared_texts

CATALOGUE = Catalogue.default()
DE = shared_texts().lang("de")
EN = shared_texts().lang("en")


def session_with_ai_first(kind: str = "flaming-pyramids", options: dict[str, Any] | None = None) -> Session:
    """A two-seat game whose first seat, to act, is an easy AI."""
    options = options or {}
    presenter = CATALOGUE.presenter(kind)
    state = presenter.game.setup(2, options, 7)
    record = GameRecord(id=5, kind=kind, guild_id=1, channel_id=2, thread_id=3, options=options, status="active",
                        seed=7, created_by=101, challenge_id=None, result=None, created_at="", updated_at="")
    seats = [SeatRecord(game_id=5, seat=0, user_id=None, ai_level="easy", name="", joined_at=""),
             SeatRecord(game_id=5, seat=1, user_id=101, ai_level=None, name="Ben", joined_at="")]
    return Session(record, seats, presenter, state, 0)


def test_a_card_with_an_ai_to_act_does_not_tell_the_ai_its_turn() -> None:
    session = session_with_ai_first()
    assert session.to_act == 0
    english, german = status_line(session, EN), status_line(session, DE)
    assert "your turn" not in english and "🤖" in english and "moves first" in english, english
    assert "du bist am Zug" not in german, german
    assert "🤖" in german and german != english, german
