"""How each game is presented in Discord: names, lobby options, rules blurbs and
how its moves become clicks. No rules live here; legality always comes from the
engine's legal moves."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.picker import default_steps
from engine.core import Game, get_game
from render.labels import spot_labels

_CELL = re.compile(r"^(\d+:)?-?\d+,-?\d+$")


def is_cell(token: str) -> bool:
    return bool(_CELL.match(token))


def cells_in(moves: Sequence[str]) -> list[str]:
    return [t for m in moves for t in m.split() if is_cell(t)]


@dataclass(frozen=True)
class Presenter:
    id: str
    title: str
    emoji: str
    rules: str
    #: Verbs shown on the first step, with friendlier labels.
    verbs: dict[str, str] = field(default_factory=dict)
    #: Prompt for each step depth after the verb.
    prompts: tuple[str, ...] = ("Choose a move", "Choose", "Choose where")
    #: Moves that reveal nothing and can be buttons on the public board (first token).
    public_verbs: frozenset[str] = frozenset()
    #: Whether players hold a private hand worth DMing.
    has_hand: bool = True
    steps: Callable[[str], tuple[str, ...]] = default_steps

    @property
    def game(self) -> Game[Any]:
        return get_game(self.id)

    def labels(self, moves: Sequence[str]) -> dict[str, str]:
        return spot_labels(cells_in(moves))

    def token_label(self, token: str, labels: dict[str, str]) -> str:
        if token in labels:
            return f"{labels[token]} · {token}"
        return self.verbs.get(token, token)

    def prompt(self, path: Sequence[str]) -> str:
        if not path:
            return self.prompts[0]
        index = min(len(path), len(self.prompts) - 1)
        return self.prompts[index]


def _pyrino_steps(move: str) -> tuple[str, ...]:
    """Builds are many: group them by the spot counts of their two ends first."""
    parts = move.split()
    if parts and parts[0] == "build" and len(parts) == 2:
        from engine.pyrinoes import pyrino  # presentation needs the spot counts only

        parsed = pyrino(parts[1])
        if parsed is not None:
            high, low = parsed[0].group
            return ("build", f"{high}–{low} spots", parts[1])
    return tuple(parts)


PRESENTERS: dict[str, Presenter] = {
    "flaming-pyramids": Presenter(
        id="flaming-pyramids",
        title="Flaming Pyramids",
        emoji="🔥",
        rules=(
            "Everyone builds one shared pyramid. On your turn play one tile from your hand to an open space "
            "(a spot on two tiles, or a gap in the base; if there is none, extend the base). A tile on two "
            "others must share a colour or weight with one of them and weigh no more than both together, "
            "or they **collapse** into your draw pile and it falls left or right (your choice). Coals set "
            "straw on fire, Blowtorches straw and wood; two incendiaries touching **explode**. With the "
            "*curse*, three equal weights in a mini-pyramid go to the previous player. Draw back to five; "
            "the first player with no tiles left wins."
        ),
        verbs={"play": "Play a tile", "fall": "Fall", "left": "⬅ Fall left", "right": "Fall right ➡"},
        prompts=("Choose a move", "Choose a tile", "Choose a spot"),
        public_verbs=frozenset({"fall"}),
    ),
    "continuous-pyramid": Presenter(
        id="continuous-pyramid",
        title="Continuous Pyramid",
        emoji="🀄",
        rules=(
            "MahJongg-tile solitaire on a four-level pyramid. Play a reserve tile to an open cell next to a "
            "tile it fits: suited tiles fit a different suit one rank away, winds fit 1s and seasons, seasons "
            "fit 9s and winds, dragons fit everything. A cell on a higher level opens once the tile below "
            "and all its sides are placed. Place all 144 tiles to win; you lose when no reserve tile fits. "
            "In a *challenge* everyone in the channel plays the same deal for the leaderboard."
        ),
        verbs={"play": "Play a tile", "undo": "↩ Undo", "resign": "Give up"},
        prompts=("Choose a move", "Choose a reserve tile", "Choose a cell"),
        public_verbs=frozenset({"play", "undo"}),
        has_hand=False,
    ),
    "pyrinoes": Presenter(
        id="pyrinoes",
        title="Pyrinoes",
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
        steps=_pyrino_steps,
    ),
    "pyramido": Presenter(
        id="pyramido",
        title="Pyramido",
        emoji="🟥",
        rules=(
            "Build a stepped pyramid of coloured stones. Level-1 stones must touch the ones already placed "
            "and stay inside the base size; a stone on a higher level sits on a complete 2×2 square and takes "
            "its majority colour. A 2×2 square of four different colours is forbidden. Solo and co-op: "
            "complete the pyramid together before the bag runs dry. Competitive: take stones from the "
            "shared quarry and be the first to finish your own pyramid."
        ),
        verbs={"place": "Place a stone", "end": "✅ End turn", "discard": "Discard and draw",
               "take": "Take from the quarry", "reserve": "Reserve a stone", "build": "Build from reserve",
               "pass": "Pass"},
        prompts=("Choose a move", "Choose a stone", "Choose a cell"),
    ),
}


def presenter(game_id: str) -> Presenter:
    return PRESENTERS[game_id]
