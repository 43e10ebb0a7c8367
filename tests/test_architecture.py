"""The shape of the code, checked: arrows point one way (``bot → render → engine``),
``bot/`` has no import circle, and every module of ``bot/`` imports on its own.

Imports are read from the source with ``ast``, all of them: module level, inside
functions and under ``if TYPE_CHECKING:`` alike, because an import that only a type
checker follows still ties two modules together for a reader."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.paths import REPO

LAYERS = ("engine", "render", "bot", "emulator", "i18n")
#: What each layer may import from the project (its own package included). ``i18n``
#: (the catalogues) is a leaf beside the layers: the bot and the renderer read texts
#: from it; the engine only marks its texts and stays free of I/O.
ALLOWED = {"engine": {"engine"}, "render": {"engine", "render", "i18n"}, "bot": {"engine", "render", "bot", "i18n"},
           "emulator": {"emulator"}, "i18n": {"i18n"}}
#: The emulator plays Discord, which knows nothing of us; only the pytest fixtures that
#: point a bot at it (and its own tests) may know the bot.
EMULATOR_GLUE = ("emulator.fixtures", "emulator.tests")


def modules(package: str) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted((REPO / package).rglob("*.py")):
        parts = list(path.relative_to(REPO).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imported(name: str, path: Path) -> Iterator[str]:
    """Every project module ``name`` imports, resolved to the deepest module that exists."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                origin = ".".join([*base, node.module] if node.module else base)
            else:
                origin = node.module or ""
            yield origin
            for alias in node.names:
                yield f"{origin}.{alias.name}"


def graph(package: str) -> dict[str, set[str]]:
    """Module → the modules of the project it imports (only those that exist)."""
    known = {m: p for top in (*LAYERS, "tools", "tests") for m, p in modules(top).items()}
    edges: dict[str, set[str]] = {}
    for name, path in modules(package).items():
        targets = {t for t in imported(name, path) if t in known and t != name}
        edges[name] = targets
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in edges.get(node, ()):
            if nxt not in edges:
                continue
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


@pytest.mark.parametrize("layer", LAYERS)
def test_arrows_point_one_way(layer: str) -> None:
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in graph(layer).items()
        if not module.startswith(EMULATOR_GLUE)
        for target in targets
        if target.split(".")[0] not in ALLOWED[layer]
    )
    assert wrong == []


def test_what_runs_between_clicks_never_answers_one() -> None:
    """``bot.play`` (and the games, store and workers) never reach into ``bot.discord``:
    the interaction layer calls down into them, not the other way."""
    below = ("bot.play", "bot.games", "bot.store", "bot.workers", "bot.services", "bot.records", "bot.ratings")
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in graph("bot").items()
        if module.startswith(below)
        for target in targets
        if target.startswith("bot.discord")
    )
    assert wrong == []


def test_no_import_circle_in_bot() -> None:
    assert cycles(graph("bot")) == []


def test_the_circle_check_finds_circles() -> None:
    """The checker itself: a three-module circle and a two-module one are reported."""
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"e"}, "e": {"d"}, "f": {"a"}}
    assert sorted(cycles(edges)) == [["a", "b", "c"], ["d", "e"]]


def test_the_import_reader_sees_every_kind_of_import(tmp_path: Path) -> None:
    source = tmp_path / "probe.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "import bot.app\n"
        "from bot.store import database\n"
        "if TYPE_CHECKING:\n    from bot.client import PyramidClient\n"
        "def f():\n    from render import canvas\n"
    )
    found = set(imported("bot.probe", source))
    assert {"bot.app", "bot.store.database", "bot.client", "render.canvas"} <= found


def _import_alone(module: str) -> tuple[str, str]:
    done = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=REPO, capture_output=True, text=True,
                          timeout=120)
    return module, done.stderr.strip().splitlines()[-1] if done.returncode else ""


def test_every_bot_module_imports_on_its_own() -> None:
    """A module that only imports after another one was imported first hides a circle."""
    names = [m for m in modules("bot") if not m.endswith("__main__")]
    with ThreadPoolExecutor(max_workers=4) as pool:
        failures = [f"{m}: {err}" for m, err in pool.map(_import_alone, names) if err]
    assert failures == []
