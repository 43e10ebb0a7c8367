"""``pyramid-bot play`` driven for real: its own process, typed input, a terminal.

Each test is one item of issue #29 that a program can tell: letters from the picture
typed as moves, the help's example from the position, the rules, readable views and
results, pictures without --out, special tiles named in the hand, Pyrinoes' whole
hand, options listed and refused in sentences, Pyramido against an AI by default,
"takes 2 seats", Ctrl-D and Ctrl-C without a traceback, and line editing."""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from bot.games.catalogue import Catalogue
from engine.core.text import Phrase
from engine.flaming_pyramids.tiles import TILE
from render.labels import move_labels
from tests.bot.terminal.session import environment, on_terminal, run
from tests.paths import REPO

CATALOGUE = Catalogue.default()
FP = CATALOGUE.game("flaming-pyramids")


def _pictures_folder(out: str) -> Path:
    found = re.search(r"Pictures: (\S+)/board\.png", out)
    assert found, out[:800]
    return Path(found.group(1))


def test_letters_from_the_picture_play_a_move_and_help_teaches_them_on_this_position() -> None:
    state = FP.setup(2, {}, 3)
    legal = FP.legal_moves(state)
    labels = move_labels(legal)  # what the board picture letters (its public spots are the legal cells)
    move = legal[0]
    tile, cell = move.split()[1:]
    ran = run(["flaming-pyramids", "--seed", "3", "--no-pictures"], f"help\nplay {tile} {labels[cell]}\nquit\n")
    assert ran.code == 0 and "Traceback" not in ran.err, ran.err
    assert f"For example: play {tile} {labels[cell]}   (the same as {move})" in ran.out
    assert "A cell is row,column: row 0 is the base" in ran.out  # this game's order of a cell's numbers
    named = TILE[tile].name()  # the lettered move was played, as the engine tells it (the tile in words, #43)
    assert f"played {named.english() if isinstance(named, Phrase) else named}." in ran.out
    assert "not a move" not in ran.out.lower()


def test_rules_view_and_hand_are_words_not_python_data() -> None:
    ran = run(["flaming-pyramids", "--seed", "3", "--no-pictures"], "rules\nview\nhand\nquit\n")
    assert ran.code == 0, ran.err
    assert "Everyone builds one shared pyramid" in ran.out and "**" not in ran.out
    assert "The pyramid, 1 tile, top row first:" in ran.out and "Letters on the board: A" in ran.out
    assert "{'" not in ran.out and "['" not in ran.out  # no dict or list reprs anywhere
    assert "Your hand:" in ran.out


def test_special_tiles_in_the_hand_are_named() -> None:
    # named as the picture and the narration name them (#43), not by code: "Blowtorch Blue 7"
    specials = {"B7": "Blowtorch Blue 7", "R7": "Blowtorch Red 7", "G1": "Coal Green 1", "Y1": "Coal Yellow 1",
                "M200": "Millstone 200"}
    seed = next(s for s in range(500) if set(FP.view(FP.setup(2, {}, s), 0)["hands"][0]) & set(specials))
    hand = FP.view(FP.setup(2, {}, seed), 0)["hands"][0]
    ran = run(["flaming-pyramids", "--seed", str(seed), "--no-pictures"], "quit\n")
    line = next(line for line in ran.out.splitlines() if "Your hand:" in line)
    for code in set(hand) & set(specials):
        assert specials[code] in line and code not in line, line


def test_the_pyrinoes_hand_names_the_built_pyrinoes_and_the_pyramid_supply() -> None:
    ran = run(["pyrinoes", "--seed", "3", "--no-pictures"], "quit\n")
    assert "Your dominoes (" in ran.out and "Your built pyrinoes: none." in ran.out
    assert re.search(r"Your supply: (red|yellow|blue|black) 1 ×3", ran.out), ran.out


def test_a_finished_game_names_the_winner_and_what_the_numbers_are() -> None:
    ran = run(["pyrinoes", "--seats", "ai:easy,ai:easy", "--seed", "5", "--option", "target=10",
               "--no-pictures"])
    assert ran.code == 0, ran.err
    assert re.search(r"Game over: Easy AI \(\d\) wins \d+ to \d+ after \d+ rounds?\.", ran.out), ran.out[-1500:]
    assert re.search(r"Scores: Easy AI \(1\) \(Fire\) \d+ · Easy AI \(2\) \(Ice\) \d+", ran.out), ran.out[-1500:]
    assert not re.search(r"\d+\.0\b", ran.out[-1500:])  # no bare floats


def test_pictures_are_written_without_out_where_the_game_says(tmp_path: Path) -> None:
    ran = run(["continuous-pyramid", "--seed", "2"], "quit\n", TMPDIR=str(tmp_path))
    folder = _pictures_folder(ran.out)
    try:
        assert folder.is_relative_to(tmp_path)
        assert (folder / "board.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert (folder / "move-0000.png").exists()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_options_are_listed_and_a_wrong_one_is_a_sentence() -> None:
    listed = run(["pyramido", "--option"])
    assert listed.code == 0
    assert "mode: one of solo, coop, competitive, default solo." in listed.out
    assert "rounds: a whole number from 1 to 10, default 1." in listed.out
    wrong = run(["pyramido", "--option", "colour=red"])
    assert wrong.code == 2 and "Extra inputs" not in wrong.out + wrong.err
    assert "Pyramido has no option 'colour'. Its options: mode, size, rounds" in wrong.out
    clash = run(["pyramido", "--seats", "you", "--option", "rounds=3"])
    assert clash.code == 2 and "several rounds are a competitive option" in clash.out
    assert "Value error" not in clash.out and "validation" not in clash.out.lower()
    helped = run(["pyrinoes", "--help"])
    assert "target: a whole number from 10 to 1000, default 100." in helped.out


def test_pyramido_is_played_against_an_ai_without_options() -> None:
    for args in ([], ["--seats", "you,ai:hard"]):
        ran = run(["pyramido", "--seed", "1", "--no-pictures", *args], "quit\n")
        assert ran.code == 0, ran.out + ran.err
        assert "Played with mode=competitive so that it takes 2 seats" in ran.out
        assert "AI" in ran.out.split("\n")[0]
    alone = run(["pyramido", "--seed", "1", "--seats", "you", "--no-pictures"], "quit\n")
    assert alone.code == 0 and "mode=solo" in alone.out


def test_a_game_for_two_takes_2_seats() -> None:
    ran = run(["pyrinoes", "--seats", "you"])
    assert ran.code == 2 and "Pyrinoes takes 2 seats, not 1." in ran.out and "2–2" not in ran.out
    crowded = run(["pyramido", "--seats", "you,you,you,ai:easy,ai:hard"])
    assert crowded.code == 2 and "Pyramido takes 2 to 4 seats, not 5." in crowded.out


def test_end_of_input_says_goodbye_without_a_traceback() -> None:
    ran = run(["flaming-pyramids", "--seed", "3", "--no-pictures"], "")
    assert ran.code == 0 and ran.out.rstrip().endswith("Bye.") and "Traceback" not in ran.err


def test_ctrl_c_and_ctrl_d_at_a_terminal_quit_cleanly() -> None:
    interrupted = on_terminal(["flaming-pyramids", "--seed", "3", "--no-pictures"], [b"\x03"])
    assert interrupted.code == 130, interrupted.out
    assert "Traceback" not in interrupted.out and "KeyboardInterrupt" not in interrupted.out
    assert interrupted.out.rstrip().endswith("Bye.")
    ended = on_terminal(["flaming-pyramids", "--seed", "3", "--no-pictures"], [b"\x04"])
    assert ended.code == 0 and "Traceback" not in ended.out and ended.out.rstrip().endswith("Bye.")


def test_the_arrow_keys_edit_the_line_and_recall_earlier_ones() -> None:
    left = b"\x1b[D"
    up = b"\x1b[A"
    # "hlp", two steps left, "e": "help"; then the arrow up brings "help" back from the history.
    ran = on_terminal(["flaming-pyramids", "--seed", "3", "--no-pictures"],
                      [b"hlp" + left + left + b"e\r", up + b"\r", b"quit\r"])
    assert ran.code == 0, ran.out
    assert ran.out.count("How to play Flaming Pyramids here:") == 2, ran.out
    assert "Not a move" not in ran.out and "^[[D" not in ran.out


def test_ctrl_c_while_the_ais_play_stops_without_a_traceback() -> None:
    """SIGINT (what Ctrl-C sends) in the middle of an AI-only game, output on a pipe."""
    args = [sys.executable, "-m", "bot", "play", "flaming-pyramids", "--seats", "ai:hard,ai:hard", "--seed", "1",
            "--no-pictures"]
    with subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, env=environment(), cwd=REPO) as game:
        assert game.stdout is not None and game.stderr is not None
        first = game.stdout.readline()  # the game has begun: the AIs are thinking now
        assert "Flaming Pyramids" in first
        game.send_signal(signal.SIGINT)
        out, err = game.communicate(timeout=120)
    assert game.returncode == 130, (out[-500:], err[-2000:])
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-2000:]
    assert out.rstrip().endswith("Bye.")
