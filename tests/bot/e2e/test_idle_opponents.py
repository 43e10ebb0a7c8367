"""A second account that never moves lifts nobody (issue #37).

The finding: a player and a second account of theirs opened six Pyrinoes games, the
second account resigned each at once, and the player rose to the top of the server's
Pyrinoes leaderboard on six "wins". A game rates nobody against a losing seat whose
person made fewer than the game's minimum of moves (``bot.ratings.rules.fewest_moves``).
"""

from __future__ import annotations

from typing import Any

from bot.ratings import START_MU
from bot.store.ratings import RatingStore
from emulator.harness import Harness
from tests.bot.e2e.driver import latest_game_id


async def test_six_instant_resignations_by_a_second_account_lift_nobody(emulator: Any, harness: Harness) -> None:
    ana, alt, ben = [await harness.add_user(name) for name in ("ana", "alt", "ben")]
    await harness.start_bot()
    general = emulator.general
    guild = general.guild_id
    ratings = RatingStore(harness.bot.services.db)
    for _ in range(6):
        res = await harness.slash(ana, general, "pyramid new", game="pyrinoes")
        await harness.click(alt, res.message, label="Join")
        await harness.click(ana, res.message, label="Start")
        game_id = await latest_game_id(harness)
        thread = harness.threads(general)[-1]
        assert "resigned" in (await harness.slash(alt, thread, "pyramid resign", game=game_id)).text
        await harness.settle()
        assert (await harness.bot.services.store.game_record(game_id)).status == "finished"
    mine = [s for s in await ratings.standings_of(ana.id, [guild]) if s.kind == "pyrinoes"]
    assert all(s.mu == START_MU and s.wins == 0 for s in mine), mine  # six "wins" counted for nothing
    board = await harness.slash(ben, general, "pyramid leaderboard", game="pyrinoes", min_games=1)
    assert f"<@{ana.id}>" not in board.text, board.text
    # The second account still took its losses: leaving never gains, even at once.
    lost = [s for s in await ratings.standings_of(alt.id, [guild]) if s.kind == "pyrinoes"]
    assert len(lost) == 1 and lost[0].losses == 6 and lost[0].mu < START_MU
