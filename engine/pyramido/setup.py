"""Fresh games and fresh competitive rounds, all shuffled from the state's Rng."""

from __future__ import annotations

from engine.core.rng import Rng
from engine.pyramido.geometry import Cell
from engine.pyramido.options import PyramidoOptions
from engine.pyramido.state import State
from engine.pyramido.stones import HAND_SIZE, QUARRY_SIZE, competitive_size, full_set, per_colour


def cross_cells(size: int) -> tuple[Cell, ...]:
    """The foundation cross (PD-4): centre first, then west, east, north, south."""
    c = size // 2
    return ((1, c, c), (1, c - 1, c), (1, c + 1, c), (1, c, c - 1), (1, c, c + 1))


def new_game(players: int, options: PyramidoOptions, seed: int) -> State:
    rng = Rng(seed)
    if options.mode == "competitive":
        size = competitive_size(players)
        base = State(
            mode="competitive", size=size, players=players, turn=0, pyramids=(), hands=((),) * players,
            reserves=((),) * players, quarry=(), bag=(), out=(), rounds=options.rounds,
            plus=(0,) * players, minus=(0,) * players, rng=rng.state,
        )
        return new_round(base, first=0, number=1)
    size = options.base()
    bag = full_set(per_colour(options.mode, size))
    rng.shuffle(bag)
    pyramid = dict(zip(cross_cells(size), bag[:5], strict=True))
    pos = 5
    hand = HAND_SIZE[options.mode]
    hands = []
    for _ in range(players):
        hands.append(tuple(bag[pos : pos + hand]))
        pos += hand
    return State(
        mode=options.mode, size=size, players=players, turn=0, pyramids=(pyramid,), hands=tuple(hands),
        reserves=((),) * players, quarry=(), bag=tuple(bag[pos:]), out=(), rng=rng.state,
    )


def new_round(state: State, first: int, number: int) -> State:
    """Competitive set-up (PD-5): two foundation stones each, then the quarry."""
    rng = Rng(state.rng)
    bag = full_set(per_colour("competitive", state.size))
    rng.shuffle(bag)
    pyramids = []
    pos = 0
    for _ in range(state.players):
        pyramids.append({(1, 0, 0): bag[pos], (1, 1, 0): bag[pos + 1]})
        pos += 2
    quarry = tuple(bag[pos : pos + QUARRY_SIZE])
    pos += len(quarry)
    return state.with_(
        turn=first, first=first, round=number, pyramids=tuple(pyramids), hands=((),) * state.players,
        reserves=((),) * state.players, quarry=quarry, bag=tuple(bag[pos:]), out=(), passes=0, closer=None,
        rng=rng.state,
    )
