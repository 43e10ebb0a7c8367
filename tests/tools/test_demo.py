"""``pyramid-bot demo`` as a command: it is reached through the bot's own entry point and explains itself.
Playing in the page is ``test_demo_browser.py``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import REPO
from tools.demo import Playground, parse_args


def test_the_bot_command_runs_the_playground(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "bot", "demo", "--help"], capture_output=True, text=True,
                          cwd=tmp_path, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)}, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "usage: pyramid-bot demo" in done.stdout and "--open" in done.stdout


def test_help_lists_the_playground_beside_the_other_commands(tmp_path: Path) -> None:
    """A newcomer reads ``pyramid-bot --help`` first: it names ``demo`` and what it does."""
    done = subprocess.run([sys.executable, "-m", "bot", "--help"], capture_output=True, text=True,
                          cwd=tmp_path, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)}, timeout=60)
    assert done.returncode == 0, done.stderr
    listed = {line.split()[0]: line for line in done.stdout.splitlines() if line.startswith("    ") and line.split()}
    assert "demo" in listed and "play" in listed, done.stdout
    assert "browser" in listed["demo"]


def test_defaults_open_nothing_and_listen_on_any_free_port() -> None:
    args = parse_args([])
    assert args.open is False and args.port == 0 and args.dir is None
    assert args.friends == "ana,ben" and args.name == "sam"


def test_every_person_has_a_name_of_their_own(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="a name of their own"):
        Playground(tmp_path, name="ana", friends=["ana", "ben"])
