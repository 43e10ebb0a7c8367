"""A queue entry does not outlive its player's presence (issue #40's loose ends), through the
emulator: a player who left the server is never matched (their entry is dropped, and they
are told by DM), and an entry that waited longer than the queue's limit expires with a DM.
The bot has no members intent (it is not told of GUILD_MEMBER_REMOVE): it asks Discord
whether each player it is about to match is still a member."""

from __future__ import annotations

from typing import Any

from bot.seeks.matching import MOST_WAIT
from emulator.harness import Harness
from tests.bot.clock import FakeClock
from tests.bot.e2e.driver import card_text
from tests.bot.e2e.test_seeks import rate, seeks

MEMBER = "GET /guilds/{guild_id}/members/{user_id}"


async def test_a_player_who_left_the_server_is_never_matched(emulator: Any, harness: Harness,
                                                             clock: FakeClock) -> None:
    ana, ben, cat, eve = [await harness.add_user(name) for name in ("ana", "ben", "cat", "eve")]
    await harness.start_bot()
    await harness.add_guild("elsewhere", members=[ana])  # ana shares another server with the bot: a DM reaches her
    general, guild = emulator.general, emulator.guild.id
    for user, rating in ((ana, 10.0), (ben, 11.0), (cat, 11.5)):
        await rate(harness, guild, user, rating)
    await rate(harness, guild, eve, 10.2)
    res = await harness.slash(ana, general, "pyramid queue", game="pyrinoes")
    assert "You are in the queue" in res.text, res.text
    assert emulator.requests_to(MEMBER) == []  # waiting alone costs no request
    await harness.remove_member(ana)
    await harness.slash(eve, general, "pyramid queue", game="pyrinoes")  # close to ana, who is gone
    assert [e.user_id for e in await seeks(harness).store.waiting()] == [eve.id]
    await harness.remove_member(eve)  # eve shares no server with the bot any more: no DM can reach her
    await harness.slash(ben, general, "pyramid queue", game="pyrinoes")  # close to eve, who is gone
    await harness.settle()
    assert await harness.bot.services.store.all_games() == []
    assert [e.user_id for e in await seeks(harness).store.waiting()] == [ben.id]
    told = [card_text(m) for m in harness.dm(ana)]
    assert any("left the server" in t and "queue for Pyrinoes" in t for t in told), told
    assert harness.dm(eve) == []
    await harness.slash(cat, general, "pyramid queue", game="pyrinoes")
    await harness.settle()
    games = await harness.bot.services.store.all_games()
    assert len(games) == 1
    assert {s.user_id for s in await harness.bot.services.store.seats(games[0].id)} == {ben.id, cat.id}
    # one lookup per candidate: (eve, ana), (ben, eve), (ben, cat), each looked up once
    assert len(emulator.requests_to(MEMBER)) == 6


async def test_an_old_entry_expires_and_its_player_is_told(emulator: Any, harness: Harness,
                                                           clock: FakeClock) -> None:
    ana, dan = await harness.add_user("ana"), await harness.add_user("dan")
    await harness.start_bot()
    general, guild = emulator.general, emulator.guild.id
    await rate(harness, guild, ana, 10.0)
    await rate(harness, guild, dan, 500.0)  # too far for any window within the limit
    await harness.slash(ana, general, "pyramid queue", game="pyrinoes")
    clock.advance(minutes=60)
    await harness.slash(dan, general, "pyramid queue", game="pyrinoes")
    assert await seeks(harness).sweep() == []
    clock.advance(seconds=int(MOST_WAIT.total_seconds()) - 3600 + 1)  # ana's wait is just over the limit
    assert await seeks(harness).sweep() == [f"queue-expired:{ana.id}"]
    await harness.settle()
    assert [e.user_id for e in await seeks(harness).store.waiting()] == [dan.id]
    told = [card_text(m) for m in harness.dm(ana)]
    assert any("queue for Pyrinoes" in t and "expired" in t for t in told), told
    assert harness.dm(dan) == []
    assert await seeks(harness).sweep() == []  # told once
    assert await harness.bot.services.store.all_games() == []
    assert emulator.requests_to(MEMBER) == []  # never a candidate: never looked up
