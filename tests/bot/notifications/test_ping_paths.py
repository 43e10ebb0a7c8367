"""Every message the bot sends on its own that could buzz a player passes the notification gate
(issue #39), read from the code so that a new path cannot skip it.

In every module of ``bot/``, every call that sends a message (``.send(...)``, ``.post(...)``,
``send_card(...)``) either pings nobody, or takes its ``silent=`` and ``allowed_mentions=`` from a
:class:`~bot.posting.pings.Ping` (a parameter typed ``Ping``, or a name bound to what the gate
returned: ``.pings.turn(...)``, ``.notice(...)``, ``.reminder(...)``, ``QUIET``, a ``Ping(...)`` the
gate's own code builds), or hands such a Ping on to a sender that takes one. A message pings nobody
when its ``allowed_mentions`` let no user through (``AllowedMentions.none()``, ``users=False``, or
none given: the client's default) and, sent to a player's DMs (which buzz whatever they say), it is
@silent; or when it is ephemeral (only the player whose click it answers sees it). Edits are not
read: an edit never notifies anyone.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
FOLDERS = (ROOT / "bot",)
SENDS = frozenset({"send", "post", "send_card"})
#: The gate's answers: a name bound to one of these holds a Ping.
GATE_CALLS = frozenset({"turn", "notice", "reminder", "_ping", "Ping"})
GATE_NAMES = frozenset({"QUIET"})
#: A send to a player's DM channel (``dm.send``, ``user.send``, a private partial messageable): it buzzes
#: them unless it is @silent, mentions or not.
DIRECT = re.compile(r"\bdm\b|private|\buser\b|\bmember\b|_dm\b")
#: Generic wrappers that forward every keyword (their callers are read instead).
FORWARDERS = frozenset({"send_card"})


@dataclass
class Send:
    where: str
    function: str
    text: str
    problem: str


def quiet_mentions(node: ast.expr) -> bool:
    text = ast.unparse(node)
    return text.endswith("AllowedMentions.none()") or text.endswith("AllowedMentions(users=False)")


def ping_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """Names in ``function`` that hold a Ping: typed parameters, and names bound to the gate's answers."""
    args = function.args
    names = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]
             if a.annotation is not None and "Ping" in ast.unparse(a.annotation)}
    for node in ast.walk(function):
        targets: list[ast.expr] = []
        value: ast.expr | None = None
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        if value is None:
            continue
        called = {n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")
                  for n in ast.walk(value) if isinstance(n, ast.Call)}
        named = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
        if called & GATE_CALLS or named & GATE_NAMES:
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return names


def from_ping(node: ast.expr, pings: set[str]) -> bool:
    """The expression reads a Ping (``ping.silent``, ``ping.mentions``, ``user not in ping.users``)."""
    return any(isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in pings
               for n in ast.walk(node))


def check_function(module: str, function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[Send]:
    found: list[Send] = []
    pings = ping_names(function)
    for node in ast.walk(function):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        if name not in SENDS:
            continue
        if function.name in FORWARDERS or any(k.arg is None for k in node.keywords):
            continue  # forwards its caller's keywords
        if isinstance(node.func, ast.Attribute) and ast.unparse(node.func.value).endswith("store"):
            continue  # a store's method of that name (the daily deal's post row), not a message
        handed = [*node.args, *(k.value for k in node.keywords)]
        if any(isinstance(a, ast.Name) and a.id in pings for a in handed):
            continue  # hands the gate's Ping to a sender that takes one (checked where it sends)
        keywords = {k.arg: k.value for k in node.keywords}
        silent, mentions = keywords.get("silent"), keywords.get("allowed_mentions")
        where = f"{module}:{node.lineno}"
        ephemeral = keywords.get("ephemeral")
        direct = bool(DIRECT.search(ast.unparse(node.func)))  # a DM buzzes unless it is @silent
        quiet = (((mentions is None or quiet_mentions(mentions))
                 and (not direct or (isinstance(silent, ast.Constant) and silent.value is True)))
                 or (isinstance(ephemeral, ast.Constant) and ephemeral.value is True))  # only its clicker sees it
        gated = silent is not None and from_ping(silent, pings) and (mentions is None or from_ping(mentions, pings)
                                                                    or quiet_mentions(mentions))
        if not (quiet or gated):
            found.append(Send(where, function.name, ast.unparse(node)[:120],
                              "neither quiet (silent=True, no mentions) nor told by the gate (a Ping)"))
    return found


def sends() -> tuple[list[Send], int]:
    problems: list[Send] = []
    count = 0
    for folder in FOLDERS:
        for path in sorted(folder.rglob("*.py")):
            tree = ast.parse(path.read_text(), str(path))
            module = str(path.relative_to(ROOT))
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    count += sum(1 for n in ast.walk(node) if isinstance(n, ast.Call) and (
                        (n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", None)) in SENDS))
                    problems += check_function(module, node)
    return problems, count


def test_every_send_that_may_buzz_asks_the_gate() -> None:
    problems, count = sends()
    assert [f"{p.where} {p.function}: {p.text} — {p.problem}" for p in problems] == []
    assert count >= 20  # not vacuous: the boards, hands, reminders and notices are among those read


def test_the_known_paths_are_gated() -> None:
    """The paths the issue names read a Ping: the board, the hand DM, the reminder, the in-place
    turn line and DM, the notices of trouble, the batch, the heads-up, the repeat, the digest."""
    gated: set[str] = set()
    for folder in FOLDERS:
        for path in sorted(folder.rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and ping_names(node):
                    gated.add(node.name)
    for name in ("deliver_board", "deliver_hand", "sweep_game", "tell_turn", "dm_turn", "tell_dms_closed", "park",
                 "_tell", "_dm", "repeat", "_heads_up"):
        assert name in gated, name


def test_the_check_finds_a_send_that_skips_the_gate() -> None:
    source = '''
async def nudge(self, user_id, channel_id):
    await self.client.get_partial_messageable(channel_id).send(
        "hey", allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]))
    await dm.send("psst")
    ping = await self.pings.turn(session, "board")
    await dm.send("ok", silent=ping.silent)
    await channel.send("news", silent=True, allowed_mentions=discord.AllowedMentions.none())
'''
    node = ast.parse(source).body[0]
    assert isinstance(node, ast.AsyncFunctionDef)
    found = check_function("forged.py", node)
    assert [f.where for f in found] == ["forged.py:3", "forged.py:5"]
