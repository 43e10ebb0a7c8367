"""Move notation: ``play 6-4 right``, ``play Y21|R1 left``, ``build Y21|R1``, ``draw``, ``pass``.

Parsing is lenient about case and spacing only; anything else is refused with a reason
a player can act on. Whether the move is *legal* is the rules' business, not this one's.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from engine.core.errors import IllegalMove
from engine.core.notation import refuse_oversize
from engine.core.text import N_, or_list
from engine.pyrinoes.pieces import Domino, Pyrino, domino, explain_bad_pyrino, pyrino

SIDES = ("left", "right")
#: Moves as a text argument: "play 6-4 right, play Y21|R1 left, build Y21|R1, draw or pass".
EXAMPLES = or_list(("play 6-4 right", "play Y21|R1 left", "build Y21|R1", "draw", "pass"))
#: The longest piece code quoted back in a message.
_QUOTE = 24


def shorten(text: str, limit: int = _QUOTE) -> str:
    """``text`` as quoted back to a player: long input is cut, not echoed whole."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True, slots=True)
class Move:
    kind: str  # "play" | "build" | "draw" | "pass"
    domino: Domino | None = None
    pyrino: Pyrino | None = None
    side: str | None = None  # None: the player left it to the engine (only one side fits)


def play_text(code: str, side: str) -> str:
    return f"play {code} {side}"


def build_text(code: str) -> str:
    return f"build {code}"


def parse_move(text: str) -> Move:
    """The move ``text`` names; raises :class:`IllegalMove` with a reason if none."""
    refuse_oversize(text, "'play 6-4 right'")
    return _parse(text)


@lru_cache(maxsize=4096)
def _parse(text: str) -> Move:
    words = text.strip().lower().split()
    if not words:
        raise IllegalMove(N_("That is not a move. Moves look like: {examples}."), examples=EXAMPLES)
    verb, rest = words[0], words[1:]
    if verb in ("draw", "pass"):
        if rest:
            raise IllegalMove(N_("'{verb}' takes nothing after it."), verb=verb)
        return Move(verb)
    if verb not in ("play", "build"):
        raise IllegalMove(N_("'{text}' is not a move. Moves look like: {examples}."), text=shorten(words[0]),
                          examples=EXAMPLES)
    side: str | None = None
    if verb == "play" and rest and rest[-1] in SIDES:
        side = rest.pop()
    if not rest:
        if verb == "play":
            raise IllegalMove(N_("Say which piece to play, e.g. play 6-4 right."))
        raise IllegalMove(N_("Say which piece to build, e.g. build Y21|R1."))
    code = "".join(rest)
    if verb == "play" and len(rest) > 1 and domino(code) is None and pyrino(code) is None:
        raise IllegalMove(N_("'{text}' is not a side: play to the left or the right end."), text=shorten(rest[-1]))
    if verb == "play":
        found_domino = domino(code)
        if found_domino is not None:
            return Move("play", domino=found_domino, side=side)
    found = pyrino(code)
    if found is None:
        if verb == "build" and domino(code) is not None:
            raise IllegalMove(N_("{code} is a domino; only pyrinoes are built, e.g. build Y21|R1."), code=code)
        if "|" not in code:
            raise IllegalMove(
                N_("{code} is not a domino or pyrino code (dominoes look like 6-4, pyrinoes like Y21|R1)."),
                code=shorten(code.upper()),
            )
        if len(code) > _QUOTE:
            raise IllegalMove(N_("{code} is not a pyrino: write its two ends joined by |, e.g. Y21|R1."),
                              code=shorten(code.upper()))
        raise IllegalMove(explain_bad_pyrino(code))
    return Move(verb, pyrino=found[0], side=side)
