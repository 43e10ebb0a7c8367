"""Every way into or out of a tournament goes through ``bot.tournaments.signup``: the command and
the card's buttons alike. This reads the code: a call of the tournaments' sign-up writes
(``TournamentStore.join``, ``strike_out``, ``withdraw``) anywhere else in ``bot/`` would be a
path that skips the rule (the server, the sign-up, the double, the most entrants)."""

from __future__ import annotations

import ast
from pathlib import Path

import bot
from bot.tournaments.store import TournamentStore

WRITES = {"join", "strike_out", "withdraw"}
RULE = Path(bot.__file__).parent / "tournaments" / "signup.py"


def sign_up_writes(path: Path) -> list[str]:
    """``file:line call`` of each ``<…store>.join|strike_out|withdraw(…)`` in ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in WRITES
                and ast.unparse(node.func.value).split(".")[-1] in ("store", "tournaments")):
            found.append(f"{path}:{node.lineno} {ast.unparse(node.func)}")
    return found


def test_the_writes_exist_as_named() -> None:
    assert all(callable(getattr(TournamentStore, name, None)) for name in WRITES)


def test_only_the_sign_up_rule_calls_the_sign_up_writes() -> None:
    root = Path(bot.__file__).parent
    elsewhere = [hit for path in sorted(root.rglob("*.py")) if path != RULE for hit in sign_up_writes(path)]
    assert elsewhere == []
    assert len(sign_up_writes(RULE)) == len(WRITES)  # the reader finds them where they are
