"""What a move must announce, decided when the move is made.

``plan`` turns a game as it stands after a move (or at its start) into outbox rows:
the board, the hand DMs of whoever just moved and whoever acts next, the AI's turn,
the end of the game. They are written in the move's own transaction, so whatever
happens to the process afterwards, the announcements are not lost.

``nonce`` names each post for Discord's ``enforce_nonce``: a post retried after a
crash reuses its nonce, and Discord returns the message it already created instead
of a second one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from bot.core.session import Session
from bot.store.outbox import Announcement, OutboxKind
from engine.core import Event

#: Discord refuses nonces longer than this.
MAX_NONCE = 25
_LETTER: dict[OutboxKind, str] = {"board": "b", "hand": "h", "strip": "s", "ai": "a", "finish": "f"}


def nonce(game_id: int, version: int, kind: OutboxKind, seat: int = -1) -> str:
    """A nonce that is the same every time this post is attempted, and different
    from every other post of the bot (Discord compares nonces per author)."""
    text = f"pb{_LETTER[kind]}{game_id:x}.{version:x}" + (f".{seat:x}" if seat >= 0 else "")
    if len(text) <= MAX_NONCE:
        return text
    digest = hashlib.blake2b(text.encode(), digest_size=12).hexdigest()
    return f"pb{_LETTER[kind]}{digest}"[:MAX_NONCE]


def events_to_json(events: Iterable[Event]) -> list[dict[str, Any]]:
    """The public events of a move, as stored with its board row (the board is
    public, so private events such as draws are left out)."""
    out: list[dict[str, Any]] = []
    for event in events:
        if not event.visible(None):
            continue
        item = event.to_json()
        del item["visible_to"]  # public events only
        try:
            item["data"] = json.loads(json.dumps(event.data))
        except (TypeError, ValueError):  # nothing a picture needs; the story survives without it
            item["data"] = {}
        out.append(item)
    return out


def events_from_json(raw: Sequence[dict[str, Any]]) -> list[Event]:
    events: list[Event] = []
    for item in raw:
        try:
            events.append(Event.from_json(item))
        except (KeyError, TypeError, ValueError):
            continue
    return events


def plan(session: Session, movers: Sequence[int] = (), events: Sequence[Event] = ()) -> list[Announcement]:
    """The rows that announce ``session`` at its version, in the order they are delivered."""
    version = session.version
    channel = session.record.play_channel_id
    payload: dict[str, Any] = {"events": events_to_json(events)}
    if turn_goes_on(session):  # the next move edits this board's card (Announcer.deliver_board)
        payload["turn_goes_on"] = session.to_act
    items = [Announcement(kind="board", version=version, channel_id=channel, payload=payload)]
    if session.presenter.has_hand:
        to_act = session.to_act
        for seat_no in dict.fromkeys([*movers, *([to_act] if to_act is not None else [])]):
            seat = session.seat(seat_no)
            if seat is not None and seat.user_id is not None and not seat.is_ai:
                items.append(Announcement(kind="hand", version=version, seat=seat_no))
    if session.over:
        items.append(Announcement(kind="finish", version=version, channel_id=channel))
    elif ai_to_act(session):
        items.append(Announcement(kind="ai", version=version))
    return items


def folded(session: Session) -> bool:
    """Whether the board of ``session``'s version gets no card of its own, its moves being
    told on the next card (a quiet thread: one card per human turn). So when an AI is to act
    in a running game that a human still plays: the AI's moves follow at once, and the card
    after them, which pings the next human, narrates everything since the last card shown
    (``Announcer.story``). Never the first board (the deal and its seal), nor in a game of
    AIs only (nobody's turn would ever come to fold into)."""
    if session.over or session.version == 0 or session.record.status != "active" or not ai_to_act(session):
        return False
    return any(s.user_id is not None and not s.is_ai and not s.resigned for s in session.seats)


def turn_goes_on(session: Session) -> bool:
    """Whether the player who just moved goes on with the same turn (Pyramido's stones,
    placed one move each until ✅ End turn): the turn's card is then edited in place by
    each further step instead of a card per step (``Presenter.turn_goes_on``)."""
    if session.over:
        return False
    pending = session.game.pending(session.state)
    return pending is not None and pending.kind in session.presenter.turn_goes_on and pending.player == session.to_act


def ai_to_act(session: Session) -> bool:
    seat_no = session.to_act
    seat = session.seat(seat_no) if seat_no is not None else None
    return seat is not None and seat.is_ai and not session.over
