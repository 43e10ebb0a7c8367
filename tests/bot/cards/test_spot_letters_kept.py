"""The chooser's spot letters are worked out once per position (``Session.memo``): every
answer is the board picture's letters of the session's own state, whichever states the
session object has held, and a copy the caller may change."""

from __future__ import annotations

import dataclasses
import random

import pytest

import bot.cards.chooser as chooser_module
from bot.cards.boards import board_labels, public_view
from bot.cards.chooser import spot_letters
from tests.bot.cards.test_chooser_words import session_of


def random_moves(kind: str, players: int, count: int, seed: int) -> list[str]:
    session, rng, moves = session_of(kind, players, {}), random.Random(seed), []
    state = session.state
    for _ in range(count):
        seat = session.game.waiting_for(state)
        if seat is None:
            break
        move = rng.choice(sorted(session.game.legal_moves(state)))
        state, _ = session.game.play(state, seat, move)
        moves.append(move)
    return moves


@pytest.mark.parametrize(("kind", "players"), [("flaming-pyramids", 2), ("continuous-pyramid", 1), ("pyrinoes", 2)])
@pytest.mark.parametrize("seed", range(3))
def test_letters_are_those_of_the_state_the_session_holds(kind: str, players: int, seed: int) -> None:
    moves = random_moves(kind, players, 6, seed)
    session = session_of(kind, players, {}, moves=moves[:3])
    first = spot_letters(session)
    assert first == board_labels(session, public_view(session))
    first["zz"] = "Z"  # the caller's copy: what is kept stays as it was
    assert spot_letters(session) == board_labels(session, public_view(session))
    later = session_of(kind, players, {}, moves=moves)
    session.state, session.version = later.state, later.version  # the same object, another position
    assert spot_letters(session) == board_labels(later, public_view(later))
    copied = dataclasses.replace(session)
    assert copied.memo == {} and spot_letters(copied) == spot_letters(session)


def test_a_position_is_lettered_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = chooser_module.board_labels

    def counted(*args: object, **kwargs: object) -> dict[str, str]:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(chooser_module, "board_labels", counted)
    session = session_of("flaming-pyramids", 2, {})
    for _ in range(3):
        spot_letters(session)
    assert len(calls) == 1
