"""``pyramid-bot play GAME``: try any game in a terminal, against AI seats, with no
Discord. Moves are typed in the rules notation; the board picture is written after
every move so you can watch it in an image viewer."""

from __future__ import annotations

import argparse
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from bot.games.catalogue import Catalogue
from bot.games.presenter import Presenter
from engine.ai import LEVELS, choose_move
from engine.core import EngineError, MoveRejected, derive_seed
from render import render_board

HUMAN = "you"


def parse_seats(text: str, low: int, high: int) -> list[str]:
    seats = [s.strip().lower() for s in text.split(",") if s.strip()]
    for seat in seats:
        if seat != HUMAN and not (seat.startswith("ai:") and seat[3:] in LEVELS):
            raise ValueError(f"seat {seat!r} is not 'you' or ai:{{{','.join(LEVELS)}}}")
    if not low <= len(seats) <= high:
        raise ValueError(f"this game takes {low}–{high} seats, not {len(seats)}")
    return seats


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"option {pair!r} must look like name=value")
        lowered = value.lower()
        options[key] = True if lowered == "true" else False if lowered == "false" else (
            int(value) if value.lstrip("-").isdigit() else value)
    return options


def write_board(presenter: Presenter, state: Any, out: Path, number: int, events: list[Any]) -> Path:
    game = presenter.game
    moves = game.legal_moves(state) if game.waiting_for(state) is not None else []
    path = out / f"move-{number:04d}.png"
    path.write_bytes(render_board(dict(game.view(state, None)), labels=presenter.labels(moves), events=events,
                                  art=presenter.art))
    return path


def play(argv: Sequence[str], stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout,
         clock: Callable[[], float] = time.perf_counter, catalogue: Catalogue | None = None) -> int:
    catalogue = catalogue if catalogue is not None else Catalogue.default()
    parser = argparse.ArgumentParser(prog="pyramid-bot play", description=__doc__)
    parser.add_argument("game", choices=catalogue.kinds)
    parser.add_argument("--seats", help="comma-separated: you, ai:easy, ai:normal, ai:hard (default: you + ai:normal)")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--out", type=Path, default=None, help="write the board PNG after every move here")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    args = parser.parse_args(list(argv))

    def say(text: str) -> None:
        print(text, file=stdout, flush=True)

    presenter = catalogue.presenter(args.game)
    game = presenter.game
    try:
        options = game.parse_options(parse_options(args.option))
        low, high = game.player_range(options)
        default = HUMAN if high == 1 else f"{HUMAN},ai:normal"
        seats = parse_seats(args.seats or default, low, high)
    except (ValueError, EngineError) as exc:
        say(f"error: {exc}")
        return 2
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    state = game.setup(len(seats), options, seed)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    say(f"{game.title}, seed {seed}, seats: {', '.join(seats)}. Type a move, 'moves', 'view' or 'quit'.")
    number = 0
    events: list[Any] = []
    humans = [i for i, s in enumerate(seats) if s == HUMAN]
    # A provisional end (a stuck Continuous Pyramid that can still undo) still has a seat to act.
    while game.waiting_for(state) is not None:
        if args.out:
            write_board(presenter, state, args.out, number, events)
        seat = game.waiting_for(state)
        assert seat is not None
        legal = game.legal_moves(state)
        if seats[seat] != HUMAN:
            move = choose_move(game, state, seat, seats[seat][3:], derive_seed(seed, f"ai:{number}:{seat}"), clock)
            say(f"[{number + 1}] seat {seat + 1} ({seats[seat]}) plays: {move}")
        else:
            pending = game.pending(state)
            say(f"[{number + 1}] your move, seat {seat + 1}" + (f" (decision: {pending.kind})" if pending else ""))
            view = game.view(state, seat)
            for key, label in (("hands", "your hand"), ("reserves", "your reserve")):
                if isinstance(view.get(key), list) and isinstance(view[key][seat], list):
                    say(f"  {label}: {view[key][seat]}")
            if isinstance(view.get("reserve"), list):
                say(f"  reserve: {view['reserve']}")
            say("  legal: " + ", ".join(legal[:40]) + (f" … (+{len(legal) - 40})" if len(legal) > 40 else ""))
            line = stdin.readline()
            if not line or line.strip() == "quit":
                say("Bye.")
                return 0
            move = line.strip()
            if move == "moves":
                say("\n".join(legal))
                continue
            if move == "view":
                say(str(game.view(state, seat)))
                continue
        try:
            state, events = game.play(state, seat, move)
        except MoveRejected as exc:
            say(f"  not allowed: {exc}")
            continue
        names = [f"seat {i + 1}" for i in range(len(seats))]
        # Private events (draws, deals) are shown to the human they belong to: the mover
        # if human, else the only human at the table (hot-seat tables see public ones).
        viewer = seat if seats[seat] == HUMAN else humans[0] if len(humans) == 1 else None
        for event in events:
            if event.visible(viewer):
                say("  " + event.narrate(names))
        number += 1
    result = game.result(state)
    assert result is not None
    if args.out:
        final = write_board(presenter, state, args.out, number, events)
        say(f"Final board: {final}")
    winners = ", ".join(f"seat {w + 1} ({seats[w]})" for w in result.winners) or "nobody"
    say(f"Game over after {number} moves. Winner: {winners}. Scores: {list(result.scores)}")
    return 0


def main(argv: Sequence[str]) -> int:
    return play(argv)
