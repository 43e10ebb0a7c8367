"""``python -m tools.gallery OUTDIR [GAME ...]``: write every gallery position's
board and hand as PNG files, plus an index listing what each one shows, so a
person can review all the pictures in one go."""

from __future__ import annotations

import argparse
from pathlib import Path

from render import render_board, render_hand
from tools.gallery.samples import BUILDERS, all_samples


def write_gallery(outdir: Path, games: list[str] | None = None, lang: str | None = None) -> list[Path]:
    """Every sample's board and hand, in ``lang`` (a code such as "de"; English by default)."""
    outdir.mkdir(parents=True, exist_ok=True)
    speak = {"lang": lang} if lang else {}
    written: list[Path] = []
    lines = []
    for s in all_samples(games):
        board = outdir / f"{s.name}-board.png"
        hand = outdir / f"{s.name}-hand.png"
        board.write_bytes(render_board({**s.view, **speak}, labels=s.labels, events=s.events))
        hand.write_bytes(render_hand({**s.hand_view, **speak}))
        written += [board, hand]
        lines.append(f"{s.name}: {s.note} ({board.stat().st_size // 1024} KB board, {hand.stat().st_size // 1024} KB "
                     "hand)")
    (outdir / "index.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.gallery", description=__doc__)
    parser.add_argument("outdir", type=Path)
    parser.add_argument("games", nargs="*", help=f"only these games (default: all of {', '.join(BUILDERS)})")
    parser.add_argument("--lang", help="the pictures' language, e.g. de (default: English)")
    args = parser.parse_intermixed_args(argv)
    unknown = [g for g in args.games if g not in BUILDERS]
    if unknown:
        parser.error(f"unknown game(s): {', '.join(unknown)}")
    written = write_gallery(args.outdir, args.games or None, args.lang)
    print(f"wrote {len(written)} images to {args.outdir}")


if __name__ == "__main__":
    main()
