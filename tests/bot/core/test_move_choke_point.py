"""Every move goes through the clock's check (issue #37): the one statement in ``bot/`` that
writes a move (``GameStore.append_move``) is in ``SessionService._move_locked``, which asks
the clock (``out_of_time``, the sweep's own question) before the engine plays the move and
before it is written. A new path that wrote moves elsewhere would fail here, so it cannot
skip the rule that a move after the bank ran out is refused."""

from __future__ import annotations

import ast
from pathlib import Path

BOT = Path(__file__).resolve().parents[3] / "bot"


def calls_in(tree: ast.AST, name: str) -> list[tuple[str, int]]:
    """(enclosing function, line) of every call of a method or function called ``name``."""
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
            if isinstance(child, ast.Call):
                func = child.func
                called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
                if called == name:
                    found.append((function, child.lineno))
            visit(child, inner)

    visit(tree, "<module>")
    return found


def test_moves_are_written_in_one_place_and_only_after_the_clock_is_asked() -> None:
    writers = []
    for path in sorted(BOT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        writers += [(path.relative_to(BOT).as_posix(), function) for function, _ in calls_in(tree, "append_move")]
    assert writers == [("core/session_service.py", "_move_locked")]
    tree = ast.parse((BOT / "core" / "session_service.py").read_text(encoding="utf-8"))
    locked = [(name, line) for name, line in calls_in(tree, "out_of_time") if name == "_move_locked"]
    played = [line for name, line in calls_in(tree, "play") if name == "_move_locked"]
    written = [line for name, line in calls_in(tree, "append_move") if name == "_move_locked"]
    assert locked and played and written
    assert locked[0][1] < min(played) and locked[0][1] < min(written)
    # and _move_locked runs only under the game's lock, from make_move
    callers = [name for name, _ in calls_in(tree, "_move_locked")]
    assert callers == ["make_move"]
