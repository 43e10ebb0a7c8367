"""See before you commit: what a move would do, worked out from what its player may see.

A preview must never tell a player more than they could work out themselves, so it
is never computed from the real position (which knows every hidden tile). Instead
everything hidden from the player's seat is re-dealt at random
(:meth:`engine.core.Game.determinize`) in :data:`SAMPLES` different ways, the move is
played in each re-deal, and only what comes out the same in all of them is shown,
and only as the channel would see it: the public view (``game.view(after, None)``)
and the public events (``event.visible(None)``). The player's own hand after
drawing is not shown (it is not public; its size is, on the board).

The re-deals use fixed seeds and :func:`engine.core.hidden.redeal` is canonical, so
a preview is a function of the seat's view and the move alone: the same for every
real position the player cannot tell apart, in every process, after any restart.

When the public outcome is the same in every re-deal (in Flaming Pyramids it always
is: the pyramid and its mayhem are public, and a draw shows only its count), the
preview has the board picture, the story lines and the status. When it differs (a
tile turned up from a face-down stock or bag), there is no picture: the story lines
all re-deals share are kept (the move itself, what it set off before the reveal),
the rest is left out, and the preview says plainly that it depends on tiles the
player can't see. The move may still be confirmed.

Pure (no I/O, a few milliseconds of engine work): the bot draws
:attr:`Preview.view` with :attr:`Preview.events` (no letters) in a render worker.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot.cards.boards import narrate, plain_names, status_line
from bot.cards.chooser import spot_letters
from bot.core.session import Session
from engine.core import Event, Rng
from i18n import Lang
from render import Art
from render.describe import MAX_DESCRIPTION, describe_board

#: How many re-deals a preview compares. Something hidden that the move turns up (k
#: equally likely tiles) comes out the same in all of them with chance k^(1-SAMPLES):
#: for a choice of two, one in 32768.
SAMPLES = 16
#: The seeds of the re-deals: fixed, so a preview is the same whenever it is asked.
SEED = 0x5EE_B4_C0
#: Story lines a preview shows at most (the latest); a turn of mayhem is far shorter.
MAX_STORY = 12


@dataclass(frozen=True)
class Preview:
    """What ``move`` certainly does, as everyone will see it.

    ``view``: the public view after the move (with the names, number and language the
    picture shows), or None when part of it depends on hidden tiles. ``events``: the
    public events every re-deal shares, in order (what the picture rings). ``story``:
    those events narrated for the reader; ``lines``: the board's extra lines
    (from the public view); ``status``: who acts next or the result ("" when uncertain)."""

    move: str
    view: dict[str, Any] | None
    events: tuple[Event, ...]
    story: tuple[str, ...]
    lines: tuple[str, ...]
    status: str

    @property
    def certain(self) -> bool:
        """Everything public after the move is known now (there is a picture)."""
        return self.view is not None


@dataclass(frozen=True)
class _Outcome:
    """The move played in one re-deal, as everyone would see it."""

    view: str
    keys: tuple[str, ...]
    events: tuple[Event, ...]
    story: tuple[str, ...]
    status: str
    after: Any


def preview_move(session: Session, seat: int, move: str, lang: Lang, *, samples: int = SAMPLES) -> Preview:
    """What ``move`` by ``seat`` would do in ``session``'s game, from ``seat``'s view
    only. Raises the engine's :class:`engine.core.MoveRejected` if the move is not
    legal (whether it is depends only on what the seat sees)."""
    move = move.strip()
    game = session.game
    outcomes: list[_Outcome] = []
    for k in range(max(2, samples)):
        sample = game.determinize(session.state, seat, Rng(SEED + k))
        after, happened = game.play(sample, seat, move)
        outcomes.append(_outcome(session, after, happened, lang))
    first = outcomes[0]
    same_view = all(o.view == first.view for o in outcomes)
    common = _common_prefix([o.keys for o in outcomes])
    events = first.events[:common]
    story = first.story[:common]
    certain = same_view and all(o.keys == first.keys and o.status == first.status for o in outcomes)
    if not certain:
        status = first.status if all(o.status == first.status for o in outcomes) else ""
        return Preview(move, None, events, story, (), status)
    public = dict(game.view(first.after, None))
    shown = [discord.utils.escape_markdown(n) for n in plain_names(session)]
    lines = tuple(session.presenter.board_lines(dict(public), shown, lang)
                  if session.presenter.board_lines is not None else ())
    public["names"] = plain_names(session)
    public["game_number"] = session.record.id
    public["lang"] = lang.code
    return Preview(move, public, events, story, lines, first.status)


def _outcome(session: Session, after: Any, events: Sequence[Event], lang: Lang) -> _Outcome:
    game = session.game
    shown = tuple(e for e in events if e.visible(None))
    then = replace(session, state=after, version=session.version + 1, last_events=list(shown))
    return _Outcome(
        view=json.dumps(game.view(after, None), sort_keys=True, default=str),
        keys=tuple(_event_key(e) for e in shown),
        events=shown,
        story=tuple(narrate(shown, session, lang)),
        status=status_line(then, lang),
        after=after,
    )


def _event_key(event: Event) -> str:
    """What an event shows (its ``data`` is the engine's own, never shown)."""
    shown = event.to_json()
    shown.pop("data", None)
    return json.dumps(shown, sort_keys=True, default=str)


def _common_prefix(runs: Sequence[Sequence[str]]) -> int:
    """How many leading items every run shares."""
    length = min(len(r) for r in runs)
    for i in range(length):
        if any(r[i] != runs[0][i] for r in runs):
            return i
    return length


# --- words -----------------------------------------------------------------------------
def preview_text(preview: Preview, session: Session, lang: Lang) -> str:
    """The private message of a preview (under Discord's 2000 characters)."""
    p = session.presenter
    told = p.move_words(preview.move, spot_letters(session), lang)  # in words, its spots by their letters (#43)
    head = "👁️ " + lang.tr("**Preview** of {move} in {title} game #{number}: nothing is played until you "
                          "confirm.", move=told, title=p.title, number=session.record.id)
    story = list(preview.story[-MAX_STORY:])
    if not story and preview.certain:
        story = [lang.tr("Nothing happens that everyone can see.")]
    tail: list[str] = []
    if not preview.certain:
        tail.append("❔ " + lang.tr("What comes after that depends on tiles you can't see, so it can't be shown "
                                   "before you play."))
    tail.append(lang.tr("**✅ Confirm** plays it; **↩ Back** lets you choose again."))
    body = [*story, *preview.lines, preview.status]
    text = "\n".join(line for line in [head, *body, *tail] if line)
    if len(text) <= 2000:
        return text
    keep = "\n".join(line for line in [head, *tail] if line)
    room = 2000 - len(keep) - 3
    middle = "\n".join(line for line in body if line)[-room:] if room > 0 else ""
    return "\n".join([head, "…" + middle, *tail])[:2000]


def preview_description(preview: Preview, lang: Lang, art: Art) -> str:
    """The picture's alt text: that it is a preview, then the board after the move in
    words (from the public view only)."""
    if preview.view is None:
        return lang.tr("Preview of {move}, not played yet.", move=preview.move)
    lead = lang.tr("Preview of {move}, not played yet. The board after it:", move=preview.move)
    return lead + "\n" + describe_board(preview.view, art=art, lang=lang,
                                        limit=max(1, MAX_DESCRIPTION - len(lead) - 1))
