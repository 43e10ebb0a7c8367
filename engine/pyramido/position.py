"""Position JSON (the rules file's notation section) to and from a :class:`State`.

Extra keys beyond the rules file round-trip the state exactly: ``players``,
``placed``, ``idle``, ``passes``, ``first``, ``rounds``, ``round``, ``plus``,
``minus``, ``closer``, ``result``, ``moves`` and ``rng``. Scenario set-ups may omit
them.

PD-6 tallies (second edition). ``plus`` and ``minus`` hold each competitive
player's plus and minus points over the finished rounds, minus points as positive
counts (``"plus": [1, 0, 0], "minus": [5, 4, 10]``); solo/co-op positions leave
them empty. The first edition kept one net total per player under ``scores``.
Decision on such old positions: the loader accepts ``scores`` only while it converts
unambiguously, that is while at most one round has been scored. With no round
scored every total must be 0; after one round a total is +1 (the first completer:
1 plus, 0 minus), 0 (a later completer) or −k (k minus points). From the second
scored round on a net total no longer tells the tallies apart (−3 may be 3 minus
points, or 1 plus and 4 minus), so the loader refuses with a message saying why:
guessing would change who wins. Nothing is lost by refusing: stored games are
rebuilt by replaying their move log from the seed, so a stored position is only a
cache. A position giving both ``scores`` and ``plus``/``minus`` is refused too.

PD-1 stone counts: a position may hold no more stones of a colour than the box
has: 13, or 8 in the small edition (the 4×4 solo/co-op pyramid), counting every
stone in the position (pyramids, hands, reserves, quarry, bag and out).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.contract import Json
from engine.core.errors import BadPosition, IllegalMove
from engine.core.result import Result
from engine.core.text import N_, name_of, phrase
from engine.core.validate import whole_at
from engine.pyramido import coop
from engine.pyramido.geometry import Cell, beneath, footprint, format_cell, is_complete
from engine.pyramido.notation import parse_cell
from engine.pyramido.state import State
from engine.pyramido.stones import (
    COLOUR_NAMES,
    COLOURS,
    MODES,
    QUARRY_SIZE,
    RESERVE_LIMIT,
    competitive_size,
    per_colour,
    pyramid_total,
)


def pyramid_json(pyramid: Mapping[Cell, str]) -> dict[str, str]:
    return {format_cell(cell): pyramid[cell] for cell in sorted(pyramid)}


def to_position(state: State) -> Json:
    return {
        "mode": state.mode,
        "size": state.size,
        "turn": state.turn,
        "pyramids": [pyramid_json(p) for p in state.pyramids],
        "hands": [list(h) for h in state.hands],
        "reserves": [list(r) for r in state.reserves],
        "quarry": list(state.quarry),
        "bag": list(state.bag),
        "out": list(state.out),
        "players": state.players,
        "placed": state.placed,
        "idle": state.idle,
        "passes": state.passes,
        "first": state.first,
        "rounds": state.rounds,
        "round": state.round,
        "plus": list(state.plus),
        "minus": list(state.minus),
        "closer": state.closer,
        "result": None if state.result is None else state.result.to_json(text=True),
        "moves": state.moves,
        "rng": state.rng,
    }


def _stones(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise BadPosition(f"{where} must be a list of stone colours.")
    stones = []
    for item in value:
        if not isinstance(item, str) or item.strip().upper() not in COLOURS:
            raise BadPosition(f"{where} holds {item!r}, which is not a stone colour (R, Y, G, B, W).")
        stones.append(item.strip().upper())
    return tuple(stones)


def _lists(position: Mapping[str, Any], key: str, count: int) -> tuple[tuple[str, ...], ...]:
    value = position.get(key)
    if value is None:
        return ((),) * count
    if not isinstance(value, list) or not all(isinstance(v, list) for v in value):
        raise BadPosition(f"{key!r} must be a list of lists of stone colours.")
    return tuple(_stones(v, f"{key}[{i}]") for i, v in enumerate(value))


def _pyramid(value: Any, index: int, size: int) -> dict[Cell, str]:
    if not isinstance(value, Mapping):
        raise BadPosition(f"pyramids[{index}] must be an object mapping cells like '1:0,0' to colours.")
    pyramid: dict[Cell, str] = {}
    for key, colour in value.items():
        try:
            cell = parse_cell(str(key))
        except IllegalMove as exc:
            raise BadPosition(f"pyramids[{index}]: {exc.reason}") from exc
        if cell in pyramid:
            raise BadPosition(f"pyramids[{index}] names cell {format_cell(cell)} twice.")
        if not isinstance(colour, str) or colour.strip().upper() not in COLOURS:
            raise BadPosition(f"pyramids[{index}] cell {key}: {colour!r} is not a stone colour.")
        if not 1 <= cell[0] <= size:
            raise BadPosition(f"pyramids[{index}] cell {key}: there is no level {cell[0]} in a size-{size} pyramid.")
        pyramid[cell] = colour.strip().upper()
    for cell in pyramid:
        if cell[0] > 1 and not all(c in pyramid for c in beneath(cell)):
            raise BadPosition(f"pyramids[{index}]: {format_cell(cell)} does not rest on a complete square.")
    box = footprint(pyramid)
    if box is not None and (box[2] - box[0] >= size or box[3] - box[1] >= size):
        raise BadPosition(f"pyramids[{index}]: the base is wider than {size}×{size}.")
    return pyramid


def _check_stone_counts(stones: list[str], mode: str, size: int) -> None:
    """PD-1: no more stones of a colour than the box holds (8 each in the small
    edition, which is what a 4×4 solo/co-op pyramid is built from; else 13)."""
    limit = per_colour(mode, size)
    for colour in COLOURS:
        n = stones.count(colour)
        if n > limit:
            edition = (f"the small edition (the {size}×{size} {mode} pyramid) has only {limit}"
                       if limit < per_colour("competitive", size) else f"the box has only {limit}")
            raise BadPosition(f"The position holds {n} {COLOUR_NAMES[colour]} ({colour}) stones, but {edition} "
                              f"of each colour (counting pyramids, hands, reserves, quarry, bag and out).")


def _counts(value: Any, key: str, count: int) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise BadPosition(f"{key!r} must be a list of whole numbers.")
    if len(value) != count:
        raise BadPosition(f"{key!r} must hold one number per competitive player ({count}), not {len(value)}."
                          if count else f"{key!r} belongs to the competitive game; leave it empty here.")
    if any(v < 0 for v in value):
        raise BadPosition(f"{key!r} counts points, so it holds no negative numbers (minus points are written as "
                          f"positive counts): {value!r}.")
    return tuple(value)


def _tallies(position: Mapping[str, Any], count: int, rounds: int, round_number: int,
             size: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """``plus`` and ``minus`` (PD-6 second edition), or an old net ``scores`` key
    converted when it is unambiguous; see the module docstring."""
    new = "plus" in position or "minus" in position
    if "scores" in position and position["scores"] is not None:
        if new:
            raise BadPosition("Give the PD-6 tallies as 'plus' and 'minus' only, without the old net 'scores'.")
        return _from_net_scores(position, position["scores"], count, rounds, round_number, size)
    plus = _counts(position.get("plus", [0] * count), "plus", count)
    minus = _counts(position.get("minus", [0] * count), "minus", count)
    if rounds == 1 and (any(plus) or any(minus)):
        raise BadPosition("Plus and minus points belong to the several-rounds option (PD-6); with one round they "
                          "stay 0.")
    if sum(plus) > rounds:
        raise BadPosition(f"'plus' hands out {sum(plus)} plus points, but each of the {rounds} rounds gives at most "
                          f"one.")
    return plus, minus


def _from_net_scores(position: Mapping[str, Any], value: Any, count: int, rounds: int, round_number: int,
                     size: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """An old position's net totals as plus and minus points, or a refusal."""
    if not isinstance(value, list) or not all(isinstance(s, int) and not isinstance(s, bool) for s in value):
        raise BadPosition("'scores' must be a list of whole numbers.")
    if len(value) != count:
        raise BadPosition("'scores' must hold one total per competitive player.")
    if not count:
        return (), ()
    finished = position.get("result") is not None
    scored = 0 if rounds == 1 else round_number if finished else round_number - 1
    if scored == 0:
        if any(value):
            raise BadPosition(f"'scores' {value!r} cannot be right: no round has been scored yet, so every total is 0.")
        return (0,) * count, (0,) * count
    worst = pyramid_total(size) - 2  # the two foundation stones always stand
    if scored > 1:
        raise BadPosition(
            f"This position keeps the first edition's net 'scores' {value!r} after {scored} scored rounds. PD-6 "
            f"(second edition) ranks by minus points first, and a net total no longer tells them apart (-3 may be "
            f"3 minus points, or 1 plus and 4 minus), so it cannot be converted. Give 'plus' and 'minus' instead "
            f"(minus points as positive counts), or rebuild the game by replaying its moves.")
    if any(s > 1 or s < -worst for s in value) or sum(s == 1 for s in value) > 1:
        raise BadPosition(f"'scores' {value!r} cannot come from one scored round: it gives +1 to at most one player "
                          f"and otherwise 0 or minus the stones missing (at most {worst}).")
    return tuple(max(s, 0) for s in value), tuple(max(-s, 0) for s in value)


def from_position(position: Mapping[str, Any]) -> State:
    if not isinstance(position, Mapping):
        raise BadPosition("A Pyramido position must be a JSON object.")
    raw_pyramids = position.get("pyramids")
    if not isinstance(raw_pyramids, list) or not raw_pyramids:
        raise BadPosition("'pyramids' must be a non-empty list of pyramids.")
    mode = position.get("mode")
    if mode is None:
        mode = "competitive" if len(raw_pyramids) > 1 else "solo"
    if mode not in MODES:
        raise BadPosition(f"'mode' must be solo, coop or competitive, not {mode!r}.")
    competitive = mode == "competitive"
    if competitive:
        players = len(raw_pyramids)
        if not 2 <= players <= 4:
            raise BadPosition(f"A competitive game has 2 to 4 pyramids, not {players}.")
    else:
        if len(raw_pyramids) != 1:
            raise BadPosition(f"A {mode} game has one shared pyramid, not {len(raw_pyramids)}.")
        hands_value = position.get("hands")
        players = len(hands_value) if isinstance(hands_value, list) else whole_at(position, "players", 1, 1, 4)
        low, high = (1, 1) if mode == "solo" else (2, 4)
        if not low <= players <= high:
            raise BadPosition(f"A {mode} game has {low if low == high else f'{low} to {high}'} players, not {players}.")
    default_size = competitive_size(players) if competitive else 5
    size = whole_at(position, "size", default_size, 3, 5)
    allowed = (3, 4) if competitive else (4, 5)
    if size not in allowed:
        raise BadPosition(f"A {mode} pyramid has a base of {' or '.join(map(str, allowed))}, not {size}.")
    pyramids = tuple(_pyramid(p, i, size) for i, p in enumerate(raw_pyramids))
    hands = _lists(position, "hands", players)
    reserves = _lists(position, "reserves", players)
    if len(hands) != players:
        raise BadPosition(f"'hands' must hold {players} hands, not {len(hands)}.")
    if competitive:
        if len(reserves) != players:
            raise BadPosition(f"'reserves' must hold {players} reserves, not {len(reserves)}.")
        if any(hands):
            raise BadPosition("Competitive players hold no hands; stones wait in the quarry or a reserve.")
        for i, r in enumerate(reserves):
            if len(r) > RESERVE_LIMIT:
                raise BadPosition(f"reserves[{i}] holds {len(r)} stones; a reserve holds at most {RESERVE_LIMIT}.")
    else:
        if any(reserves):
            raise BadPosition(f"The {mode} game has no reserves.")
        reserves = ((),) * players
    quarry = _stones(position.get("quarry", []), "quarry")
    if quarry and not competitive:
        raise BadPosition(f"The {mode} game has no quarry.")
    if len(quarry) > QUARRY_SIZE:
        raise BadPosition(f"The quarry holds at most {QUARRY_SIZE} stones, not {len(quarry)}.")
    bag = _stones(position.get("bag", []), "bag")
    out = _stones(position.get("out", []), "out")
    everything = [*bag, *out, *quarry]
    for group in (*hands, *reserves):
        everything.extend(group)
    for pyramid in pyramids:
        everything.extend(pyramid.values())
    _check_stone_counts(everything, mode, size)
    closer = position.get("closer")
    if closer is not None and (isinstance(closer, bool) or not isinstance(closer, int) or not 0 <= closer < players):
        raise BadPosition(f"'closer' must be null or a seat, not {closer!r}.")
    rounds = whole_at(position, "rounds", 1, 1, 20)
    if rounds > 1 and not competitive:
        raise BadPosition("Several rounds are a competitive option.")
    round_number = whole_at(position, "round", 1, 1, rounds)
    plus, minus = _tallies(position, players if competitive else 0, rounds, round_number, size)
    state = State(
        mode=mode, size=size, players=players, turn=whole_at(position, "turn", 0, 0, players - 1),
        pyramids=pyramids, hands=hands, reserves=reserves, quarry=quarry, bag=bag, out=out,
        placed=whole_at(position, "placed", 0, 0, 1000), idle=whole_at(position, "idle", 0, 0, players),
        passes=whole_at(position, "passes", 0, 0, players), first=whole_at(position, "first", 0, 0, players - 1),
        rounds=rounds, round=round_number, plus=plus, minus=minus, closer=closer,
        moves=whole_at(position, "moves", 0, 0, 10**9), rng=whole_at(position, "rng", 0, 0, (1 << 64) - 1),
    )
    if "result" in position:
        raw = position["result"]
        return state.with_(result=None if raw is None else Result.from_json(raw))
    if not competitive:
        return state.with_(result=coop.derive_result(state))
    done = tuple(p for p in range(players) if is_complete(pyramids[p], size))
    if done and rounds == 1:
        return state.with_(result=Result(winners=done, summary_text=phrase(N_("{player} completed their pyramid."),
                                                                          player=name_of(done[0]))))
    return state
