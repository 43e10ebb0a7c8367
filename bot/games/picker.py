"""Turn a list of legal moves into a few clicks.

Moves are split into steps (a game's presenter decides how: tile, then spot; or
spot counts, then the exact pyrino) and arranged as a prefix tree. A click carries
the path chosen so far; the tree is rebuilt from the *current* legal moves on every
click, so a path that no longer leads anywhere is simply stale, never wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

Steps = Callable[[str], tuple[str, ...]]


class PathGone(Exception):
    """The choices made so far no longer lead to a legal move."""


@dataclass(frozen=True)
class Node:
    path: tuple[str, ...]
    choices: tuple[str, ...]
    complete: str | None  # the move this path spells, if it is one


def default_steps(move: str) -> tuple[str, ...]:
    return tuple(move.split())


def node_at(moves: Sequence[str], path: Sequence[str], steps: Steps = default_steps) -> Node:
    """The node reached by ``path``, descending on its own through forced steps
    (a single choice and no move to make here)."""
    spelled = [(steps(m), m) for m in moves]
    current = tuple(path)
    while True:
        depth = len(current)
        below = [(s, m) for s, m in spelled if s[:depth] == current]
        if not below:
            raise PathGone("That choice is no longer possible.")
        complete = next((m for s, m in below if len(s) == depth), None)
        seen: dict[str, None] = {}
        for s, _ in below:
            if len(s) > depth:
                seen.setdefault(s[depth], None)
        choices = tuple(seen)
        if complete is None and len(choices) == 1:
            current = (*current, choices[0])
            continue
        return Node(current, choices, complete)


def back_path(moves: Sequence[str], node: Node, steps: Steps = default_steps) -> tuple[str, ...] | None:
    """Where "Back" leads: the nearest shorter path that shows a different node
    (forced steps are skipped on the way up as on the way down)."""
    for cut in range(len(node.path) - 1, -1, -1):
        prefix = node.path[:cut]
        if node_at(moves, prefix, steps).path != node.path:
            return prefix
    return None
