"""Pebble Pyramid's rule book against the core contract, with no bot or pictures."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from engine.core import BadOptions, BadPosition, GameOver, IllegalMove, NotYourTurn, Rng, game_ids, get_game
from engine.core.notation import cells_in
from engine.core.options import offered
from tests.fifth_game.engine import GAME
from tests.fifth_game.state import CELLS, PebbleState
from tools.playout import steps


def random_game(seed: int, tokens: int = 4) -> tuple[PebbleState, list[tuple[int, str]]]:
    """A whole game of uniformly random legal moves, and its move log."""
    start = GAME.setup(2, {"tokens_per_colour": tokens}, seed)
    line = list(steps(GAME, start, Rng(seed * 7919 + 1), 200))
    return (line[-1].state if line else start), [(step.seat, step.move) for step in line]


def position(stones: dict[str, str], hands: list[list[str]], deck: list[str], discards: list[str],
             taken: list[list[str]] | None = None, turn: int = 0, passes: int = 0) -> PebbleState:
    return GAME.from_position({
        "options": {"tokens_per_colour": 3},
        "pyramid": stones,
        "taken": taken if taken is not None else [[], []],
        "hands": hands,
        "deck": deck,
        "discards": discards,
        "turn": turn,
        "passes": passes,
    })


FULL = dict(zip(CELLS, "RGBRGBRGBR", strict=True))  # 3,0 is red; 2,0 green and 2,1 blue


def test_a_seed_and_a_move_log_rebuild_the_same_game() -> None:
    for seed in range(20):
        state, log = random_game(seed)
        again = GAME.replay(2, {"tokens_per_colour": 4}, seed, log)
        assert GAME.to_position(again) == GAME.to_position(state)
    assert GAME.to_position(GAME.setup(2, {}, 1)) == GAME.to_position(GAME.setup(2, {}, 1))
    deals = {json.dumps(GAME.to_position(GAME.setup(2, {}, seed)), sort_keys=True) for seed in range(20)}
    assert len(deals) == 20


def test_the_option_sizes_the_deck_and_is_offered_to_players() -> None:
    for tokens in (3, 6):
        state = GAME.setup(2, {"tokens_per_colour": tokens}, 5)
        assert len(state.deck) + 4 == 3 * tokens
    with pytest.raises(BadOptions, match="tokens_per_colour"):
        GAME.setup(2, {"tokens_per_colour": 2}, 5)
    with pytest.raises(BadOptions, match="needs 2 players"):
        GAME.setup(3, {}, 5)
    [offer] = offered(GAME.options_model)
    assert (offer.name, offer.kind, offer.default) == ("tokens_per_colour", "int", 4)
    assert (offer.minimum, offer.maximum) == (3, 6)
    others = {name for kind in game_ids() for name in get_game(kind).options_model.model_fields}
    assert offer.name not in others


def test_the_other_hand_and_the_deck_are_hidden() -> None:
    state = position(FULL, [["R", "G"], ["B", "B"]], ["R", "G", "B", "R", "G"], [])
    mine = GAME.view(state, 0)
    assert mine["hands"] == [["R", "G"], 2]
    assert mine["deck"] == 5
    spectator = GAME.view(state, None)
    assert spectator["hands"] == [2, 2] and spectator["deck"] == 5
    # What seat 1 sees does not depend on seat 2's hand or the deck's order.
    other = position(FULL, [["R", "G"], ["R", "G"]], ["B", "B", "B", "R", "G"], [])
    assert GAME.view(other, 0) == mine
    assert GAME.view(other, 1) != GAME.view(state, 1)


def test_the_view_carries_the_common_keys() -> None:
    state, _ = random_game(3)
    view = GAME.view(state, 1)
    assert view["game"] == "pebble-pyramid"
    assert view["seat"] == 1
    assert view["players"] == 2
    assert view["to_act"] is None
    assert view["pending"] is None
    assert view["result"]["winners"]
    assert view["turn_number"] == state.moves


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("", "not a move"),
        ("jump R 3,0", "'jump' is not a move"),
        ("take", "which token to spend"),
        ("take X 3,0", "'X' is not a colour"),
        ("take R 9,9", "not a cell of the pyramid"),
        ("take R 0,0", "not free"),
        ("take B 3,0", "hold no blue token to spend"),
        ("pass", "which token to discard"),
        ("pass B", "no blue token to discard"),
        ("take R 3,0 " + "x" * 100, "too long"),
    ],
)
def test_illegal_moves_are_refused_with_a_reason(move: str, reason: str) -> None:
    state = position(FULL, [["R", "G"], ["B", "B"]], ["R", "G", "B", "R", "G"], [])
    before = GAME.to_position(state)
    with pytest.raises(IllegalMove, match=reason):
        GAME.play(state, 0, move)
    assert GAME.to_position(state) == before
    with pytest.raises(NotYourTurn):
        GAME.play(state, 1, "take B 3,0")


def test_a_matching_token_wins_the_stone_and_frees_the_stones_below() -> None:
    state = position(FULL, [["R", "G"], ["B", "B"]], ["R", "G", "B", "R", "G"], [])
    moves = GAME.legal_moves(state)
    assert moves == ["take R 3,0", "take G 3,0", "pass R", "pass G"]
    assert set(cells_in(moves)) == {"3,0"}
    after, events = GAME.play(state, 0, "take R 3,0")
    assert [e.kind for e in events] == ["take", "draw", "drew"]
    assert events[0].cells == ("3,0",) and events[0].narrate(["Ann", "Bob"]) == (
        "Ann spent a red token and took the red stone at 3,0.")
    assert events[2].visible_to == 0 and events[1].visible_to is None
    assert after.taken == (("R",), ()) and after.lost == ()
    assert after.hands[0] == ("G", "R") and after.deck == ("G", "B", "R", "G") and after.turn == 1
    assert after.free_cells() == ["2,0", "2,1"]
    assert GAME.legal_moves(after) == ["take B 2,0", "take B 2,1", "pass B"]


def test_another_colour_loses_the_stone_and_passing_discards() -> None:
    state = position(FULL, [["R", "G"], ["B", "B"]], ["R", "G", "B", "R", "G"], [])
    after, events = GAME.play(state, 0, "take g 3,0")
    assert after.taken == ((), ()) and after.lost == ("R",) and after.discards == ("G",)
    assert events[0].narrate(["Ann", "Bob"]) == "Ann spent a green token on the red stone at 3,0, which is lost."
    after, events = GAME.play(after, 1, "pass B")
    assert after.hands[1] == ("B", "G") and after.discards == ("G", "B") and after.passes == 0
    assert events[0].narrate(["Ann", "Bob"]) == "Bob passed, discarding a blue token."


def test_the_cells_a_player_may_take_are_public() -> None:
    """Only the colours to spend depend on the hidden hand, so the board may letter
    the legal cells for everyone."""
    for seed in range(20):
        _, log = random_game(seed)
        for made in range(0, len(log), 3):
            partial = GAME.replay(2, {"tokens_per_colour": 4}, seed, log[:made])
            seat = GAME.to_act(partial)
            assert seat is not None
            for k in range(3):
                other = GAME.determinize(partial, 1 - seat, Rng(k))
                assert set(cells_in(GAME.legal_moves(other))) == set(cells_in(GAME.legal_moves(partial)))


def test_both_passing_with_the_deck_empty_ends_the_game_in_a_shared_win() -> None:
    stones = {"0,0": "R", "0,1": "R", "0,2": "R", "0,3": "R", "1,0": "R"}
    state = position(stones, [["G"], []], [], ["R", "R", "R", "G", "G", "B", "B", "B"],
                     taken=[["G", "B", "G"], ["B", "R"]], turn=1)
    assert GAME.legal_moves(state) == ["pass"]
    with pytest.raises(IllegalMove, match="nothing to discard"):
        GAME.play(state, 1, "pass R")
    state, _ = GAME.play(state, 1, "pass")
    assert GAME.to_act(state) == 0 and GAME.result(state) is None
    state, events = GAME.play(state, 0, "pass G")
    assert GAME.to_act(state) is None
    result = GAME.result(state)
    assert result is not None and result.winners == (0,)
    assert [e.kind for e in events] == ["pass"]
    assert result.summary.format("Ann", "Bob") == "Ann wins, taking 3 stones to 2."
    with pytest.raises(GameOver):
        GAME.play(state, 1, "pass")


def test_random_games_always_end_with_a_result() -> None:
    winners: set[tuple[int, ...]] = set()
    for seed in range(200):
        state = GAME.setup(2, {"tokens_per_colour": 3 + seed % 4}, seed)
        rng = Rng(seed)
        for _ in range(100):
            seat = GAME.to_act(state)
            assert (seat is None) == (GAME.result(state) is not None)
            if seat is None:
                break
            moves = GAME.legal_moves(state)
            assert moves
            state, _ = GAME.play(state, seat, rng.choice(moves))
        result = GAME.result(state)
        assert result is not None, f"seed {seed} did not end"
        assert GAME.legal_moves(state) == []
        assert sum(result.scores) + len(state.stones) + len(state.lost) == len(CELLS)
        winners.add(result.winners)
    assert winners == {(0,), (1,), (0, 1)}


def test_determinize_keeps_what_the_seat_sees_and_reveals_nothing() -> None:
    for seed in range(30):
        _, log = random_game(seed)
        partial = GAME.replay(2, {"tokens_per_colour": 4}, seed, log[: len(log) // 2])
        for seat in (0, 1):
            sample = GAME.determinize(partial, seat, Rng(seed))
            assert GAME.view(sample, seat) == GAME.view(partial, seat)
            GAME.from_position(GAME.to_position(sample))  # still a consistent game
            # Canonical: the sample does not depend on the true hidden order.
            shuffled = replace(partial, deck=tuple(reversed(partial.deck)))
            assert GAME.determinize(shuffled, seat, Rng(seed)) == sample


def test_positions_round_trip_and_bad_ones_are_refused() -> None:
    _, log = random_game(9)
    for made in (0, len(log) // 2, len(log)):
        partial = GAME.replay(2, {"tokens_per_colour": 4}, 9, log[:made])
        assert GAME.from_position(json.loads(json.dumps(GAME.to_position(partial)))) == partial
    good = GAME.to_position(GAME.setup(2, {}, 9))
    bad: list[tuple[dict[str, Any], str]] = [
        ({"colour": "R"}, "Unknown position key"),
        ({"players": 3}, "exactly 2 players"),
        ({"pyramid": {**good["pyramid"], "4,0": "R"}}, "not a cell"),
        ({"pyramid": {"1,0": "R"}}, "floats"),
        ({"pyramid": {**good["pyramid"], "0,0": "Y"}}, "unknown colour"),
        ({"deck": good["deck"][1:]}, "tokens in the hands, deck and discards"),
        ({"hands": [["R", "G", "B"], []]}, "at most 2 tokens"),
        ({"passes": 1}, "deck is not empty"),
        ({"turn": 2}, "'turn' must be 0 to 1"),
        ({"options": {"tokens_per_colour": 9}}, "options are not valid"),
    ]
    for change, reason in bad:
        with pytest.raises(BadPosition, match=reason):
            GAME.from_position({**good, **change})
