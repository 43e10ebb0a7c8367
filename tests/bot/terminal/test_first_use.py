"""``pyramid-bot play`` as a newcomer meets it (issue #43, finding 12), driven in-process
through :func:`bot.terminal.play` with typed text, as a pipe would give it.

Each test is one thing the newcomer tripped on: the ``--help`` text with raw double
backticks, an AI's move told as its raw command ("Normal AI plays play Y6"), a typed
start of a move played at once instead of showing how it goes on, Pyrinoes' ``moves``
listing 135 builds in another notation than the summary, and no board on screen."""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.games.catalogue import Catalogue
from bot.terminal import play
from bot.terminal.reading import read_move

CATALOGUE = Catalogue.default()


def _clock() -> Callable[[], float]:
    ticks = iter(range(10**9))
    return lambda: float(next(ticks))


def _run(argv: list[str], typed: str = "") -> str:
    out = io.StringIO()
    assert play([*argv, "--lang", "en"], stdin=io.StringIO(typed), stdout=out, clock=_clock()) == 0
    return out.getvalue()


def test_play_help_is_plain_text_without_markup() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        play(["--help"], stdin=io.StringIO(), stdout=out)
    text = out.getvalue()
    assert "pyramid-bot play" in text and "--seats" in text
    assert "``" not in text and "**" not in text


AI_TABLES = {
    "flaming-pyramids": ["--seats", "ai:normal,ai:easy", "--option", "turn_limit=6"],
    "continuous-pyramid": ["--seats", "ai:easy"],
    "pyrinoes": ["--seats", "ai:easy,ai:easy", "--option", "target=10"],
    "pyramido": ["--seats", "ai:easy,ai:easy", "--option", "mode=competitive"],
}


@pytest.mark.parametrize("kind", sorted(AI_TABLES))
def test_an_ai_move_is_told_in_words_not_as_its_command(kind: str) -> None:
    text = _run([kind, *AI_TABLES[kind], "--seed", "4", "--no-pictures"])
    assert "Game over after" in text
    verbs = set(CATALOGUE.presenter(kind).verbs) | {"play", "fall"}
    lines = text.splitlines()
    headers = [i for i, line in enumerate(lines) if re.match(r"\[\d+\] ", line)]
    assert headers
    for i in headers:
        assert re.fullmatch(r"\[\d+\] .+'s move:", lines[i]), lines[i]  # not "Normal AI plays play Y6 0,-1"
        assert not any(f" {verb} " in lines[i] for verb in verbs), lines[i]
        # The move's story, as the game narrates it, comes next (before the board after it).
        assert lines[i + 1].startswith("  ") and not lines[i + 1].startswith("  │"), lines[i:i + 2]


def test_a_typed_start_that_fits_one_move_shows_it_and_plays_nothing() -> None:
    game = CATALOGUE.game("continuous-pyramid")
    legal = game.legal_moves(game.setup(1, {}, 4))
    tile = legal[0].split()[1]
    assert sum(1 for move in legal if move.split()[1] == tile) == 1  # one spot for this tile: one move fits
    text = _run(["continuous-pyramid", "--seed", "4", "--no-pictures"], f"{tile}\nplay {tile}\nquit\n")
    assert f"played {tile}" not in text
    assert text.count(f"That fits 1 move: play {tile} A. Type more of the move.") == 2
    assert text.rstrip().endswith("Bye.")


def test_shorthand_plays_only_once_the_last_word_is_typed() -> None:
    legal = ["play R4 0,-1", "play Y6 0,-1", "fall left", "discard W W W"]
    labels = {"0,-1": "A"}
    start = read_move("R4", legal, labels)
    assert start.move is None and start.matches == ("play R4 0,-1",)
    assert read_move("play R4", legal, labels).move is None
    assert read_move("R4 A", legal, labels).move == "play R4 0,-1"
    assert read_move("left", legal, labels).move == "fall left"
    assert read_move("W", legal, labels).move == "discard W W W"  # its last word: the move is named whole


def _pyrinoes_build_turn() -> str:
    """Pyrinoes with the seat to move holding only builds (deal 4: the human moves first)."""
    game = CATALOGUE.game("pyrinoes")
    legal = game.legal_moves(game.setup(2, {}, 4))
    assert len(legal) > 100 and all(move.startswith("build ") for move in legal)
    return _run(["pyrinoes", "--seed", "4", "--no-pictures"], "moves\nbuild\nbuild 4-1\nquit\n")


def test_pyrinoes_moves_are_grouped_in_the_notation_of_the_summary() -> None:
    game = CATALOGUE.game("pyrinoes")
    legal = game.legal_moves(game.setup(2, {}, 4))
    text = _pyrinoes_build_turn()
    listed = text.split("> moves\n", 1)[1].split("> build\n", 1)[0].splitlines()
    assert 1 < len(listed) <= 30, listed  # grouped, not 135 lines
    for move in legal:  # every build is still there, in its group, as it is typed
        code = move.split()[1]
        assert any(line.startswith("  build ") and f" {code}" in line for line in listed), code
    summary = next(line for line in text.splitlines() if line.strip().startswith("Moves:"))
    for part in summary.split("Moves:", 1)[1].split(". Type")[0].split(" · "):
        head = part.strip().split(" … ")[0].split(":")[0]
        assert any(line.strip().startswith(head) for line in listed), (part, listed)


def test_typing_build_shows_the_spot_groups_and_a_group_its_pyrinoes() -> None:
    text = _pyrinoes_build_turn()
    after_build = text.split("> build\n", 1)[1].split("> build 4-1\n", 1)[0]
    assert "build 4-1" in after_build and "played" not in after_build and "built" not in after_build
    after_group = text.split("> build 4-1\n", 1)[1]
    assert re.search(r"That fits 4 moves: build \S+\|\S+ · ", after_group), after_group[:400]
    assert "built" not in after_group


def test_the_board_is_on_screen_after_every_move(tmp_path: Path) -> None:
    text = _run(["flaming-pyramids", "--seats", "ai:easy,ai:easy", "--seed", "4", "--option", "turn_limit=6",
                 "--out", str(tmp_path)])
    moves = int(text.split("Game over after ")[1].split()[0])
    boards = re.findall(r"The pyramid, (\d+) tiles?, top row first:", text)
    assert len(boards) >= moves + 1  # the deal, then after every move (and once more with the result)
    assert len(sorted(tmp_path.glob("move-*.png"))) == moves + 1  # and the pictures are kept too
    # The board follows each move's story, before the next move is told.
    blocks = re.split(r"\n\[\d+\] ", text)[1:]
    assert all("The pyramid," in block for block in blocks), [b for b in blocks if "The pyramid," not in b][:1]


def test_the_player_sees_the_board_before_typing() -> None:
    text = _run(["pyramido", "--seed", "4", "--no-pictures"], "quit\n")
    before_prompt = text.split("\n> ", 1)[0]
    assert "Normal AI's pyramid:" in before_prompt and "Quarry:" in before_prompt
    assert before_prompt.count("Quarry:") == 1  # the hand adds what the board did not already say
