"""A database that is damaged or out of reach stops the bot with a sentence that says
what is wrong and what to do (restore a backup, or fix the path), and a distinct exit
code; never a traceback, and never a bot running on a broken file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.bot.ops.helpers import damage_pages, make_database, run_bot

DAMAGED, UNAVAILABLE = 5, 6
PAGE = 4096


def bot_env(database: Path) -> dict[str, str]:
    # Discord is never reached: the database is opened (and refused) first. Should the
    # bot get that far, the discard port makes it exit at once (code 4).
    return {"DISCORD_TOKEN": "operator-test-token", "PYRAMID_DATABASE": str(database),
            "PYRAMID_API_BASE_URL": "http://127.0.0.1:9"}


def assert_restore_advice(stderr: str, database: Path) -> None:
    assert "Traceback" not in stderr
    assert str(database) in stderr and "damaged" in stderr
    assert "pyramid-bot restore" in stderr, "the advice names the restore command"
    assert str(database.parent / "backups") in stderr, "the advice names the backup folder"


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"
    database.write_text("these are my notes, not a database\n" * 200)
    done = run_bot(env=bot_env(database))
    assert done.returncode == DAMAGED, done.stderr
    assert_restore_advice(done.stderr, database)
    assert database.read_text().startswith("these are my notes"), "the file is left as it was"


async def test_a_truncated_database(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"
    await make_database(database)
    size = database.stat().st_size
    os.truncate(database, size // 2 // PAGE * PAGE)
    done = run_bot(env=bot_env(database))
    assert done.returncode == DAMAGED, done.stderr
    assert_restore_advice(done.stderr, database)


async def test_damage_only_the_integrity_check_sees(tmp_path: Path) -> None:
    """The schema and the games table still read fine, so without the check at start-up
    the bot would connect and fail later, on some player's move."""
    database = tmp_path / "bot.db"
    await make_database(database)
    damage_pages(database)
    (tmp_path / "backups").mkdir()
    newest = tmp_path / "backups" / "bot-20261120T000000Z.db"
    newest.write_bytes(b"")
    done = run_bot(env=bot_env(database))
    assert done.returncode == DAMAGED, done.stderr
    assert_restore_advice(done.stderr, database)
    assert "integrity check" in done.stderr
    assert f"pyramid-bot restore {newest}" in done.stderr, "the newest backup is named"


@pytest.mark.parametrize("where", ["parent is a file", "a folder"])
def test_a_path_the_bot_cannot_open(tmp_path: Path, where: str) -> None:
    if where == "parent is a file":
        (tmp_path / "data").write_text("a file, not a folder")
        database = tmp_path / "data" / "bot.db"
    else:
        database = tmp_path / "folder.db"
        database.mkdir()
    done = run_bot(env=bot_env(database))
    assert done.returncode == UNAVAILABLE, done.stderr
    assert "Traceback" not in done.stderr
    assert str(database) in done.stderr and "PYRAMID_DATABASE" in done.stderr
