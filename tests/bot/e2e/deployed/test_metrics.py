"""/healthz and /metrics of the deployed bot (``python -m bot`` with PYRAMID_METRICS_PORT),
scraped over HTTP after real interactions through the emulator."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from emulator.harness import Harness
from emulator.server import Emulator
from tests.bot.e2e.deployed.helpers import new_thread, play_one_move


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def port(bot_env: dict[str, str]) -> int:
    chosen = free_port()
    bot_env["PYRAMID_METRICS_PORT"] = str(chosen)
    return chosen


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a Prometheus text page, by name and labels."""
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def test_health_and_metrics_of_the_running_bot(emulator: Emulator, harness: Harness, port: int) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    base = f"http://127.0.0.1:{port}"
    async with aiohttp.ClientSession() as http:
        # Connected first; READY (discord.py's "ready") follows once the guilds have arrived.
        for _ in range(300):
            async with http.get(f"{base}/healthz") as resp:
                health = await resp.json()
                if resp.status == 200:
                    break
                assert resp.status == 503 and health["status"] == "unhealthy" and health["database"] is True
            await asyncio.sleep(0.05)
        assert health == {"status": "ok", "discord": True, "database": True}

        await harness.slash(ana, emulator.general, "pyramid new", game="continuous-pyramid", undo=False)
        thread = await new_thread(harness, emulator.general, 0)
        await harness.wait_for_message(thread, lambda m: bool(m.png_attachments()), timeout=120)
        await play_one_move(harness, ana, thread)

        # Pictures (the new board, the hand) may still be drawing after the reply: the queue
        # depth goes back to 0 once the bot is idle.
        for _ in range(300):
            async with http.get(f"{base}/metrics") as resp:
                assert resp.status == 200
                assert resp.headers["Content-Type"].startswith("text/plain; version=")
                page = await resp.text()
            found = samples(page)
            if found[("pyramid_render_queue_depth", ())] == 0 and found[("pyramid_ai_queue_depth", ())] == 0:
                break
            await asyncio.sleep(0.05)
    assert found[("pyramid_moves_total", (("game", "continuous-pyramid"),))] == 1
    commands = found[("pyramid_interactions_total", (("kind", "command"),))]
    assert commands == 2, "/pyramid new and /pyramid play"
    assert found[("pyramid_interactions_total", (("kind", "autocomplete"),))] >= 1
    answered = found[("pyramid_interaction_response_seconds_count", (("kind", "command"),))]
    assert answered == commands, "each command's first response was timed"
    within_10s = found[("pyramid_interaction_response_seconds_bucket", (("kind", "command"), ("le", "10.0")))]
    assert within_10s == answered
    assert found[("pyramid_render_queue_depth", ())] == 0, "every picture has been drawn"
    assert found[("pyramid_ai_queue_depth", ())] == 0
    assert ("pyramid_outbox_backlog", ()) in found
    assert found[("pyramid_backup_last_success_timestamp_seconds", ())] > 0, "the start-up backup"
    assert found[("pyramid_errors_total", (("level", "error"),))] == 0
    assert found[("pyramid_moves_total", (("game", "pyramido"),))] == 0, "every series exists from the start"

    # The operator's command (Docker's HEALTHCHECK) asks the same endpoint.
    env = {**os.environ, "PYRAMID_METRICS_PORT": str(port)}
    env.pop("DISCORD_TOKEN", None)
    done = await asyncio.to_thread(subprocess.run, [sys.executable, "-m", "bot", "health"], env=env,
                                   capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "ok"

    await harness.stop_bot()
    done = await asyncio.to_thread(subprocess.run, [sys.executable, "-m", "bot", "health"], env=env,
                                   capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "No answer" in done.stderr


async def test_a_taken_port_is_a_sentence_and_its_own_exit_code(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYRAMID_")}
        env.update({"DISCORD_TOKEN": "operator-test-token", "PYRAMID_DATABASE": f"{tmp_path}/bot.db",
                    "PYRAMID_METRICS_PORT": str(port), "PYRAMID_API_BASE_URL": "http://127.0.0.1:9",
                    "PYRAMID_BACKUP_HOURS": "0"})
        done = await asyncio.to_thread(subprocess.run, [sys.executable, "-m", "bot"], env=env, capture_output=True,
                                       text=True, timeout=60)
    assert done.returncode == 7, done.stderr
    assert "PYRAMID_METRICS_PORT" in done.stderr and "Traceback" not in done.stderr
