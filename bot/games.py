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
    #: The cells to letter on the public board, computed from the public view alone
    #: (the renderer's own function); None: the cells of the legal moves.
    public_spots: Callable[[dict[str, Any]], list[str]] | None = None
    #: Extra lines for the board message from the public view and the seats' names
    #: (e.g. the open co-op hands); None: none.
    board_lines: Callable[[dict[str, Any], Sequence[str]], list[str]] | None = None

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


def _pyramido_lines(view: dict[str, Any], names: Sequence[str]) -> list[str]:
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


def _pyramido_spots(view: dict[str, Any]) -> list[str]:
    from render.pyramido import public_spots  # the renderer's module, loaded when first needed

    return public_spots(view)


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
            "everyone's stones lie open, so plan together and complete the pyramid before the bag runs dry. "
            "Competitive: take stones from the shared quarry and be the first to finish your own pyramid; "
            "over several rounds the fewest minus points win (most plus points break a tie)."
        ),
        verbs={"place": "Place a stone", "end": "✅ End turn", "discard": "Discard and draw",
               "take": "Take from the quarry", "reserve": "Reserve a stone", "build": "Build from reserve",
               "pass": "Pass"},
        prompts=("Choose a move", "Choose a stone", "Choose a cell"),
        public_spots=_pyramido_spots,
        board_lines=_pyramido_lines,
    ),
}


def presenter(game_id: str) -> Presenter:
    return PRESENTERS[game_id]
