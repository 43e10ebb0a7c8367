"""Every path that shows a game asks the one visibility rule (:mod:`bot.core.visibility`, issue #37).

Read from the code, so that a new handler cannot skip the rule: every function of
the modules that answer interactions (``bot/client``, ``bot/interactions`` and the
features' handlers) that makes a game's picture or text (a
board, a hand, a chooser, the board in words, a replay's frame or caption, the game record,
a status line) must either hold the rule's :class:`~bot.core.visibility.Seen` (a parameter),
ask the rule itself (:func:`~bot.core.visibility.admit`, :func:`~bot.interactions.access.seen_by`,
:func:`~bot.interactions.finding.find_seen`, or a function that asks them), or be called only by
functions that do. The e2e side (``tests/bot/e2e/test_visibility_handlers.py``) clicks every
registered component and runs every command that names a game, as someone the rule refuses.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.core.visibility import Seen

ROOT = Path(__file__).resolve().parents[3]
BOT = ROOT / "bot"


def answering() -> list[Path]:
    """The modules that answer interactions: the client, ``bot/interactions`` and every module of a
    feature that uses it (a feature's commands, components and handlers; its game-end followers
    answer none)."""
    return [path for path in sorted(BOT.rglob("*.py"))
            if path.relative_to(BOT).parts[0] in {"client", "interactions"}
            or "from bot.interactions" in path.read_text()]


#: What makes a game's picture or text: called on the renderer (``….renderer.board(…)``), or by name.
RENDERER = "renderer"
SINKS = frozenset({
    "public_view", "player_view", "board_texts", "board_labels", "board_words", "status_line", "narrate",
    "describe_board", "describe_hand", "record_of", "chooser", "step_to", "game_log", "preview_move", "since_board",
})
#: The rule's entry points: asking one of these is asking the rule.
RULE = frozenset({"admit", "judge", "seen_by", "find_seen"})


@dataclass
class Function:
    module: str
    name: str
    node: ast.FunctionDef | ast.AsyncFunctionDef
    calls: set[str] = field(default_factory=set)
    sinks: set[str] = field(default_factory=set)

    @property
    def where(self) -> str:
        return f"{self.module}:{self.node.lineno} {self.name}"

    def holds_seen(self) -> bool:
        args = self.node.args
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs]
        return any(a.annotation is not None and "Seen" in ast.unparse(a.annotation) for a in every)


def called_name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def on_renderer(call: ast.Call) -> bool:
    func = call.func
    return (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Attribute)
            and func.value.attr == RENDERER)


def functions() -> list[Function]:
    found: list[Function] = []
    for path in answering():
        tree = ast.parse(path.read_text(), str(path))
        module = str(path.relative_to(ROOT))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            function = Function(module, node.name, node)
            for inner in ast.walk(node):
                if isinstance(inner, ast.Call):
                    name = called_name(inner)
                    if name is not None:
                        function.calls.add(name)
                    if on_renderer(inner):
                        function.sinks.add(f"renderer.{name}")
                    elif name in SINKS:
                        function.sinks.add(name)
            found.append(function)
    return found


def guarded(every: list[Function]) -> dict[str, bool]:
    """For each function name: does it hold a Seen, ask the rule (perhaps through another function
    that does), or is it called only by functions that are guarded. A fixpoint over names."""
    asks: dict[str, bool] = {}
    for f in every:
        asks[f.name] = asks.get(f.name, True) and (f.holds_seen() or bool(f.calls & RULE))
    changed = True
    while changed:  # asking through a function that asks
        changed = False
        for f in every:
            if not asks[f.name] and any(asks.get(c, False) for c in f.calls if c != f.name):
                asks[f.name] = changed = True
    callers: dict[str, set[str]] = {}
    for f in every:
        for c in f.calls:
            callers.setdefault(c, set()).add(f.name)
    safe = dict(asks)
    changed = True
    while changed:  # called only from guarded functions
        changed = False
        for name, ok in list(safe.items()):
            who = callers.get(name, set()) - {name}
            if not ok and who and all(safe.get(c, False) for c in who):
                safe[name] = changed = True
    return safe


def test_every_function_that_shows_a_game_asks_the_rule() -> None:
    every = functions()
    showing = [f for f in every if f.sinks]
    safe = guarded(every)
    unguarded = [f"{f.where} makes {sorted(f.sinks)} without the visibility rule" for f in showing
                 if not safe[f.name]]
    assert unguarded == []
    # Not vacuous: the paths the issue names are among those read.
    names = {f.name for f in showing}
    for known in ("send_current_board", "show_hand", "_position", "history", "choose", "_picture"):
        assert known in names, known


def test_the_showing_functions_take_the_rules_proof() -> None:
    """What shows a whole board, hand, replay frame or record takes a Seen: mypy then proves each caller has one."""
    by_name = {f.name: f for f in functions()}
    for name in ("send_current_board", "show_hand", "_position", "_picture"):
        assert by_name[name].holds_seen(), name


def test_the_check_finds_a_path_that_skips_the_rule() -> None:
    """The check itself, on a handler written without the rule: it is caught."""
    source = '''
async def peek(self, interaction, cid):
    session = await self.services.sessions.load(cid.game_id)
    file = await self.services.renderer.board(public_view(session), art=None)
'''
    node = ast.parse(source).body[0]
    assert isinstance(node, ast.AsyncFunctionDef)
    f = Function("forged.py", "peek", node)
    for inner in ast.walk(node):
        if isinstance(inner, ast.Call):
            f.calls.add(called_name(inner) or "")
            if on_renderer(inner):
                f.sinks.add("renderer.board")
    every = [f]
    assert f.sinks and not guarded(every)["peek"]
    asked = ast.parse(source.replace("session = ", "await seen_by(None, None, interaction)\n    session = ")).body[0]
    assert isinstance(asked, ast.AsyncFunctionDef)
    g = Function("forged.py", "peek", asked, calls={called_name(c) or "" for c in ast.walk(asked)
                                                     if isinstance(c, ast.Call)})
    assert guarded([g])["peek"]


def test_only_the_rule_makes_its_proof() -> None:
    with pytest.raises(TypeError):
        Seen(None, 1, True)  # type: ignore[arg-type]
