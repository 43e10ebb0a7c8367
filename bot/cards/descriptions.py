"""The board in words as a message: ``/pyramid status text:true``.

The same words as the board picture's alt text (``render.describe``), from the public
view and with the same button letters, for anyone who reads rather than looks (a
screen reader, a slow connection, a client that hides pictures). A message holds more
than an attachment's description, so the words get the room a message has.
"""

from __future__ import annotations

import discord

from bot.cards.boards import MAX_CONTENT, board_labels, public_view
from bot.core.session import Session
from bot.core.visibility import Seen
from i18n import Lang
from render.describe import describe_board


def board_words(session: Session, lang: Lang, note: str = "", *, seen: Seen, limit: int = MAX_CONTENT) -> str:
    """``note`` (a first line, such as "Game #12:") and the current public board in
    words, within ``limit`` characters once Discord's markdown is escaped (a name
    with ``*`` or ``_`` in it must not turn the rest into italics). ``seen``: the visibility
    rule's leave to show this game to its reader (:mod:`bot.core.visibility`)."""
    seen.covers(session.record.id)
    view = public_view(session)
    labels = board_labels(session, view)
    room = limit - (len(note) + 1 if note else 0)
    text = ""
    for _ in range(4):  # escaping lengthens the words: ask for fewer until they fit
        words = describe_board(view, art=session.presenter.art, lang=lang, labels=labels, limit=max(1, room))
        text = discord.utils.escape_markdown(words)
        over = len(text) + (len(note) + 1 if note else 0) - limit
        if over <= 0:
            break
        room -= over
    text = f"{note}\n{text}" if note else text
    return text[:limit]


__all__ = ["board_words"]
