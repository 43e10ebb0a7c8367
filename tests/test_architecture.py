"""The shape of the code, checked: arrows point one way (``bot → render → engine``), no package
has an import circle between its modules or between its folders (at every depth), and every
module of ``bot/`` imports on its own. ``order_violations`` and ``documented_order`` check a
written order of sibling folders (top first: none imports one above it).

Imports are read from the source with ``ast``, all of them: module level, inside
functions and under ``if TYPE_CHECKING:`` alike, because an import that only a type
checker follows still ties two modules together for a reader."""

from __future__ import annotations

import ast
import functools
import itertools
import json
import re
import subprocess
import sys
from collections import deque
from collections.abc import Collection, Iterator, Mapping, Sequence
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


def modules(package: str, root: Path = REPO) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imported(name: str, path: Path) -> Iterator[tuple[str, int]]:
    """Every name ``name`` imports (``from a import b`` gives ``a.b``, which may be a module or a
    name in ``a``) with its line. ``resolve`` turns it into the module it reaches."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                origin = ".".join([*base, node.module] if node.module else base)
            else:
                origin = node.module or ""
            for alias in node.names:
                yield f"{origin}.{alias.name}", node.lineno


def resolve(dotted: str, known: Collection[str]) -> str | None:
    """The deepest module of ``known`` that ``dotted`` names or lies in: ``from engine.core import text``
    reaches the module ``engine.core.text`` (not the package's ``__init__`` too, as ``import
    engine.core.text`` would not), ``from engine.core import Event`` reaches ``engine.core``."""
    parts = dotted.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in known:
            return candidate
    return None


#: module → the project modules it imports → where (``path:line``, relative to the checkout).
Sites = dict[str, dict[str, list[str]]]


@functools.cache
def import_sites(package: str, root: Path = REPO) -> Sites:
    """Every import of the project's modules by the modules of ``package``, with where it is written."""
    known = {m for top in (*LAYERS, "tools", "tests") for m in modules(top, root)}
    found: Sites = {}
    for name, path in modules(package, root).items():
        targets: dict[str, list[str]] = found.setdefault(name, {})
        for dotted, line in imported(name, path):
            target = resolve(dotted, known)
            if target is not None and target != name:
                where = targets.setdefault(target, [])
                if (site := f"{path.relative_to(root)}:{line}") not in where:
                    where.append(site)
    return found


def graph(package: str) -> dict[str, set[str]]:
    """Module → the modules of the project it imports (only those that exist)."""
    return {name: set(targets) for name, targets in import_sites(package).items()}


def cycles(edges: Mapping[str, Collection[str]]) -> list[list[str]]:
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
        for nxt in sorted(edges.get(node, ())):
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


def a_circle(component: list[str], edges: Mapping[str, Collection[str]]) -> list[str]:
    """One shortest way round inside ``component`` from its first member back to it (breadth first)."""
    start, inside = component[0], set(component)
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for nxt in sorted(edges.get(node, ())):
            if nxt == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if nxt in inside and nxt not in came_from:
                came_from[nxt] = node
                queue.append(nxt)
    raise ValueError(f"{component} is not a circle")


def describe(component: list[str], edges: Mapping[str, Collection[str]],
             sites: Mapping[tuple[str, str], Sequence[str]]) -> str:
    """A circle as a reader fixes it: its members, one way round, and the imports that make that way."""
    way = a_circle(component, edges)
    lines = [f"circle of {len(component)}: {', '.join(component)}", f"  one way round: {' → '.join(way)}"]
    for here, there in itertools.pairwise(way):
        lines.append(f"    {here} → {there}: {'; '.join(sites.get((here, there), ())) or '(an import)'}")
    return "\n".join(lines)


def flat_sites(sites: Sites) -> dict[tuple[str, str], list[str]]:
    return {(module, target): where for module, targets in sites.items() for target, where in targets.items()}


def module_circles(sites: Sites) -> list[str]:
    """Every module-level circle, described."""
    edges = {module: set(targets) for module, targets in sites.items()}
    where = flat_sites(sites)
    return [describe(component, edges, where) for component in cycles(edges)]


def unit_of(module: str, package: str) -> str | None:
    """The direct child of ``package`` (sub-folder or top module) that holds ``module``; None for the
    package's own ``__init__`` and for modules outside it."""
    if not module.startswith(package + "."):
        return None
    return f"{package}.{module[len(package) + 1:].split('.')[0]}"


def folder_circles(sites: Sites) -> list[str]:
    """Every circle between the direct children of a package, for each package of the tree at every
    depth: ``a/x.py → b/y.py → a/z.py`` is a circle between ``a`` and ``b``."""
    packages = sorted({module.rsplit(".", depth)[0] for module in sites for depth in range(1, module.count(".") + 1)})
    found = []
    for package in packages:
        edges: dict[str, set[str]] = {}
        where: dict[tuple[str, str], list[str]] = {}
        for module, targets in sites.items():
            here = unit_of(module, package)
            if here is None:
                continue
            edges.setdefault(here, set())
            for target, lines in targets.items():
                there = unit_of(target, package)
                if there is not None and there != here:
                    edges[here].add(there)
                    where.setdefault((here, there), []).extend(f"{line} ({module} → {target})" for line in lines)
        found += [f"inside {package}: " + describe(component, edges, where) for component in cycles(edges)]
    return found


def order_violations(order: Sequence[str], sites: Sites) -> list[str]:
    """Every import from a unit of ``order`` (top first) to a unit listed above it. A module belongs to
    the unit it is or lies in (``bot.daily`` holds ``bot.daily`` and ``bot.daily.cards``, not
    ``bot.daily_old``); imports from or to modules of no listed unit are not this check's business."""
    rank = {unit: place for place, unit in enumerate(order)}

    def unit(module: str) -> str | None:
        return resolve(module, rank)

    wrong = []
    for module, targets in sorted(sites.items()):
        here = unit(module)
        if here is None:
            continue
        for target, lines in sorted(targets.items()):
            there = unit(target)
            if there is not None and rank[there] < rank[here]:
                wrong.append(f"{here} imports {there}, listed above it: {module} → {target} at {'; '.join(lines)}")
    return wrong


def documented_order(path: Path, heading: str) -> list[str]:
    """The units listed, top first, in the fenced code block under ``heading`` in the markdown file
    ``path``: one dotted name a line, ``# …`` a comment. A missing heading or block, a line that is not
    a dotted name and a unit listed twice are errors, so a slip in the document cannot pass as an order."""
    lines = path.read_text().splitlines()
    if heading not in lines:
        raise ValueError(f"{path.name} has no heading {heading!r}")
    level = len(heading) - len(heading.lstrip("#"))
    rest = iter(lines[lines.index(heading) + 1:])
    for line in rest:
        if line.startswith("```"):
            break
        hashes = len(line) - len(line.lstrip("#"))
        if 0 < hashes <= level and line[hashes:hashes + 1] == " ":
            raise ValueError(f"{path.name}: no fenced block under {heading!r}")
    else:
        raise ValueError(f"{path.name}: no fenced block under {heading!r}")
    order: list[str] = []
    for line in rest:
        if line.startswith("```"):
            return order
        unit = line.split("#", 1)[0].strip()
        if not unit:
            continue
        if not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", unit):
            raise ValueError(f"{path.name}: {unit!r} under {heading!r} is not a dotted module name")
        if unit in order:
            raise ValueError(f"{path.name}: {unit} is listed twice under {heading!r}")
        order.append(unit)
    raise ValueError(f"{path.name}: the block under {heading!r} is not closed")


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


#: The packages whose imports must form no circle, between modules and between folders.
CIRCLE_FREE = ("bot", "emulator", "engine", "render", "i18n")


@pytest.mark.parametrize("package", CIRCLE_FREE)
def test_no_import_circle_between_modules(package: str) -> None:
    found = module_circles(import_sites(package))
    assert not found, "\n".join(found)


@pytest.mark.parametrize("package", CIRCLE_FREE)
def test_no_import_circle_between_folders(package: str) -> None:
    """At every depth, a package's direct children (sub-folders and top modules) import one another
    one way only."""
    found = folder_circles(import_sites(package))
    assert not found, "\n".join(found)


def test_the_circle_check_finds_circles() -> None:
    """The checker itself: a three-module circle and a two-module one are reported."""
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"e"}, "e": {"d"}, "f": {"a"}}
    assert sorted(cycles(edges)) == [["a", "b", "c"], ["d", "e"]]


def synthetic(edges: dict[str, set[str]]) -> Sites:
    """A graph of made-up modules, each import "written" at ``<module>:1``."""
    return {module: {target: [f"{module}:1"] for target in targets} for module, targets in edges.items()}


def test_a_module_circle_is_named_with_its_imports() -> None:
    sites = synthetic({"p.a": {"p.b"}, "p.b": {"p.c", "p.a"}, "p.c": {"p.a"}, "p.d": {"p.a"}})
    [found] = module_circles(sites)
    assert found.splitlines() == [
        "circle of 3: p.a, p.b, p.c",
        "  one way round: p.a → p.b → p.a",
        "    p.a → p.b: p.a:1",
        "    p.b → p.a: p.b:1",
    ]


def test_the_folder_circle_check_finds_circles_between_folders_at_every_depth() -> None:
    """``a/x → b/y → a/z`` has no module circle but is a circle between the folders ``a`` and ``b``;
    the same two levels down, inside ``p.c``; one-way imports between folders are fine."""
    sites = synthetic({
        "p.a.x": {"p.b.y"}, "p.b.y": {"p.a.z"}, "p.a.z": set(),
        "p.c.d.m": {"p.c.e.n"}, "p.c.e.n": {"p.c.d.o.deep"}, "p.c.d.o.deep": set(),
        "p.f": {"p.a.x", "p.c.d.m"}, "p.c": {"p.c.d.m", "p.c.e.n"}, "p.c.e.q": {"p.c"},
    })
    assert module_circles(sites) == []
    found = folder_circles(sites)
    assert [text.splitlines()[:2] for text in found] == [
        ["inside p: circle of 2: p.a, p.b", "  one way round: p.a → p.b → p.a"],
        ["inside p.c: circle of 2: p.c.d, p.c.e", "  one way round: p.c.d → p.c.e → p.c.d"],
    ]
    assert "p.a → p.b: p.a.x:1 (p.a.x → p.b.y)" in found[0]
    assert "p.c.e → p.c.d: p.c.e.n:1 (p.c.e.n → p.c.d.o.deep)" in found[1]
    assert folder_circles(synthetic({"p.a.x": {"p.b.y"}, "p.b.y": {"p.c"}, "p.c": set()})) == []


def test_a_folder_circle_names_the_file_and_line_of_each_import(tmp_path: Path) -> None:
    for name, text in {"__init__.py": "", "a/__init__.py": "", "b/__init__.py": "",
                       "a/x.py": "from engine.b import y\n", "a/z.py": "X = 1\n",
                       "b/y.py": "import os\n\ndef f():\n    from engine.a.z import X\n"}.items():
        (tmp_path / "engine" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "engine" / name).write_text(text)
    [found] = folder_circles(import_sites("engine", tmp_path))
    assert "engine.a → engine.b: engine/a/x.py:1 (engine.a.x → engine.b.y)" in found
    assert "engine.b → engine.a: engine/b/y.py:4 (engine.b.y → engine.a.z)" in found


def test_the_order_check_finds_imports_upward() -> None:
    order = ["p.top", "p.mid", "p.low"]
    sites = synthetic({
        "p.top.a": {"p.mid", "p.low.b", "p.top.c"},  # downward and inside: fine
        "p.mid": {"p.low.b", "p.midway"},  # p.midway is no unit (a prefix is not a folder)
        "p.midway": {"p.top.a"},  # not listed: not this check's business
        "p.low.b": {"p.low.c.d", "p.mid"},  # upward
        "p.low.c.d": {"p.top.c", "other"},  # upward, two levels
    })
    assert order_violations(order, sites) == [
        "p.low imports p.mid, listed above it: p.low.b → p.mid at p.low.b:1",
        "p.low imports p.top, listed above it: p.low.c.d → p.top.c at p.low.c.d:1",
    ]
    assert order_violations(["p.low", "p.mid", "p.top"], synthetic({"p.top.a": {"p.low.b"}, "p.low.b": set()})) == [
        "p.top imports p.low, listed above it: p.top.a → p.low.b at p.top.a:1",
    ]


def test_the_documented_order_is_the_block_under_its_heading(tmp_path: Path) -> None:
    doc = tmp_path / "ARCHITECTURE.md"
    doc.write_text(
        "# Architecture\n\n```\nnot.this\n```\n\n## Folder order\n\nTop first.\n\n### Notes\n\n"
        "```text\nbot.app        # the process\n\n  bot.client  # the client\nbot.core\n```\n\n"
        "## Later\n\n```\nnor.this\n```\n"
    )
    assert documented_order(doc, "## Folder order") == ["bot.app", "bot.client", "bot.core"]
    with pytest.raises(ValueError, match="no heading"):
        documented_order(doc, "## Folder orders")
    doc.write_text("## Folder order\n\nSoon.\n\n## Later\n\n```\nbot.app\n```\n")
    with pytest.raises(ValueError, match="no fenced block"):
        documented_order(doc, "## Folder order")
    for wrong, complaint in (("bot.app\nbot/core\n```\n", "not a dotted"), ("bot.app\nbot.app\n```\n", "twice"),
                             ("bot.app\n", "not closed")):
        doc.write_text(f"## Folder order\n```\n{wrong}")
        with pytest.raises(ValueError, match=complaint):
            documented_order(doc, "## Folder order")


def test_the_import_reader_sees_every_kind_of_import(tmp_path: Path) -> None:
    source = tmp_path / "probe.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "import bot.app\n"
        "from bot.store import database\n"
        "if TYPE_CHECKING:\n    from bot.client import PyramidClient\n"
        "def f():\n    from render import canvas\n"
        "from . import sibling\n"
    )
    found = set(imported("bot.probe", source))
    assert {("bot.app", 2), ("bot.store.database", 3), ("bot.client.PyramidClient", 5), ("render.canvas", 7),
            ("bot.sibling", 8)} <= found


def test_an_import_reaches_the_deepest_module_it_names() -> None:
    """``from a import b`` reaches the module ``a.b`` when there is one (as ``import a.b`` does), and
    the package ``a`` when ``b`` is a name defined in it."""
    known = {"engine", "engine.core", "engine.core.text"}
    assert resolve("engine.core.text", known) == "engine.core.text"
    assert resolve("engine.core.Event", known) == "engine.core"
    assert resolve("engine.core.text.N_", known) == "engine.core.text"
    assert resolve("discord.ui", known) is None


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
    return documented_order(REPO / "ARCHITECTURE.md", "## Folder order")


def bot_unit(module: str) -> str:
    return ".".join(module.split(".")[:2])


def test_bot_imports_only_what_is_below_it_in_the_documented_order() -> None:
    """A folder of ``bot/`` may import itself and what is listed below it, never what is above."""
    found = order_violations(bot_folder_order(), import_sites("bot"))
    assert not found, "\n".join(found)


def test_the_folder_order_names_every_folder_of_bot_once() -> None:
    order = bot_folder_order()
    assert len(order) == len(set(order)), "a unit is listed twice"
    assert set(order) == {bot_unit(module) for module in modules("bot") if module != "bot"}
