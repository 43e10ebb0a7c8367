"""``python -m tools.bench.render [--runs N] [GAME ...]``: how long pictures take.

For every gallery position it prints the median time to draw the board (layout and
Pillow drawing, piece sprites already cached as in a running bot), to encode that
same image as the bot sends it (PNG on the game's fixed palette, or an adaptive one
for a game that ships none), and to encode it with Pillow's plain defaults (RGB PNG,
level 6), plus the PNG size; then the same for the hand, and a
summary per game. Times are CPU time of this process, so other work on a shared
machine inflates them less than wall time (shown too, as "wall"). The target is
draw + encode under 60 ms for a mid-game board.

Then the animated replay of a long self-played game of each kind: frames, size,
whether frames had to be dropped, and the time to draw it (``tools.bench.replays``;
``--no-replays`` skips it, ``--only-replays`` runs nothing else).
"""

from __future__ import annotations

import argparse
import io
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from PIL import Image

from render import art_for, board_image, canvas, hand_image, palette
from tools.bench import replays
from tools.gallery.samples import BUILDERS, Sample, all_samples

TARGET_MS = 60.0


@dataclass
class Timing:
    cpu_ms: float
    wall_ms: float


def timed(fn: Callable[[], object], runs: int) -> Timing:
    cpu, wall = [], []
    for _ in range(runs):
        c0, w0 = time.process_time(), time.perf_counter()
        fn()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return Timing(statistics.median(cpu) * 1000, statistics.median(wall) * 1000)


def plain_png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


@dataclass
class Row:
    sample: Sample
    kind: str
    size: tuple[int, int]
    draw: Timing
    encode: Timing
    plain: Timing
    png_bytes: int

    @property
    def total_cpu(self) -> float:
        return self.draw.cpu_ms + self.encode.cpu_ms

    @property
    def total_wall(self) -> float:
        return self.draw.wall_ms + self.encode.wall_ms


def measure(s: Sample, runs: int) -> list[Row]:
    art = art_for(s.game)
    draws: dict[str, Callable[[], Image.Image]] = {
        "board": partial(board_image, s.view, s.labels, s.events, art=art),
        "hand": partial(hand_image, s.hand_view, art=art),
    }
    rows = []
    fixed = palette(art)  # read at start-up in the bot's workers, so not timed here; None: adaptive
    for kind, draw in draws.items():
        img = draw()  # warm the piece caches, as a running bot has them
        encode = partial(canvas.encode, img, fixed)
        rows.append(Row(s, kind, img.size, timed(draw, runs), timed(encode, runs),
                        timed(partial(plain_png, img), max(3, runs // 2)), len(encode())))
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.render", description=__doc__)
    parser.add_argument("--runs", type=int, default=9, help="timed runs per measurement (median is shown)")
    parser.add_argument("--no-replays", action="store_true", help="skip the replays of long games")
    parser.add_argument("--only-replays", action="store_true", help="only the replays of long games")
    parser.add_argument("games", nargs="*", help=f"only these games (default: all of {', '.join(BUILDERS)})")
    args = parser.parse_args(argv)
    unknown = [g for g in args.games if g not in BUILDERS]
    if unknown:
        parser.error(f"unknown game(s): {', '.join(unknown)}")
    if not args.only_replays:
        pictures(args.games, args.runs)
    if not args.no_replays:
        if not args.only_replays:
            print()
        replays.report([g for g in (args.games or BUILDERS) if g in replays.LONG_GAMES])


def pictures(games: list[str], runs: int) -> None:
    """Boards and hands of the gallery positions, timed."""
    print(f"{'position':34} {'what':5} {'px':>9} {'draw':>6} {'encode':>6} {'total':>6} {'wall':>6} {'plain':>6} "
          f"{'KB':>6}")
    print(f"{'':34} {'':5} {'':>9} {'ms':>6} {'ms':>6} {'ms':>6} {'ms':>6} {'enc ms':>6} {'':>6}")
    boards: dict[str, list[Row]] = {}
    for s in all_samples(games or None):
        for row in measure(s, runs):
            w, h = row.size
            print(f"{s.name:34} {row.kind:5} {f'{w}x{h}':>9} {row.draw.cpu_ms:6.1f} {row.encode.cpu_ms:6.1f} "
                  f"{row.total_cpu:6.1f} {row.total_wall:6.1f} {row.plain.cpu_ms:6.1f} {row.png_bytes / 1024:6.1f}")
            if row.kind == "board":
                boards.setdefault(s.game, []).append(row)
    print()
    print(f"{'per game, boards (median)':34} {'':5} {'':>9} {'draw':>6} {'encode':>6} {'total':>6} {'wall':>6} "
          f"{'plain':>6} {'KB':>6}")
    for game, rows in boards.items():
        med = statistics.median
        print(f"{game:34} {'':5} {'':>9} {med(r.draw.cpu_ms for r in rows):6.1f} "
              f"{med(r.encode.cpu_ms for r in rows):6.1f} {med(r.total_cpu for r in rows):6.1f} "
              f"{med(r.total_wall for r in rows):6.1f} {med(r.plain.cpu_ms for r in rows):6.1f} "
              f"{med(r.png_bytes for r in rows) / 1024:6.1f}")
    print()
    for game, rows in boards.items():
        for r in rows:
            if r.sample.name.endswith("-mid"):
                verdict = "ok" if r.total_cpu < TARGET_MS else "OVER"
                print(f"mid-game board, {game}: {r.total_cpu:.1f} ms draw + encode (wall {r.total_wall:.1f} ms), "
                      f"target < {TARGET_MS:.0f} ms: {verdict}")


if __name__ == "__main__":
    main()
