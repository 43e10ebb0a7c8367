"""Continuous Pyramid in Discord: a solitaire, also played as a channel challenge."""

from __future__ import annotations

from bot.games.presenter import Presenter
from engine.continuous_pyramid import GAME
from i18n import N_
from render import art_for

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
    prompts=(N_("Choose a move"), N_("Choose a reserve tile"), N_("Choose a cell")),
    public_verbs=frozenset({"play", "undo"}),
    has_hand=False,
    cells=N_("A cell is level:row,column: level 1 is the bottom (9×9), 4 the single top cell; rows count from "
             "the top of their level and columns from its left, both from 0."),
    # Stuck, the game has a provisional result that an undo takes back.
    decisions={"stuck": N_("😬 {name}, you are stuck: undo a play, or give up to finish ({summary}).")},
)
