"""Every English sentence the engine says in a batch of random games, for
tests/engine/test_texts.py.

It plays seeded random games of every game and variant, and collects what players
read: each event's narration, each result's summary, and the reason of every refusal
it provokes on the way (moves from other positions, mangled moves, the wrong seat,
moves after the end, bad options). It uses only the API that existed before the
texts became translatable (``Event.narrate(names)``, ``str(error)``,
``Result.summary``), so the same function run on the older engine gives the
sentences the translatable engine must still produce word for word.

Run as a script (from the repository, ``PYTHONPATH=. python tests/engine/narration_corpus.py
8``) it prints the digests of 8 games per variant; with a second argument (``8 full
[scenario folders…]``) every line, with the scenarios' too.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.core import EngineError, MoveRejected, get_game

NAMES = ("Ana", "Bo", "Cy", "Di")
#: The rule scenarios kept in this repository: their hand-made positions reach what
#: random games rarely do (a completed pyramid, a shared win, a fire).
SCENARIOS = Path(__file__).with_name("scenarios")
MAX_MOVES = 400

#: (game id, players, options): every variant whose texts differ.
VARIANTS: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("flaming-pyramids", 2, {}),
    ("flaming-pyramids", 3, {"curse": True}),
    ("flaming-pyramids", 4, {"curse": True, "turn_limit": 12}),
    ("flaming-pyramids", 2, {"turn_limit": 30}),
    ("continuous-pyramid", 1, {}),
    ("continuous-pyramid", 1, {"undo": False}),
    ("pyrinoes", 2, {"target": 10}),
    ("pyrinoes", 2, {"target": 60}),
    ("pyramido", 1, {"mode": "solo", "size": 4}),
    ("pyramido", 1, {"mode": "solo"}),
    ("pyramido", 3, {"mode": "coop", "size": 4}),
    ("pyramido", 2, {"mode": "competitive"}),
    ("pyramido", 3, {"mode": "competitive", "rounds": 2}),
    ("pyramido", 4, {"mode": "competitive", "rounds": 3}),
)

#: Options and seat counts the games refuse, and a game that does not exist.
BAD_SETUPS: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("flaming-pyramids", 1, {}),
    ("flaming-pyramids", 2, {"turn_limit": 0}),
    ("flaming-pyramids", 2, {"colour": "red"}),
    ("continuous-pyramid", 2, {}),
    ("continuous-pyramid", 1, {"undo": "maybe"}),
    ("pyrinoes", 3, {}),
    ("pyrinoes", 2, {"target": 5}),
    ("pyramido", 2, {"mode": "solo"}),
    ("pyramido", 1, {"mode": "coop"}),
    ("pyramido", 2, {"mode": "competitive", "size": 4}),
    ("pyramido", 1, {"mode": "solo", "rounds": 3}),
    ("pyramido", 1, {"mode": "chess"}),
    ("chess", 2, {}),
)

_JUNK = ("", "x", "play", "place", "take", "build", "fall", "draw", "pass", "end", "undo", "resign",
         "discard", "reserve", "up", "left", "right", "9", "-1", "0,0", "1:0,0", "9:9,9", "R", "Z9", "6-6",
         "Y21|R1", "R2|Y1", "G1|G2", "K3|R1", "G1|R21", "1,", "-1,0", "-2,1", "play " + "9" * 120)


def _mangle(move: str, rng: random.Random, seen: list[str]) -> str:
    words = move.split()
    roll = rng.randrange(7)
    if roll == 0 and seen:
        return rng.choice(seen)
    if roll == 6 and seen:
        return " ".join(rng.choice(seen).split()[:-1])
    if roll == 1 and words:
        words[rng.randrange(len(words))] = rng.choice(_JUNK)
    elif roll == 2 and words:
        del words[rng.randrange(len(words))]
    elif roll == 3:
        words.append(rng.choice(_JUNK))
    elif roll == 4 and move:
        i = rng.randrange(len(move))
        return move[:i] + rng.choice("RYGBWKM0123456789:,-|") + move[i + 1:]
    else:
        return " ".join(rng.choice(_JUNK) for _ in range(rng.randrange(1, 4)))
    return " ".join(words)


def _refusal(exc: Exception) -> str:
    if isinstance(exc, MoveRejected):
        return f"{type(exc).__name__}: {exc} | {exc.reason}"
    return f"{type(exc).__name__}: {exc}"


def _names(game_no: int, players: int) -> tuple[str, ...]:
    # Every third game leaves a seat unnamed, so the 'Player 2' fallback is said too.
    return NAMES[: players - 1] if game_no % 3 == 2 and players > 1 else NAMES[:players]


def game_lines(kind: str, players: int, options: dict[str, Any], seed: int, game_no: int) -> Iterator[str]:
    """What one seeded random game says, line by line."""
    game = get_game(kind)
    rng = random.Random(f"{kind}/{players}/{sorted(options.items())}/{seed}")
    names = _names(game_no, players)
    state = game.setup(players, options, seed)
    seen: list[str] = []
    told = ""
    for _ in range(MAX_MOVES):
        seat = game.waiting_for(state)
        if seat is None:
            break
        legal = game.legal_moves(state)
        for _ in range(3):
            bad = _mangle(rng.choice(legal), rng, seen)
            if bad.strip() in legal:
                continue
            try:
                game.play(state, seat, bad)
            except EngineError as exc:
                yield f"refused {bad!r}: {_refusal(exc)}"
        if players > 1 and rng.random() < 0.2:
            try:
                game.play(state, (seat + 1) % players, legal[0])
            except EngineError as exc:
                yield f"refused other seat: {_refusal(exc)}"
        move = rng.choice(legal)
        seen.append(move)
        del seen[:-40]
        state, events = game.play(state, seat, move)
        for e in events:
            yield f"{e.kind}|{e.players}|{e.cells}|{e.items}|{e.visible_to}|{e.narrate(names)}"
        now = game.result(state)
        if now is not None and now.summary != told:
            told = now.summary
            yield f"result now {now.summary!r} {now.summary.format(*NAMES)}"
        if rng.random() < 0.03:
            left = game.forfeit(state, seat)
            yield f"forfeit {left.summary!r} {left.summary.format(*NAMES)}"
    result = game.result(state)
    if result is not None:
        yield f"result {result.winners} {result.scores} {result.summary!r} {result.summary.format(*NAMES)}"
        try:
            game.play(state, 0, "pass")
        except EngineError as exc:
            yield f"after the end: {_refusal(exc)}"


def setup_lines() -> Iterator[str]:
    for kind, players, options in BAD_SETUPS:
        try:
            get_game(kind).setup(players, options, 1)
            yield f"{kind} {players} {options}: accepted"
        except EngineError as exc:
            yield f"{kind} {players} {options}: {_refusal(exc)}"


def scenario_lines(folder: Path) -> Iterator[str]:
    """What the scenarios' moves say, from their set-up positions."""
    for path in sorted(folder.rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        try:
            game = get_game(str(data["game"]))
            state = game.from_position(data["setup"])
        except (EngineError, KeyError) as exc:
            yield f"{path.name}: {_refusal(exc)}"
            continue
        yield f"{path.name}"
        for action in data.get("actions", []):
            try:
                state, events = game.play(state, int(action.get("player", 0)), str(action["move"]))
            except EngineError as exc:
                yield f"refused: {_refusal(exc)}"
                continue
            yield from (f"{e.kind}|{e.players}|{e.visible_to}|{e.narrate(NAMES)}" for e in events)
        result = game.result(state)
        if result is not None:
            yield f"result {result.summary!r} {result.summary.format(*NAMES)}"
            left = game.forfeit(state, 0)
            yield f"forfeit {left.summary!r}"


def corpus(games: int, scenarios: tuple[Path, ...] = ()) -> dict[str, list[str]]:
    """``games`` seeded games of each variant (and the refused set-ups, and the
    scenarios in ``scenarios``), by variant."""
    found: dict[str, list[str]] = {"setups": list(setup_lines())}
    for n, folder in enumerate(scenarios):
        found[f"scenarios {n}"] = list(scenario_lines(folder))
    for kind, players, options in VARIANTS:
        key = f"{kind}/{players}/{json.dumps(options, sort_keys=True)}"
        found[key] = [line for n in range(games) for line in game_lines(kind, players, options, 1000 + n, n)]
    return found


def digests(games: int) -> dict[str, str]:
    """SHA-256 of each variant's lines (the scenarios left out: files that may change)."""
    return {key: hashlib.sha256("\n".join(lines).encode()).hexdigest() for key, lines in corpus(games).items()}


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    if len(sys.argv) > 2:
        folders = (SCENARIOS, *(Path(p) for p in sys.argv[3:]))
        json.dump(corpus(count, folders), sys.stdout, indent=0)
    else:
        json.dump(digests(count), sys.stdout, indent=1, sort_keys=True)
