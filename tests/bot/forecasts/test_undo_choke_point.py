"""A move leaves the log in one place only (issue #41): the one statement of ``bot/`` that
deletes from ``moves`` is in ``bot/store/undos.py`` (``UndoStore.take_back``, which writes the
snapshot, the bank and the announcements in the same transaction), and its one caller is
``Undos.take_back`` in ``bot/forecasts/undo.py``, under the game's lock (the one every move
takes) and after the engine's rule (``revealed``). A new path that took moves back elsewhere
would fail here, so it cannot skip the rule that a move which showed something hidden stays."""

from __future__ import annotations

import ast
import re

from tests.bot.core.test_move_choke_point import BOT, calls_in

DELETES_MOVES = re.compile(r"DELETE\s+FROM\s+moves\b", re.IGNORECASE)


def test_moves_leave_the_log_in_one_statement() -> None:
    found = [path.relative_to(BOT).as_posix() for path in sorted(BOT.rglob("*.py"))
             for _ in DELETES_MOVES.finditer(path.read_text(encoding="utf-8"))]
    assert found == ["store/undos.py"]


def test_the_one_undo_runs_under_the_games_lock_after_the_engines_rule() -> None:
    callers = []
    for path in sorted(BOT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "take_back"
                    and isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "undo_rows"):
                callers.append(path.relative_to(BOT).as_posix())
    assert callers == ["forecasts/undo.py"]
    tree = ast.parse((BOT / "forecasts" / "undo.py").read_text(encoding="utf-8"))
    method = next(n for n in ast.walk(tree) if isinstance(n, ast.AsyncFunctionDef) and n.name == "take_back")
    locked = [n for n in ast.walk(method) if isinstance(n, ast.AsyncWith)
              and any(isinstance(i.context_expr, ast.Call) and isinstance(i.context_expr.func, ast.Attribute)
                      and i.context_expr.func.attr == "lock" for i in n.items)]
    assert len(locked) == 1
    inside = {id(n) for n in ast.walk(locked[0])}
    writes = [n for n in ast.walk(method) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
              and n.func.attr == "take_back"]
    assert writes and all(id(w) in inside for w in writes)
    asked = [line for name, line in calls_in(method, "revealed")]
    assert asked and min(asked) < min(w.lineno for w in writes)
