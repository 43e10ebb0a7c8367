"""The competitive game (PD-5) and its several-rounds variant (PD-6).

Rulings where the rules are silent:
- A quarry that runs empty is refilled with 5 stones at once, after the move that
  emptied it (while the bag lasts).
- The round stalls (PD-5 end) when the bag and the quarry are empty and either no
  player can build a reserve stone, or every player passed in a row anyway.
- ``rounds`` = 1 is the plain game: the first completed pyramid ends it at once.
  With several rounds the round of turns is finished (up to the seat before the
  round's starter), the start seat moves one to the left each round, and equal
  totals after the last round share the win.
"""

from __future__ import annotations

from engine.core.errors import IllegalMove
from engine.core.events import Event
from engine.core.result import Result
from engine.pyramido.coop import remove_one
from engine.pyramido.geometry import (
    check_place,
    format_cell,
    is_complete,
    legal_cells_for,
    missing,
    placements,
)
from engine.pyramido.notation import Move
from engine.pyramido.setup import new_round
from engine.pyramido.state import State
from engine.pyramido.stones import QUARRY_SIZE, RESERVE_LIMIT, describe, sort_stones


def legal_moves(state: State) -> list[str]:
    seat = state.turn
    pyramid = state.pyramids[seat]
    moves: list[str] = []
    quarry = sort_stones(set(state.quarry))
    moves.extend(f"take {c} {format_cell(cell)}" for c, cell in placements(pyramid, state.size, quarry))
    if len(state.reserves[seat]) < RESERVE_LIMIT:
        moves.extend(f"reserve {c}" for c in quarry)
    reserve = sort_stones(set(state.reserves[seat]))
    moves.extend(f"build {c} {format_cell(cell)}" for c, cell in placements(pyramid, state.size, reserve))
    moves.append("pass")
    return moves


def can_build_from_reserve(state: State, seat: int) -> bool:
    pyramid = state.pyramids[seat]
    return any(legal_cells_for(pyramid, state.size, c) for c in set(state.reserves[seat]))


def apply(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    verb = move.verb
    events: list[Event] = []
    pyramids = state.pyramids
    quarry = state.quarry
    reserves = state.reserves
    placed = False
    if verb in ("take", "build"):
        colour = move.stones[0]
        cell = move.cell
        assert cell is not None
        source = quarry if verb == "take" else reserves[seat]
        if colour not in source:
            where = "in the quarry" if verb == "take" else "in your reserve"
            raise IllegalMove(f"There is no {colour} stone {where}.")
        reason = check_place(pyramids[seat], state.size, cell, colour)
        if reason is not None:
            raise IllegalMove(reason)
        pyramid = dict(pyramids[seat])
        pyramid[cell] = colour
        pyramids = (*pyramids[:seat], pyramid, *pyramids[seat + 1:])
        if verb == "take":
            quarry = remove_one(quarry, colour)
            text = f"{{0}} took {colour} from the quarry and built it at {format_cell(cell)}."
        else:
            reserves = (*reserves[:seat], remove_one(reserves[seat], colour), *reserves[seat + 1:])
            text = f"{{0}} built {colour} from their reserve at {format_cell(cell)}."
        events.append(Event(verb, text, (seat,), (format_cell(cell),), (colour,)))
        placed = True
    elif verb == "reserve":
        colour = move.stones[0]
        if colour not in quarry:
            raise IllegalMove(f"There is no {colour} stone in the quarry.")
        if len(reserves[seat]) >= RESERVE_LIMIT:
            raise IllegalMove(f"Your reserve is full ({RESERVE_LIMIT} stones).")
        quarry = remove_one(quarry, colour)
        reserves = (*reserves[:seat], reserves[seat] + (colour,), *reserves[seat + 1:])
        events.append(Event("reserve", f"{{0}} put {colour} from the quarry into their reserve.", (seat,),
                            items=(colour,)))
    elif verb == "pass":
        events.append(Event("pass", "{0} passed.", (seat,)))
    else:
        raise IllegalMove(f"'{verb}' is a solo/coop move; in the competitive game you 'take', 'reserve', "
                          f"'build' or 'pass'.")
    new = state.with_(
        pyramids=pyramids, quarry=quarry, reserves=reserves, moves=state.moves + 1,
        passes=state.passes + 1 if verb == "pass" else 0,
    )
    return _after_move(new, seat, placed, events)


def _refill(state: State, events: list[Event]) -> State:
    drawn = state.bag[:QUARRY_SIZE]
    if not drawn:
        return state
    noun = "stone comes" if len(drawn) == 1 else "stones come"
    events.append(Event("quarry", f"{len(drawn)} new {noun} into the quarry: {describe(sort_stones(drawn))}.",
                        items=tuple(sort_stones(drawn)), data={"bag": len(state.bag) - len(drawn)}))
    return state.with_(quarry=state.quarry + drawn, bag=state.bag[len(drawn) :])


def _after_move(state: State, seat: int, placed: bool, events: list[Event]) -> tuple[State, list[Event]]:
    n = state.players
    if placed and is_complete(state.pyramids[seat], state.size):
        if state.rounds == 1:
            text = "{0} completed their pyramid first and won!"
            result = Result(
                winners=(seat,), scores=_round_scores(state, seat), summary=_by_seat(text, (seat,)),
                details={"rounds": 1.0},
            )
            events.append(Event("win", text, (seat,)))
            return state.with_(result=result), events
        if state.closer is None:
            state = state.with_(closer=seat)
            events.append(Event("complete", "{0} completed their pyramid first; the round of turns is played out.",
                                (seat,)))
        else:
            events.append(Event("complete", "{0} completed their pyramid too.", (seat,)))
    if not state.quarry:
        state = _refill(state, events)
    stalled = False
    if state.passes >= n:
        stalled = not state.quarry and not state.bag
        if state.quarry:
            gone = tuple(sort_stones(state.quarry))
            events.append(Event("refresh", f"Everyone passed: {describe(gone)} left the game.", items=gone))
            state = state.with_(out=state.out + state.quarry, quarry=())
        state = _refill(state.with_(passes=0), events)
    if not stalled and not state.quarry and not state.bag:
        stalled = not any(can_build_from_reserve(state, p) for p in range(n))
    nxt = (seat + 1) % n
    if stalled or (state.closer is not None and nxt == state.first):
        if stalled:
            events.append(Event("stall", "The bag and the quarry are empty and nobody builds: the round ends."))
        return _end_round(state, events)
    return state.with_(turn=nxt), events


def _round_scores(state: State, closer: int | None) -> tuple[float, ...]:
    scores = []
    for p, pyramid in enumerate(state.pyramids):
        if is_complete(pyramid, state.size):
            scores.append(1.0 if p == closer else 0.0)
        else:
            scores.append(-float(missing(pyramid, state.size)))
    return tuple(scores)


def _by_seat(text: str, players: tuple[int, ...]) -> str:
    """Event text numbers players by position in ``players``; a Result summary has no
    such tuple, so its placeholders are seat numbers."""
    return text.format(*(f"{{{p}}}" for p in players))


def _order(state: State, seat: int) -> int:
    return (seat - state.first) % state.players


def _end_round(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    n = state.players
    scores = _round_scores(state, state.closer)
    if state.rounds == 1:
        gaps = [missing(p, state.size) for p in state.pyramids]
        best = min(gaps)
        tied = [p for p in range(n) if gaps[p] == best]
        winner = max(tied, key=lambda p: _order(state, p))
        why = "" if len(tied) == 1 else ", and started latest of those tied"
        summary = f"Nobody completed a pyramid; {{0}} missed the fewest stones ({best}){why} and won."
        result = Result(winners=(winner,), scores=scores, summary=_by_seat(summary, (winner,)), details={"rounds": 1.0})
        events.append(Event("win", summary, (winner,)))
        return state.with_(result=result), events
    totals = tuple(int(t + s) for t, s in zip(state.scores, scores, strict=True))
    listing = ", ".join(f"{{{p}}} {int(scores[p]):+d}" for p in range(n))
    events.append(Event("score", f"Round {state.round} scores: {listing}.", tuple(range(n)),
                        data={"round": state.round, "scores": [int(s) for s in scores], "totals": list(totals)}))
    state = state.with_(scores=totals)
    if state.round >= state.rounds:
        top = max(totals)
        winners = tuple(p for p in range(n) if totals[p] == top)
        if len(winners) == 1:
            summary = f"After {state.rounds} rounds {{0}} has the best total ({top:+d}) and won."
        else:
            summary = f"After {state.rounds} rounds the best total ({top:+d}) is shared: " + " and ".join(
                f"{{{i}}}" for i in range(len(winners))) + " won."
        result = Result(winners=winners, scores=tuple(float(t) for t in totals), summary=_by_seat(summary, winners),
                        details={"rounds": float(state.rounds)})
        events.append(Event("win", summary, winners))
        return state.with_(result=result), events
    first = (state.first + 1) % n
    state = new_round(state, first, state.round + 1)
    events.append(Event("round", f"Round {state.round} of {state.rounds} begins; {{0}} starts.", (first,),
                        data={"round": state.round}))
    return state, events
