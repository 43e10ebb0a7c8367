"""Pyramido in Discord: its board message spells out what the picture shows of the
stones in hand and the round scores."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.presenter import Presenter
from engine.pyramido import GAME
from render import art_for


def board_lines(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    """Public facts the Pyramido board message spells out: in solo/co-op every
    player's stones in hand, which lie open (PD-4, second edition) so teammates can
    plan in the channel; in a competitive game over several rounds each player's plus
    and minus points (PD-6, second edition: fewest minus points win)."""

    def name(seat: int) -> str:
        return names[seat] if seat < len(names) else f"Player {seat + 1}"

    if view.get("mode") == "competitive":
        plus, minus = list(view.get("plus") or []), list(view.get("minus") or [])
        if int(view.get("rounds") or 1) <= 1 or not plus or len(plus) != len(minus):
            return []
        tallies = " · ".join(f"{name(s)}: {plus[s]} plus, {minus[s]} minus" for s in range(len(plus)))
        return [f"📊 Round {view.get('round', 1)} of {view.get('rounds')} · {tallies}"]
    hands = [(s, h) for s, h in enumerate(view.get("hands") or []) if isinstance(h, list)]
    if not hands:
        return []
    listed = " · ".join(f"{name(s)}: {' '.join(str(c) for c in h) if h else '—'}" for s, h in hands)
    return [f"🂠 Stones in hand: {listed}"]


PRESENTER = Presenter(
    game=GAME,
    art=art_for(GAME.id),
    emoji="🟥",
    rules=(
        "Build a stepped pyramid of coloured stones. Level-1 stones must touch the ones already placed "
        "and stay inside the base size; a stone on a higher level sits on a complete 2×2 square and takes "
        "its majority colour. A 2×2 square of four different colours is forbidden. Solo and co-op: "
        "everyone's stones lie open, so plan together and complete the pyramid before the bag runs dry. "
        "Competitive: take stones from the shared quarry and be the first to finish your own pyramid; "
        "over several rounds the fewest minus points win (most plus points break a tie)."
    ),
    verbs={"place": "Place a stone", "end": "✅ End turn", "discard": "Discard and draw",
           "take": "Take from the quarry", "reserve": "Reserve a stone", "build": "Build from reserve",
           "pass": "Pass"},
    prompts=("Choose a move", "Choose a stone", "Choose a cell"),
    decisions={"placing": "🎯 {name}, keep placing stones, or end your turn."},
    board_lines=board_lines,
)
