"""A second account that never moves lifts nobody (issue #37).

The finding: a player and a second account of theirs opened six Pyrinoes games, the
second account resigned each at once, and the player rose to the top of the server's
Pyrinoes leaderboard on six "wins". A game rates nobody against a losing seat whose
person made fewer than the game's minimum of moves (``bot.ratings.rules.idle_seats``),
however the game ended (here: a resignation, a timeout that forfeits), and
``pyramid-bot rebuild-ratings`` agrees.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.ops.rebuild_ratings import rebuild_ratings
from bot.ratings import START_MU
from bot.ratings.store import RatingStore
from bot.store import GuildSettings
from emulator.harness import Harness
from emulator.model import Channel, User
from tests.bot.clock import FakeClock
from tests.bot.e2e.driver import latest_game_id, session_of


async def leave(how: str, harness: Harness, clock: FakeClock, ana: User, alt: User, thread: Channel,
                game_id: int) -> None:
    """``alt`` leaves game ``game_id`` without a move of its own: resigns at once, or lets its
    first turn run out (the server forfeits a seat that times out)."""
    if how == "resigns":
        assert "resigned" in (await harness.slash(alt, thread, "pyramid resign", game=game_id)).text
        return
    while (await session_of(harness, game_id)).to_act == 0:  # ana plays until alt is to act
        choices = await harness.autocomplete(ana, thread, "pyramid play", "move", "", game=game_id)
        assert "✅" in (await harness.slash(ana, thread, "pyramid play", move=choices[0]["value"],
                                            game=game_id)).text
        await harness.settle()
    for _ in range(10):
        clock.advance(days=30)
        await harness.bot.client.host.reminders.sweep()
        await harness.settle()
        if (await harness.bot.services.store.game_record(game_id)).status == "finished":
            return
    raise AssertionError("alt never timed out")


@pytest.mark.parametrize("how", ["resigns", "times out"])
async def test_six_games_a_second_account_leaves_at_once_lift_nobody(emulator: Any, harness: Harness,
                                                                     clock: FakeClock, how: str) -> None:
    ana, alt, ben = [await harness.add_user(name) for name in ("ana", "alt", "ben")]
    await harness.start_bot()
    general = emulator.general
    guild = general.guild_id
    await harness.bot.services.store.save_guild_settings(GuildSettings(guild_id=guild, timeout_action="forfeit"))
    ratings = RatingStore(harness.bot.services.db)
    for _ in range(6):
        res = await harness.slash(ana, general, "pyramid new", game="pyrinoes")
        await harness.click(alt, res.message, label="Join")
        await harness.click(ana, res.message, label="Start")
        game_id = await latest_game_id(harness)
        await leave(how, harness, clock, ana, alt, harness.threads(general)[-1], game_id)
        await harness.settle()
        assert (await harness.bot.services.store.game_record(game_id)).status == "finished"

    async def check() -> None:
        mine = [s for s in await ratings.standings_of(ana.id, [guild]) if s.kind == "pyrinoes"]
        assert all(s.mu == START_MU and s.wins == 0 for s in mine), mine  # six "wins" counted for nothing
        board = await harness.slash(ben, general, "pyramid leaderboard", game="pyrinoes", min_games=1)
        assert f"<@{ana.id}>" not in board.text, board.text
        # The second account still took its losses: leaving never gains, even at once.
        lost = [s for s in await ratings.standings_of(alt.id, [guild]) if s.kind == "pyrinoes"]
        assert len(lost) == 1 and lost[0].losses == 6 and lost[0].mu < START_MU

    await check()
    live = await ratings.everything()
    summary = await rebuild_ratings(harness.bot.services.db)
    assert summary.skipped == [] and await ratings.everything() == live
    await check()
