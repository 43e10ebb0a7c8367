"""Continuous Pyramid in Discord: a solitaire, also played as a channel challenge."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.picker import default_steps
from bot.games.presenter import Presenter
from bot.games.rating import Counting, RatingRules
from engine.continuous_pyramid import GAME
from engine.continuous_pyramid.tiles import TYPE_OF, tile_name
from engine.core.text import phrase
from i18n import N_, Lang
from render import art_for


def cp_steps(move: str) -> tuple[str, ...]:
    """A play is picked as its tile, then its cell: the tiles stand at the chooser's top level
    beside ↩ Undo, with no "Play a tile" step before every move (issue #43)."""
    parts = tuple(move.split())
    return parts[1:] if len(parts) == 3 and parts[0] == "play" else parts


def tile_words(token: str, lang: Lang) -> str | None:
    """A reserve tile as its face shows it ("Circles 7", "East wind", "White dragon"), in the reader's
    language, never the notation's ``O7``; None for a token that is no tile."""
    if token not in TYPE_OF:
        return None
    return phrase("{tile}", tile=tile_name(token)).fill([], lang.gettext)


def reserve_order(view: Mapping[str, Any], seat: int) -> Sequence[str]:
    """The reserve tiles in the order of their slots on the picture."""
    return [str(t) for t in view.get("reserve") or [] if t]


def counting(options: Mapping[str, Any], seats: int) -> Counting:
    """Solitaire: a completion record of the tiles placed (its result's ``details``): more is better."""
    return Counting(rated=False, variant="solo", record_detail="tiles_placed")


PRESENTER = Presenter(
    game=GAME,
    art=art_for(GAME.id),
    emoji="🀄",
    rules=N_(
        "MahJongg-tile solitaire on a four-level pyramid. Play a reserve tile to an open cell next to a "
        "tile it fits: suited tiles fit a different suit one rank away, winds fit 1s and seasons, seasons "
        "fit 9s and winds, dragons fit everything. A cell on a higher level opens once the tile below "
        "and all its sides are placed. Place all 144 tiles to win; you lose when no reserve tile fits. "
        "In a *challenge* everyone in the channel plays the same deal for the leaderboard."
    ),
    verbs={"play": N_("Play a tile"), "undo": N_("↩ Undo"), "resign": N_("Give up")},
    prompts=(N_("Choose a reserve tile"), N_("Choose a spot"), N_("Choose a spot")),
    public_verbs=frozenset({"play", "undo"}),
    steps=cp_steps,
    typed_steps=default_steps,  # typed as the rules write it: "play WS A" (or "WS A")
    token_words=tile_words,
    shown_order=reserve_order,
    sentences={"play": N_("{1} to {2}")},
    has_hand=False,
    cells=N_("A cell is level:row,column: level 1 is the bottom (9×9), 4 the single top cell; rows count from "
             "the top of their level and columns from its left, both from 0."),
    # Stuck, the game has a provisional result that an undo takes back.
    decisions={"stuck": N_("😬 {name}, you are stuck: undo a play, or give up to finish ({summary}).")},
    rating=RatingRules(count=counting),
)
