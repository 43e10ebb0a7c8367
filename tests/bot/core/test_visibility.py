"""The visibility rule (:mod:`bot.core.visibility`) on a real SQLite store, by property: for random
viewers (who, from which server, which channel) and the kinds of game there are, what it admits."""

from __future__ import annotations

import asyncio
import itertools
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.errors import PlayError
from bot.core.visibility import Verdict, Viewer, admit, judge, private_place
from bot.store import DatabaseTarget, GameStore

SERVER, OTHER_SERVER = 1, 9
GENERAL, THREAD, GROUP_DM, ANA_DM, STRANGERS_DM = 10, 11, 20, 30, 31
ANA, BEN, CAL = 100, 101, 102  # ana plays every game; ben plays the public game; cal plays nothing
_runs = itertools.count()

viewers = st.lists(st.tuples(st.sampled_from([ANA, BEN, CAL]), st.sampled_from([SERVER, OTHER_SERVER, None]),
                             st.sampled_from([GENERAL, THREAD, GROUP_DM, ANA_DM, STRANGERS_DM]),
                             st.sampled_from([None, True, False])),  # may they open the game's channel (None: unknown)
                   min_size=1, max_size=40)


async def games(store: GameStore) -> dict[str, int]:
    """A public game of ana and ben, a challenge game of ana's (open challenge), a group-DM game of ana's,
    and a daily game of ana's."""
    public = await store.create_game("flaming-pyramids", guild_id=SERVER, channel_id=GENERAL, options={}, seed=1,
                                     created_by=ANA)
    challenge = await store.create_challenge(guild_id=SERVER, channel_id=GENERAL, seed=2, options={}, created_by=ANA)
    entry = await store.create_game("continuous-pyramid", guild_id=SERVER, channel_id=GENERAL, options={}, seed=2,
                                    created_by=ANA, challenge_id=challenge)
    await store.set_thread(entry, THREAD)
    group = await store.create_game("flaming-pyramids", guild_id=None, channel_id=GROUP_DM, options={}, seed=3,
                                    created_by=ANA)
    daily_challenge = await store.create_challenge(guild_id=None, channel_id=ANA_DM, seed=4, options={},
                                                   created_by=None)
    daily = await store.create_game("continuous-pyramid", guild_id=None, channel_id=ANA_DM, options={}, seed=4,
                                    created_by=ANA, challenge_id=daily_challenge)
    for game in (public, entry, group, daily):
        await store.add_seat(game, user_id=ANA, limit=4)
    await store.add_seat(public, user_id=BEN, limit=4)
    return {"public": public, "entry": entry, "group": group, "daily": daily}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(viewers)
def test_what_the_rule_admits(tmp_path: Path, asked: list[tuple[int, int | None, int, bool | None]]) -> None:
    asyncio.run(check(tmp_path / f"bot{next(_runs)}.db", asked))


async def check(path: Path, asked: list[tuple[int, int | None, int, bool | None]]) -> None:
    db = await DatabaseTarget.parse(path).open()
    try:
        store = GameStore(db)
        ids = await games(store)
        for later in (timedelta(0), timedelta(days=30)):  # now, and after the challenge closed (its game runs on)
            now = db.clock() + later
            for user, guild, channel, opens in asked:
                viewer = Viewer(user, guild, channel, lambda _channel, opens=opens: opens)
                for name, game_id in ids.items():
                    record = await store.game_record(game_id)
                    assert record is not None
                    seen = await judge(store, record, viewer, now) is Verdict.SEEN
                    what = (name, viewer)
                    if guild is not None and guild != record.guild_id:
                        assert not seen, what  # another server's game: never
                    players = {s.user_id for s in await store.seats(game_id)}
                    if user in players and guild in (None, record.guild_id):
                        assert seen, what  # its players: from its server or by DM
                    if user not in players:
                        if name in ("entry", "daily"):
                            assert not seen, what  # a shared deal not settled: its player's alone
                        elif guild is None:
                            assert seen == (name == "group" and channel == GROUP_DM), what
                        else:  # a server's members, who can open its channel (asking from it, they can)
                            hidden = opens is False and channel not in (record.channel_id, record.thread_id)
                            assert seen == (guild == record.guild_id and not hidden), what
                    if seen:
                        assert (await admit(store, record, viewer, now)).game_id == game_id
                    else:
                        with pytest.raises(PlayError):
                            await admit(store, record, viewer, now)
        entry, public = await store.game_record(ids["entry"]), await store.game_record(ids["public"])
        assert entry is not None and public is not None
        assert private_place(entry) and not private_place(public)
        # Settled (closed, and its only game over): the challenge's game is its server's members' to see.
        await store.set_status(ids["entry"], "finished")
        entry = await store.game_record(ids["entry"])
        assert entry is not None
        member = Viewer(CAL, SERVER, GENERAL)
        assert await judge(store, entry, member, db.clock()) is Verdict.SHARED_DEAL, "not closed yet"
        assert await judge(store, entry, member, db.clock() + timedelta(days=30)) is Verdict.SEEN
        assert await judge(store, entry, Viewer(CAL, None, STRANGERS_DM), db.clock() + timedelta(days=30)) \
            is Verdict.UNREACHABLE, "by DM, a server's game is its players' alone"
    finally:
        await db.close()
