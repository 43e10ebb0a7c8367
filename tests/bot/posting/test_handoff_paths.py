"""Every delivery of a game's outbox asks the hand-over rule first (``bot.posting.handoff``), found by
reading the code: a new way to deliver cannot skip it unnoticed.

The rule is asked in ``Delivery._hand_over`` (on request) and ``ShardOwners.theirs`` (the worker's
pass). What actually delivers is ``Delivery._deliver_here`` and what it calls; this test lists every
function in ``bot/`` that calls one of those and fails on one not classified below, with the reason it
may deliver, and checks that each on-request path asks ``_hand_over`` before it delivers."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.paths import REPO

#: What delivers a game's rows, in ``bot/posting/delivery.py``.
DELIVERING = {"_deliver_here", "_deliver_game", "_deliver_game_held", "_deliver_chain", "_deliver"}
#: Every caller of those, and why it may deliver here.
CALLERS = {
    "announce": "asks _hand_over first (a game of a server another live process runs is handed over)",
    "deliver_game": "asks _hand_over first",
    "deliver_due": "the worker's pass: leaves the games ShardOwners.theirs says another live process owns",
    "one": "deliver_due's step for each game it kept (nested in it)",
    "_handed_over": "this process owns the game: another process handed it over (NOTIFY)",
    "_announce_in_place": "a game played in place has no server: it stays with the click announcing it",
    "_deliver_here": "delivering itself (the internals call each other)",
    "_deliver_game": "delivering itself",
    "_deliver_game_held": "delivering itself",
    "_deliver_chain": "delivering itself",
    "_failed": "a lost thread rescued while delivering: the same delivery goes on in the new thread",
}
#: The on-request paths, which must ask the rule before they deliver.
ASK_FIRST = {"announce", "deliver_game"}


def calls_in(node: ast.AST) -> list[ast.Call]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Call)]


def called_name(call: ast.Call) -> str | None:
    return call.func.attr if isinstance(call.func, ast.Attribute) else None


def callers() -> dict[str, list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]]:
    found: dict[str, list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]] = {}
    for path in (REPO / "bot").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and any(
                    called_name(c) in DELIVERING for c in calls_in(node)):
                found.setdefault(node.name, []).append((Path(path).relative_to(REPO).as_posix(), node))
    return found


def test_every_caller_of_the_delivery_is_classified_and_in_the_delivery() -> None:
    found = callers()
    assert set(found) == set(CALLERS), f"classify: {sorted(set(found) ^ set(CALLERS))}"
    for name, places in found.items():
        assert [p for p, _ in places] == ["bot/posting/delivery.py"], (name, [p for p, _ in places])


def test_the_on_request_paths_ask_the_rule_before_they_deliver() -> None:
    found = callers()
    for name in ASK_FIRST:
        (_path, function), = found[name]
        asked = [c.lineno for c in calls_in(function) if called_name(c) == "_hand_over"]
        delivered = [c.lineno for c in calls_in(function) if called_name(c) in DELIVERING]
        in_place = [c.lineno for c in calls_in(function) if called_name(c) == "_announce_in_place"]
        assert asked, f"{name} delivers without asking the hand-over rule"
        assert all(min(asked) < line for line in delivered), (name, asked, delivered)
        assert all(line < min(asked) for line in in_place), (name, in_place, asked)


def test_the_check_finds_a_caller_it_was_not_told_of(tmp_path: Path) -> None:
    """The reading itself can fail: a function that calls the delivery is found."""
    source = "class D:\n    async def sneaky(self):\n        await self._deliver_here(1)\n"
    tree = ast.parse(source)
    names = {n.name for n in ast.walk(tree) if isinstance(n, ast.AsyncFunctionDef)
             and any(called_name(c) in DELIVERING for c in calls_in(n))}
    assert names == {"sneaky"} and "sneaky" not in CALLERS
