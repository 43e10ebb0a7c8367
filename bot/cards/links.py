"""Jump links to a game's board, for the messages sent where the board is not: reminders, turn and
heads-up DMs, the minute's batch, ``/pyramid games``.

One place, because a link must open for its reader: a server's game is at its channel (or its
latest board there), a group DM's under ``@me``; and a game played in its seats' DMs
(``GameRecord.seat_dms``, ``bot.posting.seat_dms``) has a copy of each board in every seat's own
DM, so its reader's link is to their own DM with the bot. Nobody can open another person's DM:
the first seat's board, where the game's ``channel_id`` points, is no link for the second seat."""

from __future__ import annotations

from bot.store.records import GameRecord, MessageRef


def game_link(record: GameRecord, shown: MessageRef | None = None, *, reader_dm: int | None = None) -> str:
    """A link to the game's latest board ``shown`` (None: to its channel). ``reader_dm``: the reader's DM
    channel with the bot, which is where a game played in DMs is, for them."""
    where = str(record.guild_id) if record.guild_id is not None else "@me"
    if record.seat_dms and reader_dm is not None and (shown is None or shown.channel_id != reader_dm):
        return f"https://discord.com/channels/@me/{reader_dm}"
    if shown is not None:
        return f"https://discord.com/channels/{where}/{shown.channel_id}/{shown.message_id}"
    return f"https://discord.com/channels/{where}/{record.play_channel_id}"
