"""One game's pictures as one value: what draws its board and its hand, which palette
encodes them, and which cells its public board letters.

A game's drawing module builds its ``ART`` beside the code that draws; the registry
(``render.registry``) finds it by game id, and a game outside the default table (a
test's fifth game) passes its own ``Art`` to ``render_board`` and ``render_hand``.
Every field is data or a module-level function, so an ``Art`` pickles: the bot sends
it to its render worker processes with each picture.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from engine.core import Event
from i18n import Lang

#: ``board(view, labels, events)``: the shared board, ``labels`` being cell -> button letter.
BoardFn = Callable[[dict[str, Any], dict[str, str], Sequence[Event]], Image.Image]
#: ``hand(view)``: what the viewing seat holds (or chooses from), for a DM.
HandFn = Callable[[dict[str, Any]], Image.Image]
#: ``public_spots(view)``: the cells to letter on the public board, from the public view.
SpotsFn = Callable[[dict[str, Any]], list[str]]
#: ``describe(view, lang, detail)``: the picture in words (its alt text) as lines, ``detail`` 0
#: the fullest and each level up shorter (``render.describe`` takes the fullest that fits).
TextFn = Callable[[dict[str, Any], Lang, int], list[str]]


@dataclass(frozen=True)
class Art:
    """``game`` is the engine's game id. ``palette`` names a file in ``render/palettes``
    (learnt by ``python -m tools.gallery.palettes``); None gives every picture its own
    adaptive palette, slower to encode but right for a game nobody has learnt one for.
    ``public_spots`` None: the public board letters the cells of the legal moves
    (``render.labels.move_labels``); a game whose legal cells depend on hidden pieces
    names a function of the public view instead, so the channel learns nothing."""

    game: str
    board: BoardFn
    hand: HandFn
    palette: str | None
    public_spots: SpotsFn | None = None
    #: The board and the hand in words (``render.describe``); None: a generic sentence.
    describe_board: TextFn | None = None
    describe_hand: TextFn | None = None
    #: Draws ahead what nearly every picture reuses (piece sprites at their usual sizes),
    #: called by ``render.warm_up`` as a render worker starts, so the first clicks after
    #: a start don't pay for it; None: nothing to draw ahead.
    warm: Callable[[], None] | None = None
    #: The part of a seat's view its hand picture shows (the picture is drawn from it alone, and kept
    #: and shown again while it is unchanged: ``bot.workers.rendering``); None: the whole view.
    hand_view: Callable[[dict[str, Any]], dict[str, Any]] | None = None
