"""An undo that cannot cheat (issue #41): over random games of every kind, a move may be
taken back exactly when it showed nobody anything hidden, and taking it back gives the
position before it, with every seat's view, exactly.

What "showed something hidden" means is checked here from each game's own state, not
by the rule under test: a tile came out of a Flaming Pyramids pile, the Pyrinoes
boneyard, the Pyramido bag or the Continuous Pyramid stock (drawn or shown) while the
supply held more than one kind of tile (the last kind left is known by counting), or the
game's RNG moved on (a random event, a new round dealt). And, independently of the game, by
re-deals the rule never drew (other seeds): every seat's view after an allowed move is
the same whatever lay hidden."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import Game, Rng, get_game
from engine.core.errors import EngineError
from engine.core.forced import forced_move
from engine.core.undo import Revealed, may_take_back, revealed, take_back
from engine.flaming_pyramids.view import hidden_tiles

KINDS = ["flaming-pyramids", "continuous-pyramid", "pyrinoes", "pyramido"]
GAMES = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def supply(kind: str, state: Any, seat: int) -> list[Any]:
    """What ``seat`` cannot see and draws from, read from the game's own state."""
    if kind == "flaming-pyramids":
        return hidden_tiles(state, seat)
    if kind == "pyrinoes":
        return [*state.boneyard, *state.hands[1 - seat]]
    if kind == "pyramido":
        return list(state.bag)
    return list(state.stock)


def took_from_supply(kind: str, before: Any, after: Any) -> int | None:
    """The seat that drew or turned up a face-down tile in this move (None: nobody)."""
    if kind == "flaming-pyramids":  # its piles can grow in the same move (a collapse goes under one)
        for seat, (old, new) in enumerate(zip(before.hands, after.hands, strict=True)):
            if set(new) - set(old):  # tiles reach hands only from piles
                return seat
        return None
    if kind == "pyrinoes":
        return before.turn if len(after.boneyard) < len(before.boneyard) else None
    if kind == "pyramido":
        return before.turn if len(after.bag) < len(before.bag) else None
    return 0 if len(after.stock) < len(before.stock) else None


def showed_something(game: Game[Any], kind: str, before: Any, after: Any) -> bool:
    """The oracle: the RNG decided something, or a tile came out of a face-down supply
    that held more than one kind of tile (one left of one kind is known by counting)."""
    if game.to_position(after).get("rng") != game.to_position(before).get("rng"):
        return True
    seat = took_from_supply(kind, before, after)
    return seat is not None and len(set(supply(kind, before, seat))) > 1


def views_agree_elsewhere(game: Game[Any], before: Any, after: Any, seat: int, move: str, salt: int) -> bool:
    """Re-deals the rule never drew: each seat's view after the move is the same from each."""
    for viewer in range(game.players_in(before)):
        expected = game.view(after, viewer)
        rng = Rng(salt * 7919 + viewer)
        for _ in range(60):
            guess = game.determinize(before, viewer, rng)
            try:
                guessed, _ = game.play(guess, seat, move)
            except EngineError:
                continue
            if game.view(guessed, viewer) != expected:
                return False
    return True


def random_log(kind: str, seed: int, players: int, length: int
               ) -> tuple[Game[Any], int, list[Any], list[tuple[int, str]]]:
    game = get_game(kind)
    low, high = game.player_range(game.parse_options({}))
    players = max(low, min(high, players))
    state = game.setup(players, {}, seed)
    states = [state]
    log: list[tuple[int, str]] = []
    rng = Rng(seed ^ 0x5EED)
    for _ in range(length):
        seat = game.waiting_for(state)
        if seat is None:
            break
        move = rng.choice(game.legal_moves(state))
        state, _ = game.play(state, seat, move)
        states.append(state)
        log.append((seat, move))
    return game, players, states, log


@GAMES
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 2**63), players=st.integers(1, 4),
       length=st.integers(1, 70))
def test_a_move_may_be_taken_back_exactly_when_it_showed_nothing_hidden(
        kind: str, seed: int, players: int, length: int) -> None:
    game, _, states, log = random_log(kind, seed, players, length)
    for number, (seat, move) in enumerate(log):
        before, after = states[number], states[number + 1]
        allowed = may_take_back(game, before, seat, move)
        assert allowed == (not showed_something(game, kind, before, after)), (kind, number, move)
        if allowed:
            assert views_agree_elsewhere(game, before, after, seat, move, seed + number)


@GAMES
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 2**63), players=st.integers(1, 4),
       length=st.integers(1, 70))
def test_taking_back_gives_the_position_and_every_view_before_the_move(
        kind: str, seed: int, players: int, length: int) -> None:
    game, count, states, log = random_log(kind, seed, players, length)
    back = take_back(game, count, {}, seed, log)
    before = states[-2]
    assert game.to_position(back) == game.to_position(before)
    for viewer in [None, *range(count)]:
        assert game.view(back, viewer) == game.view(before, viewer)
    assert game.legal_moves(back) == game.legal_moves(before)


def test_the_answer_depends_only_on_what_is_seen() -> None:
    """Two states a seat cannot tell apart get the same answer for that seat's move:
    the re-deals are seeded by views, never by where hidden tiles lie."""
    game = get_game("flaming-pyramids")
    state = game.setup(3, {}, 41)
    seat = game.to_act(state)
    assert seat is not None
    twin = game.determinize(state, seat, Rng(9))
    assert twin != state and game.view(twin, seat) == game.view(state, seat)
    for move in game.legal_moves(state):
        assert move in game.legal_moves(twin)
        assert (revealed(game, state, seat, move) is None) == (revealed(game, twin, seat, move) is None)


def test_a_move_that_is_not_legal_is_no_move_to_take_back() -> None:
    game = get_game("pyrinoes")
    state = game.setup(2, {}, 3)
    seat = game.to_act(state)
    assert seat is not None
    assert revealed(game, state, seat, "nonsense") is Revealed.NOT_A_MOVE


@GAMES
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 2**63), players=st.integers(1, 4),
       length=st.integers(1, 120))
def test_a_forced_move_is_the_only_legal_move_and_follows_from_the_seats_view(
        kind: str, seed: int, players: int, length: int) -> None:
    """``forced_move`` names a move only when it is the one legal move, the same in every
    state the seat cannot tell apart (re-deals the rule never drew agree), and names it
    whenever that holds."""
    game, _, states, _ = random_log(kind, seed, players, length)
    for state in states:
        seat = game.waiting_for(state)
        if seat is None:
            continue
        forced = forced_move(game, state, seat)
        moves = game.legal_moves(state)
        if len(moves) != 1:
            assert forced is None
            continue
        rng = Rng(seed)
        agree = all(game.legal_moves(game.determinize(state, seat, rng)) == moves for _ in range(20))
        assert forced == (moves[0] if agree else None)
        for other in range(game.players_in(state)):
            if other != seat:
                assert forced_move(game, state, other) is None
