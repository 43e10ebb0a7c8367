"""CP-3 (second edition): a Continuous Pyramid stock is face down on a real server.

The deal's seed rebuilds the whole stock order, so nothing the bot sends while a
challenge runs — messages, embeds, custom ids, attachments' names, the history file —
may carry it; and everyone who presses "Play this deal" still gets the same deal.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from emulator.harness import Harness
from engine.core import get_game
from tests.bot.e2e.driver import challenge_of, play_out, session_of


def everything_sent(emulator: Any) -> str:
    """All text the emulated Discord holds: contents, embeds, components, file names,
    and every earlier version of edited messages."""
    parts: list[str] = []
    for message in emulator.world.messages.values():
        parts.append(message.text)
        parts.append(json.dumps(message.embeds))
        parts.append(json.dumps(message.components))
        parts.append(json.dumps(message.history))
        parts.extend(a.filename for a in message.attachments)
        parts.extend(a.description or "" for a in message.attachments)
    return "\n".join(parts)


@pytest.mark.slow  # about 20 s: every entrant plays the challenge's deal
async def test_a_challenge_never_shows_its_seed_and_deals_everyone_the_same(emulator: Any, harness: Harness) -> None:
    (ana, ben), post = await challenge_of(emulator, harness, "ana", "ben")
    for user in (ana, ben):
        await harness.click(user, post, label="▶ Play this deal")
    games = [g for g in await harness.bot.services.store.all_games() if g.challenge_id is not None]
    assert len(games) == 2
    seed = games[0].seed
    # one challenge, one deal: the same seed, options and so the same opening for both
    game = get_game("continuous-pyramid")
    openings = [game.to_position(game.setup(1, g.options, g.seed)) for g in games]
    assert games[1].seed == seed and openings[0] == openings[1]
    assert f"#{games[0].challenge_id}" in post.text or f"#{games[0].challenge_id}" in harness.messages(
        emulator.general)[0].text

    ana_game = games[0]
    thread = next(t for t in harness.threads(emulator.general) if t.id == ana_game.thread_id)
    await play_out(harness, ana_game.id, {0: ana}, thread, give_up_when_stuck=True)
    assert (await session_of(harness, ana_game.id)).record.status == "finished"
    # Ana's game is over, but Ben is still playing the same deal: her record keeps it secret.
    history = await harness.slash(ana, thread, "pyramid history", game=ana_game.id)
    record = json.loads(await harness.fetch_attachment(history.attachments[0]))
    assert record["seed"] is None

    def keys(value: object) -> set[str]:
        if isinstance(value, dict):
            return set(value) | {k for v in value.values() for k in keys(v)}
        if isinstance(value, list):
            return {k for v in value for k in keys(v)}
        return set()

    # no field carries the stock (its stories say what the thread said: "B3 came from the stock …")
    assert not {k for k in keys(record) if "stock" in k or k == "deal"}

    sent = everything_sent(emulator)
    # as a number of its own: Discord's ids (snowflakes) are long numbers that may hold its digits
    assert not re.search(rf"(?<!\d){seed}(?!\d)", sent), "the seed of a running challenge was sent to Discord"
    # and the views behind every picture carry no deal number either
    for g in games:
        session = await session_of(harness, g.id)
        view = session.game.view(session.state, None)
        assert "deal" not in view and str(seed) not in json.dumps(view)
