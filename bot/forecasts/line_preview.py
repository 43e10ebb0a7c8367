"""A forecast line's outcome as far as its player can know it (issue #41: "a preview of each
line's position while setting it"), the way ``bot.cards.preview`` previews one move.

The others' moves are played on re-deals of what the player cannot see: only re-deals in
which every move of the line is legal count (another player's tile played is in their hand
there), and only what all of them agree on is told: the public story of the line and who
acts then. A line that no re-deal lets happen is said to be impossible from what the player
sees, and an answer that none of them allows after its moves is flagged; the forecast is
kept as typed all the same (the rule decides at the turn itself). The re-deals are seeded
by the line, never by the real position, so nothing hidden leaks into the preview.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from bot.cards.boards import narrate, status_line
from bot.core.session import Session
from engine.core import EngineError, Event, Rng, derive_seed
from engine.core.forecast import Line
from i18n import Lang

#: Re-deals in which the line is legal that must agree; tries to find them.
AGREEING = 8
TRIES = 300


@dataclass(frozen=True)
class LinePreview:
    """``possible``: some re-deal lets the others' moves happen; ``answer_legal``: the answer is
    legal after them in every such re-deal (None: in some only); ``story``: the public events
    all of them share, narrated; ``status``: who acts then, if all agree ("" otherwise)."""

    possible: bool
    answer_legal: bool | None
    story: tuple[str, ...]
    status: str


def _key(event: Event) -> str:
    shown = event.to_json()
    shown.pop("data", None)
    return json.dumps(shown, sort_keys=True, default=str)


def preview_line(session: Session, seat: int, line: Line, lang: Lang) -> LinePreview:
    game = session.game
    rng = Rng(derive_seed(session.version, f"line:{seat}:{'|'.join(line.others)}:{line.answer}"))
    runs: list[tuple[list[Event], Any]] = []
    for _ in range(TRIES):
        state = game.determinize(session.state, seat, rng)
        events: list[Event] = []
        try:
            for move in line.others:
                mover = game.waiting_for(state)
                if mover is None or mover == seat:
                    raise EngineError("not the others' move")
                state, happened = game.play(state, mover, move)
                events.extend(e for e in happened if e.visible(None))
        except EngineError:
            continue
        runs.append((events, state))
        if len(runs) >= AGREEING:
            break
    if not runs:
        return LinePreview(False, False, (), "")
    legal = [game.waiting_for(s) == seat and line.answer in game.legal_moves(s) for _, s in runs]
    keys = [[_key(e) for e in events] for events, _ in runs]
    common = 0
    while all(len(k) > common for k in keys) and all(k[common] == keys[0][common] for k in keys):
        common += 1
    first_events, first_state = runs[0]
    then = replace(session, state=first_state, version=session.version + len(line.others))
    statuses = {status_line(replace(then, state=s), lang) for _, s in runs}
    return LinePreview(True, True if all(legal) else (False if not any(legal) else None),
                       tuple(narrate(first_events[:common], session, lang)),
                       statuses.pop() if len(statuses) == 1 else "")


def preview_words(previews: list[LinePreview], lang: Lang) -> list[str]:
    """One short paragraph per line, numbered as the lines are."""
    out: list[str] = []
    for number, preview in enumerate(previews, start=1):
        if not preview.possible:
            out.append(f"{number}. ⚠ " + lang.gettext("From what you can see, the others can't play these moves."))
            continue
        said = " ".join(preview.story[-3:])
        if preview.answer_legal is False:
            said += " ⚠ " + lang.gettext("Your answer would not be legal then: this line would be dropped.")
        elif preview.answer_legal is None:
            said += " ❔ " + lang.gettext("Whether your answer is legal then depends on tiles you can't see.")
        out.append(f"{number}. 👁️ " + (said.strip() or lang.gettext("Nothing everyone can see happens."))
                   + (f" {preview.status}" if preview.status else ""))
    return out
