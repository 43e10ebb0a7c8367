"""A seeded sample of the interaction fuzzer (see tools/fuzz.py) against the deployed
bot: 2,000 interactions, every kind of forged command and click among them. The
100,000-interaction run is a bench (``python -m tools.fuzz``, figures in the README);
this sample catches a regression in about a minute."""

from __future__ import annotations

import asyncio

import pytest

from tools.forge import COMMAND_KINDS, COMPONENT_KINDS
from tools.fuzz import run

SAMPLE = 2_000


@pytest.mark.slow
def test_a_seeded_sample_of_random_and_forged_interactions_breaks_nothing() -> None:
    figures = asyncio.run(run(SAMPLE, seed=1))
    print({k: v for k, v in figures.items() if k != "examples"})
    assert figures["delivered"] >= SAMPLE
    assert figures["moves_attempted"] > 0 and figures["games"] >= 7
    sent = figures["by_kind"]
    assert not [k for k in COMMAND_KINDS if not sent.get(f"cmd-{k}")], sent
    assert not [k for k in COMPONENT_KINDS if not sent.get(f"click-{k}")], sent
    assert figures["unanswered"] == 0, figures["examples"]["unanswered"]
    assert figures["internal_errors"] == 0, figures["examples"]["internal"]
    assert figures["bot_errors_logged"] == 0, figures["examples"]["logged"]
    assert figures["replay_problems"] == 0, figures["examples"]["replay"]
    assert figures["violations"] == 0
