"""``python -m tools.gallery.palettes``: learn the games' fixed PNG palettes again from
the gallery positions and write them to ``render/palettes`` (``render.palette`` reads them).

Learning takes about 0.4 s a game (it draws every gallery position), which a bot
would otherwise pay on its first pictures after each start. A test checks that the
shipped files are what learning gives today, so a change of colours that forgets to
re-learn fails in CI instead of quietly mapping new colours onto old ones. A game
whose ``Art`` names no palette is skipped: its pictures get an adaptive one.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from PIL import Image

from render import PALETTES, Art, art_for, art_ids, board_image, canvas, hand_image
from tools.gallery.samples import all_samples


def with_palettes() -> list[str]:
    """The registered games whose art ships a palette."""
    return [game for game in art_ids() if art_for(game).palette is not None]


def path_for(art: Art) -> Path:
    if art.palette is None:
        raise ValueError(f"The pictures of {art.game!r} use an adaptive palette, not a shipped one.")
    return PALETTES / art.palette


def learn(art: Art) -> bytes:
    """768 bytes: 256 RGB entries, learnt from the game's gallery boards and hands."""
    images: list[Image.Image] = []
    for s in all_samples([art.game]):
        images += [board_image(s.view, s.labels, s.events, art=art), hand_image(s.hand_view, art=art)]
    colours = canvas.learn_palette(images).getpalette() or []
    return bytes((colours + [0] * 768)[:768])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.gallery.palettes", description=__doc__)
    known = with_palettes()
    parser.add_argument("games", nargs="*", help=f"only these (default: all of {', '.join(known)})")
    args = parser.parse_args(argv)
    unknown = [g for g in args.games if g not in known]
    if unknown:
        parser.error(f"no shipped palette for: {', '.join(unknown)}")
    PALETTES.mkdir(exist_ok=True)
    for game in args.games or known:
        art = art_for(game)
        path_for(art).write_bytes(learn(art))
        print(f"wrote {path_for(art)}")


if __name__ == "__main__":
    main()
