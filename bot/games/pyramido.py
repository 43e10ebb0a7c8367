"""Pyramido in Discord: its board message spells out what the picture shows of the
stones in hand and the round scores."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.presenter import Presenter
from bot.games.rating import Counting, RatingRules
from engine.core.events import player_name
from engine.pyramido import COLOUR_NAMES, GAME
from i18n import N_, Lang
from render import art_for

#: A stone's emoji: the shape and colour the picture draws it with (red triangle, yellow star, green
#: circle, blue square, white diamond).
STONE_EMOJI = {"R": "🔺", "Y": "⭐", "G": "🟢", "B": "🟦", "W": "◇"}


def colour_word(stone: str, lang: Lang) -> str:
    """A stone's colour in the reader's language ("white", "weiß"); the letter is the notation's."""
    name = COLOUR_NAMES.get(stone)
    return stone if name is None else lang.gettext(name)


def stone_words(token: str, lang: Lang) -> str | None:
    """A stone as the picture shows it ("◇ White", "⭐ Gelb") on a button and in a move told in
    words, never its letter (``W``); None for a token that is no stone."""
    if token not in COLOUR_NAMES:
        return None
    word = colour_word(token, lang)
    return f"{STONE_EMOJI[token]} {word[:1].upper()}{word[1:]}"


def board_lines(view: dict[str, Any], names: Sequence[str], lang: Lang) -> list[str]:
    """Public facts the Pyramido board message spells out: in solo/co-op every
    player's stones in hand, which lie open (PD-4, second edition) so teammates can
    plan in the channel; in a competitive game over several rounds each player's plus
    and minus points (PD-6, second edition: fewest minus points win)."""

    def name(seat: int) -> str:
        return names[seat] if seat < len(names) else player_name(seat, lang.gettext)

    if view.get("mode") == "competitive":
        plus, minus = list(view.get("plus") or []), list(view.get("minus") or [])
        if int(view.get("rounds") or 1) <= 1 or not plus or len(plus) != len(minus):
            return []
        tallies = " · ".join(lang.tr("{name}: {plus} plus, {minus} minus", name=name(s), plus=plus[s], minus=minus[s])
                             for s in range(len(plus)))
        return [lang.tr("📊 Round {round} of {rounds} · {tallies}", round=view.get("round", 1),
                        rounds=view.get("rounds"), tallies=tallies)]
    hands = [(s, h) for s, h in enumerate(view.get("hands") or []) if isinstance(h, list)]
    if not hands:
        return []
    listed = " · ".join(f"{name(s)}: {', '.join(colour_word(str(c), lang) for c in h) if h else '—'}"
                        for s, h in hands)
    return [lang.tr("🂠 Stones in hand: {listed}", listed=listed)]


#: The AI levels against each other in the competitive mode, two seats, 18 deals each in both seat
#: orders (``bot.games.rating.Pairing``). Measured 2026-11-27, seed 25, hard at 200 iterations a move: a
#: run with ``--minutes 40`` that stopped there, which ``python -m tools.ai_ratings --games 36 --kind
#: pyramido`` repeats exactly.
PAIRINGS = (("easy", "normal", 3.0, 36), ("easy", "hard", 0.0, 36), ("normal", "hard", 2.0, 36))
#: The fewest moves of its own a losing seat made, per pairing of levels, two seats, competitive, one
#: round. Measured 2026-11-29, seed 25, hard at 100 iterations, 8 games a pairing:
#: ``python -m tools.rated_moves --games 8 --hard-iterations 100``.
FEWEST_LOSER_MOVES = (("easy", "easy", 35, 8), ("easy", "normal", 29, 8), ("easy", "hard", 29, 8),
                      ("normal", "normal", 30, 8), ("normal", "hard", 28, 8), ("hard", "hard", 32, 8))
#: The same at bigger tables: ``python -m tools.rated_moves --games 0 --hard-iterations 100 --seats 3
#: --seats 4 --kind pyramido`` (2026-11-29).
FEWEST_LOSER_MOVES_AT = {3: 11, 4: 11}


def counting(options: Mapping[str, Any], seats: int) -> Counting:
    """Competitive: rated, plus minus minus points (one round) or minus the minus points (several
    rounds): more is better (``engine/pyramido/competitive.py``). Solo and co-op: a completion record
    of the stones in the pyramid, per mode and size."""
    mode = options.get("mode", "solo")
    if mode == "competitive":
        return Counting(rated=True, better="higher")
    variant = "co-op" if mode == "coop" else "solo"
    if options.get("size") == 4:
        variant += " (small)"
    return Counting(rated=False, variant=variant, record_detail="stones")


PRESENTER = Presenter(
    game=GAME,
    art=art_for(GAME.id),
    emoji="🟥",
    rules=N_(
        "Build a stepped pyramid of coloured stones. Level-1 stones must touch the ones already placed "
        "and stay inside the base size; a stone on a higher level sits on a complete 2×2 square and takes "
        "its majority colour. A 2×2 square of four different colours is forbidden. Solo and co-op: "
        "everyone's stones lie open, so plan together and complete the pyramid before the bag runs dry. "
        "Competitive: take stones from the shared quarry and be the first to finish your own pyramid; "
        "over several rounds the fewest minus points win (most plus points break a tie)."
    ),
    verbs={"place": N_("Place a stone"), "end": N_("✅ End turn"), "discard": N_("Discard and draw"),
           "take": N_("Take from the quarry"), "reserve": N_("Reserve a stone"), "build": N_("Build from reserve"),
           "pass": N_("Pass")},
    prompts=(N_("Choose a move"), N_("Choose a stone"), N_("Choose a cell")),
    decisions={"placing": N_("🎯 {name}, keep placing stones, or end your turn.")},
    turn_goes_on=frozenset({"placing"}),
    board_lines=board_lines,
    token_words=stone_words,
    cells=N_("A cell is level:x,y: level 1 is the base, x counts columns to the right and y rows downwards (both "
             "may be negative); a level-2 cell x,y sits on the base's square x..x+1, y..y+1."),
    versus={"mode": "competitive"},
    rating=RatingRules(count=counting, pairings=PAIRINGS, fewest_loser_moves=FEWEST_LOSER_MOVES,
                       fewest_loser_moves_at=FEWEST_LOSER_MOVES_AT),
)
