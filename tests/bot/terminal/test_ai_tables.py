"""``pyramid-bot play``: AI-only and human tables in-process, boards written to --out."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from bot.terminal import play


def _clock() -> Callable[[], float]:
    """A fake clock that jumps a second per reading, so hard thinks for a couple of iterations."""
    ticks = iter(range(10**9))
    return lambda: float(next(ticks))


def _run(argv: list[str], typed: str = "") -> str:
    out = io.StringIO()
    assert play([*argv, "--lang", "en"], stdin=io.StringIO(typed), stdout=out, clock=_clock()) == 0
    return out.getvalue()


def test_ai_only_game_writes_a_board_after_every_move(tmp_path: Path) -> None:
    text = _run(["flaming-pyramids", "--seats", "ai:easy,ai:hard", "--seed", "4", "--out", str(tmp_path)])
    assert "Game over after" in text
    moves = int(text.split("Game over after ")[1].split()[0])
    boards = sorted(tmp_path.glob("move-*.png"))
    assert len(boards) == moves + 1
    assert boards[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "board.png").read_bytes() == boards[-1].read_bytes()  # always the latest board


def test_solo_game_with_an_ai_seat(tmp_path: Path) -> None:
    text = _run(["continuous-pyramid", "--seats", "ai:hard", "--seed", "2", "--out", str(tmp_path)])
    assert "Game over after" in text and (tmp_path / "move-0000.png").exists()
    assert "Game over:" in text and "tiles" in text  # the result in words, not a list of numbers
    assert "Scores: [" not in text


def test_a_human_sees_the_moves_and_is_told_about_bad_ones(tmp_path: Path) -> None:
    text = _run(["pyrinoes", "--seats", "you,ai:normal", "--seed", "1", "--option", "target=20", "--no-pictures"],
                "fly away\nmoves\nquit\n")
    assert "Moves:" in text and "Your dominoes" in text
    assert "Not a move now:" in text
    assert text.rstrip().endswith("Bye.")
