"""``python -m tools.gallery.palettes``: learn the games' fixed PNG palettes again from
the gallery positions and write them to ``render/palettes`` (``render.palette`` reads them).

Learning takes about 0.4 s a game (it draws every gallery position), which a bot
would otherwise pay on its first pictures after each start. A test checks that the
shipped files are what learning gives today, so a change of colours that forgets to
re-learn fails in CI instead of quietly mapping new colours onto old ones.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from PIL import Image

from render import MODULES, PALETTES, board_image, canvas, hand_image
from tools.gallery.samples import all_samples


def path_for(game: str) -> Path:
    return PALETTES / f"{game}.rgb"


def learn(game: str) -> bytes:
    """768 bytes: 256 RGB entries, learnt from the game's gallery boards and hands."""
    images: list[Image.Image] = []
    for s in all_samples([game]):
        images += [board_image(s.view, s.labels, s.events), hand_image(s.hand_view)]
    colours = canvas.learn_palette(images).getpalette() or []
    return bytes((colours + [0] * 768)[:768])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.gallery.palettes", description=__doc__)
    parser.add_argument("games", nargs="*", help=f"only these (default: all of {', '.join(MODULES)})")
    args = parser.parse_args(argv)
    PALETTES.mkdir(exist_ok=True)
    for game in args.games or list(MODULES):
        path_for(game).write_bytes(learn(game))
        print(f"wrote {path_for(game)}")


if __name__ == "__main__":
    main()
