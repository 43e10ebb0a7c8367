"""Flaming Pyramids in Discord."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.presenter import Presenter
from engine.core.text import Phrase
from engine.flaming_pyramids import GAME
from engine.flaming_pyramids.tiles import TILE
from i18n import N_, Lang
from render import art_for

#: A colour's emoji: the shape and colour the picture draws it with (red triangle, green circle,
#: blue square, yellow star); the Millstone has them all.
COLOUR_EMOJI = {"R": "🔺", "G": "🟢", "B": "🟦", "Y": "⭐"}


def tile_words(token: str, lang: Lang) -> str | None:
    """A tile as the picture shows it: its colour's shape, colour word and weight ("🟢 Green 60",
    "⭐ Coal Yellow 1"), in the reader's language; None for a token that is no tile."""
    tile = TILE.get(token)
    if tile is None:
        return None
    name = tile.name()
    words = name.fill([], lang.gettext) if isinstance(name, Phrase) else str(name)
    return f"{COLOUR_EMOJI.get(tile.colours, '🪨')} {words}"


def hand_order(view: Mapping[str, Any], seat: int) -> Sequence[str]:
    """The acting seat's tiles as its hand picture draws them, left to right."""
    hands = view.get("hands") or []
    hand = hands[seat] if seat < len(hands) else None
    return [str(t) for t in hand] if isinstance(hand, list) else []

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
    token_words=tile_words,
    shown_order=hand_order,
    sentences={"play": N_("{1} to {2}")},
    cells=N_("A cell is row,column: row 0 is the base and rows count upwards; columns count from left to right "
             "and may be negative. A tile in row 1 rests on the two tiles below it: 1,0 on 0,0 and 0,1."),
)
