"""A forecast line's outcome as far as its player can know it (issue #41: "a preview of each
line's position while setting it"), the way ``bot.cards.preview`` previews one move.

The others' moves are played on re-deals of what the player cannot see: only re-deals in
which every move of the line is legal count (another player's tile played is in their hand
there), and only what all of them agree on is told: the public story of the line and who
acts then. A line that no re-deal lets happen is said to be impossible from what the player
sees, and an answer that none of them allows after its moves is flagged; the forecast is
kept as typed all the same (the rule decides at the turn itself). The re-deals are seeded
by the line, never by the real position, so nothing hidden leaks into the preview.

When the answer is legal in every such re-deal and the public board after the line and the
answer comes out the same in all of them, that board is the line's picture (``view``, drawn
by ``bot.forecasts.line_pictures``), the same public view ``bot.cards.preview`` draws for one
move: a function of the player's view and the line alone.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from bot.cards.boards import narrate, plain_names, status_line
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
    all of them share, narrated; ``status``: who acts then, if all agree ("" otherwise);
    ``view``: the public board after the line and the answer when every re-deal agrees on it
    (None otherwise: no picture), with ``events``, the answer's public events they share."""

    possible: bool
    answer_legal: bool | None
    story: tuple[str, ...]
    status: str
    view: dict[str, Any] | None = None
    events: tuple[Event, ...] = ()


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
    view, rung = _answered_board(session, seat, line, [s for _, s in runs], lang) if all(legal) else (None, ())
    return LinePreview(True, True if all(legal) else (False if not any(legal) else None),
                       tuple(narrate(first_events[:common], session, lang)),
                       statuses.pop() if len(statuses) == 1 else "", view, rung)


def _answered_board(session: Session, seat: int, line: Line,
                    states: list[Any], lang: Lang) -> tuple[dict[str, Any] | None, tuple[Event, ...]]:
    """The public board after ``line``'s answer, played in each re-deal (``states``: after the others' moves),
    if all of them agree on it, with the answer's public events they share; (None, ()) if they differ."""
    game = session.game
    boards: set[str] = set()
    told: list[list[Event]] = []
    after: Any = None
    for state in states:
        after, happened = game.play(state, seat, line.answer)
        boards.add(json.dumps(game.view(after, None), sort_keys=True, default=str))
        told.append([e for e in happened if e.visible(None)])
    if len(boards) != 1:
        return None, ()
    keys = [[_key(e) for e in events] for events in told]
    common = 0
    while all(len(k) > common for k in keys) and all(k[common] == keys[0][common] for k in keys):
        common += 1
    public = dict(game.view(after, None))
    public["names"] = plain_names(session)
    public["game_number"] = session.record.id
    public["lang"] = lang.code
    return public, tuple(told[0][:common])


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
                   + (f" {preview.status}" if preview.status else "") + (" 🖼" if preview.view is not None else ""))
    return out
