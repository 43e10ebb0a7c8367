"""Seasons through the emulator (issue #40), written before them (no ``/pyramid season``):
a month's leaderboard per server and game, rated from the month's games alone, and the
champion's card once the month is over, posted once."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from bot.ratings import GameOutcome, SeatOutcome
from bot.ratings.store import RatingStore
from emulator.harness import Harness
from emulator.model import User
from tests.bot.clock import FakeClock
from tests.bot.e2e.driver import card_text


async def a_rated_game(harness: Harness, guild_id: int, channel_id: int, winner: User, loser: User,
                       finished: datetime) -> None:
    """A finished, rated Pyrinoes game as the ratings follower counts it."""
    store = harness.bot.services.store
    game_id = await store.create_game("pyrinoes", created_by=winner.id, status="finished", guild_id=guild_id,
                                      channel_id=channel_id, options={}, seed=1)
    outcome = GameOutcome(game_id=game_id, kind="pyrinoes", guild_id=guild_id,
                          finished_at=finished.isoformat(timespec="seconds"), rated=True,
                          seats=(SeatOutcome(seat=0, user_id=winner.id, rank=0, won=True),
                                 SeatOutcome(seat=1, user_id=loser.id, rank=1)))
    assert await RatingStore(harness.bot.services.db).apply(outcome)


async def test_a_months_leaderboard_and_its_champion(emulator: Any, harness: Harness, clock: FakeClock) -> None:
    ana, ben, cat = [await harness.add_user(name) for name in ("ana", "ben", "cat")]
    await harness.start_bot()
    general, guild = emulator.general, emulator.guild.id
    await a_rated_game(harness, guild, general.id, cat, ben, datetime(2026, 10, 30, tzinfo=UTC))  # last season
    for day in (2, 5):
        await a_rated_game(harness, guild, general.id, ana, ben, datetime(2026, 11, day, tzinfo=UTC))
    await a_rated_game(harness, guild, general.id, cat, ben, datetime(2026, 11, 9, tzinfo=UTC))
    shown = card_text((await harness.slash(ben, general, "pyramid season", game="pyrinoes")).message)
    assert "season 2026-11" in shown and "Champion" not in shown
    places = [shown.index(f"<@{u.id}>") for u in (ana, cat, ben)]
    assert places == sorted(places)  # ana (two wins) above cat (one) above ben
    october = card_text((await harness.slash(ben, general, "pyramid season", game="pyrinoes",
                                             month="2026-10")).message)
    assert f"Champion of the season: <@{cat.id}>" in october
    bad = await harness.slash(ben, general, "pyramid season", game="pyrinoes", month="2026-13")
    assert "YYYY-MM" in bad.text

    seasons = harness.bot.client.seasons
    assert await seasons.sweep() == [f"champion:{guild}:pyrinoes:2026-10"]  # October is over
    clock.advance(days=10)  # into December: November is over
    assert await seasons.sweep() == [f"champion:{guild}:pyrinoes:2026-11"]
    assert await seasons.sweep() == []  # once
    await harness.settle()
    cards = [card_text(m) for m in harness.messages(general) if "Champion of the season" in card_text(m)]
    assert len(cards) == 2 and f"<@{ana.id}>" in cards[-1] and "season 2026-11" in cards[-1]
