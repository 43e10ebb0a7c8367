"""Open seeks and the queue through the emulator (issue #40), written before them (no
``/pyramid seek`` or ``/pyramid queue`` existed): a seek filled by an AI after its wait,
a seek filled by a person's Join, and a queue that matches two players of close rating
at once and widens its window for a third who waits."""

from __future__ import annotations

import re
from typing import Any

from emulator.harness import Harness
from emulator.model import User
from tests.bot.clock import FakeClock
from tests.bot.e2e.driver import card_text


def said(res: Any) -> str:
    """Everything an answer showed: the lobby card and the private note after it."""
    return "\n".join(m.text for m in res.messages)


def seeks(harness: Harness) -> Any:
    return harness.bot.client.seeks


async def rate(harness: Harness, guild_id: int, user: User, rating: float) -> None:
    """``user``'s Pyrinoes rating in the server (mu - 3 sigma = ``rating``), as games would leave it."""
    async with harness.bot.services.db.transaction() as conn:
        await conn.execute(
            "INSERT INTO ratings (scope, kind, user_id, mu, sigma, games, wins, losses, streak, best_streak,"
            " last_game_id, updated_at) VALUES (?, 'pyrinoes', ?, ?, 1.0, 5, 2, 3, 0, 1, 1, '2026-11-01')",
            (guild_id, user.id, rating + 3.0))


async def test_a_seek_is_filled_by_an_ai_after_its_wait(emulator: Any, harness: Harness, clock: FakeClock) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    general = emulator.general
    res = await harness.slash(ana, general, "pyramid seek", game="pyrinoes", ai_after_minutes=5, ai_level="easy")
    assert "Your seek is open" in said(res), said(res)
    game_id = int(re.search(r"game #(\d+)", said(res)).group(1))  # type: ignore[union-attr]
    again = await harness.slash(ana, general, "pyramid seek", game="pyrinoes")
    assert "still open: one at a time" in again.text  # seeking twice
    assert await seeks(harness).sweep() == []  # nobody joined, the wait is not over
    clock.advance(minutes=5, seconds=1)
    assert await seeks(harness).sweep() == [f"seek-started:{game_id}"]
    await harness.settle()
    record = await harness.bot.services.store.game_record(game_id)
    seats = await harness.bot.services.store.seats(game_id)
    assert record is not None and record.status == "active" and record.thread_id is not None
    assert [(s.user_id, s.ai_level) for s in seats] == [(ana.id, None), (None, "easy")]
    told = [m for m in harness.messages(general) if f"your game #{game_id} started" in card_text(m)]
    assert len(told) == 1 and f"<@{ana.id}>" in card_text(told[0])
    assert await seeks(harness).sweep() == []  # started once


async def test_a_seek_is_filled_by_a_person_who_joins(emulator: Any, harness: Harness, clock: FakeClock) -> None:
    ana, ben = await harness.add_user("ana"), await harness.add_user("ben")
    await harness.start_bot()
    general = emulator.general
    res = await harness.slash(ana, general, "pyramid seek", game="pyrinoes", ai_after_minutes=60)
    game_id = int(re.search(r"game #(\d+)", said(res)).group(1))  # type: ignore[union-attr]
    await harness.click(ben, res.message, label="Join")
    assert await seeks(harness).sweep() == [f"seek-started:{game_id}"]
    await harness.settle()
    seats = await harness.bot.services.store.seats(game_id)
    assert [s.user_id for s in seats] == [ana.id, ben.id]
    bad = await harness.slash(ana, general, "pyramid seek", game="continuous-pyramid")
    assert "a seek is for two or more" in bad.text


async def test_the_queue_matches_close_ratings_and_widens_for_a_third(emulator: Any, harness: Harness,
                                                                     clock: FakeClock) -> None:
    ana, ben, cat, dan = [await harness.add_user(name) for name in ("ana", "ben", "cat", "dan")]
    await harness.start_bot()
    general, guild = emulator.general, emulator.guild.id
    for user, rating in ((ana, 10.0), (ben, 11.0), (cat, 20.0), (dan, 14.0)):
        await rate(harness, guild, user, rating)
    for user in (ana, cat):
        res = await harness.slash(user, general, "pyramid queue", game="pyrinoes")
        assert "You are in the queue" in res.text, res.text
    assert await harness.bot.services.store.all_games() == []  # 10 and 20: too far apart for now
    again = await harness.slash(ana, general, "pyramid queue", game="pyrinoes")
    assert "already" in again.text
    await harness.slash(ben, general, "pyramid queue", game="pyrinoes")  # 11: close to ana, matched at once
    await harness.settle()
    games = await harness.bot.services.store.all_games()
    assert len(games) == 1 and games[0].status == "active"
    assert {s.user_id for s in await harness.bot.services.store.seats(games[0].id)} == {ana.id, ben.id}
    await harness.slash(dan, general, "pyramid queue", game="pyrinoes")  # 14: six from cat, outside both windows
    assert len(await harness.bot.services.store.all_games()) == 1
    clock.advance(minutes=5)  # both windows are now 7 wide
    done = await seeks(harness).sweep()
    await harness.settle()
    games = await harness.bot.services.store.all_games()
    assert done == [f"queue-started:{games[-1].id}"] and len(games) == 2
    assert {s.user_id for s in await harness.bot.services.store.seats(games[-1].id)} == {cat.id, dan.id}
    assert await seeks(harness).store.waiting() == []
    left = await harness.slash(dan, general, "pyramid queue", game="pyrinoes", leave=True)
    assert "not in the queue" in left.text
