"""The renderer benchmark's replay figures: a self-played game replayed and drawn as
the bot's worker does it, with its frames, size and whether frames were dropped."""

from __future__ import annotations

import pytest

from tools.bench import replays


def test_the_replay_figures_of_a_game(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    short = replays.LongGame(2, {"turn_limit": 4}, "easy", 2, "2 players, easy AIs, 4 turns")
    monkeypatch.setitem(replays.LONG_GAMES, "flaming-pyramids", short)
    figures = replays.measure("flaming-pyramids")
    assert figures.moves >= 4 and figures.replay.frames == figures.moves + 1 and not figures.replay.dropped
    replays.main(["flaming-pyramids"])
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("flaming-pyramids"))
    assert row.split()[1:3] == [str(figures.moves), str(figures.moves + 1)] and row.endswith("no")
    assert "4 turns" in out
