"""Issue #43, finding 11: a click the bot leaves unanswered past Discord's 3 seconds shows "This interaction
failed" in the page, and is a broken rule (``interaction-deadline``) the moment the page says so, whether
or not a late answer comes afterwards: every test of the page (the browser tests' ``Playground.violations``)
fails on it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import aiohttp
import pytest

from emulator import Emulator, Harness, User
from emulator.tests.test_web import Tab
from emulator.web import WebClient


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def test_this_interaction_failed_is_a_violation_when_the_page_shows_it(
    emulator: Emulator, bot: Harness, alice: User, web: WebClient, http: aiohttp.ClientSession
) -> None:
    tab = Tab(web, http, alice)
    emulator.interaction_deadline = 0.2
    with emulator.expect_violation("interaction-deadline"):
        status, answer = await tab.command(emulator, emulator.general.id, "toy", ["late"], {"delay": 1.5})
        assert status == 200 and answer["failed"] == "This interaction failed"
        told = [v for v in emulator.violations if v.rule == "interaction-deadline"]
        assert len(told) == 1 and "This interaction failed" in told[0].detail, emulator.violations
        await asyncio.sleep(1.6)  # the late answer comes, and is refused, without a second violation
        await bot.settle()
        assert len([v for v in emulator.violations if v.rule == "interaction-deadline"]) == 1
