"""Pyrinoes in Discord."""

from __future__ import annotations

from bot.games.presenter import Presenter
from engine.pyrinoes import GAME, pyrino
from render import art_for


def pyrino_steps(move: str) -> tuple[str, ...]:
    """Builds are many: group them by the spot counts of their two ends first."""
    parts = move.split()
    if parts and parts[0] == "build" and len(parts) == 2:
        parsed = pyrino(parts[1])
        if parsed is not None:
            high, low = parsed[0].group
            return ("build", f"{high}–{low} spots", parts[1])
    return tuple(parts)


PRESENTER = Presenter(
    game=GAME,
    art=art_for(GAME.id),
    emoji="🁣",
    rules=(
        "Dominoes with Looney pyramids for two. On your turn play a domino or a pyrino from your hand "
        "onto an open end of the line, or build a pyrino from your pyramids (Fire: red and yellow; Ice: "
        "blue and black; green is shared and counts 0 spots), or draw if you can do neither, or pass "
        "when the boneyard is empty. A round ends when someone runs out; the lower hand scores the "
        "difference plus bonuses. First to the target (100) wins."
    ),
    verbs={"play": "Play", "build": "Build a pyrino", "draw": "Draw", "pass": "Pass",
           "left": "⬅ Left end", "right": "Right end ➡"},
    prompts=("Choose a move", "Choose", "Choose"),
    steps=pyrino_steps,
)
