"""Everything the public Pyramido board shows is a function of public information.

The board picture, the letters on its cells (which the picker's buttons repeat), the
board message and its buttons' labels and custom ids must not change when only
something hidden changes. In Pyramido the only hidden things are the bag's order
and the Rng that deals later competitive rounds (co-op and solo hands are open,
PD-4 second edition), so two positions differing only in those must give identical
bytes, letters, text and buttons, in every mode.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.cards.boards import board_labels, board_texts, board_view, public_view
from bot.core.session import Session
from bot.games.pyramido import PRESENTER
from bot.store import GameRecord, SeatRecord
from engine.core import Rng
from engine.pyramido import GAME, State
from render import render_board
from tools.gallery.samples import labels_for
from tools.playout import still_going

TABLES: list[tuple[int, dict[str, Any]]] = [
    (1, {"mode": "solo"}),
    (1, {"mode": "solo", "size": 4}),
    (2, {"mode": "coop"}),
    (4, {"mode": "coop", "size": 4}),
    (2, {"mode": "competitive"}),
    (3, {"mode": "competitive", "rounds": 2}),
]


def board_content(session: Any, events: list[Any], lang: Any = None) -> str:
    """The game card's words (its text displays), joined as the channel reads them."""
    above, below = board_texts(session, events, lang)
    return "\n".join([*above, *below])


def reach(players: int, options: dict[str, Any], seed: int, moves: int) -> State:
    """A position after ``moves`` random legal moves, fewer if the game would end or
    the bag run low (the twins need a bag whose order can differ)."""
    return still_going(GAME, GAME.setup(players, options, seed), Rng(seed ^ 0xB0A4D), moves,
                       keep=lambda after: len(set(after.bag)) >= 2)


def bag_twin(state: State) -> State:
    """``state`` with the bag in another order and another deal Rng: nothing else."""
    bag = list(state.bag)
    Rng(99).shuffle(bag)
    if tuple(bag) == state.bag:
        bag.reverse()
    return state.with_(bag=tuple(bag), rng=state.rng ^ 0x5A5A5A5A)


def session(state: State, options: dict[str, Any]) -> Session:
    record = GameRecord(id=7, kind="pyramido", guild_id=1, channel_id=2, thread_id=3, options=options,
                        status="active", seed=11, created_by=100, challenge_id=None, result=None, created_at="",
                        updated_at="")
    seats = [SeatRecord(game_id=7, seat=s, user_id=100 + s, ai_level=None, name=f"P{s}", joined_at="")
             for s in range(state.players)]
    return Session(record, seats, PRESENTER, state, state.moves)


def buttons(s: Session) -> list[tuple[str | None, str | None]]:
    return [(getattr(item, "label", None), getattr(item, "custom_id", None)) for item in board_view(s).children]


@pytest.mark.parametrize(("players", "options"), TABLES, ids=lambda x: str(x))
@pytest.mark.parametrize("moves", [0, 9, 40])
def test_only_the_bag_order_differs_so_the_public_board_is_identical(players: int, options: dict[str, Any],
                                                                    moves: int) -> None:
    state = reach(players, options, 500 + moves + players, moves)
    twin = bag_twin(state)
    assert twin.bag != state.bag and sorted(twin.bag) == sorted(state.bag)
    assert GAME.to_position(twin) != GAME.to_position(state)  # they do differ, in hidden things only
    a, b = session(state, options), session(twin, options)
    view_a, view_b = public_view(a), public_view(b)
    assert view_a == view_b

    labels = board_labels(a, view_a)
    assert labels == board_labels(b, view_b)
    # The same letters as the picker's buttons, which come from the legal moves.
    assert labels == labels_for(GAME, state) == labels_for(GAME, twin)
    if GAME.to_act(state) is not None and moves == 0:
        assert labels, "the opening always has cells to letter"

    assert render_board(view_a, labels=labels) == render_board(view_b, labels=board_labels(b, view_b))
    assert board_content(a, []) == board_content(b, [])
    assert buttons(a) == buttons(b)


def test_teammates_hands_are_on_the_public_board() -> None:
    """The comparison above can fail: swap the hands of the two teammates who are not
    to act (same bag, same letters) and the co-op board picture and message both
    change, since they show every player's stones (PD-4, second edition)."""
    state = reach(3, {"mode": "coop"}, 21, 0)
    assert state.turn == 0 and sorted(state.hands[1]) != sorted(state.hands[2])
    other = state.with_(hands=(state.hands[0], state.hands[2], state.hands[1]))
    a, b = session(state, {"mode": "coop"}), session(other, {"mode": "coop"})
    view_a, view_b = public_view(a), public_view(b)
    labels = board_labels(a, view_a)
    assert labels and labels == board_labels(b, view_b)
    assert view_a["unseen"] == view_b["unseen"]
    assert render_board(view_a, labels=labels) != render_board(view_b, labels=labels)
    for seat, hand in enumerate(other.hands):
        assert f"P{seat}: {' '.join(hand)}" in board_content(b, [])
