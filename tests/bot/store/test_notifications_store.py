"""The notification store on both backends (migration 0017): settings and a game's override, one
verdict per notice, the hour's cap and the minute's batch kept through the store's own transactions
(a long random run, checked on the rows written), the digest claimed once a local day, a closed
DM told once, a turn's repeats and its "no more pings"."""

from __future__ import annotations

import random
from datetime import timedelta

from bot.notifications.policy import BATCH, CAP_PER_HOUR, HOUR, Event, Ledger, Settings, decide, merge
from bot.store import GameStore
from bot.store.notifications import NotificationStore, PlayerLog, instant
from tests.bot.clock import FakeClock

USER = 42


async def test_settings_and_a_games_override(store: GameStore) -> None:
    notes = NotificationStore(store.db)
    assert await notes.settings(USER) == {}
    await notes.save(USER, 0, {"mode": "dm", "interval_hours": 8, "zone": "Europe/Berlin"})
    await notes.save(USER, 7, {"muted": True})
    await notes.save(USER, 0, {"heads_up": True})
    own = await notes.settings(USER)
    assert own == {"mode": "dm", "interval_hours": 8, "heads_up": True, "zone": "Europe/Berlin"}
    game = merge(merge(Settings(), own), await notes.settings(USER, 7))
    assert game.muted and game.mode == "dm" and game.heads_up
    await notes.save(USER, 0, {"digest_hour": 9})
    await notes.save(USER, 0, {"digest_hour": None})
    assert "digest_hour" not in await notes.settings(USER)
    assert await notes.clear(USER, 7) and not await notes.clear(USER, 7)
    assert await notes.settings(USER, 7) == {}


async def test_the_cap_and_the_batch_hold_through_the_store(store: GameStore, clock: FakeClock) -> None:
    notes = NotificationStore(store.db)
    rng = random.Random(39)
    version = 0
    for _ in range(250):
        if rng.random() < 0.6:
            version += 1
            event = Event(rng.randrange(1, 20), version, "turn")
            now = clock.now

            def judge(history: PlayerLog, event: Event = event, now: object = now) -> str:
                return decide(Settings(), event, clock.now, history.buzzes, len(history.held))

            first = await notes.decide(USER, event.game_id, event.version, "turn", now, judge)
            assert await notes.decide(USER, event.game_id, event.version, "turn", now, judge) == first  # one verdict
        else:
            held = (await notes.player_log(USER, clock.now)).held
            now = clock.now

            def choose(history: PlayerLog, now: object = now) -> list:  # type: ignore[type-arg]
                ledger = Ledger(list(history.buzzes), [(Event(r.game_id, r.version, "turn"), r.at)
                                                       for r in history.held])
                return list(history.held) if ledger.flush(clock.now, [e for e, _ in ledger.held]) else []

            await notes.batch(USER, now, [r for r in held if rng.random() < 0.2], choose)
        clock.advance(seconds=rng.choice([0, 5, 30, 61, 300, 900]))
    rows = await store.db.read_all("SELECT at FROM notify_log WHERE user_id = ? AND verdict = 'buzz' ORDER BY at",
                                   (USER,))
    buzzes = [instant(r[0]) for r in rows]
    assert len(buzzes) > CAP_PER_HOUR  # not vacuous
    for i, at in enumerate(buzzes):
        assert len([b for b in buzzes[i:] if b < at + HOUR]) <= CAP_PER_HOUR
        if i:
            assert at - buzzes[i - 1] >= BATCH


async def test_the_digest_is_claimed_once_a_day_and_a_closed_dm_told_once(store: GameStore,
                                                                           clock: FakeClock) -> None:
    notes = NotificationStore(store.db)
    await notes.save(USER, 0, {"digest_hour": 9})
    await notes.save(USER + 1, 0, {"mode": "digest"})
    await notes.save(USER + 2, 0, {"mode": "dm"})
    assert [u for u, _s, _d in await notes.digest_players("2027-03-01")] == [USER, USER + 1]
    assert await notes.digest_sent(USER, "2027-03-01", clock.now)
    assert not await notes.digest_sent(USER, "2027-03-01", clock.now)  # another pass has it
    assert [u for u, _s, _d in await notes.digest_players("2027-03-01")] == [USER + 1]
    assert await notes.digest_sent(USER, "2027-03-02", clock.now + timedelta(days=1))
    await notes.digest_blocked(USER)
    assert await notes.unreachable() == {USER}
    assert await notes.blocked_untold(USER) and not await notes.blocked_untold(USER)
    assert await notes.unreachable() == set()


async def test_a_turns_repeats_and_no_more_pings(store: GameStore) -> None:
    notes = NotificationStore(store.db)
    assert await notes.turn(USER, 5, 3) == (0, False)
    await notes.repeated(USER, 5, 3)
    await notes.repeated(USER, 5, 3)
    assert await notes.turn(USER, 5, 3) == (2, False)
    assert await notes.stop(USER, 5, 3) and not await notes.stop(USER, 5, 3)
    assert await notes.turn(USER, 5, 3) == (2, True)
    assert await notes.turn(USER, 5, 4) == (0, False)
