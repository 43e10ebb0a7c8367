"""Pyrinoes: block dominoes with pyramid-built dominoes ("pyrinoes"), two players.

Rules: ``../shared/rules/pyrinoes.md`` (PY-1 .. PY-7). Seat 0 is Fire (red ``R`` and
yellow ``Y``), seat 1 is Ice (blue ``B`` and black ``K``); green ``G`` is communal.

Helpers beyond the :class:`~engine.core.contract.Game` contract, for bots and UIs:

- ``build_options(state, seat=None) -> dict[(high, low), list[code]]`` — the buildable
  pyrinoes grouped by spot counts (high end first), then every code that makes that
  pair. ``legal_moves`` lists each of them as ``build <code>`` too; this is the compact
  two-step form (which numbers, then which pyramids).
- ``available_builds(seat, supply, green)`` — the same as :class:`Pyrino` records,
  memoised on the supply counts (fast for search).
- ``can_play(state, seat)``, ``can_build(state, seat)`` — the PY-4 tests behind
  draw/pass legality.
- ``hand_total(state, seat)``, ``round_points(state, ender, condition)``,
  ``match_winner(scores, target)`` — PY-6 scoring pieces.
- ``pyrino(code)`` / ``domino(code)`` — parse any accepted spelling;
  ``PYRINOES`` maps each canonical code to its :class:`Pyrino`.

Pyrino codes are canonical: ends in colour order G, Y, R, B, K (``G3|R1``, ``Y21|R1``,
``B1|K1``) and stacks bottom first, larger under smaller. Moves accept any spelling
(``R1|Y21``, ``Y12|R1`` for the same stack). On the line, a pyrino is written in line
orientation (left end first), so ``R1|G3`` may appear there.
"""

from engine.pyrinoes.game import Pyrinoes
from engine.pyrinoes.moves import available_builds, build_options, can_build, can_play
from engine.pyrinoes.pieces import PYRINOES, Domino, Pyrino, domino, pyrino
from engine.pyrinoes.rules import hand_total, match_winner, round_points
from engine.pyrinoes.state import PyrinoesOptions, PyrinoesState

GAME = Pyrinoes()

__all__ = [
    "GAME",
    "PYRINOES",
    "Domino",
    "Pyrino",
    "Pyrinoes",
    "PyrinoesOptions",
    "PyrinoesState",
    "available_builds",
    "build_options",
    "can_build",
    "can_play",
    "domino",
    "hand_total",
    "match_winner",
    "pyrino",
    "round_points",
]
