"""Building regulations (FP-4), mayhem (FP-6) and the end of a turn (FP-5).

Mayhem is a loop over a mutable working copy of the pyramid: find the first problem in
the FP-6 order, resolve it, look again. A fall stops the loop and leaves a
:class:`~engine.flaming_pyramids.state.Fall` decision; answering it moves the tile
and restarts the same loop, so a turn can stop and resume any number of times.
"""

from __future__ import annotations

from engine.core.events import Event
from engine.core.result import Result
from engine.core.text import N_, Phrase, and_list, name_of, phrase, plural
from engine.flaming_pyramids.geometry import Cell, Pyramid, cell_text, scan_key, touching
from engine.flaming_pyramids.state import HAND_SIZE, Fall, State
from engine.flaming_pyramids.tiles import COLOUR_MASK, IGNITABLE, INCENDIARY, MATERIAL, TILE, WEIGHT

# Kinds of mayhem, in the order FP-6 checks them.
FREE_AIR, COLLAPSE, EXPLOSION, FIRE, CURSE = range(5)

Mayhem = tuple[int, Cell, tuple[Cell, ...]]


# --- FP-4 -------------------------------------------------------------------------------
def rest_problem(pyramid: Pyramid, cell: Cell) -> str | None:
    """Why the tile at ``cell`` may not rest there (FP-4), or None when it may.

    One of: ``"free air"``, ``"overweight"``, ``"mismatch"``, ``"overweight+mismatch"``,
    ``"overhang colour"``, ``"overhang weight"``.
    """
    r, c = cell
    if r == 0:
        return None
    t = pyramid[cell]
    a = pyramid.get((r - 1, c))
    b = pyramid.get((r - 1, c + 1))
    if a is None and b is None:
        return "free air"
    if a is None or b is None:
        s = b if a is None else a
        assert s is not None
        if not COLOUR_MASK[t] & COLOUR_MASK[s]:
            return "overhang colour"
        if WEIGHT[t] > WEIGHT[s]:
            return "overhang weight"
        return None
    wt, wa, wb = WEIGHT[t], WEIGHT[a], WEIGHT[b]
    match = bool(COLOUR_MASK[t] & (COLOUR_MASK[a] | COLOUR_MASK[b])) or wt in (wa, wb)
    heavy = wt > wa + wb
    if heavy and not match:
        return "overweight+mismatch"
    if heavy:
        return "overweight"
    if not match:
        return "mismatch"
    return None


def named(code: str) -> object:
    """A tile as players read it ("green 60", "Coal yellow 1"): narration names tiles in words
    (:meth:`Tile.name`); events keep the codes in ``items`` for records and pictures."""
    return TILE[code].name()


# --- FP-6: finding mayhem ---------------------------------------------------------------
def find_mayhem(pyramid: Pyramid, curse: bool) -> Mayhem | None:
    """The first mayhem in FP-6 order: ``(kind, cell, cells)``.

    ``cell`` is the tile concerned (the falling or collapsing tile, the first exploding
    incendiary, the fire starter, the curse's top tile); ``cells`` is the explosion group
    or the burning tiles, each in scan order.
    """
    weight = WEIGHT
    mask = COLOUR_MASK
    get = pyramid.get
    free: Cell | None = None
    bad: Cell | None = None
    cursed: Cell | None = None
    incendiaries: list[Cell] = []
    for cell, t in pyramid.items():
        if t in INCENDIARY:
            incendiaries.append(cell)
        r, c = cell
        if r == 0:
            continue
        a = get((r - 1, c))
        b = get((r - 1, c + 1))
        if a is None or b is None:
            if a is None and b is None:
                if free is None or (-r, c) < (-free[0], free[1]):
                    free = cell
                continue
            if free is not None:
                continue
            s = b if a is None else a
            assert s is not None
            if ((not mask[t] & mask[s]) or weight[t] > weight[s]) and (
                bad is None or (-r, c) < (-bad[0], bad[1])
            ):
                bad = cell
            continue
        if free is not None:
            continue
        wt = weight[t]
        wa = weight[a]
        wb = weight[b]
        if wt > wa + wb or not (mask[t] & (mask[a] | mask[b]) or wt in (wa, wb)):
            if bad is None or (-r, c) < (-bad[0], bad[1]):
                bad = cell
        elif curse and wt == wa == wb and (cursed is None or (-r, c) < (-cursed[0], cursed[1])):
            cursed = cell
    if free is not None:
        return (FREE_AIR, free, ())
    if bad is not None:
        return (COLLAPSE, bad, ())
    if incendiaries:
        if len(incendiaries) > 1:
            incendiaries.sort(key=scan_key)
            for cell in incendiaries:
                if any(n in pyramid and pyramid[n] in INCENDIARY for n in touching(cell)):
                    return (EXPLOSION, cell, _incendiary_group(pyramid, cell))
        # FP-6 clarification (second edition): when several incendiaries touch the
        # burning group, the first in scan order started the fire and leaves the game;
        # the others stay (scenario fp6-several-incendiaries-first-in-scan-order-starts).
        for cell in incendiaries:
            ignitable = IGNITABLE[pyramid[cell]]
            if any(get(n) in ignitable for n in touching(cell)):
                return (FIRE, cell, _burning(pyramid, cell, ignitable))
    if cursed is not None:
        return (CURSE, cursed, ())
    return None


def _incendiary_group(pyramid: Pyramid, start: Cell) -> tuple[Cell, ...]:
    group = {start}
    frontier = [start]
    while frontier:
        cell = frontier.pop()
        for n in touching(cell):
            if n not in group and pyramid.get(n, "") in INCENDIARY:
                group.add(n)
                frontier.append(n)
    return tuple(sorted(group, key=scan_key))


def _burning(pyramid: Pyramid, start: Cell, ignitable: frozenset[str]) -> tuple[Cell, ...]:
    """Every tile reachable from ``start`` through touching tiles it can ignite."""
    burnt: set[Cell] = set()
    frontier = [start]
    while frontier:
        cell = frontier.pop()
        for n in touching(cell):
            if n not in burnt and pyramid.get(n) in ignitable:
                burnt.add(n)
                frontier.append(n)
    return tuple(sorted(burnt, key=scan_key))


# --- FP-6: resolving it -----------------------------------------------------------------
class Turn:
    """The mutable working copy of one turn's resolution."""

    __slots__ = ("active", "curse", "events", "hands", "narrate", "piles", "played", "players", "pyramid",
                 "removed", "responsible")

    def __init__(self, state: State, responsible: int, narrate: bool) -> None:
        self.pyramid: dict[Cell, str] = state.pyramid  # already a private copy
        self.piles = list(state.piles)
        self.hands = list(state.hands)
        self.removed = state.removed
        self.active = state.turn
        self.players = state.players
        self.curse = state.curse
        self.responsible = responsible
        self.narrate = narrate
        self.played: Cell | None = None  # the tile just played, until the first check
        self.events: list[Event] = []

    def under_pile(self, seat: int, tiles: tuple[str, ...]) -> None:
        self.piles[seat] = self.piles[seat] + tiles

    def say(self, kind: str, text: Phrase, players: tuple[int, ...] = (), cells: tuple[Cell, ...] = (),
            items: tuple[str, ...] = (), visible_to: int | None = None) -> None:
        self.events.append(
            Event(kind, text.template, players, tuple(cell_text(c) for c in cells), items, visible_to,
                  args=text.args)
        )


def resolve(turn: Turn) -> Fall | None:
    """Resolve mayhem until none is left (None) or a fall must be chosen."""
    pyramid = turn.pyramid
    while True:
        found = find_mayhem(pyramid, turn.curse)
        played, turn.played = turn.played, None
        if found is None:
            return None
        kind, cell, cells = found
        seat = turn.responsible
        if kind == FREE_AIR:
            if turn.narrate:
                t = pyramid[cell]
                turn.say("free_air", phrase(N_("{tile} rests on nothing and must fall."), tile=named(t)),
                         (seat,), (cell,), (t,))
                _ask_fall(turn, cell)
            return Fall(seat, pyramid[cell], cell)
        if kind == COLLAPSE:
            t = pyramid[cell]
            r, c = cell
            below = tuple(s for s in ((r - 1, c), (r - 1, c + 1)) if s in pyramid)
            if turn.narrate:
                reason = rest_problem(pyramid, cell)
                gone = tuple(pyramid[s] for s in below)
                turn.say("collapse", _collapse_text(t, gone, reason), (seat,), (cell, *below), (t, *gone))
            turn.under_pile(seat, tuple(pyramid.pop(s) for s in below))
            if turn.narrate:
                _ask_fall(turn, cell)
            if cell == played:
                # A played tile that breaks FP-4 is never placed: it falls from above the spot.
                return Fall(seat, pyramid.pop(cell), cell, lifted=True)
            return Fall(seat, t, cell)
        if kind == EXPLOSION:
            group = cells
            victims = sorted({n for g in group for n in touching(g) if n in pyramid and pyramid[n] not in INCENDIARY},
                             key=scan_key)
            gone = tuple(pyramid[v] for v in victims)
            bang = tuple(pyramid[g] for g in group)
            if turn.narrate:
                turn.say("explosion", _explosion_text(bang, gone), (seat,), (*group, *victims), (*bang, *gone))
            for v in victims:
                del pyramid[v]
            for g in group:
                del pyramid[g]
            turn.under_pile(seat, gone)
            turn.removed = turn.removed + bang
            continue
        if kind == FIRE:
            starter = pyramid[cell]
            burnt = tuple(pyramid[b] for b in cells)
            if turn.narrate:
                turn.say("fire", _fire_text(starter, burnt), (seat,), (cell, *cells), (starter, *burnt))
            for b in cells:
                del pyramid[b]
            del pyramid[cell]
            turn.under_pile(seat, burnt)
            turn.removed = (*turn.removed, starter)
            continue
        # CURSE
        r, c = cell
        trio = (cell, (r - 1, c), (r - 1, c + 1))
        tiles = tuple(pyramid.pop(x) for x in trio)
        previous = (turn.active - 1) % turn.players
        turn.responsible = previous
        turn.under_pile(previous, tiles)
        if turn.narrate:
            turn.say(
                "curse",
                phrase(N_("Curse! {top} on {left} and {right} are three {weight}s: they go under {0}'s pile, "
                          "and {0} answers for the rest of this turn's mayhem."),
                       top=named(tiles[0]), left=named(tiles[1]), right=named(tiles[2]), weight=WEIGHT[tiles[0]]),
                (previous,), trio, tiles,
            )


def _ask_fall(turn: Turn, cell: Cell) -> None:
    r, c = cell
    t = turn.pyramid[cell]
    left, right = (r - 1, c), (r - 1, c + 1)
    turn.say(
        "fall_choice",
        # the card's buttons say which way (⬅ left, right ➡); the cells are on no picture (#43)
        phrase(N_("{0} must choose where {tile} falls: left or right."), tile=named(t)),
        (turn.responsible,), (cell, left, right), (t,),
    )


def _collapse_text(t: str, gone: tuple[str, ...], reason: str | None) -> Phrase:
    w = WEIGHT[t]
    if len(gone) == 1:
        s = gone[0]
        if reason == "overhang weight":
            return phrase(N_("{tile} overhung {below} but is heavier ({weight} > {below_weight}): {below} collapses "
                             "into {0}'s pile."), tile=named(t), below=named(s), weight=w, below_weight=WEIGHT[s])
        return phrase(N_("{tile} overhung {below} without sharing a colour: {below} collapses into {0}'s pile."),
                      tile=named(t), below=named(s))
    a, b = gone
    total = f"{w} > {WEIGHT[a]} + {WEIGHT[b]}"
    if reason == "overweight":
        template = N_("{tile} was overweight ({total}): {left} and {right} collapse into {0}'s pile.")
    elif reason == "mismatch":
        template = N_("{tile} matched neither {left} nor {right} in colour or weight: {left} and {right} collapse "
                      "into {0}'s pile.")
    else:
        template = N_("{tile} matched neither {left} nor {right} and was overweight ({total}): {left} and {right} "
                      "collapse into {0}'s pile.")
    return phrase(template, tile=named(t), left=named(a), right=named(b), total=total)


def _explosion_text(bang: tuple[str, ...], gone: tuple[str, ...]) -> Phrase:
    names = and_list(named(b) for b in bang)
    if not gone:
        return phrase(N_("{names} exploded and leave the game; nothing else was touching them."), names=names)
    template = plural(len(gone), N_("{names} exploded: {gone} goes under {0}'s pile and {tiles} leave the game."),
                      N_("{names} exploded: {gone} go under {0}'s pile and {tiles} leave the game."))
    return phrase(template, names=names, gone=and_list(named(g) for g in gone), tiles=and_list(named(b) for b in bang))


#: Fire's sentence by what burnt (FP-6 check 4: coal lights straw, a blowtorch straw and
#: wood) and whether it was one tile.
_FIRE_TEXTS: dict[tuple[str, bool], str] = {
    ("straw", True): N_("{starter} set fire to {count} straw tile ({tiles}) and burnt out, leaving the game; the "
                        "burnt tile goes under {0}'s pile."),
    ("straw", False): N_("{starter} set fire to {count} straw tiles ({tiles}) and burnt out, leaving the game; the "
                         "burnt tiles go under {0}'s pile."),
    ("wood", True): N_("{starter} set fire to {count} wood tile ({tiles}) and burnt out, leaving the game; the "
                       "burnt tile goes under {0}'s pile."),
    ("wood", False): N_("{starter} set fire to {count} wood tiles ({tiles}) and burnt out, leaving the game; the "
                        "burnt tiles go under {0}'s pile."),
    ("straw and wood", False): N_("{starter} set fire to {count} straw and wood tiles ({tiles}) and burnt out, "
                                  "leaving the game; the burnt tiles go under {0}'s pile."),
}


def _fire_text(starter: str, burnt: tuple[str, ...]) -> Phrase:
    materials = {MATERIAL[b] for b in burnt}
    stuff = " and ".join(m for m in ("straw", "wood") if m in materials)
    template = _FIRE_TEXTS[(stuff, len(burnt) == 1 and stuff != "straw and wood")]
    return phrase(template, starter=named(starter), count=len(burnt), tiles=and_list(named(b) for b in burnt))


# --- FP-5: a turn -----------------------------------------------------------------------
def play_tile(state: State, tile: str, cell: Cell, narrate: bool = True) -> tuple[State, list[Event]]:
    """FP-5 steps 1-5 for a move already checked against the hand and the open spaces."""
    new = state.copy()
    seat = state.turn
    hand = state.hands[seat]
    i = hand.index(tile)
    new.pyramid[cell] = tile
    new.moves += 1
    turn = Turn(new, seat, narrate)
    turn.played = cell
    turn.hands[seat] = hand[:i] + hand[i + 1:]
    if narrate:
        turn.say("play", phrase(N_("{0} played {tile}."), tile=named(tile)),
                 (seat,), (cell,), (tile,))
    return _continue(new, turn)


def fall(state: State, right: bool, narrate: bool = True) -> tuple[State, list[Event]]:
    """Answer the pending fall and carry on with the mayhem."""
    pending = state.pending
    assert pending is not None
    new = state.copy()
    new.moves += 1
    r, c = pending.cell
    to = (r - 1, c + 1) if right else (r - 1, c)
    tile = pending.tile if pending.lifted else new.pyramid.pop(pending.cell)
    new.pyramid[to] = tile
    turn = Turn(new, pending.player, narrate)
    if narrate:
        template = N_("{0} let {tile} fall to the right.") if right else N_("{0} let {tile} fall to the left.")
        turn.say("fall", phrase(template, tile=named(tile)),
                 (pending.player,), (pending.cell, to), (tile,))
    return _continue(new, turn)


def _continue(new: State, turn: Turn) -> tuple[State, list[Event]]:
    new.pending = resolve(turn)
    new.removed = turn.removed
    if new.pending is None:
        _end_turn(new, turn)
    new.hands = tuple(turn.hands)
    new.piles = tuple(turn.piles)
    return new, turn.events


def _end_turn(new: State, turn: Turn) -> None:
    """Only called once every fall is chosen: FP-5 clarification (second edition), a
    player whose last tile is played wins once the mayhem it started is fully resolved,
    including a fall another player must still choose after a curse (scenario
    fp5-win-waits-for-the-cursed-players-fall)."""
    seat = new.turn
    hand = turn.hands[seat]
    pile = turn.piles[seat]
    if not hand and not pile:
        new.result = Result(
            winners=(seat,),
            scores=tuple(float(len(turn.hands[p]) + len(turn.piles[p])) for p in range(new.players)),
            summary_text=phrase(N_("{player} placed their last tile and wins."), player=name_of(seat)),
            details={"turns": float(new.turns + 1)},
        )
        new.turns += 1
        if turn.narrate:
            turn.say("win", phrase(N_("{0} has no tile left and wins the game!")), (seat,))
        return
    need = HAND_SIZE - len(hand)
    if need > 0 and pile:
        drawn = pile[:need]
        turn.hands[seat] = hand + drawn
        turn.piles[seat] = pile[need:]
        if turn.narrate:
            turn.say("draw", phrase(N_("You drew {tiles}."), tiles=and_list(named(d) for d in drawn)), (seat,), (),
                     drawn, visible_to=seat)
            count = plural(len(drawn), N_("{0} drew {count} tile."), N_("{0} drew {count} tiles."))
            turn.say("draw_count", phrase(count, count=len(drawn)), (seat,))
    new.turns += 1
    new.turn = (seat + 1) % new.players
    if new.turn_limit is not None and new.turns >= new.turn_limit:
        _end_by_limit(new, turn)
    elif turn.narrate:
        turn.say("turn", phrase(N_("It is {0}'s turn.")), (new.turn,))


def _end_by_limit(new: State, turn: Turn) -> None:
    counts = [len(turn.hands[p]) + len(turn.piles[p]) for p in range(new.players)]
    fewest = min(counts)
    winners = tuple(p for p in range(new.players) if counts[p] == fewest)
    new.result = Result(
        winners=winners,
        scores=tuple(float(c) for c in counts),
        summary_text=_limit_text(tuple(name_of(p) for p in winners), fewest),
        details={"turns": float(new.turns), "turn_limit": 1.0},
    )
    if turn.narrate:
        names = tuple(name_of(i) for i in range(len(winners)))
        turn.say("turn_limit", phrase(N_("The turn limit of {limit} turns is reached: {outcome}"),
                                      limit=new.turn_limit, outcome=_limit_text(names, fewest)), winners)


def _limit_text(names: tuple[Phrase, ...], fewest: int) -> Phrase:
    if len(names) == 1:
        return phrase(N_("{player} wins with the fewest tiles left ({count})."), player=names[0], count=fewest)
    template = plural(fewest, N_("{players} share the win with {count} tile left each."),
                      N_("{players} share the win with {count} tiles left each."))
    return phrase(template, players=and_list(names), count=fewest)
