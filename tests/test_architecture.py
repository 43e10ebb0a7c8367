"""The shape of the code, checked: arrows point one way (``bot → render → engine``),
``bot/`` has no import circle, and every module of ``bot/`` imports on its own.

Imports are read from the source with ``ast``, all of them: module level, inside
functions and under ``if TYPE_CHECKING:`` alike, because an import that only a type
checker follows still ties two modules together for a reader."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterator
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
    """What runs between clicks (posting, cards, clock, core; the games, store and workers) never reaches
    into ``bot.interactions``: the interaction layer calls down into them, not the other way."""
    below = ("bot.posting", "bot.cards", "bot.clock", "bot.core", "bot.games", "bot.store", "bot.workers",
             "bot.records", "bot.ratings")
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in graph("bot").items()
        if module.startswith(below)
        for target in targets
        if target.startswith("bot.interactions")
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


# One interpreter loads the libraries the project uses (none of its own modules), then forks a child per module:
# each child starts with none of ours imported, as a fresh interpreter would, without paying discord.py's start-up
# time again for every module (that took minutes on a busy two-core machine).
_IMPORT_EACH_ALONE = """
import importlib, json, os, sys
for lib in ("discord", "discord.ext.tasks", "PIL.Image", "PIL.ImageDraw", "pydantic", "pydantic_settings",
            "aiosqlite", "asyncpg", "aiohttp", "babel", "openskill", "prometheus_client", "zoneinfo"):
    importlib.import_module(lib)
assert not any(m.split(".")[0] in {"bot", "engine", "render", "i18n"} for m in sys.modules)
failures = {}
running = {}  # pid -> (module, the pipe its error comes through)

def reap():
    pid, status = os.wait()
    name, pipe = running.pop(pid)
    with os.fdopen(pipe, "rb") as reader:
        message = reader.read().decode()
    if status:
        failures[name] = message or f"exit status {status}"

for name in sys.argv[1:]:
    while len(running) >= (os.cpu_count() or 1):
        reap()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            importlib.import_module(name)
            code = 0
        except BaseException as exc:
            os.write(write, f"{type(exc).__name__}: {exc}"[:4000].encode())
            code = 1
        os._exit(code)
    os.close(write)
    running[pid] = (name, read)
while running:
    reap()
print(json.dumps(failures))
"""


def test_every_bot_module_imports_on_its_own() -> None:
    """A module that only imports after another one was imported first hides a circle."""
    names = [m for m in modules("bot") if not m.endswith("__main__")]
    done = subprocess.run([sys.executable, "-c", _IMPORT_EACH_ALONE, *names], cwd=REPO, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    failures = json.loads(done.stdout)
    assert failures == {}


def test_the_alone_importer_sees_a_module_that_needs_another_first(tmp_path: Path) -> None:
    """The checker itself: a module that works only when its sibling was imported before fails alone."""
    package = tmp_path / "probe_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "first.py").write_text("import probe_pkg\nprobe_pkg.READY = True\n")
    (package / "second.py").write_text("import probe_pkg\nassert probe_pkg.READY\n")
    done = subprocess.run([sys.executable, "-c", _IMPORT_EACH_ALONE, "probe_pkg.first", "probe_pkg.second"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)) == {"probe_pkg.second"}


# --- bot/'s folder order (issue #38), read from ARCHITECTURE.md's "## Folder order" block -------------------------

def bot_folder_order() -> list[str]:
    """The units of ``bot/`` (a folder or a top module, ``bot.x``) in the documented order, top first."""
    text = (REPO / "ARCHITECTURE.md").read_text()
    section = text.split("\n## Folder order\n", 1)[1]
    block = section.split("```", 2)[1]
    return [line.split("#", 1)[0].strip() for line in block.splitlines()[1:] if line.split("#", 1)[0].strip()]


def bot_unit(module: str) -> str:
    return ".".join(module.split(".")[:2])


def test_bot_imports_only_what_is_below_it_in_the_documented_order() -> None:
    """A folder of ``bot/`` may import itself and what is listed below it, never what is above."""
    order = bot_folder_order()
    place = {unit: at for at, unit in enumerate(order)}
    wrong = sorted(
        f"{module} imports {target}: {bot_unit(target)} is listed above {bot_unit(module)}"
        for module, targets in graph("bot").items()
        if module != "bot"
        for target in targets
        if target.startswith("bot.") and bot_unit(target) != bot_unit(module)
        and place.get(bot_unit(target), len(order)) < place.get(bot_unit(module), -1)
    )
    assert wrong == []


def test_the_folder_order_names_every_folder_of_bot_once() -> None:
    order = bot_folder_order()
    assert len(order) == len(set(order)), "a unit is listed twice"
    assert set(order) == {bot_unit(module) for module in modules("bot") if module != "bot"}
