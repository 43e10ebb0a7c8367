"""How one game is presented in Discord: its emoji, rules blurb and button labels,
how its moves become clicks, and what its board message adds. The presenter
carries the game's rule book (:class:`engine.core.Game`) and its pictures
(:class:`render.Art`), so the bot reaches everything about a game through it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games.picker import Steps, default_steps
from engine.core import Game
from render import Art
from render.labels import move_labels, spot_labels

#: The status line of a decision the presenter names no words for.
DEFAULT_DECISION = "⏳ {name}, your decision: **{kind}**."

#: ``board_lines(public view, seat names)``: extra lines for the board message.
BoardLines = Callable[[dict[str, Any], Sequence[str]], list[str]]


@dataclass(frozen=True, eq=False)
class Presenter:
    game: Game[Any]
    art: Art
    emoji: str
    rules: str
    #: Verbs shown on the first step, with friendlier labels.
    verbs: Mapping[str, str] = field(default_factory=dict)
    #: Prompt for each step depth after the verb.
    prompts: tuple[str, ...] = ("Choose a move", "Choose", "Choose where")
    #: Moves that reveal nothing and can be buttons on the public board (first token).
    public_verbs: frozenset[str] = frozenset()
    #: Whether players hold a private hand worth DMing.
    has_hand: bool = True
    steps: Steps = default_steps
    #: The status line while the game waits for a decision, by ``Pending.kind``:
    #: a template with ``{name}`` (who decides), ``{kind}`` and ``{summary}`` (the
    #: provisional result's, if any). Kinds not named get :data:`DEFAULT_DECISION`.
    decisions: Mapping[str, str] = field(default_factory=dict)
    #: Extra lines for the board message from the public view and the seats' names
    #: (e.g. the open co-op hands); None: none.
    board_lines: BoardLines | None = None

    def __post_init__(self) -> None:
        if self.art.game != self.game.id:
            raise ValueError(f"The pictures of {self.art.game!r} cannot present {self.game.id!r}.")

    @property
    def kind(self) -> str:
        """The engine's game id (``"pyrinoes"``), stored with every game record."""
        return self.game.id

    @property
    def title(self) -> str:
        return self.game.title

    def labels(self, moves: Sequence[str]) -> dict[str, str]:
        """The letters of the cells the legal ``moves`` name (private pickers)."""
        return move_labels(moves)

    def public_labels(self, view: Mapping[str, Any], moves: Sequence[str]) -> dict[str, str]:
        """The letters drawn on the public board: from the public view alone when the
        game's pictures name its spots (the legal cells would give hidden pieces
        away), else the cells of the legal moves."""
        spots = self.art.public_spots
        if spots is not None:
            return spot_labels(spots(dict(view)))
        return move_labels(moves)

    def token_label(self, token: str, labels: Mapping[str, str]) -> str:
        if token in labels:
            return f"{labels[token]} · {token}"
        return self.verbs.get(token, token)

    def prompt(self, path: Sequence[str]) -> str:
        if not path:
            return self.prompts[0]
        index = min(len(path), len(self.prompts) - 1)
        return self.prompts[index]

    def decision(self, kind: str) -> str:
        return self.decisions.get(kind, DEFAULT_DECISION)
