"""Playing games through the harness the way people do: slash commands and clicks."""

from __future__ import annotations

from typing import Any

from emulator.harness import Harness


def bot_of(harness: Harness) -> Any:
    return harness.bot


async def session_of(harness: Harness, game_id: int) -> Any:
    return await harness.bot.services.sessions.load(game_id)


async def latest_game_id(harness: Harness) -> int:
    games = await harness.bot.services.store.all_games()
    return games[-1].id


async def play_out(harness: Harness, game_id: int, users: dict[int, Any], channel: Any, *,
                   max_moves: int = 3000, give_up_when_stuck: bool = False,
                   prefer: tuple[str, ...] = ()) -> Any:
    """Finish a game by typing moves with /pyramid play, taking the first
    autocomplete suggestion each time (AI seats move by themselves). With
    ``give_up_when_stuck``, a stuck solitaire is resigned rather than undone;
    ``prefer`` orders moves by their verb (earlier verbs first)."""
    for _ in range(max_moves):
        session = await session_of(harness, game_id)
        if session.over or session.record.status != "active":
            return session
        seat = session.to_act
        user = users.get(seat)
        assert user is not None, f"seat {seat} has no human and no AI moved"
        choices = await harness.autocomplete(user, channel, "pyramid play", "move", "", game=game_id)
        assert choices, "autocomplete offered no move to the player to act"
        values = [c["value"] for c in choices]
        if prefer:
            rank = {verb: i for i, verb in enumerate(prefer)}
            values.sort(key=lambda v: rank.get(v.split()[0], len(rank)))
        value = values[0]
        if give_up_when_stuck and "resign" in values:
            value = "resign"
        res = await harness.slash(user, channel, "pyramid play", move=value, game=game_id)
        assert "✅" in res.text, res.text
    raise AssertionError("the game did not finish")
