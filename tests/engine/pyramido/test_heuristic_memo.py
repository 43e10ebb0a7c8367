"""The heuristic's memo (``heuristic.MEMO_LIMIT``) changes no answer: whatever was
asked before, and however full the memo is, each question gets the answer it gets from
a memo that was empty. (It was added so the AI ratings tool can measure Pyramido's hard
AI in the time there is: the search asks the same questions again and again.)"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.pyramido import GAME, heuristic
from engine.pyramido.geometry import footprint
from engine.pyramido.state import State
from engine.pyramido.stones import COLOURS

Question = tuple[dict[tuple[int, int, int], str], int, tuple[str, ...], Counter[str], Counter[str]]


def questions(seed: int, mode: str) -> list[Question]:
    """What the heuristic is asked along one randomly played game."""
    rng = random.Random(seed)
    state = GAME.setup(2 if mode != "solo" else 1, {"mode": mode}, seed)
    asked: list[Question] = []
    for _ in range(200):
        if GAME.result(state) is not None:
            break
        assert isinstance(state, State)
        seat = state.turn
        pyramid = state.pyramids[seat if state.competitive else 0]
        stones = state.quarry if state.competitive else state.hands[seat]
        hand = Counter(state.reserves[seat] if state.competitive else stones)
        asked.append((dict(pyramid), state.size, tuple(stones), heuristic.supply_for(state, seat), hand))
        moves = GAME.legal_moves(state)
        state, _ = GAME.play(state, seat, rng.choice(moves))
    return asked


def answers(asked: list[Question]) -> list[object]:
    return [(heuristic.best_placement(p, size, stones, supply, hand), heuristic.projected_need(p, size, footprint(p)))
            for p, size, stones, supply, hand in asked]


def cold(asked: list[Question]) -> list[object]:
    out = []
    for question in asked:
        heuristic._MEMO.clear()
        heuristic._NEED_MEMO.clear()
        out += answers([question])
    return out


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["competitive", "coop", "solo"]), st.randoms(use_true_random=False))
def test_the_memo_changes_no_answer(seed: int, mode: str, order: random.Random) -> None:
    asked = questions(seed, mode)
    expected = cold(asked)
    shuffled = list(range(len(asked)))
    order.shuffle(shuffled)
    warm = dict(zip(shuffled, answers([asked[i] for i in shuffled]), strict=True))
    again = answers(asked)  # every answer now comes from the memo
    assert [warm[i] for i in range(len(asked))] == expected == again
    # The same counts held in other Counters (a colour at 0, or missing) are the same question,
    # and what a caller does to the forecast it got does not reach the memo.
    p, size, stones, supply, hand = asked[-1]
    padded = Counter(hand)
    for colour in COLOURS:
        padded.setdefault(colour, 0)
    best, need = expected[-1]  # type: ignore[misc]
    assert heuristic.best_placement(p, size, stones, supply.copy(), padded) == best
    heuristic.projected_need(p, size, footprint(p))[COLOURS[0]] += 99.0
    assert heuristic.projected_need(p, size, footprint(p)) == need
