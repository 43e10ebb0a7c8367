"""Issue #43, findings 4 to 6: what a newcomer reads on a card speaks to them in words. A card
whose seat to act is an AI (the first card of a game an AI opens) does not tell the AI "it's
your turn"; Pyramido's stones and Pyrinoes' pyrinoes are named in words on the chooser's buttons,
in the move told and on the card; a preview's alt text tells the move in words. English and German."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from bot.cards.boards import public_view, status_line
from bot.cards.chooser import chooser, spot_letters
from bot.cards.preview import preview_description, preview_move
from bot.core.session import Session
from bot.games.catalogue import Catalogue
from bot.games.pyramido import board_lines
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


# --- words, not notation (findings 5 and 6) -------------------------------------------------

#: A stone's letter standing alone; a pyrino's code; a cell in the notation; a move as typed.
STONE = re.compile(r"(?<![\w'])[RYGBW](?![\w'])")
PYRINO = re.compile(r"\b[GYRBK]\d{1,2}\|[GYRBK]\d{1,2}\b")
TYPED = re.compile(r"\b(play|place|take|build)\s+\S+\s+-?\d")


def session_of(kind: str, players: int, options: dict[str, Any], moves: int = 0) -> Session:
    presenter = CATALOGUE.presenter(kind)
    game = presenter.game
    state = game.setup(players, options, 7)
    for _ in range(moves):
        seat = game.waiting_for(state)
        assert seat is not None
        state, _ = game.play(state, seat, game.legal_moves(state)[0])
    record = GameRecord(id=5, kind=kind, guild_id=1, channel_id=2, thread_id=3, options=options, status="active",
                        seed=7, created_by=100, challenge_id=None, result=None, created_at="", updated_at="")
    seats = [SeatRecord(game_id=5, seat=s, user_id=100 + s, ai_level=None, name=n, joined_at="")
             for s, n in enumerate(("Ana", "Ben")[:players])]
    return Session(record, seats, presenter, state, moves)


def labels_of(view: discord.ui.View) -> list[str]:
    found: list[str] = []
    for item in view.children:
        if isinstance(item, discord.ui.Select):
            found += [option.label for option in item.options]
        else:
            found.append(str(getattr(item, "label", "")))
    return found


@pytest.mark.parametrize("lang", [EN, DE], ids=["en", "de"])
def test_pyramido_names_stones_by_their_colour_in_the_chooser_the_move_and_the_card(lang: Any) -> None:
    session = session_of("pyramido", 1, {"mode": "solo", "size": 4})
    stones = labels_of(chooser(session, ["place"], lang=lang).view)
    assert stones and not any(STONE.search(label) for label in stones), stones
    colours = ("Red", "Yellow", "Green", "Blue", "White") if lang is EN else ("Rot", "Gelb", "Grün", "Blau", "Weiß")
    assert all(any(c in label for c in colours) for label in stones if "Back" not in label
               and "Zurück" not in label), stones
    move = next(m for m in session.game.legal_moves(session.state) if m.startswith("place"))
    told = session.presenter.move_words(move, spot_letters(session), lang)
    assert not STONE.search(told) and not TYPED.search(told), told
    card = "\n".join(board_lines(public_view(session, lang), ["Ana"], lang))
    assert card and not STONE.search(card.split(":", 1)[1]), card


@pytest.mark.parametrize("lang", [EN, DE], ids=["en", "de"])
def test_pyrinoes_names_pyrinoes_by_their_ends_on_the_choosers_buttons(lang: Any) -> None:
    session = session_of("pyrinoes", 2, {})
    presenter = session.presenter
    build = next(m for m in session.game.legal_moves(session.state) if m.startswith("build"))
    path = list(presenter.steps(build))[:-1]
    shown = labels_of(chooser(session, path, lang=lang).view)
    assert shown and not any(PYRINO.search(label) for label in shown), shown
    told = presenter.move_words(build, {}, lang)
    assert not PYRINO.search(told), told


@pytest.mark.parametrize("lang", [EN, DE], ids=["en", "de"])
def test_a_previews_alt_text_tells_the_move_in_words(lang: Any) -> None:
    session = session_of("flaming-pyramids", 2, {})
    seat = session.to_act
    assert seat is not None
    move = next(m for m in session.game.legal_moves(session.state) if m.startswith("play"))
    preview = preview_move(session, seat, move, lang)
    alt = preview_description(preview, session, lang)
    lead = alt.splitlines()[0]
    assert move not in lead and not TYPED.search(lead), lead
    assert session.presenter.move_words(move, spot_letters(session), lang) in lead, lead
