"""Pyramido (game id ``pyramido``): rules PD-1 … PD-6 of ``shared/rules/pyramido.md``.

``GAME`` is the rule book (:class:`engine.core.contract.Game`). Helpers for the
renderer and bots, all plain functions over a position-JSON pyramid (a mapping
from cells like ``"2:1,0"`` to colour letters), so they work on ``view()`` output:

- ``legal_cells(pyramid, size, colour)`` – the cells where a stone of ``colour``
  may go now, as ``"L:x,y"`` strings (all PD-3 rules, four-colour exception included).
- ``cell_colours(pyramid, size, cell)`` – the colours a free cell accepts now
  (empty if the cell is not open: occupied, unsupported, not edge-adjacent, or
  outside the footprint limit).
- ``open_cells(pyramid, size)`` – every free cell where some colour could go
  structurally, before colour rules.
- ``level_grids(pyramid)`` – per level, the bounding box of its placed stones and a
  row-major grid of colours (None for gaps): ``[{"level", "x", "y", "width",
  "height", "rows"}]`` bottom level first.
- ``footprint(pyramid)`` – level 1's bounding box ``(min_x, min_y, max_x, max_y)``.
- ``missing(pyramid, size)`` – stones still needed to complete it.

Internally pyramids map ``(level, x, y)`` tuples to colours; ``engine.pyramido.geometry``
holds those versions for speed-sensitive callers (AIs).
"""

from engine.pyramido.game import GAME, Pyramido
from engine.pyramido.helpers import cell_colours, footprint, legal_cells, level_grids, missing, open_cells
from engine.pyramido.options import PyramidoOptions
from engine.pyramido.state import State
from engine.pyramido.stones import COLOUR_NAMES, COLOURS

__all__ = [
    "COLOURS",
    "COLOUR_NAMES",
    "GAME",
    "Pyramido",
    "PyramidoOptions",
    "State",
    "cell_colours",
    "footprint",
    "legal_cells",
    "level_grids",
    "missing",
    "open_cells",
]
