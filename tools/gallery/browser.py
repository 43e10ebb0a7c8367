"""``python -m tools.gallery --browser OUTDIR [GAME ...]``: every game's conversation as players see it in the
playground page (``pyramid-bot demo``), screenshotted at a few moments, at desktop width (1280 px) and at phone
width (400 px):

1. the lobby (or, for a solo game, its start),
2. mid-game with the private move chooser open,
3. the player's hand in their DMs (games with a hidden hand),
4. game over, with the replay.

Each game is played by clicking in the page (``tools.page_player``) against an easy AI; the player gives up
after a few moves (``/pyramid resign``) and the AI finishes the game. ``OUTDIR/index.txt`` lists the pictures.
Needs Chromium (``python -m tools.browser --ensure``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from tools.browser import Browser
from tools.demo import Playground
from tools.page_player import Person, Shown, next_board, take_turn, whose_turn

DESKTOP = (1280, 900)
PHONE = (400, 860)


@dataclass(frozen=True)
class GameTour:
    """How to open a game for the gallery: its name in /pyramid new, its options, whether to add an AI."""

    id: str
    title: str
    options: dict[str, str] = field(default_factory=dict)
    ai: bool = True
    hand: bool = True  # the player's hand comes by DM


TOURS = (
    GameTour("flaming-pyramids", "Flaming Pyramids"),
    GameTour("continuous-pyramid", "Continuous Pyramid", ai=False, hand=False),
    GameTour("pyrinoes", "Pyrinoes"),
    GameTour("pyramido", "Pyramido", {"mode": "competitive"}),
)


class Album:
    """Screenshots of one tab at both widths, and the index of what each shows."""

    def __init__(self, outdir: Path, person: Person) -> None:
        self.outdir = outdir
        self.person = person
        self.lines: list[str] = []

    async def take(self, name: str, note: str) -> None:
        for label, (width, height) in (("desktop", DESKTOP), ("phone", PHONE)):
            await self.person.set_width(width, height)
            # the newest message in view, as a player who just looked sees it
            await self.person.page.evaluate(
                "(() => { const b = document.querySelector('#messages'); b.scrollTop = b.scrollHeight; })()")
            path = self.outdir / f"{name}-{label}.png"
            await self.person.page.screenshot(path)
            self.lines.append(f"{path.name}: {note} ({label}, {width} px)")
        await self.person.set_width(*DESKTOP)


async def tour(album: Album, game: GameTour) -> None:
    you = album.person
    await you.open_channel("general")
    threads_before = int(await you.page.evaluate("document.querySelectorAll('.chan.thread').length"))
    await you.slash("/pyramid new", game=game.title, **game.options)
    if game.ai:
        lobby = await you.newest(button="Start")
        await you.choose(lobby, "easy")
        lobby = await you.newest(text="AI")
        await album.take(f"{game.id}-1-lobby", "the lobby, an AI added")
        await you.click_button(await you.newest(button="Start"), "Start")
    thread = str(await you.page.wait_for(
        f"(() => {{ const t = document.querySelectorAll('.chan.thread'); return t.length > {threads_before} && "
        "t[t.length - 1].querySelector('.name').textContent; })()", 120, what="the game's thread"))
    await you.open_channel(thread)
    board = await next_board(you, -1)
    if not game.ai:
        await album.take(f"{game.id}-1-start", "the first board of a solo game")
    board = await my_turn(you, board, moves=2)
    opened = await open_chooser(you, board)
    await album.take(f"{game.id}-2-chooser", "mid-game, the private move chooser open" if opened.ephemeral
                     else f"mid-game, after a move from the card's own button ({opened.text[:40]!r})")
    if game.hand:
        await you.open_channel("PyramidBot")
        await you.wait_message(f"m.text.includes({json.dumps(game.title)}) && m.images > 0", "the hand by DM")
        await album.take(f"{game.id}-3-hand", "the player's hand, by DM")
    await you.open_channel(thread)
    await you.slash("/pyramid resign")
    await you.newest(text="/pyramid replay", timeout=600)
    await album.take(f"{game.id}-4-game-over", "game over, with the replay")


async def my_turn(you: Person, board: Shown, moves: int) -> Shown:
    """Play ``moves`` of the player's moves (the AI moves by itself), then the board where it is their turn."""
    played = 0
    while True:
        if "Game over" in board.text:
            raise RuntimeError(f"the game ended before the gallery's moments: {board.text[:200]!r}")
        acting = await whose_turn([you], board)
        if acting is not None and played >= moves:
            return board
        if acting is not None:
            await take_turn(you, board)
            played += 1
        board = await next_board(you, board.move or 0)


async def open_chooser(you: Person, board: Shown) -> Shown:
    """Open the move chooser from the buttons the card has now (not the ones a card had when the gallery was
    written): ▶ Your move where the card offers it, else its first move button. Returns the private chooser,
    or the next board when that button played a move at once."""
    board = await you.wait_message(f"m.id === {json.dumps(board.id)}", "the board as it is now")
    moves = [label for label in board.enabled() if "Latest" not in label and "hand" not in label.lower()]
    if not moves:
        raise RuntimeError(f"the card offers no move: {board.text[:200]!r}, buttons {board.enabled()}")
    opener = next((label for label in moves if "Your move" in label), moves[0])
    known = json.dumps(sorted({m.id for m in await you.messages()}))
    await you.click_button(board, opener)
    return await you.wait_message(
        f"!{known}.includes(m.id) && (m.ephemeral || /game #\\d+ · move \\d+/.test(m.text))",
        f"the chooser (or the next board) after {opener!r}")


async def run(outdir: Path, games: list[str]) -> list[str]:
    outdir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="pyramid-gallery-") as folder:
        async with Playground(Path(folder), ai_delay_seconds=0) as playground, await Browser.launch() as browser:
            you = Person(await browser.new_page(*DESKTOP), "sam", playground.url_for("sam"))
            await you.open()
            album = Album(outdir, you)
            for game in TOURS:
                if not games or game.id in games:
                    try:
                        await tour(album, game)
                    except Exception:
                        await you.page.screenshot(outdir / f"{game.id}-failed.png")  # what the page showed then
                        raise
            broken = playground.violations()
    (outdir / "index.txt").write_text("\n".join(album.lines) + "\n", encoding="utf-8")
    if broken:
        raise SystemExit("the bot broke Discord's rules:\n  " + "\n  ".join(broken))
    return album.lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.gallery --browser", description=__doc__.split("\n\n")[0])
    parser.add_argument("outdir", type=Path)
    parser.add_argument("games", nargs="*", help=f"only these games (default: {', '.join(t.id for t in TOURS)})")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.games) - {t.id for t in TOURS})
    if unknown:
        parser.error(f"unknown game(s): {', '.join(unknown)}")
    lines = asyncio.run(run(args.outdir, args.games))
    print(f"wrote {len(lines)} screenshots to {args.outdir}")
    return 0
