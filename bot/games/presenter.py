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
from bot.games.rating import DEFAULT_RATING, RatingRules
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
#: verb (Pyrinoes' "6–3 spots", Flaming Pyramids' "🟢 Green 60"), or None to show the token as it is.
TokenWords = Callable[[str, Lang], str | None]
#: ``shown_order(view, seat)``: the pieces of the acting ``seat`` in the order its picture draws
#: them (a hand left to right, a reserve's slots), from that seat's view.
ShownOrder = Callable[[Mapping[str, Any], int], Sequence[str]]
#: A spot's words on a button and in a sentence: its letter on the picture.
SPOT = N_("Spot {letter}")
SPOT_IN_TEXT = N_("spot {letter}")
#: What a verb's button wears around its words ("↩ Undo", "Fall right ➡"), left out of a sentence.
_MARKS = " ✅↩⬅➡▶◀"


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
    #: A move's words as a player TYPES them (``pyramid-bot play``): the clicks' steps by default. A
    #: game whose clicks add a step only to keep a row of buttons short (Pyrinoes' "6–…") or drop a
    #: word a click needs not (Continuous Pyramid's "play") types the rules' own words instead.
    typed_steps: Steps | None = None
    #: The status line while the game waits for a decision, by ``Pending.kind``:
    #: a template with ``{name}`` (who decides), ``{kind}`` and ``{summary}`` (the
    #: provisional result's, if any). Kinds not named get :data:`DEFAULT_DECISION`.
    decisions: Mapping[str, str] = field(default_factory=dict)
    #: ``Pending.kind``s that only continue the mover's own turn (Pyramido's "keep placing
    #: stones"): the turn's card is edited in place until the turn ends
    #: (``bot.core.announcements.card_of_turn``), not posted anew per step.
    turn_goes_on: frozenset[str] = frozenset()
    #: Extra lines for the board message from the public view, the seats' names and the
    #: reader's language (e.g. the open co-op hands); None: none.
    board_lines: BoardLines | None = None
    #: Labels of step tokens that are neither cells nor verbs; None: the token itself.
    token_words: TokenWords | None = None
    #: A line explaining a step, by the verb chosen first (Pyrinoes' "Build a pyrino": what a
    #: pyrino is and how its menu is grouped), shown under the prompt while that verb is chosen.
    explain: Mapping[str, str] = field(default_factory=dict)
    #: The order the acting seat's picture shows its pieces in; the chooser lists them so.
    shown_order: ShownOrder | None = None
    #: A move told as a sentence, by its verb (its first word): a template whose ``{1}``,
    #: ``{2}``… are the words of its later words (:meth:`move_words`). Verbs not named
    #: here are told by their steps' labels.
    sentences: Mapping[str, str] = field(default_factory=dict)
    #: How the game writes a place in a typed move (a msgid: the order of a cell's numbers
    #: and which way they count on the picture); "" names none. The terminal game's help.
    cells: str = ""
    #: Options that make a game for several seats of a game whose defaults are a solitaire
    #: (Pyramido plays solo unless told otherwise): where players are seated without having
    #: chosen these options, a front end may apply them (``pyramid-bot play``'s "you
    #: against an AI"). Empty: the defaults already seat several players.
    versus: Mapping[str, Any] = field(default_factory=dict)

    #: How its results count and what its AI levels measured (``bot.games.rating``): rated or
    #: recorded, too short, the minimum of play, the AI levels' pairings. Declared here so a new game
    #: is one module more; a game that declares nothing gets ``DEFAULT_RATING`` (documented there).
    rating: RatingRules = DEFAULT_RATING

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
        """A button's words for one step token: a cell by its letter on the picture ("Spot A"),
        a verb, a piece as the picture names it, or the token."""
        lang = lang or ENGLISH
        if token in labels:
            return lang.tr(SPOT, letter=labels[token])
        if token in self.verbs:
            return lang.gettext(self.verbs[token])
        if self.token_words is not None:
            words = self.token_words(token, lang)
            if words is not None:
                return words
        return token

    def ordered(self, choices: Sequence[str], labels: Mapping[str, str],
                view: Mapping[str, Any] | None = None, seat: int | None = None) -> list[str]:
        """``choices`` in the order the player sees them: spots by their letter, the pieces
        the acting seat's picture shows (``view``, that seat's) in its order, then the rest
        as the moves list them."""
        shown: dict[str, int] = {}
        if self.shown_order is not None and view is not None and seat is not None:
            for i, piece in enumerate(self.shown_order(view, seat)):
                shown.setdefault(str(piece), i)

        def key(item: tuple[int, str]) -> tuple[int, int, str, int]:
            index, token = item
            if token in labels:
                letter = labels[token]
                return (0, len(letter), letter, index)
            if token in shown:
                return (1, shown[token], "", index)
            return (2, 0, "", index)
        return [t for _, t in sorted(enumerate(choices), key=key)]

    def move_words(self, move: str, labels: Mapping[str, str], lang: Lang | None = None, *,
                   button: bool = False) -> str:
        """``move`` told in words, its spots by the letters of ``labels`` (the picture's before
        the move): "🟢 green 60 to spot A" rather than ``play G60 0,-1``. The notation stays the
        records' and the typed moves'; this is what a player reads. ``button``: the words of a button
        that plays it, its verbs with their arrows ("⬅ Fall left", "↩ Undo")."""
        lang = lang or ENGLISH
        written = move.split()
        if not written:
            return move

        def words(token: str) -> str:
            if token in labels:
                return lang.tr(SPOT_IN_TEXT, letter=labels[token])
            if token in self.verbs:  # a button's arrows and ticks don't belong in a sentence (``button``: they do)
                verb = lang.gettext(self.verbs[token])
                return verb if button else verb.strip(_MARKS)
            return self.token_label(token, {}, lang)
        template = self.sentences.get(written[0]) if len(written) > 1 else None
        if template is not None:
            try:
                return lang.gettext(template).format(*(words(t) for t in written))
            except (IndexError, KeyError, ValueError):
                pass
        if len(written) > 1 and all(t in self.verbs for t in written[1:]):
            written = written[1:]  # "fall left": the later verb says it all ("Fall left")
        return " · ".join(words(t) for t in written)

    def prompt(self, path: Sequence[str], lang: Lang | None = None) -> str:
        if not path:
            return (lang or ENGLISH).gettext(self.prompts[0])
        index = min(len(path), len(self.prompts) - 1)
        return (lang or ENGLISH).gettext(self.prompts[index])

    def decision(self, kind: str, lang: Lang | None = None) -> str:
        """The status-line template of decision ``kind`` in the reader's language
        (fields ``{name}``, ``{kind}``, ``{summary}``)."""
        return (lang or ENGLISH).gettext(self.decisions.get(kind, DEFAULT_DECISION))


def typing_steps(presenter: Presenter) -> Steps:
    """How ``presenter``'s game's moves are typed, word by word (see ``Presenter.typed_steps``)."""
    return presenter.typed_steps or presenter.steps
