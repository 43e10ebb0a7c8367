"""The competitive game (PD-5) and its several-rounds variant (PD-6).

Rulings where the rules are silent:
- A quarry that runs empty is refilled with 5 stones at once, after the move that
  emptied it (while the bag lasts).
- The round stalls (PD-5 end) when the bag and the quarry are empty and either no
  player can build a reserve stone, or every player passed in a row anyway.
- ``rounds`` = 1 is the plain game: the first completed pyramid ends it at once.
  With several rounds the round of turns is finished (up to the seat before the
  round's starter) and the start seat moves one to the left each round.
- Several rounds are scored as PD-6 (second edition) says: the round's first
  completer gets 1 plus point, other completers nothing, everyone else as many minus
  points as stones they still miss. After the last round the fewest minus points
  win, a tie goes to the most plus points, and a tie on both shares the win. (The
  first edition ranked by the net total plus − minus; the tallies are now kept apart.)
- A round that stalls with nobody complete gives every player minus points and
  nobody a plus point.

Result scores (the contract wants numbers where higher is better):
- the plain game (``rounds`` = 1): 1 for the completer, otherwise minus the stones
  still missing, i.e. the points this round would have scored;
- several rounds: minus the player's minus points, the rules' first ranking key.
  Equal scores are then ordered by plus points, which ``details`` carries per seat as
  ``plus_<seat>`` and ``minus_<seat>``; ``winners`` already applies both keys.
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
    """The plain game's Result scores: 1 for the completer, else minus the stones missing."""
    plus, minus = _round_tally(state, closer)
    return tuple(float(p - m) for p, m in zip(plus, minus, strict=True))


def _round_tally(state: State, closer: int | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Plus and minus points of the round just finished (PD-6): 1 plus point for the
    first completer, nothing for later completers, the missing stones as minus points
    for everyone else."""
    plus: list[int] = []
    minus: list[int] = []
    for p, pyramid in enumerate(state.pyramids):
        if is_complete(pyramid, state.size):
            plus.append(1 if p == closer else 0)
            minus.append(0)
        else:
            plus.append(0)
            minus.append(missing(pyramid, state.size))
    return tuple(plus), tuple(minus)


def _points(n: int, kind: str) -> str:
    return f"{n} {kind} point{'s' if n != 1 else ''}"


def _round_text(plus: int, minus: int) -> str:
    if plus:
        return f"+{_points(plus, 'plus')}"
    if minus:
        return _points(minus, "minus")
    return "no minus points"


def _ranking(plus: tuple[int, ...], minus: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """PD-6 (second edition): the seats with the fewest minus points, and among those
    the winners, who have the most plus points (several when tied on both)."""
    fewest = min(minus)
    tied = tuple(p for p in range(len(minus)) if minus[p] == fewest)
    most = max(plus[p] for p in tied)
    return tied, tuple(p for p in tied if plus[p] == most)


def _final_summary(rounds: int, plus: tuple[int, ...], minus: tuple[int, ...], tied: tuple[int, ...],
                   winners: tuple[int, ...]) -> str:
    """The closing sentence, with ``{i}`` naming ``tied[i]`` (winners come first in ``tied``)."""
    fewest = minus[tied[0]]
    names = " and ".join(f"{{{i}}}" for i in range(len(tied)))
    if len(tied) == 1:
        return (f"After {rounds} rounds {{0}} has the fewest minus points ({fewest}, with "
                f"{_points(plus[tied[0]], 'plus')}) and won.")
    if len(winners) == 1:
        return (f"After {rounds} rounds {names} tie on the fewest minus points ({fewest}); {{0}} has the most plus "
                f"points ({plus[winners[0]]}) and won.")
    return (f"After {rounds} rounds {names} tie on the fewest minus points ({fewest}) and on plus points "
            f"({plus[winners[0]]}): they share the win.")


def _by_seat(text: str, players: tuple[int, ...]) -> str:
    """Event text numbers players by position in ``players``; a Result summary has no
    such tuple, so its placeholders are seat numbers."""
    return text.format(*(f"{{{p}}}" for p in players))


def _order(state: State, seat: int) -> int:
    return (seat - state.first) % state.players


def _end_round(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    n = state.players
    if state.rounds == 1:
        scores = _round_scores(state, state.closer)
        gaps = [missing(p, state.size) for p in state.pyramids]
        best = min(gaps)
        tied = [p for p in range(n) if gaps[p] == best]
        winner = max(tied, key=lambda p: _order(state, p))
        why = "" if len(tied) == 1 else ", and started latest of those tied"
        summary = f"Nobody completed a pyramid; {{0}} missed the fewest stones ({best}){why} and won."
        result = Result(winners=(winner,), scores=scores, summary=_by_seat(summary, (winner,)), details={"rounds": 1.0})
        events.append(Event("win", summary, (winner,)))
        return state.with_(result=result), events
    round_plus, round_minus = _round_tally(state, state.closer)
    plus = tuple(a + b for a, b in zip(state.plus, round_plus, strict=True))
    minus = tuple(a + b for a, b in zip(state.minus, round_minus, strict=True))
    scored = ", ".join(f"{{{p}}} {_round_text(round_plus[p], round_minus[p])}" for p in range(n))
    tallies = ", ".join(f"{{{p}}} {plus[p]} plus · {minus[p]} minus" for p in range(n))
    events.append(Event("score", f"Round {state.round} of {state.rounds}: {scored}. Tallies: {tallies}.",
                        tuple(range(n)), data={"round": state.round, "round_plus": list(round_plus),
                                               "round_minus": list(round_minus), "plus": list(plus),
                                               "minus": list(minus)}))
    state = state.with_(plus=plus, minus=minus)
    if state.round >= state.rounds:
        fewest, winners = _ranking(plus, minus)
        # Winners first, then those who tied with them on minus points only.
        order = (*winners, *(p for p in fewest if p not in winners))
        summary = _final_summary(state.rounds, plus, minus, order, winners)
        details = {"rounds": float(state.rounds)}
        for p in range(n):
            details[f"plus_{p}"] = float(plus[p])
            details[f"minus_{p}"] = float(minus[p])
        result = Result(winners=winners, scores=tuple(float(-m) for m in minus), summary=_by_seat(summary, order),
                        details=details)
        events.append(Event("win", summary, order))
        return state.with_(result=result), events
    first = (state.first + 1) % n
    state = new_round(state, first, state.round + 1)
    events.append(Event("round", f"Round {state.round} of {state.rounds} begins; {{0}} starts.", (first,),
                        data={"round": state.round}))
    return state, events
