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

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine.core import Game, Rng, get_game
from engine.core.errors import EngineError
from engine.core.forced import forced_move
from engine.core.forecast import MAX_LINES, MAX_OTHERS, Line, chosen
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
        standing = set(before.pyramid.values())
        for seat, (old, new) in enumerate(zip(before.hands, after.hands, strict=True)):
            # Tiles reach hands from piles; one that stood on the pyramid was seen by all (an empty pile takes
            # a collapse's tiles in scan order and is drawn from at once: found by this test, seed 61).
            if set(new) - set(old) - standing:
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
@example(kind="flaming-pyramids", seed=61, players=4, length=45)  # a collapse drawn back into an empty pile's hand
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


@GAMES
@given(kind=st.sampled_from(["flaming-pyramids", "pyrinoes", "pyramido"]), seed=st.integers(0, 2**63),
       players=st.integers(2, 4), length=st.integers(2, 80), data=st.data())
def test_a_forecast_plays_only_legal_moves_and_chooses_alike_in_states_the_seat_cannot_tell_apart(
        kind: str, seed: int, players: int, length: int, data: st.DataObject) -> None:
    """Lines built from the real moves made (so some match) and from moves seen elsewhere:
    the answer chosen is always legal in the actual position, and re-deals of what the seat
    cannot see (its view unchanged) choose the same answer."""
    game = get_game(kind)
    options = {"mode": "competitive"} if kind == "pyramido" else {}
    count = max(2, min(game.player_range(game.parse_options(options))[1], players))
    state = game.setup(count, options, seed)
    rng = Rng(seed ^ 0xF0CA)
    log: list[tuple[int, str]] = []
    for _ in range(length):
        seat = game.waiting_for(state)
        if seat is None:
            break
        move = rng.choice(game.legal_moves(state))
        log.append((seat, move))
        state, _ = game.play(state, seat, move)
    seat = game.waiting_for(state)
    if seat is None:
        return
    mine = [n for n, (s, _) in enumerate(log) if s == seat]
    since = [m for _, m in log[(mine[-1] + 1 if mine else 0):]][-MAX_OTHERS:]
    pool = sorted({m for _, m in log} | set(game.legal_moves(state)))
    lines = [Line(tuple(since), data.draw(st.sampled_from(pool)))] if since else []
    for _ in range(data.draw(st.integers(0, MAX_LINES - len(lines)))):
        others = tuple(data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=MAX_OTHERS)))
        lines.append(Line(others, data.draw(st.sampled_from(pool))))
    lines = data.draw(st.permutations(lines))
    answer = chosen(game, state, seat, lines, since)
    if answer is not None:
        assert answer in game.legal_moves(state)
        game.play(state, seat, answer)  # never an illegal move
    twin_rng = Rng(seed)
    for _ in range(6):
        twin = game.determinize(state, seat, twin_rng)
        assert game.view(twin, seat) == game.view(state, seat)
        assert chosen(game, twin, seat, lines, since) == answer
    others = [s for s in range(count) if s != seat]
    assert all(chosen(game, state, s, lines, since) is None for s in others), "only on the seat's turn"
