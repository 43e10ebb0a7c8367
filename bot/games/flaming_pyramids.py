"""Flaming Pyramids in Discord."""

from __future__ import annotations

from bot.games.presenter import Presenter
from engine.flaming_pyramids import GAME
from i18n import N_
from render import art_for

PRESENTER = Presenter(
    game=GAME,
    art=art_for(GAME.id),
    emoji="🔥",
    rules=N_(
        "Everyone builds one shared pyramid. On your turn play one tile from your hand to an open space "
        "(a spot on two tiles, or a gap in the base; if there is none, extend the base). A tile on two "
        "others must share a colour or weight with one of them and weigh no more than both together, "
        "or they **collapse** into your draw pile and it falls left or right (your choice). Coals set "
        "straw on fire, Blowtorches straw and wood; two incendiaries touching **explode**. With the "
        "*curse*, three equal weights in a mini-pyramid go to the previous player. Draw back to five; "
        "the first player with no tiles left wins."
    ),
    verbs={"play": N_("Play a tile"), "fall": N_("Fall"), "left": N_("⬅ Fall left"), "right": N_("Fall right ➡")},
    prompts=(N_("Choose a move"), N_("Choose a tile"), N_("Choose a spot")),
    public_verbs=frozenset({"fall"}),
    cells=N_("A cell is row,column: row 0 is the base and rows count upwards; columns count from left to right "
             "and may be negative. A tile in row 1 rests on the two tiles below it: 1,0 on 0,0 and 0,1."),
)
