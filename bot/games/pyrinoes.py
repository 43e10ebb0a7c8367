"""Pyrinoes in Discord."""

from __future__ import annotations

import re

from bot.games.presenter import Presenter
from engine.pyrinoes import GAME, pyrino
from i18n import N_, Lang
from render import art_for

#: The first step of a build: the spot counts of the pyrino's two ends (a path token,
#: so it stays the same in every language; :func:`spots_words` labels it "6–3 spots").
#: No whitespace: a click carries its path as the steps joined by spaces.
SPOTS = "{high}–{low}"
_SPOTS = re.compile(r"^(\d+)–(\d+)$")


def pyrino_steps(move: str) -> tuple[str, ...]:
    """Builds are many: group them by the spot counts of their two ends first."""
    parts = move.split()
    if parts and parts[0] == "build" and len(parts) == 2:
        parsed = pyrino(parts[1])
        if parsed is not None:
            high, low = parsed[0].group
            return ("build", SPOTS.format(high=high, low=low), parts[1])
    return tuple(parts)


def spots_words(token: str, lang: Lang) -> str | None:
    """The label of a build's spot-count step ("6–3 spots") in the reader's language."""
    found = _SPOTS.match(token)
    if found is None:
        return None
    return lang.tr("{high}–{low} spots", high=int(found.group(1)), low=int(found.group(2)))


PRESENTER = Presenter(
    game=GAME,
    art=art_for(GAME.id),
    emoji="🁣",
    rules=N_(
        "Dominoes with Looney pyramids for two. On your turn play a domino or a pyrino from your hand "
        "onto an open end of the line, or build a pyrino from your pyramids (Fire: red and yellow; Ice: "
        "blue and black; green is shared and counts 0 spots), or draw if you can do neither, or pass "
        "when the boneyard is empty. A round ends when someone runs out; the lower hand scores the "
        "difference plus bonuses. First to the target (100) wins."
    ),
    verbs={"play": N_("Play"), "build": N_("Build a pyrino"), "draw": N_("Draw"), "pass": N_("Pass"),
           "left": N_("⬅ Left end"), "right": N_("Right end ➡")},
    prompts=(N_("Choose a move"), N_("Choose"), N_("Choose")),
    steps=pyrino_steps,
    explain={"build": N_("A pyrino is built from two of your pyramids, one for each end (Fire: red and yellow; "
                         "Ice: blue and black; green is shared and counts 0). Pick the spots of its two ends first, "
                         "then the pyramids.")},
    token_words=spots_words,
    cells=N_("Pyrinoes has no cells: a domino or pyrino goes to the left or the right open end of the line "
             "(play 6-4 right); a pyrino is built from two pyramids (build Y21|R1)."),
)
