"""Gateway logins of deployed processes against an emulator enforcing Discord's limits at Discord's own numbers
(issue #42; ``tests/bot/e2e/test_logins.py`` has the quick versions):

- four ``python -m bot`` processes of eight shards each (32 shards) on one PostgreSQL database, started at the
  same moment, with ``max_concurrency`` 1 and 2: no IDENTIFY is refused, and from the first IDENTIFY to the last
  takes within 10 % of the least the limit allows ((32 / max_concurrency - 1) x 5 s);
- one process crash-looping (SIGKILLed as soon as it is connected, started again at once): its restarts back off
  (5 s, then 10 s before logging in), and it stops with exit code 9 before the day's session starts are spent, so
  Discord never resets the token.

Figures are printed (``-s``). Run with ``pytest -m slow -s tests/bot/e2e/deployed/test_logins_deployed.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from pathlib import Path
from typing import Any

import pytest

from bot.ops.exit_codes import ExitCode
from emulator.logins import IDENTIFY_WINDOW
from emulator.server import Emulator
from tools.bot_process import BotProcess

pytestmark = [pytest.mark.slow]

PROCESSES, SHARDS_EACH = 4, 8


async def run_until_connected(bot: BotProcess, token: str, timeout: float) -> asyncio.Task[None]:
    task = asyncio.create_task(bot.start(token))
    ready = asyncio.create_task(bot.wait_until_ready())
    done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    if ready not in done:
        ready.cancel()
        if task in done:
            task.result()
        raise AssertionError(f"not connected within {timeout} s")
    return task


@pytest.mark.postgres
@pytest.mark.parametrize("emulator_options", [
    {"shard_count": PROCESSES * SHARDS_EACH, "enforce_max_concurrency": True, "max_concurrency": 1},
    {"shard_count": PROCESSES * SHARDS_EACH, "enforce_max_concurrency": True, "max_concurrency": 2},
], ids=["max_concurrency=1", "max_concurrency=2"])
async def test_four_processes_of_eight_shards_start_together_without_a_refused_identify(
    emulator: Emulator, emulator_options: dict[str, Any], postgres_url: str, tmp_path: Path,
) -> None:
    count = PROCESSES * SHARDS_EACH
    concurrency = emulator_options["max_concurrency"]
    bots = [BotProcess(emulator.base_url, postgres_url, emulator, workers=0, log_path=tmp_path / f"bot{p}.log",
                       env={"PYRAMID_SHARD_COUNT": str(count),
                            "PYRAMID_SHARD_IDS": f"{p * SHARDS_EACH}-{(p + 1) * SHARDS_EACH - 1}",
                            "PYRAMID_BACKUP_HOURS": "0", "PYRAMID_LOG_LEVEL": "INFO"})
            for p in range(PROCESSES)]
    least = (math.ceil(count / concurrency) - 1) * IDENTIFY_WINDOW
    launched = time.monotonic()
    tasks = await asyncio.gather(*(run_until_connected(b, emulator.token, timeout=least * 1.5 + 120) for b in bots))
    connected = time.monotonic()
    try:
        assert emulator.logins.refusals == [], f"refused: {emulator.logins.refusals}"
        shards = sorted(s.shard for s in emulator.gateway.connected_sessions if s.shard)
        assert shards == [(i, count) for i in range(count)]
        times = [at for at, _ in emulator.logins.accepted]
        assert len(times) == count, "each shard logged in once"
        span = max(times) - min(times)
        print(f"\n{PROCESSES} processes x {SHARDS_EACH} shards, max_concurrency {concurrency}: first to last "
              f"IDENTIFY {span:.1f} s (the least the limit allows: {least:.0f} s, +{(span / least - 1) * 100:.1f} %); "
              f"launch to all connected {connected - launched:.1f} s; refused: {len(emulator.logins.refusals)}")
        assert span <= least * 1.10, (span, least)
    finally:
        for bot in bots:
            await bot.close()
        for task in tasks:
            with contextlib.suppress(Exception):
                await task


@pytest.mark.parametrize("emulator_options", [{"enforce_max_concurrency": True, "session_start_total": 6}])
async def test_a_crash_loop_stays_within_the_days_starts(
    emulator: Emulator, emulator_options: dict[str, Any], tmp_path: Path,
) -> None:
    token = emulator.token
    log = tmp_path / "bot.log"
    kills: list[float] = []  # loop times of each kill, to measure the wait before the next IDENTIFY
    exit_code: int | None = None
    for _ in range(10):
        bot = BotProcess(emulator.base_url, tmp_path / "bot.db", emulator, workers=0, log_path=log,
                         env={"PYRAMID_LOG_LEVEL": "INFO"})
        task = asyncio.create_task(bot.start(token))
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({task, ready}, timeout=120, return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            assert task in done, "neither connected nor stopped within 120 s"
            assert bot.process is not None
            exit_code = bot.process.returncode
            break
        bot.kill()
        kills.append(asyncio.get_running_loop().time())
        with contextlib.suppress(Exception):
            await task
    starts = [at for at, _ in emulator.logins.accepted]
    waits = [start - kill for kill, start in zip(kills, starts[1:], strict=False)]
    text = log.read_text(errors="replace")
    print(f"\ncrash loop: {len(starts)} starts of {emulator.logins.total} a day, then exit code {exit_code}; "
          f"kill to next IDENTIFY: {', '.join(f'{w:.1f} s' for w in waits)}")
    assert exit_code == ExitCode.SESSION_STARTS
    assert "Pyramid Bot will not log in: Discord allows this bot 6 gateway session starts a day and 1 are left" in text
    assert len(starts) == 5 and emulator.logins.used == 5 and emulator.logins.refusals == []
    assert emulator.token == token, "Discord never reset the token"
    # three starts an hour are free (the floor: 5 spendable starts a day is less than one an hour), then 5 s, 10 s
    assert waits[2] >= 5.0 and waits[3] >= 10.0 and waits[3] > waits[2], waits
    assert "restarting in a loop?): waiting 5.0 s" in text and "waiting 10.0 s" in text
