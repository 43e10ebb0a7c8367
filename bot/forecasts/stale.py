"""A click on a message shown before a move was taken back is stale even when its version is
current again (issue #41): a move taken back and made again has the same number, but not the
same position, and a private chooser opened before the undo keeps its buttons (the bot cannot
take them off a private message). Discord ids grow with time, so the message's id against the
undo's (the interaction that asked for it, ``undos.discord_id``) says which came first."""

from __future__ import annotations

from typing import Any

from bot.store import GameRecord, GameStore
from bot.store.undos import UndoStore


async def shown_before_an_undo(store: GameStore, record: GameRecord, version: int, message: Any) -> bool:
    """Whether ``message`` (the clicked one; None: a command) was posted before a move numbered
    ``version`` or lower was taken back. One indexed read, and only in a game with undos."""
    if not record.undos or message is None or not isinstance(getattr(message, "id", None), int):
        return False
    return await UndoStore(store.db).undone_after(record.id, version, message.id)
