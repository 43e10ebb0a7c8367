"""100,000 random interactions against the deployed bot (see tools/fuzz.py)."""

from __future__ import annotations

import asyncio

import pytest

from tools.fuzz import run


@pytest.mark.slow
def test_a_hundred_thousand_random_interactions_break_nothing() -> None:
    figures = asyncio.run(run(100_000, seed=1))
    print(figures)
    assert figures["delivered"] >= 100_000
    assert figures["moves_attempted"] > 0 and figures["games"] >= 7
    assert figures["unanswered"] == 0, figures["examples"]["unanswered"]
    assert figures["internal_errors"] == 0, figures["examples"]["internal"]
    assert figures["bot_errors_logged"] == 0, figures["examples"]["logged"]
    assert figures["replay_problems"] == 0, figures["examples"]["replay"]
    assert figures["violations"] == 0
