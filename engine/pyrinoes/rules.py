"""Turns (PY-4), round end (PY-5), scoring and the match (PY-6), set-up (PY-3).

``apply_move`` works on a copy of the state and returns it with the events that
narrate the turn; when a round ends and the match goes on, the next round is dealt
right here from the state's own RNG, so a game is replayable from its seed and moves.
"""

from __future__ import annotations

from engine.core.errors import IllegalMove
from engine.core.events import Event
from engine.core.rng import Rng
from engine.core.text import N_, Listing, Phrase, Word, and_list, phrase
from engine.pyrinoes.moves import can_build, can_play
from engine.pyrinoes.notation import Move, parse_move
from engine.pyrinoes.pieces import (
    COLOUR_NAMES,
    DOMINO_SET,
    DOMINOES,
    FULL_GREEN,
    FULL_SUPPLY,
    GREEN,
    HAND_SIZE,
    PYRINO_SPELLINGS,
    PYRINOES,
    SEAT_COLOURS,
    SIDE_NAMES,
    piece_name,
    pyramid_words,
)
from engine.pyrinoes.state import PyrinoesState, with_seat

BONUS = {1: 10, 2: 5, 3: 5, 4: 0}


# --- set-up (PY-3) ---------------------------------------------------------------------


def deal(state: PyrinoesState, first: int) -> list[Event]:
    """Set up a round on ``state`` (a private copy): shuffle, deal 9 each, turn one up."""
    rng = Rng(state.rng)
    tiles = list(DOMINO_SET)
    rng.shuffle(tiles)
    state.rng = rng.state
    state.hands = (tuple(tiles[:HAND_SIZE]), tuple(tiles[HAND_SIZE : 2 * HAND_SIZE]))
    start = tiles[2 * HAND_SIZE]
    state.line = (start,)
    state.left, state.right = DOMINOES[start].a, DOMINOES[start].b
    state.boneyard = tuple(tiles[2 * HAND_SIZE + 1 :])
    state.pyrinoes = ((), ())
    state.supply = (FULL_SUPPLY, FULL_SUPPLY)
    state.green = FULL_GREEN
    state.passes = 0
    state.first = first
    state.turn = first
    events = [
        Event(
            "round-start",
            N_("Round {round}: {start} starts the line; {0} ({side}) plays first."),
            players=(first,),
            items=(start,),
            data={"round": state.round, "first": first},
            args={"round": state.round, "start": start, "side": Word(SIDE_NAMES[first])},
        )
    ]
    for seat in (0, 1):
        events.append(
            Event(
                "deal",
                N_("{0} was dealt {pieces}."),
                players=(seat,),
                items=state.hands[seat],
                visible_to=seat,
                args={"pieces": ", ".join(state.hands[seat])},
            )
        )
    return events


def new_match(players: int, target: int, seed: int) -> tuple[PyrinoesState, list[Event]]:
    rng = Rng(seed)
    first = rng.below(players)
    state = PyrinoesState(
        round=1, target=target, scores=(0, 0), turn=first, line=(), left=0, right=0,
        hands=((), ()), pyrinoes=((), ()), supply=(FULL_SUPPLY, FULL_SUPPLY), green=FULL_GREEN,
        boneyard=(), passes=0, first=first, rng=rng.state, moves=0,
    )
    return state, deal(state, first)


# --- a turn (PY-4) ---------------------------------------------------------------------


def apply_move(state: PyrinoesState, seat: int, text: str) -> tuple[PyrinoesState, list[Event]]:
    move = parse_move(text)
    new = state.copy()
    if move.kind == "play":
        events = _play(new, seat, move)
    elif move.kind == "build":
        events = _build(new, seat, move)
    elif move.kind == "draw":
        events = _draw(new, seat)
    else:
        events = _pass(new, seat)
    new.passes = state.passes + 1 if move.kind == "pass" else 0
    new.moves = state.moves + 1
    events.extend(_end_turn(new, seat, move.kind == "pass"))
    return new, events


def _open_text(state: PyrinoesState) -> object:
    if state.left != state.right:
        return and_list((state.left, state.right))
    return phrase(N_("{spots} at both ends"), spots=state.left)


def _play(state: PyrinoesState, seat: int, move: Move) -> list[Event]:
    left, right = state.left, state.right
    d, p = move.domino, move.pyrino
    if d is not None:
        held = state.hands[seat]
        index = next((i for i, c in enumerate(held) if DOMINOES[c].key == d.key), -1)
        if index < 0:
            raise IllegalMove(N_("You don't hold {piece}."), piece=d.code)
        name, spots = held[index], (d.a, d.b)
    else:
        assert p is not None
        held = state.pyrinoes[seat]
        if p.code not in held:
            if p.owner == seat:
                raise IllegalMove(N_("You haven't built {piece}."), piece=piece_name(p.code))
            raise IllegalMove(N_("{piece} is not your pyrino."), piece=piece_name(p.code))
        index = held.index(p.code)
        name, spots = p.code, p.spots
    side = _side(state, name, spots, move.side)

    # The touching end equals the open end; the far end becomes the new open end.
    a, b = spots
    if side == "left":
        flipped = b != left
        far = b if flipped else a
        state.left = far
    else:
        flipped = a != right
        far = a if flipped else b
        state.right = far
    if d is not None:
        placed = f"{far}-{left}" if side == "left" else f"{right}-{far}"
        state.hands = with_seat(state.hands, seat, _without(held, index))
    else:
        assert p is not None
        placed = p.oriented(flipped)
        state.pyrinoes = with_seat(state.pyrinoes, seat, _without(held, index))
    if side == "left":
        state.line = (placed, *state.line)
        at = 0
    else:
        state.line = (*state.line, placed)
        at = len(state.line) - 1
    return [
        Event(
            "play",
            N_("{0} played {piece} to the left end; the open ends are now {ends}.") if side == "left"
            else N_("{0} played {piece} to the right end; the open ends are now {ends}."),
            players=(seat,),
            cells=(f"line:{at}",),
            items=(placed,),
            data={"side": side, "index": at, "piece": name},
            args={"piece": piece_name(placed), "ends": _open_text(state)},
        )
    ]


def _side(state: PyrinoesState, name: str, spots: tuple[int, int], side: str | None) -> str:
    """The side to play to: as named if it fits; when not named, the only one that fits."""
    fits_left, fits_right = state.left in spots, state.right in spots
    if side is None:
        if fits_left and fits_right:
            raise IllegalMove(N_("{piece} fits both open ends ({ends}): say left or right."), piece=piece_name(name),
                              ends=_open_text(state))
        if not (fits_left or fits_right):
            raise IllegalMove(N_("{piece} matches neither open end ({ends})."), piece=piece_name(name),
                              ends=_open_text(state))
        return "left" if fits_left else "right"
    if side == "left" and not fits_left:
        raise IllegalMove(N_("{piece} doesn't match the left open end ({spots})."), piece=piece_name(name),
                          spots=state.left)
    if side != "left" and not fits_right:
        raise IllegalMove(N_("{piece} doesn't match the right open end ({spots})."), piece=piece_name(name),
                          spots=state.right)
    return side


def _without(items: tuple[str, ...], index: int) -> tuple[str, ...]:
    return items[:index] + items[index + 1 :]


def _build(state: PyrinoesState, seat: int, move: Move) -> list[Event]:
    assert move.pyrino is not None
    p = move.pyrino
    colours = SEAT_COLOURS[seat]
    if p.owner != seat:
        mine = and_list((Word(COLOUR_NAMES[c]) for c in colours), commas=False)
        raise IllegalMove(N_("{piece} is not yours to build: your colours are {colours} (with green as one end)."),
                          piece=piece_name(p.code), colours=mine)
    supply = state.supply[seat]
    for i, (need, have) in enumerate(zip(p.need, supply, strict=True)):
        if need > have:
            pyramid = pyramid_words(colours[i // 3], i % 3 + 1)
            if have == 0:
                raise IllegalMove(N_("Your supply has no {pyramid} pyramid left."), pyramid=pyramid)
            raise IllegalMove(N_("Your supply has only one {pyramid} pyramid, and {piece} needs two."), pyramid=pyramid,
                              piece=piece_name(p.code))
    if p.green_size:
        if not state.green[p.green_size - 1]:
            raise IllegalMove(N_("There is no {pyramid} pyramid left in the middle."),
                              pyramid=pyramid_words(GREEN, p.green_size))
        green = list(state.green)
        green[p.green_size - 1] -= 1
        state.green = tuple(green)
    state.supply = with_seat(state.supply, seat, tuple(h - n for h, n in zip(supply, p.need, strict=True)))
    state.pyrinoes = with_seat(state.pyrinoes, seat, (*state.pyrinoes[seat], p.code))
    a, b = p.spots
    return [Event("build", N_("{0} built {piece} (a {spots})."), players=(seat,), items=(p.code,),
                  args={"piece": piece_name(p.code), "spots": f"{a}-{b}"})]


#: Why a player may not draw or pass (PY-4: play if you can, else build, else draw, else pass).
_MUST_PLAY = {"draw": N_("You can play a piece, so you can't draw."),
              "pass": N_("You can play a piece, so you can't pass.")}
_MUST_BUILD = {"draw": N_("You can build a pyrino, so you can't draw: a player who cannot play must build."),
               "pass": N_("You can build a pyrino, so you can't pass: a player who cannot play must build.")}


def _must_draw_or_pass_check(state: PyrinoesState, seat: int, verb: str) -> None:
    if can_play(state, seat):
        raise IllegalMove(_MUST_PLAY[verb])
    if can_build(state, seat):
        raise IllegalMove(_MUST_BUILD[verb])


def _draw(state: PyrinoesState, seat: int) -> list[Event]:
    _must_draw_or_pass_check(state, seat, "draw")
    if not state.boneyard:
        raise IllegalMove(N_("The boneyard is empty: you must pass."))
    code, state.boneyard = state.boneyard[0], state.boneyard[1:]
    state.hands = with_seat(state.hands, seat, (*state.hands[seat], code))
    return [
        Event(
            "draw",
            N_("{0} can neither play nor build and drew a domino ({count} left in the boneyard)."),
            players=(seat,),
            args={"count": len(state.boneyard)},
        ),
        Event("drew", N_("{0} drew {piece}."), players=(seat,), items=(code,), visible_to=seat, args={"piece": code}),
    ]


def _pass(state: PyrinoesState, seat: int) -> list[Event]:
    _must_draw_or_pass_check(state, seat, "pass")
    if state.boneyard:
        raise IllegalMove(N_("You must draw from the boneyard; you may pass only when it is empty."))
    return [Event("pass", N_("{0} can neither play nor build and passed."), players=(seat,))]


# --- round end (PY-5) and scoring (PY-6) ----------------------------------------------------


def round_end(state: PyrinoesState, seat: int, passed: bool) -> int | None:
    """The PY-5 condition (1-4) the mover's turn meets, first match wins, or None."""
    no_dominoes = not state.hands[seat]
    built = state.pyrinoes[seat]
    supply = state.supply[seat]
    no_pyramids = not built and not any(supply)
    if no_dominoes and no_pyramids:
        return 1
    if no_pyramids:
        return 2
    if no_dominoes and len(remaining_colours(state, seat)) == 1:
        return 3
    if passed and state.passes >= 2:
        return 4
    return None


def remaining_colours(state: PyrinoesState, seat: int) -> set[str]:
    """Colours of the seat's unplayed pyramids, for PY-5's one-colour check: "left"
    means the supply and built but unplayed pyrinoes, and a green end of a built pyrino
    counts as a colour of its own (PY-5 clarification, second edition; scenarios
    green-is-a-colour and no-dominoes-one-colour)."""
    supply = state.supply[seat]
    colours = {c for slot, c in enumerate(SEAT_COLOURS[seat]) if any(supply[slot * 3 : slot * 3 + 3])}
    for code in state.pyrinoes[seat]:
        colours.update(end.colour for end in PYRINOES[code].ends)
    return colours


def hand_total(state: PyrinoesState, seat: int) -> int:
    """Unplayed domino weights plus the pips of unplayed pyramids (supply and built)."""
    supply = state.supply[seat]
    return (
        sum(DOMINOES[c].weight for c in state.hands[seat])
        + sum(n * (i % 3 + 1) for i, n in enumerate(supply))
        + sum(PYRINOES[c].pips for c in state.pyrinoes[seat])
    )


def green_played(state: PyrinoesState) -> tuple[int, int]:
    """Pips of green pyramids each seat played to the line (ownership by the other end's colour)."""
    pips = [0, 0]
    for item in state.line:
        if "|" in item:
            p = PYRINO_SPELLINGS[item][0]
            pips[p.owner] += p.green_size
    return pips[0], pips[1]


def round_points(state: PyrinoesState, ender: int, condition: int) -> tuple[tuple[int, int], dict[str, object]]:
    """This round's points for each seat and the parts they are made of."""
    totals = (hand_total(state, 0), hand_total(state, 1))
    difference = [0, 0]
    if totals[0] != totals[1]:
        lower = 0 if totals[0] < totals[1] else 1
        difference[lower] = abs(totals[0] - totals[1])
    bonus = [0, 0]
    bonus[ender] = BONUS[condition]
    greens = green_played(state)
    points = (difference[0] + bonus[0] + greens[0], difference[1] + bonus[1] + greens[1])
    parts: dict[str, object] = {
        "totals": list(totals),
        "difference": difference,
        "bonus": bonus,
        "green": list(greens),
        "points": list(points),
    }
    return points, parts


_CONDITION_TEXT = {
    1: N_("{0} has no dominoes and no pyramids left"),
    2: N_("{0} has no pyramids left"),
    3: N_("{0} has no dominoes and pyramids of only one colour left"),
    4: N_("{0} passed after {1} passed"),
}


def match_winner(scores: tuple[int, int], target: int) -> int | None:
    """PY-6: one seat at the target wins; both there, the higher; a tie plays on."""
    reached = [s >= target for s in scores]
    if reached[0] and reached[1]:
        if scores[0] == scores[1]:
            return None
        return 0 if scores[0] > scores[1] else 1
    if reached[0]:
        return 0
    return 1 if reached[1] else None


def _end_turn(state: PyrinoesState, seat: int, passed: bool) -> list[Event]:
    condition = round_end(state, seat, passed)
    if condition is None:
        state.turn = 1 - seat
        return []
    points, parts = round_points(state, seat, condition)
    bonus = BONUS[condition]
    ended = Phrase(_CONDITION_TEXT[condition])
    tail = phrase(N_("bonus {bonus}"), bonus=bonus) if bonus else Word(N_("no bonus"))
    data = {"round": state.round, "condition": condition, "ender": seat, **parts}
    totals = parts["totals"]
    assert isinstance(totals, list)
    events = [
        Event("round-end", N_("{ended}: round {round} ends ({tail})."), players=(seat, 1 - seat), data=data,
              args={"ended": ended, "round": state.round, "tail": tail}),
        Event("hand-totals", N_("Hand totals: {0} {first}, {1} {second}."), players=(0, 1), data=data,
              args={"first": totals[0], "second": totals[1]}),
    ]
    for who in (0, 1):
        pieces = tuple(
            phrase(label, points=value)
            for value, label in (
                (_part(parts, "difference", who), N_("{points} for the lower hand total")),
                (_part(parts, "bonus", who), N_("{points} bonus")),
                (_part(parts, "green", who), N_("{points} for green pyramids played")),
            )
            if value
        )
        if pieces:
            events.append(
                Event("score", N_("{0} scores {points} ({parts})."), players=(who,), data=data,
                      args={"points": points[who], "parts": Listing(pieces)})
            )
    state.scores = (state.scores[0] + points[0], state.scores[1] + points[1])
    events.append(
        Event(
            "scores",
            N_("After round {round}: {0} {first}, {1} {second} (target {target})."),
            players=(0, 1),
            data={"scores": list(state.scores)},
            args={"round": state.round, "first": state.scores[0], "second": state.scores[1], "target": state.target},
        )
    )
    winner = match_winner(state.scores, state.target)
    if winner is not None:
        state.winner = winner
        state.turn = seat
        events.append(
            Event(
                "win",
                N_("{0} wins the match, {score} to {other}."),
                players=(winner,),
                data={"scores": list(state.scores)},
                args={"score": state.scores[winner], "other": state.scores[1 - winner]},
            )
        )
        return events
    state.round += 1
    events.extend(deal(state, 1 - state.first))
    return events


def _part(parts: dict[str, object], key: str, seat: int) -> int:
    value = parts[key]
    assert isinstance(value, list)
    return int(value[seat])
