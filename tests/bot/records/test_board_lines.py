"""What the game cards say about the deal: sealed on the first, revealed on the last
(but for a challenge's), nothing for games created before seals."""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.games.catalogue import Catalogue
from bot.play.session import Session
from bot.play.views.boards import board_card
from bot.play.views.cards import MAX_TEXT
from bot.records import fairness
from bot.store import GameRecord, SeatRecord
from engine.core import Event, Rng
from tests.bot.records.helpers import pick

SALT = "0123456789abcdef" * 2
KIND = "flaming-pyramids"


def session(*, moves: int | None, salt: str | None = SALT, challenge_id: int | None = None) -> Session:
    """A two-player game after ``moves`` random moves (None: to its end)."""
    presenter = Catalogue.default().presenter(KIND)
    game = presenter.game
    state: Any = game.setup(2, {"turn_limit": 3}, 77)
    rng, made = Rng(1), 0
    while game.waiting_for(state) is not None and (moves is None or made < moves):
        state, _ = game.play(state, game.waiting_for(state), pick(game.legal_moves(state), rng))  # type: ignore[arg-type]
        made += 1
    over = game.waiting_for(state) is None
    record = GameRecord(id=5, kind=KIND, guild_id=1, channel_id=2, thread_id=3, options={"turn_limit": 3},
                        status="finished" if over else "active", seed=77, created_by=100, challenge_id=challenge_id,
                        result=None, created_at="", updated_at="", salt=salt)
    seats = [SeatRecord(game_id=5, seat=s, user_id=100 + s, ai_level=None, name=f"P{s}", joined_at="")
             for s in range(2)]
    return Session(record, seats, presenter, state, made)


def board_content(game: Session, events: list[Event]) -> str:
    """The words of the game's card, its text displays in order, as the channel reads them."""
    picture = discord.File(io.BytesIO(b"png"), filename="board.png", description="the board")
    layout = board_card(game, events, None, picture)
    return "\n".join(item.content for item in layout.walk_children() if isinstance(item, discord.ui.TextDisplay))


def test_the_first_board_seals_the_deal() -> None:
    text = board_content(session(moves=0), [])
    assert fairness.seal_line(fairness.commitment(KIND, 77, SALT)) in text
    assert "77" not in text.replace(fairness.commitment(KIND, 77, SALT), "") and SALT not in text


def test_boards_in_between_say_nothing_about_the_deal() -> None:
    text = board_content(session(moves=2), [])
    assert "🔒" not in text and "🔓" not in text and SALT not in text


def test_the_last_board_reveals_the_seed_and_salt() -> None:
    over = session(moves=None)
    assert over.over
    text = board_content(over, [])
    assert text.endswith(fairness.reveal_line(77, SALT))
    assert "Game over" in text


def test_the_reveal_survives_a_long_story() -> None:
    over = session(moves=None)
    story = [Event("note", "{0} " + "did something rather long to tell. " * 8, players=(0,)) for _ in range(40)]
    text = board_content(over, story)
    assert len(text.replace("\n", "")) <= MAX_TEXT and text.endswith(fairness.reveal_line(77, SALT))


def test_a_challenge_deal_stays_sealed_at_the_end() -> None:
    text = board_content(session(moves=None, challenge_id=4), [])
    assert text.endswith(fairness.CHALLENGE_SEALED) and SALT not in text and "🔓" not in text
    first = board_content(session(moves=0, challenge_id=4), [])
    assert fairness.seal_line(fairness.commitment(KIND, 77, SALT), challenge=True) in first
    assert "revealed" not in first and "stay secret" in first


def test_a_game_created_before_seals_shows_no_seal_and_no_reveal() -> None:
    for moves in (0, None):
        text = board_content(session(moves=moves, salt=None), [])
        assert "🔒" not in text and "🔓" not in text and "seal" not in text.lower()
