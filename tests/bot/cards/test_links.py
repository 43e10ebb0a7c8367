"""Jump links open for their reader (``bot.cards.links``): a server's game at its board, a group DM's
under ``@me``, and a game played in its seats' DMs at the reader's own DM, never at another's."""

from __future__ import annotations

from bot.cards.links import game_link
from bot.store.records import GameRecord, MessageRef

RECORD = GameRecord(id=7, kind="flaming-pyramids", guild_id=None, channel_id=55, thread_id=None, options={},
                    status="active", seed=1, created_by=1, challenge_id=None, result=None, created_at="",
                    updated_at="", surface="interactions")
BOARD = MessageRef(game_id=7, role="board", seat=-1, channel_id=55, message_id=9, version=3)


def test_a_group_dm_game_has_no_server_in_its_link() -> None:
    assert RECORD.in_place and game_link(RECORD, BOARD) == "https://discord.com/channels/@me/55/9"
    assert game_link(RECORD.model_copy(update={"guild_id": 3})) == "https://discord.com/channels/3/55"


def test_a_server_game_links_its_latest_board_in_its_thread() -> None:
    served = RECORD.model_copy(update={"guild_id": 3, "thread_id": 66, "surface": "channel"})
    board = BOARD.model_copy(update={"channel_id": 66})
    assert game_link(served, board, reader_dm=99) == "https://discord.com/channels/3/66/9"
    assert game_link(served) == "https://discord.com/channels/3/66"


def test_a_game_in_the_seats_dms_links_each_reader_to_their_own_dm() -> None:
    in_dms = RECORD.model_copy(update={"seat_dms": True, "surface": "channel"})
    assert game_link(in_dms, BOARD, reader_dm=55) == "https://discord.com/channels/@me/55/9"  # the first seat's own
    assert game_link(in_dms, BOARD, reader_dm=77) == "https://discord.com/channels/@me/77"  # the second seat's DM
    assert game_link(in_dms, None, reader_dm=77) == "https://discord.com/channels/@me/77"
