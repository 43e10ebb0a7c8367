"""Ratings through the emulator: rated games change ratings, ``/pyramid stats`` and the
leaderboard show them, resigning is a loss (each Flaming Pyramids game here ends so),
solo games are records, and
``pyramid-bot rebuild-ratings`` gives back exactly the same numbers from the move logs."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from typing import Any

from bot.ops.rebuild_ratings import rebuild_ratings
from bot.ratings import EVERYWHERE, START_MU
from bot.ratings.rules import fewest_moves
from bot.ratings.store import RatingStore
from emulator.harness import Harness
from emulator.model import Channel, User
from tests.bot.e2e.driver import latest_game_id, play_each, session_of, start_flaming

RATING = re.compile(r"Flaming Pyramids — rating \*\*(\d+\.\d) ± (\d+\.\d)\*\* · (\d+) games?: (\d+) won")


async def flaming(emulator: Any, harness: Harness, players: list[User], ai: str | None = None) -> int:
    """A rated Flaming Pyramids game (no turn limit: a short one is not rated) that ends when its
    last person resigns, once everyone has played enough for it to rate them; its number."""
    thread, game_id = await start_flaming(emulator, harness, players, ai=ai)
    await harness.settle()
    least = fewest_moves("flaming-pyramids", len(players) + (ai is not None))
    await play_each(harness, game_id, dict(enumerate(players)), thread, least)
    assert "resigned" in (await harness.slash(players[-1], thread, "pyramid resign", game=game_id)).text
    await harness.settle()
    final = await session_of(harness, game_id)
    assert final.record.status == "finished"
    return game_id


async def stats(harness: Harness, user: User, channel: Channel, **options: Any) -> str:
    res = await harness.slash(user, channel, "pyramid stats", **options)
    assert res.ephemeral
    return res.text


async def test_ratings_change_show_and_are_rebuilt_identically(emulator: Any, harness: Harness, database: str
                                                               ) -> None:
    ana, ben, cal = [await harness.add_user(name) for name in ("ana", "ben", "cal")]
    await harness.start_bot()
    general = emulator.general
    guild = general.guild_id
    ratings = RatingStore(harness.bot.services.db)
    assert "No finished games counted yet" in await stats(harness, ana, general)

    # A rated game between two people: both ratings move, the winner's up.
    first = await flaming(emulator, harness, [ana, ben])
    winner = ana  # ben resigned
    text = await stats(harness, ana, general)
    found = RATING.findall(text)
    assert len(found) == 2, text  # in this server, and across servers
    mu, spread, games, _ = found[0]
    assert games == "1" and float(spread) < 2 * 25 / 3
    mine = {s.scope: s for s in await ratings.standings_of(ana.id, [guild, EVERYWHERE])}
    assert f"{mine[guild].mu:.1f}" == mu and mine[guild].mu == mine[EVERYWHERE].mu
    won = {s.user_id: s for s in await ratings.standings_of(winner.id, [guild])}[winner.id]
    assert won.mu > START_MU and won.wins == 1 and won.streak == 1
    assert "Favourite game: 🔥 Flaming Pyramids (1 game)" in text
    # Someone else's stats, one game only.
    other = await stats(harness, cal, general, player=ben, game="flaming-pyramids")
    assert f"<@{ben.id}>" in other and len(RATING.findall(other)) == 2

    # A person against a hard AI: rated for the person; the AI's rating is fixed.
    await flaming(emulator, harness, [cal], ai="hard")
    cal_rating = await ratings.standings_of(cal.id, [guild])
    assert len(cal_rating) == 1 and cal_rating[0].games == 1 and cal_rating[0].mu != START_MU
    assert len((await ratings.everything())[0]) == 6  # three people, two scopes: no row for the AI

    # Another game between the two, then the leaderboard lists those with 2 games.
    await flaming(emulator, harness, [ben, ana])
    board = await harness.slash(ana, general, "pyramid leaderboard", game="flaming-pyramids", min_games=2)
    assert board.ephemeral and "at least 2 games" in board.text
    assert f"<@{ana.id}>" in board.text and f"<@{ben.id}>" in board.text and f"<@{cal.id}>" not in board.text
    lines = [line for line in board.text.splitlines() if line[:2] in ("1.", "2.")]
    top = max(await ratings.standings_of(ana.id, [guild]) + await ratings.standings_of(ben.id, [guild]),
              key=lambda s: s.skill.ordinal)
    assert lines[0].startswith(f"1. <@{top.user_id}>")
    default = await harness.slash(ana, general, "pyramid leaderboard", game="flaming-pyramids")
    assert "at least 3 games" in default.text and "Nobody here has 3" in default.text
    plain = await harness.slash(ana, general, "pyramid leaderboard")
    assert "Wins in this server" in plain.text  # without game: as before

    # Resigning is a loss: ana leaves a Pyrinoes game against ben at once. Having hardly played,
    # she is nobody's opponent: ben gains nothing (bot.ratings.rules.idle_seats).
    res = await harness.slash(ana, general, "pyramid new", game="pyrinoes", target=10)
    await harness.click(ben, res.message, label="Join")
    await harness.click(ana, res.message, label="Start")
    resigned = await latest_game_id(harness)
    thread = harness.threads(general)[-1]
    assert "resigned" in (await harness.slash(ana, thread, "pyramid resign", game=resigned)).text
    await harness.settle()
    pyrinoes = {s.user_id: s for s in await ratings.standings_of(ana.id, [guild]) + await ratings.standings_of(
        ben.id, [guild]) if s.kind == "pyrinoes"}
    assert (pyrinoes[ana.id].losses, pyrinoes[ana.id].wins) == (1, 0)
    assert ben.id not in pyrinoes  # the game counts for nothing for him
    assert pyrinoes[ana.id].mu < START_MU

    # A cancelled lobby never counts; a solo game given up at once is a completion record.
    res = await harness.slash(ben, general, "pyramid new", game="pyrinoes")
    await harness.click(ben, res.message, label="Cancel")
    await harness.slash(cal, general, "pyramid new", game="continuous-pyramid", undo=False)
    solo = await latest_game_id(harness)
    await harness.slash(cal, harness.threads(general)[-1], "pyramid resign", game=solo)
    await harness.settle()
    text = await stats(harness, cal, general)
    assert "Continuous Pyramid, solo — 1 finished, 0 won" in text, text
    live = await ratings.everything()
    standings, records, counted = live
    assert {g.game_id for g in counted} == {first, first + 1, first + 2, resigned, solo}
    assert len(standings) == 8 and len(records) == 2  # ana: 2 games, ben 1 x 2 scopes; cal: 1 and a record
    assert not any(g.rated for g in counted if g.game_id == solo)

    # The rebuild replays every finished game from its move log: the same numbers, to the bit.
    summary = await rebuild_ratings(harness.bot.services.db)
    assert (summary.finished, summary.rated, summary.recorded, summary.skipped) == (5, 4, 1, [])
    assert await ratings.everything() == live
    # From empty tables too, by the operator's command in its own process.
    assert await ratings.replace_all([], finished=[g.game_id for g in counted])
    assert await ratings.everything() == ([], [], [])
    done = subprocess.run([sys.executable, "-m", "bot", "rebuild-ratings"], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "PYRAMID_DATABASE": database})
    assert done.returncode == 0, done.stderr
    assert "Rebuilt ratings from 5 finished games: 4 rated, 1 completion records" in done.stdout
    assert await ratings.everything() == live
