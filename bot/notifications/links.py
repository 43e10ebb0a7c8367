"""Jump links to a game's latest board, for notices sent where the board is not (DMs)."""

from __future__ import annotations

from bot.store import GameRecord
from bot.store.records import MessageRef


def jump_link(record: GameRecord, shown: MessageRef | None) -> str:
    """A link to the game's latest board (or its channel): DMs and group DMs have ``@me`` for a server."""
    where = str(record.guild_id) if record.guild_id is not None else "@me"
    if shown is not None:
        return f"https://discord.com/channels/{where}/{shown.channel_id}/{shown.message_id}"
    return f"https://discord.com/channels/{where}/{record.play_channel_id}"
