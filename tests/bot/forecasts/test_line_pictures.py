"""A forecast line's picture (issue #41) shows only what its player can see: the board after the line's
moves and its answer is worked out on re-deals of what the seat cannot see, so two real positions that
agree on the seat's view (one a re-deal of the other) give the same picture, the same alt text and the
same words, byte for byte, in every game with a next turn. Lines from random play of the real position
(the others' moves as they could come, then a legal answer) are the lines checked; in Flaming Pyramids
(public outcomes) lines do get pictures, and a picture is the public board the line then gives."""

from __future__ import annotations

from typing import Any

import pytest

import render
from bot.cards.boards import plain_names
from bot.core.session import Session
from bot.forecasts.line_pictures import line_description
from bot.forecasts.line_preview import LinePreview, preview_line, preview_words
from engine.core import Game, Rng, get_game
from engine.core.forecast import MAX_OTHERS, Line
from i18n import Lang, shared_texts
from tests.bot.turns.test_preview import positions, session_of
from tests.test_hidden_information import TABLES

#: The games where a next turn exists (not the solo ones).
SHARED = [t for t in TABLES if t[1] > 1]


def a_line(game: Game[Any], state: Any, seat: int, rng: Rng) -> tuple[Line, Any] | None:
    """The others' moves from ``state`` (random, legal) until ``seat`` is to act, and a legal answer;
    with the state after the whole line. None if ``seat``'s turn does not come within a line's length."""
    others: list[str] = []
    while (mover := game.waiting_for(state)) is not None and mover != seat:
        if len(others) == MAX_OTHERS:
            return None
        move = rng.choice(game.legal_moves(state))
        others.append(move)
        state, _ = game.play(state, mover, move)
    if mover is None or not others:
        return None
    answer = rng.choice(game.legal_moves(state))
    after, _ = game.play(state, seat, answer)
    return Line(tuple(others), answer), after


def shown(preview: LinePreview, session: Session, line: Line, lang: Lang) -> tuple[Any, ...]:
    picture = alt = None
    if preview.view is not None:
        picture = render.render_board(preview.view, labels={}, events=list(preview.events), art=session.presenter.art)
        alt = line_description(session, 1, line, preview.view, lang)
    return picture, alt, tuple(preview_words([preview], lang))


@pytest.mark.parametrize(("kind", "players", "options"), SHARED, ids=lambda v: str(v))
def test_a_lines_picture_is_a_function_of_the_seats_view(kind: str, players: int, options: dict[str, Any]) -> None:
    game = get_game(kind)
    texts = shared_texts()
    checked = pictured = 0
    for seed in (31, 32):
        lang = texts.lang("de" if seed % 2 else "en")
        for state in positions(game, players, options, seed)[:4]:
            to_act = game.waiting_for(state)
            for seat in range(players):
                if seat == to_act:
                    continue
                found = a_line(game, state, seat, Rng(seed * 97 + seat))
                if found is None:
                    continue
                line, after = found
                session = session_of(kind, state, options)
                preview = preview_line(session, seat, line, lang)
                assert preview.possible, f"{kind}: a line that happened was called impossible"
                before = shown(preview, session, line, lang)
                if preview.view is not None:
                    pictured += 1
                    if kind == "flaming-pyramids":  # public outcomes: the picture is the board that follows
                        truth = {**game.view(after, None), "names": plain_names(session), "game_number": 7,
                                 "lang": lang.code}
                        assert preview.view == truth
                for k in range(2):
                    twin = game.determinize(state, seat, Rng(seed * 1000 + k))
                    if game.to_position(twin) == game.to_position(state):
                        continue  # nothing hidden from this seat here
                    other = session_of(kind, twin, options)
                    assert shown(preview_line(other, seat, line, lang), other, line, lang) == before, (
                        f"{kind}: the picture of line {line} depends on hidden pieces")
                    checked += 1
    assert checked > 0, "no position had anything hidden to re-deal"
    if kind == "flaming-pyramids":
        assert pictured, "Flaming Pyramids' outcomes are public: its lines have pictures"
