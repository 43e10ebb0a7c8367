"""Every announcement of a game played in its seats' DMs reaches every seat's DM, read from the code so
that a new path cannot skip it (``bot.posting.seat_dms``).

Such a game's ``play_channel_id`` is its first seat's DM alone. So every function of ``bot/`` that
sends a message to a game's ``play_channel_id`` must also say what it does for a game in DMs: read
``seat_dms`` (the record's flag, or the announcer's :class:`~bot.posting.seat_dms.SeatDms`), or take
its channels from ``places``. The few that never meet such a game say why below.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

#: Functions that post to a game's channel and never meet a game played in DMs, and why.
NEVER_IN_DMS = {
    ("bot/daily/handlers.py", "play"): "it makes the daily deal's own game, in one player's DM",
}


def posts_to_the_games_channel(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    source = ast.unparse(function)
    sends = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "send"
                for n in ast.walk(function))
    return sends and "play_channel_id" in source


def handles_dms(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    source = ast.unparse(function)
    return "seat_dms" in source or "places(" in source


def test_every_post_to_a_games_channel_says_what_a_game_in_dms_gets() -> None:
    found, missing = [], []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        module = str(path.relative_to(ROOT))
        for node in ast.walk(ast.parse(path.read_text(), module)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and posts_to_the_games_channel(node):
                found.append((module, node.name))
                if not handles_dms(node) and (module, node.name) not in NEVER_IN_DMS:
                    missing.append(f"{module} {node.name}")
    assert missing == [], "posts to play_channel_id that forget games in DMs: " + ", ".join(missing)
    assert len(found) >= 8, found  # the reader still finds the posts (boards, final cards, reminders, ...)
    assert set(NEVER_IN_DMS) <= set(found), "an exemption names a function that no longer posts there"
