"""FP-8 information: views and determinization."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from engine.core.rng import Rng
from engine.flaming_pyramids import GAME

from .helpers import assert_conserved, random_game


def _codes(view: dict[str, Any]) -> set[str]:
    return set(re.findall(r"\b[RGBYM]\d+\b", json.dumps(view)))


def test_fp8_view_hides_hands_and_piles() -> None:
    state = GAME.setup(4, None, 5)
    view = GAME.view(state, 1)
    assert view["game"] == "flaming-pyramids" and view["seat"] == 1 and view["players"] == 4
    assert view["hands"][1] == list(state.hands[1])
    assert view["hands"][0] == 5 and view["hands"][2] == 5
    assert view["hand_sizes"] == [5, 5, 5, 5]
    assert view["piles"] == [6, 6, 6, 6]
    seen = _codes(view)
    for seat in (0, 2, 3):
        assert not seen & set(state.hands[seat])
    for pile in state.piles:
        assert not seen & set(pile)  # even the owner's pile is face down
    assert seen == set(state.hands[1]) | set(state.pyramid.values()) | set(state.removed)
    assert view["turn_number"] == 0 and view["result"] is None and view["pending"] is None
    assert view["to_act"] == state.turn


def test_fp8_spectator_sees_no_hand() -> None:
    state = GAME.setup(3, None, 8)
    view = GAME.view(state, None)
    assert view["hands"] == [5, 5, 5] and view["legal_moves"] == []


def test_view_legal_moves_only_for_the_seat_to_act() -> None:
    state = GAME.setup(3, None, 8)
    seat = GAME.to_act(state)
    assert seat is not None
    assert GAME.view(state, seat)["legal_moves"] == GAME.legal_moves(state)
    assert GAME.view(state, (seat + 1) % 3)["legal_moves"] == []
    assert GAME.view(state, seat)["open_spaces"]


def test_determinize_keeps_what_the_seat_knows() -> None:
    _, _, ends = random_game(4, 3, False, 60)
    state = ends[-1]
    for seat in range(4):
        other = GAME.determinize(state, seat, Rng(seat))
        assert_conserved(other)
        assert other.hands[seat] == state.hands[seat]
        assert other.pyramid == state.pyramid and other.removed == state.removed
        assert [len(h) for h in other.hands] == [len(h) for h in state.hands]
        assert [len(p) for p in other.piles] == [len(p) for p in state.piles]
        assert GAME.view(other, seat) == GAME.view(state, seat)
        hidden = Counter(t for p in range(4) if p != seat for t in state.hands[p]) + Counter(
            t for pile in state.piles for t in pile
        )
        redealt = Counter(t for p in range(4) if p != seat for t in other.hands[p]) + Counter(
            t for pile in other.piles for t in pile
        )
        assert hidden == redealt
    assert GAME.determinize(state, 0, Rng(1)) != GAME.determinize(state, 0, Rng(2))


def test_view_describes_a_pending_fall() -> None:
    state = GAME.from_position({"players": 2, "pyramid": {"0,0": "B30", "0,1": "R4"}, "hands": [["Y60", "G2"], ["R2"]]})
    state, _ = GAME.play(state, 0, "play Y60 1,0")
    view = GAME.view(state, 1)
    assert view["to_act"] == 0 and view["legal_moves"] == [] and view["open_spaces"] == []
    assert view["pending"] == {"kind": "fall", "player": 0, "tile": "Y60", "at": "1,0"}
    assert view["falling"] == {"tile": "Y60", "at": "1,0", "lifted": True, "left": "0,0", "right": "0,1"}
    assert GAME.view(state, 0)["legal_moves"] == ["fall left", "fall right"]
