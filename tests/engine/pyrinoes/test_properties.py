"""Property tests over random matches: conservation, the line, scoring, completeness."""

from __future__ import annotations

import itertools
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.errors import IllegalMove
from engine.core.rng import Rng
from engine.pyrinoes import GAME, PYRINOES
from engine.pyrinoes.pieces import DOMINOES, PYRINO_SPELLINGS
from engine.pyrinoes.state import PyrinoesState
from tests.engine.pyrinoes import reference

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)


def _pick(state: PyrinoesState, rng: Rng) -> str:
    """Mostly random, leaning to plays so rounds reach every kind of ending."""
    legal = GAME.legal_moves(state)
    plays = [m for m in legal if m.startswith("play")]
    return rng.choice(plays if plays and rng.random() < 0.6 else legal)


def _check_conservation(state: PyrinoesState) -> None:
    dominoes = Counter(DOMINOES[c].key for h in state.hands for c in h)
    dominoes.update(DOMINOES[c].key for c in state.boneyard)
    pyramids = sum(sum(s) for s in state.supply) + sum(state.green)
    pyramids += sum(sum(PYRINOES[c].need) + (PYRINOES[c].green_size > 0) for b in state.pyrinoes for c in b)
    for item in state.line:
        if "|" in item:
            p = PYRINO_SPELLINGS[item][0]
            pyramids += sum(p.need) + (p.green_size > 0)
        else:
            dominoes[DOMINOES[item].key] += 1
    assert sum(dominoes.values()) == 28 and len(dominoes) == 28
    assert pyramids == 45


def _line_ends(item: str) -> tuple[int, int]:
    if "|" in item:
        p, flipped = PYRINO_SPELLINGS[item]
        a, b = p.spots
        return (b, a) if flipped else (a, b)
    return DOMINOES[item].a, DOMINOES[item].b


def _check_line(state: PyrinoesState) -> None:
    ends = [_line_ends(item) for item in state.line]
    assert ends, "the line is never empty"
    assert ends[0][0] == state.left and ends[-1][1] == state.right
    assert all(x[1] == y[0] for x, y in itertools.pairwise(ends))
    view = GAME.view(state, None)
    assert view["open_ends"] == [state.left, state.right]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, policy_seed=SEEDS, target=st.integers(min_value=10, max_value=120))
def test_random_matches_keep_every_invariant(seed: int, policy_seed: int, target: int) -> None:
    rng = Rng(policy_seed)
    state = GAME.setup(2, {"target": target}, seed)
    steps = 0
    while GAME.result(state) is None:
        seat = state.turn
        before = GAME.to_position(state)
        move = _pick(state, rng)
        new, events = GAME.play(state, seat, move)
        assert GAME.to_position(state) == before, "play mutated its input"
        ended = any(e.kind == "round-end" for e in events)
        verb = move.split()[0]
        expected_pos = reference.after_play(before, seat, move) if verb == "play" else before
        cond = reference.condition(expected_pos, seat, verb == "pass", before["passes"])
        assert ended == (cond is not None), (move, cond)
        if ended:
            assert verb in ("play", "pass")
            assert cond is not None
            points = reference.round_points(expected_pos, seat, cond)
            assert list(new.scores) == [before["scores"][0] + points[0], before["scores"][1] + points[1]]
            assert new.round == state.round + (0 if new.winner is not None else 1)
        else:
            assert new.scores == state.scores and new.round == state.round
        state = new
        _check_conservation(state)
        _check_line(state)
        assert GAME.from_position(GAME.to_position(state)) == state
        steps += 1
        assert steps < 5000
    s0, s1 = state.scores
    reached = [s0 >= target, s1 >= target]
    if all(reached):
        assert s0 != s1 and state.winner == (0 if s0 > s1 else 1)
    else:
        assert reached.count(True) == 1 and state.winner == reached.index(True)


def _candidates(state: PyrinoesState) -> set[str]:
    seat = state.turn
    pieces = list(state.hands[seat]) + list(state.pyrinoes[seat])
    out = {f"play {c} {side}" for c in pieces for side in ("left", "right")}
    out |= {f"build {code}" for code in PYRINOES}
    return out | {"draw", "pass"}


@settings(max_examples=6, deadline=None)
@given(seed=SEEDS, policy_seed=SEEDS)
def test_legal_moves_are_exactly_the_accepted_moves(seed: int, policy_seed: int) -> None:
    rng = Rng(policy_seed)
    state = GAME.setup(2, None, seed)
    for step in range(400):
        if GAME.result(state) is not None:
            break
        if step % 23 == 0:
            legal = GAME.legal_moves(state)
            assert len(legal) == len(set(legal))
            accepted = set()
            for move in _candidates(state):
                try:
                    GAME.play(state, state.turn, move)
                except IllegalMove as exc:
                    assert exc.reason.strip()
                else:
                    accepted.add(move)
            assert accepted == set(legal)
        state, _ = GAME.play(state, state.turn, _pick(state, rng))


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, moves=st.integers(min_value=0, max_value=200), det_seed=SEEDS)
def test_determinize_is_indistinguishable_to_the_seat(seed: int, moves: int, det_seed: int) -> None:
    rng = Rng(seed ^ 0x5A5A)
    state = GAME.setup(2, None, seed)
    for _ in range(moves):
        if GAME.result(state) is not None:
            break
        state, _ = GAME.play(state, state.turn, _pick(state, rng))
    for seat in (0, 1):
        sample = GAME.determinize(state, seat, Rng(det_seed))
        assert GAME.view(sample, seat) == GAME.view(state, seat)
        _check_conservation(sample)
