"""What the game cards say about the deal: nothing in their words (a 64-digit hash and a salt took five
or six lines of a phone's screen); a 🔐 Fair deal button on the first card and the last, whose private
answer seals the deal, and on the last reveals it (but for a shared deal's), and nothing for games
created before seals."""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.cards.boards import board_card
from bot.cards.fair_deals import fair_deal_text
from bot.core.session import Session
from bot.games.catalogue import Catalogue
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


def buttons(game: Session) -> list[str]:
    picture = discord.File(io.BytesIO(b"png"), filename="board.png", description="the board")
    layout = board_card(game, [], None, picture)
    return [str(item.label) for item in layout.walk_children() if isinstance(item, discord.ui.Button)]


def test_no_card_carries_the_seal_in_its_words() -> None:
    for moves in (0, 2, None):
        for challenge_id in (None, 4):
            text = board_content(session(moves=moves, challenge_id=challenge_id), [])
            assert "🔒" not in text and "🔓" not in text and SALT not in text and "sha256" not in text, text


def test_the_first_card_offers_the_seal() -> None:
    first = session(moves=0)
    assert "🔐 Fair deal" in buttons(first)
    told = fair_deal_text(first)
    assert told is not None and fairness.seal_line(fairness.commitment(KIND, 77, SALT)) in told
    assert "77" not in told.replace(fairness.commitment(KIND, 77, SALT), "") and SALT not in told


def test_cards_in_between_offer_no_fair_deal() -> None:
    assert "🔐 Fair deal" not in buttons(session(moves=2))


def test_the_last_card_reveals_the_seed_and_salt_privately() -> None:
    over = session(moves=None)
    assert over.over
    assert "Game over" in board_content(over, [])
    assert buttons(over) == ["🔁 Rematch", "🔐 Fair deal"]
    told = fair_deal_text(over)
    assert told is not None and fairness.reveal_line(77, SALT) in told
    assert f"printf 'pyramid-bot deal v1\\n{KIND}\\n77\\n{SALT}' | sha256sum" in told


def test_a_shared_deal_stays_sealed_at_the_end_and_has_no_rematch() -> None:
    over = session(moves=None, challenge_id=4)
    told = fair_deal_text(over)
    assert told is not None and told.endswith(fairness.CHALLENGE_SEALED) and SALT not in told and "🔓" not in told
    assert buttons(over) == ["🔐 Fair deal"]
    first = fair_deal_text(session(moves=0, challenge_id=4))
    assert first is not None and fairness.seal_line(fairness.commitment(KIND, 77, SALT), challenge=True) in first
    assert "revealed" not in first and "stay secret" in first and "challenge's deal" not in first


def test_a_game_created_before_seals_shows_no_seal_and_no_reveal() -> None:
    for moves in (0, None):
        game = session(moves=moves, salt=None)
        assert fair_deal_text(game) is None and "🔐 Fair deal" not in buttons(game)
