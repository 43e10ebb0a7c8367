"""``pyramid-bot play``: AI-only and human tables in a terminal, boards written to --out."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

try:
    from bot.terminal import play
except ImportError as exc:  # the renderer (render.render_board) is built separately
    pytest.skip(f"bot.terminal needs render.render_board, which is not importable yet: {exc}",
                allow_module_level=True)


def _clock() -> object:
    """A fake clock that jumps a second per reading, so hard thinks for a couple of iterations."""
    ticks = iter(range(10**9))
    return lambda: float(next(ticks))


def _run(argv: list[str], typed: str = "") -> str:
    out = io.StringIO()
    assert play(argv, stdin=io.StringIO(typed), stdout=out, clock=_clock()) == 0  # type: ignore[arg-type]
    return out.getvalue()


def test_ai_only_game_writes_a_board_after_every_move(tmp_path: Path) -> None:
    text = _run(["flaming-pyramids", "--seats", "ai:easy,ai:hard", "--seed", "4", "--out", str(tmp_path)])
    assert "Game over after" in text
    moves = int(text.split("Game over after ")[1].split()[0])
    boards = sorted(tmp_path.glob("move-*.png"))
    assert len(boards) == moves + 1
    assert boards[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_solo_game_with_an_ai_seat(tmp_path: Path) -> None:
    text = _run(["continuous-pyramid", "--seats", "ai:hard", "--seed", "2", "--out", str(tmp_path)])
    assert "Game over after" in text and (tmp_path / "move-0000.png").exists()


def test_a_human_sees_the_legal_moves_and_is_told_about_bad_ones(tmp_path: Path) -> None:
    text = _run(["pyrinoes", "--seats", "you,ai:normal", "--seed", "1", "--option", "target=20"],
                "fly away\nmoves\nquit\n")
    assert "legal:" in text and "your hand:" in text
    if "your move" in text:
        assert "not allowed:" in text
    assert text.rstrip().endswith("Bye.")


def test_a_human_can_play_a_whole_game(tmp_path: Path) -> None:
    """The human always types the first legal move the prompt lists (falls included)."""
    out = io.StringIO()

    class Echo(io.StringIO):
        def readline(self, size: int | None = -1) -> str:
            last = out.getvalue().rstrip().splitlines()[-1]
            assert last.startswith("  legal: ")
            return last[len("  legal: "):].split(", ")[0] + "\n"

    argv = ["flaming-pyramids", "--seats", "you,ai:easy", "--seed", "3", "--option", "turn_limit=30",
            "--out", str(tmp_path)]
    assert play(argv, stdin=Echo(), stdout=out) == 0
    text = out.getvalue()
    assert "Game over after" in text and "your move, seat 1" in text and "You drew" in text


def test_bad_seats_are_refused() -> None:
    out = io.StringIO()
    assert play(["pyrinoes", "--seats", "you,ai:genius"], stdin=io.StringIO(), stdout=out) == 2
    assert "error:" in out.getvalue()
    out = io.StringIO()
    assert play(["pyrinoes", "--seats", "you"], stdin=io.StringIO(), stdout=out) == 2
