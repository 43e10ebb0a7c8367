"""Gateway logins through the emulator with Discord's login limits on (issue #42): bots on one database take
turns on the IDENTIFY limit (none refused), a process refuses to start when the day's session starts are nearly
spent, a process restarting in a loop waits, and PYRAMID_SHARD_COUNT=auto takes Discord's recommendation.

Discord's 5 s window is shortened here (the emulator's to 1 s, the bots' spacing to match) so these run in
seconds; ``deployed/test_logins_deployed.py`` (slow) runs Discord's own numbers with real processes."""

from __future__ import annotations

import itertools
import time
from typing import Any

import pytest

from bot.gateway import policy
from bot.gateway.logins import SessionStartsSpent
from bot.gateway.policy import LoginPolicy
from emulator.gateway import shard_of
from emulator.harness import Harness, HarnessError
from emulator.server import Emulator

WINDOW = 1.0
#: Logins this far apart at the bots' end land at least a WINDOW apart at the emulator's even when a
#: busy machine holds one IDENTIFY back between the hook and the socket (Discord's own margin, 5 %,
#: is 50 ms of a 1 s window: a loaded test machine stalls longer than that, and the test went red).
SPACING = WINDOW * 1.5
#: The bots' policy for a 1 s window; restarts free.
POLICY = LoginPolicy(spacing=SPACING, free_starts=1_000)


@pytest.fixture
def login_policy() -> LoginPolicy:
    return POLICY


def limited(**more: Any) -> dict[str, Any]:
    return {"enforce_max_concurrency": True, "shard_count": 4, **more}


@pytest.fixture
def emulator_options() -> dict[str, Any]:
    return limited()


@pytest.fixture
def short_window(emulator: Emulator) -> Emulator:
    emulator.logins.window = WINDOW
    return emulator


def gaps(emulator: Emulator, bucket: int = 0, max_concurrency: int = 1) -> list[float]:
    times = [at for at, shard in emulator.logins.accepted if (shard or (0, 1))[0] % max_concurrency == bucket]
    return [b - a for a, b in itertools.pairwise(times)]


@pytest.mark.parametrize("emulator_options", [limited(max_concurrency=2)])
async def test_buckets_log_in_side_by_side(
    short_window: Emulator, harness: Harness, emulator_options: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    emulator = short_window
    monkeypatch.setenv("PYRAMID_SHARD_COUNT", "auto")
    started = time.monotonic()
    await harness.start_bot()
    assert harness.bot.client.shard_count == 4, "auto: Discord's recommendation"
    assert emulator.logins.refusals == []
    for bucket in (0, 1):
        assert len(gaps(emulator, bucket, 2)) == 1 and gaps(emulator, bucket, 2)[0] >= WINDOW
    # two shards a bucket: one window to wait, not three
    assert time.monotonic() - started < 3 * WINDOW


@pytest.mark.parametrize("emulator_options", [limited(session_start_total=20, shard_count=2)])
async def test_a_process_does_not_log_in_when_the_days_starts_are_nearly_spent(
    short_window: Emulator, harness: Harness, emulator_options: Any
) -> None:
    emulator = short_window
    emulator.logins.used = 16  # 4 left: starting 2 shards would leave 2, and 2 (a tenth) are kept back: allowed
    await harness.start_bot()
    await harness.stop_bot()
    assert emulator.logins.used == 18
    token = emulator.token
    with pytest.raises(HarnessError) as caught:
        await harness.start_bot()
    assert isinstance(caught.value.__cause__, SessionStartsSpent)
    said = str(caught.value.__cause__)
    assert "Discord allows this bot 20 gateway session starts a day and 2 are left" in said
    assert emulator.logins.used == 18 and emulator.logins.refusals == [], "no IDENTIFY was sent"
    assert emulator.token == token, "the token was never reset"
    assert emulator.requests_to("GET /gateway/bot")


@pytest.mark.parametrize("emulator_options", [limited(shard_count=1, session_start_total=20)])
async def test_a_process_restarting_in_a_loop_waits_longer_each_time(
    short_window: Emulator, harness: Harness, emulator_options: Any, caplog: pytest.LogCaptureFixture,
) -> None:
    emulator = short_window
    policy = LoginPolicy(spacing=SPACING, free_starts=2, backoff=0.4, backoff_cap=10.0)
    harness.bot_factory = _with_policy(harness.bot_factory, policy)
    took = []
    for _ in range(4):
        started = time.monotonic()
        await harness.start_bot()
        took.append(time.monotonic() - started)
        await harness.stop_bot()
    assert took[2] >= 0.4 and took[3] >= 0.8, took
    waits = [r.getMessage() for r in caplog.records if "restarting in a loop" in r.getMessage()]
    assert [w.split("waiting ")[1][:5] for w in waits] == ["0.4 s", "0.8 s"], waits
    assert emulator.logins.refusals == [] and emulator.logins.used == 4


def _with_policy(factory: Any, policy: LoginPolicy) -> Any:
    async def make(api_base_url: str, token: str) -> Any:
        bot = await factory(api_base_url, token)
        bot.client.logins.policy = policy
        return bot

    return make


@pytest.mark.parametrize("emulator_options", [{"shard_count": 2}])
async def test_a_crowded_shard_is_warned_about_when_it_is_ready(
    emulator: Emulator, harness: Harness, emulator_options: Any, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Discord's 2,500 guilds a shard, lowered to 1 so that two guilds crowd a shard of the emulator."""
    monkeypatch.setattr(policy, "GUILDS_PER_SHARD", 1)
    crowded = shard_of(emulator.guild.id, 2)
    await harness.add_guild("a second on the same shard", shard=crowded)
    await harness.start_bot()
    warned = [r.getMessage() for r in caplog.records if r.name == "bot.gateway.crowding"]
    assert [w.split(",")[0] for w in warned] == [f"shard {crowded} holds 2 servers"]
