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
from engine.core.text import N_, Listing, Phrase, Word, and_list, name_of, phrase, plural
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
from engine.pyramido.stones import QUARRY_SIZE, RESERVE_LIMIT, describe, sort_stones, stone_word


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
            if verb == "take":
                raise IllegalMove(N_("There is no {colour} stone in the quarry."), colour=stone_word(colour))
            raise IllegalMove(N_("There is no {colour} stone in your reserve."), colour=stone_word(colour))
        reason = check_place(pyramids[seat], state.size, cell, colour)
        if reason is not None:
            raise IllegalMove(reason)
        pyramid = dict(pyramids[seat])
        pyramid[cell] = colour
        pyramids = (*pyramids[:seat], pyramid, *pyramids[seat + 1:])
        if verb == "take":
            quarry = remove_one(quarry, colour)
            text = N_("{0} took {colour} from the quarry and built it on level {level}.")
        else:
            reserves = (*reserves[:seat], remove_one(reserves[seat], colour), *reserves[seat + 1:])
            text = N_("{0} built {colour} from their reserve on level {level}.")
        # where: its level (the picture outlines the stone; its cell's coordinates are the notation's, #43)
        events.append(Event(verb, text, (seat,), (format_cell(cell),), (colour,),
                            args={"colour": stone_word(colour), "level": cell[0]}))
        placed = True
    elif verb == "reserve":
        colour = move.stones[0]
        if colour not in quarry:
            raise IllegalMove(N_("There is no {colour} stone in the quarry."), colour=stone_word(colour))
        if len(reserves[seat]) >= RESERVE_LIMIT:
            raise IllegalMove(N_("Your reserve is full ({limit} stones)."), limit=RESERVE_LIMIT)
        quarry = remove_one(quarry, colour)
        reserves = (*reserves[:seat], reserves[seat] + (colour,), *reserves[seat + 1:])
        events.append(Event("reserve", N_("{0} put {colour} from the quarry into their reserve."), (seat,),
                            items=(colour,), args={"colour": stone_word(colour)}))
    elif verb == "pass":
        events.append(Event("pass", N_("{0} passed."), (seat,)))
    else:
        raise IllegalMove(N_("'{verb}' is a solo/coop move; in the competitive game you 'take', 'reserve', "
                             "'build' or 'pass'."), verb=verb)
    new = state.with_(
        pyramids=pyramids, quarry=quarry, reserves=reserves, moves=state.moves + 1,
        passes=state.passes + 1 if verb == "pass" else 0,
    )
    return _after_move(new, seat, placed, events)


def _refill(state: State, events: list[Event]) -> State:
    drawn = state.bag[:QUARRY_SIZE]
    if not drawn:
        return state
    text = plural(len(drawn), N_("{count} new stone comes into the quarry: {stones}."),
                  N_("{count} new stones come into the quarry: {stones}."))
    events.append(Event("quarry", text, items=tuple(sort_stones(drawn)), data={"bag": len(state.bag) - len(drawn)},
                        args={"count": len(drawn), "stones": describe(sort_stones(drawn))}))
    return state.with_(quarry=state.quarry + drawn, bag=state.bag[len(drawn) :])


def _after_move(state: State, seat: int, placed: bool, events: list[Event]) -> tuple[State, list[Event]]:
    n = state.players
    if placed and is_complete(state.pyramids[seat], state.size):
        if state.rounds == 1:
            text = phrase(N_("{0} completed their pyramid first and won!"))
            result = Result(
                winners=(seat,), scores=_round_scores(state, seat), summary_text=_by_seat(text, (seat,)),
                details={"rounds": 1.0},
            )
            events.append(Event("win", text.template, (seat,), args=text.args))
            return state.with_(result=result), events
        if state.closer is None:
            state = state.with_(closer=seat)
            events.append(Event("complete", N_("{0} completed their pyramid first; the round of turns is played out."),
                                (seat,)))
        else:
            events.append(Event("complete", N_("{0} completed their pyramid too."), (seat,)))
    if not state.quarry:
        state = _refill(state, events)
    stalled = False
    if state.passes >= n:
        stalled = not state.quarry and not state.bag
        if state.quarry:
            gone = tuple(sort_stones(state.quarry))
            events.append(Event("refresh", N_("Everyone passed: {stones} left the game."), items=gone,
                                args={"stones": describe(gone)}))
            state = state.with_(out=state.out + state.quarry, quarry=())
        state = _refill(state.with_(passes=0), events)
    if not stalled and not state.quarry and not state.bag:
        stalled = not any(can_build_from_reserve(state, p) for p in range(n))
    nxt = (seat + 1) % n
    if stalled or (state.closer is not None and nxt == state.first):
        if stalled:
            events.append(Event("stall", N_("The bag and the quarry are empty and nobody builds: the round ends.")))
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


def _plus_points(n: int) -> Phrase:
    return phrase(plural(n, N_("{count} plus point"), N_("{count} plus points")), count=n)


def _round_text(plus: int, minus: int) -> object:
    if plus:
        return phrase(plural(plus, N_("+{count} plus point"), N_("+{count} plus points")), count=plus)
    if minus:
        return phrase(plural(minus, N_("{count} minus point"), N_("{count} minus points")), count=minus)
    return Word(N_("no minus points"))


def _ranking(plus: tuple[int, ...], minus: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """PD-6 (second edition): the seats with the fewest minus points, and among those
    the winners, who have the most plus points (several when tied on both)."""
    fewest = min(minus)
    tied = tuple(p for p in range(len(minus)) if minus[p] == fewest)
    most = max(plus[p] for p in tied)
    return tied, tuple(p for p in tied if plus[p] == most)


def _final_summary(rounds: int, plus: tuple[int, ...], minus: tuple[int, ...], tied: tuple[int, ...],
                   winners: tuple[int, ...]) -> Phrase:
    """The closing sentence, with ``{i}`` naming ``tied[i]`` (winners come first in ``tied``)."""
    fewest = minus[tied[0]]
    names = and_list((name_of(i) for i in range(len(tied))), commas=False)
    if len(tied) == 1:
        return phrase(N_("After {rounds} rounds {0} has the fewest minus points ({fewest}, with {plus}) and won."),
                      rounds=rounds, fewest=fewest, plus=_plus_points(plus[tied[0]]))
    if len(winners) == 1:
        return phrase(N_("After {rounds} rounds {names} tie on the fewest minus points ({fewest}); {0} has the most "
                         "plus points ({plus}) and won."), rounds=rounds, names=names, fewest=fewest,
                      plus=plus[winners[0]])
    return phrase(N_("After {rounds} rounds {names} tie on the fewest minus points ({fewest}) and on plus points "
                     "({plus}): they share the win."), rounds=rounds, names=names, fewest=fewest,
                  plus=plus[winners[0]])


def _by_seat(text: Phrase, players: tuple[int, ...]) -> Phrase:
    """Event text numbers players by position in ``players``; a Result summary has no
    such tuple, so its placeholders are seat numbers: the same sentence, told which
    seats its player fields name."""
    return Phrase(text.template, text.args, players)


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
        if len(tied) == 1:
            template = N_("Nobody completed a pyramid; {0} missed the fewest stones ({count}) and won.")
        else:
            template = N_("Nobody completed a pyramid; {0} missed the fewest stones ({count}), and started latest "
                          "of those tied and won.")
        summary = phrase(template, count=best)
        result = Result(winners=(winner,), scores=scores, summary_text=_by_seat(summary, (winner,)),
                        details={"rounds": 1.0})
        events.append(Event("win", summary.template, (winner,), args=summary.args))
        return state.with_(result=result), events
    round_plus, round_minus = _round_tally(state, state.closer)
    plus = tuple(a + b for a, b in zip(state.plus, round_plus, strict=True))
    minus = tuple(a + b for a, b in zip(state.minus, round_minus, strict=True))
    scored = Listing(tuple(Phrase("{player} {points}", {"player": name_of(p),
                                                         "points": _round_text(round_plus[p], round_minus[p])})
                           for p in range(n)))
    tallies = Listing(tuple(phrase(N_("{player} {plus} plus · {minus} minus"), player=name_of(p), plus=plus[p],
                                   minus=minus[p]) for p in range(n)))
    events.append(Event("score", N_("Round {round} of {rounds}: {scored}. Tallies: {tallies}."),
                        tuple(range(n)), data={"round": state.round, "round_plus": list(round_plus),
                                               "round_minus": list(round_minus), "plus": list(plus),
                                               "minus": list(minus)},
                        args={"round": state.round, "rounds": state.rounds, "scored": scored, "tallies": tallies}))
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
        result = Result(winners=winners, scores=tuple(float(-m) for m in minus),
                        summary_text=_by_seat(summary, order), details=details)
        events.append(Event("win", summary.template, order, args=summary.args))
        return state.with_(result=result), events
    first = (state.first + 1) % n
    state = new_round(state, first, state.round + 1)
    events.append(Event("round", N_("Round {round} of {rounds} begins; {0} starts."), (first,),
                        data={"round": state.round}, args={"round": state.round, "rounds": state.rounds}))
    return state, events
