"""Flaming Pyramids in Discord."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.presenter import Presenter
from bot.games.rating import Counting, RatingRules, shortest_rated
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

#: The AI levels against each other, two seats, every deal played once in each seat order
#: (``bot.games.rating.Pairing``). Measured 2026-11-27, seed 25, hard at 200 iterations a move:
#: ``python -m tools.ai_ratings --games 40 --kind flaming-pyramids``.
PAIRINGS = (("easy", "normal", 0.0, 40), ("easy", "hard", 0.0, 40), ("normal", "hard", 5.0, 40))

#: Games between the normal and hard AIs played to their natural end (the same run): the turns
#: each took. Their lower decile is the shortest rated ``turn_limit`` (:data:`SHORTEST_RATED_TURNS`).
TURNS: tuple[int, ...] = (
    54, 54, 64, 65, 65, 68, 69, 69, 73, 73, 73, 74, 74, 74, 79, 80,
    81, 89, 90, 95, 102, 102, 103, 104, 104, 107, 108, 112, 113, 117, 122, 142,
    144, 144, 169, 181, 185, 191, 201, 219,
)

#: The fewest moves of its own a losing seat made, per pairing of levels (each against itself too),
#: two seats (``bot.games.rating.LoserMoves``). Measured 2026-11-29, seed 25, hard at 100 iterations a
#: move, 8 games a pairing (every deal in both seat orders, to the natural end):
#: ``python -m tools.rated_moves --games 8 --hard-iterations 100`` (898 s under ``nice -n 10``).
FEWEST_LOSER_MOVES = (("easy", "easy", 88, 8), ("easy", "normal", 38, 8), ("easy", "hard", 38, 8),
                      ("normal", "normal", 40, 8), ("normal", "hard", 28, 8), ("hard", "hard", 46, 8))
#: The same at bigger tables (every mix of the levels, one deal in each rotation of the seats).
#: Measured 2026-11-29, seed 25, hard at 100 iterations: ``python -m tools.rated_moves --games 0
#: --hard-iterations 100 --seats 3 --seats 4 --seats 5 --seats 6 --kind flaming-pyramids --kind pyramido``.
FEWEST_LOSER_MOVES_AT = {3: 17, 4: 10, 5: 8, 6: 6}

#: Games with a ``turn_limit`` below this are decided by the deal more than by play: not rated
#: (README, "Ratings"; a random mover wins many one-turn games against the hard AI, none of the full ones).
SHORTEST_RATED_TURNS: int = shortest_rated(TURNS)


def too_short(options: Mapping[str, Any]) -> int | None:
    """The shortest rated turn limit when ``options`` set a shorter one; None otherwise."""
    limit = options.get("turn_limit")
    if isinstance(limit, int) and not isinstance(limit, bool) and limit < SHORTEST_RATED_TURNS:
        return SHORTEST_RATED_TURNS
    return None


def counting(options: Mapping[str, Any], seats: int) -> Counting:
    """Rated, each seat its own side; the tiles a seat still holds score it: fewer is better
    (``engine/flaming_pyramids/rules.py``). Too short a ``turn_limit``: counted for nothing."""
    if too_short(options) is not None:
        return Counting(rated=False, better="lower", short=True)
    return Counting(rated=True, better="lower")


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
    rating=RatingRules(count=counting, too_short=too_short, pairings=PAIRINGS, fewest_loser_moves=FEWEST_LOSER_MOVES,
                       fewest_loser_moves_at=FEWEST_LOSER_MOVES_AT),
)
