"""Representative positions for the gallery, the benchmark and the tests, reached by
playing the real engines from fixed seeds (random legal moves from
``engine.core.Rng``) or loaded with ``GAME.from_position`` for the special cases,
so every picture is of a position the engine accepts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.continuous_pyramid import Budget, solve
from engine.core import Event, Game, Rng, get_game
from render.labels import move_labels
from tools.playout import Choose, played

NAMES = ["Ana", "Normal AI", "Zoë", "Bob", "Chidi", "Dee"]


@dataclass
class Sample:
    """One position as the bot would show it: the public board (with the to-act
    player's spot labels and the last move's events) and one player's hand."""

    name: str
    game: str
    view: dict[str, Any]
    hand_view: dict[str, Any]
    labels: dict[str, str] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    note: str = ""


def labels_for(game: Game[Any], state: Any) -> dict[str, str]:
    """The same letters the bot puts on its buttons: those of the legal moves' cells."""
    if game.result(state) is not None:
        return {}
    return move_labels(game.legal_moves(state))


def dress(view: dict[str, Any], number: int) -> dict[str, Any]:
    """Add what the bot adds: plain names and the game number."""
    players = int(view.get("players") or 1)
    return {**view, "names": NAMES[:players], "game_number": number}


def sample(name: str, game: Game[Any], state: Any, events: list[Event], number: int, note: str = "",
           hand_seat: int | None = None) -> Sample:
    seat = game.to_act(state)
    if hand_seat is None:
        hand_seat = seat if seat is not None else 0
    return Sample(
        name=name,
        game=game.id,
        view=dress(game.view(state, None), number),
        hand_view=dress(game.view(state, hand_seat), number),
        labels=labels_for(game, state),
        events=list(events),
        note=note,
    )


def random_policy(prefer: tuple[str, ...] = (), bias: float = 0.85) -> Choose:
    """Uniform over legal moves, but mostly one of the ``prefer`` verbs when offered
    (random play otherwise undoes, draws or passes too much to look like a game)."""

    def choose(game: Game[Any], state: Any, rng: Rng) -> str:
        moves = game.legal_moves(state)
        preferred = [m for m in moves if m.split()[0] in prefer]
        if preferred and rng.random() < bias:
            return rng.choice(preferred)
        return rng.choice(moves)

    return choose


def play(game: Game[Any], players: int, options: dict[str, Any] | None, seed: int, policy: Choose, moves: int,
         stop: Callable[[Any, list[Event]], bool] | None = None) -> tuple[Any, list[Event]]:
    """Play up to ``moves`` moves (or until ``stop``); returns the state and the
    events of the last move."""
    return played(game, game.setup(players, options, seed), Rng(seed * 7919 + 17), moves, policy, stop)


def builder_policy(chaos: float = 0.15) -> Choose:
    """Flaming Pyramids: mostly a move that leaves the biggest pyramid (random play
    collapses everything and never gets busy), sometimes any move."""

    def choose(game: Game[Any], state: Any, rng: Rng) -> str:
        moves = game.legal_moves(state)
        if rng.random() < chaos:
            return rng.choice(moves)
        seat = game.to_act(state)
        scored = []
        for move in moves:
            after, _ = game.play(state, seat if seat is not None else 0, move)
            scored.append((len(game.view(after, None)["pyramid"]), move))
        best = max(n for n, _ in scored)
        return rng.choice([m for n, m in scored if n == best])

    return choose


# --- Flaming Pyramids ----------------------------------------------------------------------
def flaming() -> list[Sample]:
    game = get_game("flaming-pyramids")
    any_move = random_policy()
    out = []
    state = game.setup(4, None, 3)
    out.append(sample("flaming-pyramids-opening", game, state, [], 101, "4 players, one leftover base tile"))

    def busy(s: Any, ev: list[Event]) -> bool:
        return len(game.view(s, None)["pyramid"]) >= 12 and any(e.kind in {"fire", "explosion", "collapse"}
                                                                for e in ev) and game.pending(s) is None
    state, events = play(game, 3, None, 2, builder_policy(), 400, busy)
    out.append(sample("flaming-pyramids-mid", game, state, events, 102, "busy mid-game; mayhem on the last move"))
    state, events = play(game, 3, None, 2, any_move, 400, lambda s, ev: game.pending(s) is not None and len(
        game.view(s, None)["pyramid"]) >= 6)
    out.append(sample("flaming-pyramids-fall", game, state, events, 103, "a pending fall choice"))
    state, events = play(game, 2, {"curse": True}, 5, builder_policy(0.3), 2000)
    out.append(sample("flaming-pyramids-over", game, state, events, 104, "game over"))
    state = game.from_position(_wide_fp())
    out.append(sample("flaming-pyramids-wide", game, state, [], 105, "a base of 14 tiles"))
    return out


def _wide_fp() -> dict[str, Any]:
    """A 14-tile base with three rows on it; hands and piles hold the rest."""
    regular = [f"{c}{w}" for w in (2, 4, 6, 10, 20, 30, 40, 60, 100, 120) for c in "RGBY"]
    rng = Rng(2024)
    tiles = regular[:]
    rng.shuffle(tiles)
    base = sorted(tiles[:14], key=lambda t: -int(t[1:]))
    pyramid: dict[str, str] = {f"0,{c - 6}": t for c, t in enumerate(base)}
    rest = tiles[14:]
    # row 1 over the heavy middle, light tiles of a shared colour where possible
    row1: list[int] = []
    for c in range(-5, 5):
        left, right = pyramid[f"0,{c}"], pyramid[f"0,{c + 1}"]
        cap = int(left[1:]) + int(right[1:])
        pick = next((t for t in rest if t[0] in (left[0], right[0]) and int(t[1:]) <= cap), None)
        if pick is not None and len(row1) < 7:
            pyramid[f"1,{c}"] = pick
            rest.remove(pick)
            row1.append(c)
    pyramid["0,8"] = "M200"
    for c in range(-5, 5):
        if f"1,{c}" in pyramid and f"1,{c + 1}" in pyramid:
            left, right = pyramid[f"1,{c}"], pyramid[f"1,{c + 1}"]
            cap = int(left[1:]) + int(right[1:])
            pick = next((t for t in rest if t[0] in (left[0], right[0]) and int(t[1:]) <= cap), None)
            if pick is not None:
                pyramid[f"2,{c}"] = pick
                rest.remove(pick)
    hands = [[*rest[0:4], "R7"], rest[4:9], [*rest[9:12], "G1", "Y1"]]
    piles = [rest[12:15], rest[15:17], [*rest[17:18], "B7"]]
    return {"players": 3, "options": {"curse": False}, "turn": 1, "pyramid": pyramid, "hands": hands,
            "piles": piles, "removed": []}


# --- Continuous Pyramid --------------------------------------------------------------------
def continuous() -> list[Sample]:
    game = get_game("continuous-pyramid")
    out = []
    state = game.setup(1, None, 21)
    out.append(sample("continuous-pyramid-opening", game, state, [], 201, "a fresh deal"))
    line = solve(21, Budget(nodes=200_000)).line
    events: list[Event] = []
    for move in line[:100]:
        state, events = game.play(state, 0, move)
    out.append(sample("continuous-pyramid-mid", game, state, events, 202, "100 tiles in, upper levels open"))
    for move in line[100:]:
        state, events = game.play(state, 0, move)
    out.append(sample("continuous-pyramid-full", game, state, events, 203, "all 144 tiles placed: a win"))
    state, events = play(game, 1, None, 9, random_policy(("play",), 0.97), 400,
                         lambda s, ev: any(e.kind == "stuck" for e in ev))
    out.append(sample("continuous-pyramid-stuck", game, state, events, 204, "stuck: only undo or give up"))
    state, events = play(game, 1, {"undo": False}, 5, random_policy(("play",), 1.0), 400)
    out.append(sample("continuous-pyramid-over", game, state, events, 205, "game over (no undo)"))
    return out


# --- Pyrinoes ------------------------------------------------------------------------------
def pyrinoes() -> list[Sample]:
    game = get_game("pyrinoes")
    policy = random_policy(("play",), 0.9)
    out = []
    state = game.setup(2, None, 31)
    out.append(sample("pyrinoes-opening", game, state, [], 301, "round 1, first turn"))
    state, events = play(game, 2, None, 32, policy, 400,
                         lambda s, ev: len(game.view(s, None)["line"]) >= 18 and any(e.kind == "play" for e in ev))
    out.append(sample("pyrinoes-mid", game, state, events, 302, "a long line"))
    state, events = play(game, 2, None, 33, policy, 600, lambda s, ev: any(e.kind == "round-end" for e in ev))
    out.append(sample("pyrinoes-round-end", game, state, events, 303, "a round just ended"))
    state, events = play(game, 2, {"target": 50}, 34, policy, 2000)
    out.append(sample("pyrinoes-over", game, state, events, 304, "match over"))
    return out


# --- Pyramido ------------------------------------------------------------------------------
def pyramido() -> list[Sample]:
    game = get_game("pyramido")
    policy = random_policy(("place", "take", "build"), 0.92)
    out = []
    state = game.setup(2, {"mode": "coop"}, 41)
    out.append(sample("pyramido-coop-opening", game, state, [], 401, "co-op, the foundation cross"))
    state, events = play(game, 2, {"mode": "coop"}, 42, policy, 400,
                         lambda s, ev: len(game.view(s, None)["pyramids"][0]) >= 30 and bool(ev) and ev[0].kind
                         == "place")
    out.append(sample("pyramido-coop-mid", game, state, events, 402, "co-op mid-game, placing"))
    state, events = play(game, 1, {"mode": "solo"}, 43, policy, 600)
    out.append(sample("pyramido-solo-over", game, state, events, 403, "solo, game over"))
    state, events = play(game, 2, {"mode": "competitive"}, 44, policy, 30)
    out.append(sample("pyramido-competitive-2p", game, state, events, 404, "competitive, 2 players (4×4)"))
    state, events = play(game, 4, {"mode": "competitive"}, 45, policy, 40)
    out.append(sample("pyramido-competitive-4p", game, state, events, 405, "competitive, 4 players (3×3)"))
    state, events = play(game, 3, {"mode": "competitive"}, 46, policy, 600)
    out.append(sample("pyramido-competitive-over", game, state, events, 406, "competitive, game over"))
    state, events = play(game, 3, {"mode": "competitive", "rounds": 3}, 47, policy, 2000,
                         lambda s, ev: any(e.kind == "score" for e in ev))
    out.append(sample("pyramido-competitive-rounds", game, state, events, 407,
                      "competitive over 3 rounds: a round just scored, plus and minus points"))
    return out


BUILDERS: dict[str, Callable[[], list[Sample]]] = {
    "flaming-pyramids": flaming,
    "continuous-pyramid": continuous,
    "pyrinoes": pyrinoes,
    "pyramido": pyramido,
}


def all_samples(games: list[str] | None = None) -> list[Sample]:
    out: list[Sample] = []
    for kind, build in BUILDERS.items():
        if games is None or kind in games:
            out.extend(build())
    return out
