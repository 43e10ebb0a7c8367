"""How one game is presented in Discord: its emoji, rules blurb and button labels,
how its moves become clicks, and what its board message adds. The presenter
carries the game's rule book (:class:`engine.core.Game`) and its pictures
(:class:`render.Art`), so the bot reaches everything about a game through it.

Its words (rules, verbs, prompts, decisions) are English msgids marked with ``N_``
where a game declares them, and translated where they are shown: every method that
returns words takes the reader's :class:`i18n.Lang` (English when none is given)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games.picker import Steps, default_steps
from engine.core import Game
from i18n import N_, Lang
from render import Art
from render.labels import move_labels, spot_labels

#: The status line of a decision the presenter names no words for.
DEFAULT_DECISION = N_("⏳ {name}, your decision: **{kind}**.")
#: The default prompts, by step depth (see :attr:`Presenter.prompts`).
DEFAULT_PROMPTS = (N_("Choose a move"), N_("Choose"), N_("Choose where"))
#: The words of a reader who named no language: the English of the code.
ENGLISH = Lang("en")

#: ``board_lines(public view, seat names, lang)``: extra lines for the board message.
BoardLines = Callable[[dict[str, Any], Sequence[str], Lang], list[str]]
#: ``token_words(token, lang)``: the label of a step token that is neither a cell nor a
#: verb (Pyrinoes' "6–3 spots"), or None to show the token as it is.
TokenWords = Callable[[str, Lang], str | None]


@dataclass(frozen=True, eq=False)
class Presenter:
    game: Game[Any]
    art: Art
    emoji: str
    #: The rules blurb (``/pyramid rules``): an English msgid, see :meth:`rules_text`.
    rules: str
    #: Verbs shown on the first step, with friendlier labels (msgids).
    verbs: Mapping[str, str] = field(default_factory=dict)
    #: Prompt for each step depth after the verb (msgids).
    prompts: tuple[str, ...] = DEFAULT_PROMPTS
    #: Moves that reveal nothing and can be buttons on the public board (first token).
    public_verbs: frozenset[str] = frozenset()
    #: Whether players hold a private hand worth DMing.
    has_hand: bool = True
    steps: Steps = default_steps
    #: The status line while the game waits for a decision, by ``Pending.kind``:
    #: a template with ``{name}`` (who decides), ``{kind}`` and ``{summary}`` (the
    #: provisional result's, if any). Kinds not named get :data:`DEFAULT_DECISION`.
    decisions: Mapping[str, str] = field(default_factory=dict)
    #: ``Pending.kind``s that only continue the mover's own turn (Pyramido's "keep placing
    #: stones"): the turn's card is edited in place until the turn ends
    #: (``bot.play.posting.announcements.card_of_turn``), not posted anew per step.
    turn_goes_on: frozenset[str] = frozenset()
    #: Extra lines for the board message from the public view, the seats' names and the
    #: reader's language (e.g. the open co-op hands); None: none.
    board_lines: BoardLines | None = None
    #: Labels of step tokens that are neither cells nor verbs; None: the token itself.
    token_words: TokenWords | None = None
    #: How the game writes a place in a typed move (a msgid: the order of a cell's numbers
    #: and which way they count on the picture); "" names none. The terminal game's help.
    cells: str = ""
    #: Options that make a game for several seats of a game whose defaults are a solitaire
    #: (Pyramido plays solo unless told otherwise): where players are seated without having
    #: chosen these options, a front end may apply them (``pyramid-bot play``'s "you
    #: against an AI"). Empty: the defaults already seat several players.
    versus: Mapping[str, Any] = field(default_factory=dict)

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

    def rules_text(self, lang: Lang | None = None) -> str:
        """The rules blurb in the reader's language."""
        return (lang or ENGLISH).gettext(self.rules)

    def token_label(self, token: str, labels: Mapping[str, str], lang: Lang | None = None) -> str:
        """A button's words for one step token: a cell with its letter, a verb, or the token."""
        if token in labels:
            return f"{labels[token]} · {token}"
        lang = lang or ENGLISH
        if token in self.verbs:
            return lang.gettext(self.verbs[token])
        if self.token_words is not None:
            words = self.token_words(token, lang)
            if words is not None:
                return words
        return token

    def prompt(self, path: Sequence[str], lang: Lang | None = None) -> str:
        if not path:
            return (lang or ENGLISH).gettext(self.prompts[0])
        index = min(len(path), len(self.prompts) - 1)
        return (lang or ENGLISH).gettext(self.prompts[index])

    def decision(self, kind: str, lang: Lang | None = None) -> str:
        """The status-line template of decision ``kind`` in the reader's language
        (fields ``{name}``, ``{kind}``, ``{summary}``)."""
        return (lang or ENGLISH).gettext(self.decisions.get(kind, DEFAULT_DECISION))
