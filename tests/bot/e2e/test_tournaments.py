"""Tournaments through the emulator (issue #40), as a server runs one: an admin opens it,
members sign up by command, the bot pairs each round, opens the games in threads named
for the tournament and round, keeps the standings card up to date in place, and posts
the final card with the podium. Written before the tournaments existed: every test here
failed on the code before them (no ``/pyramid-admin tournament``)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.ops.rebuild_ratings import rebuild_ratings
from emulator.harness import Harness
from emulator.model import Channel, Message, User
from tests.bot.clock import FakeClock
from tests.bot.e2e.driver import card_text, session_of
from tests.bot.e2e.test_clock_authority import click_a_move

NAMES = ("ana", "ben", "cat", "dan", "eve", "fay", "gus")


def runner(harness: Harness) -> Any:
    return harness.bot.client.tournaments


def standings_card(harness: Harness, channel: Channel) -> Message:
    cards = [m for m in harness.messages(channel) if "🏆" in card_text(m)]
    assert len(cards) == 1, [card_text(m) for m in cards]  # one card, edited in place
    return cards[0]


async def round_games(harness: Harness, tournament: int, number: int) -> list[int]:
    return [g.game_id for g in await runner(harness).store.games(tournament) if g.round == number]


async def thread_of(harness: Harness, game_id: int) -> Channel:
    record = await harness.bot.services.store.game_record(game_id)
    assert record is not None and record.thread_id is not None
    return next(t for t in harness.threads(harness.channel("general")) if t.id == record.thread_id)


async def play_and_resign(harness: Harness, users: dict[int, User], game_id: int, *, undo: bool = False) -> None:
    """The player to act makes a move by clicks (``undo``: and asks to take it back, which a
    tournament's game refuses under the server's default undo setting); then the other resigns."""
    thread = await thread_of(harness, game_id)
    session = await session_of(harness, game_id)
    mover = users[session.seat(session.to_act).user_id]
    told = await click_a_move(harness, mover, thread)
    assert "✅ You played" in told, told
    if undo:
        version = (await session_of(harness, game_id)).version
        refused = await harness.slash(mover, thread, "pyramid undo", game=game_id)
        assert "❌" in refused.text and "tournaments" in refused.text, refused.text
        assert (await session_of(harness, game_id)).version == version
    session = await session_of(harness, game_id)
    other = next(users[s.user_id] for s in session.seats if s.user_id != mover.id)
    res = await harness.slash(other, thread, "pyramid resign", game=game_id)
    assert "❌" not in res.text, res.text
    await harness.settle()


async def open_swiss(emulator: Any, harness: Harness, clock: FakeClock) -> tuple[dict[int, User], int]:
    users = [await harness.add_user(name) for name in NAMES]
    await harness.start_bot()
    general = emulator.general
    res = await harness.slash(users[0], general, "pyramid-admin tournament new", game="pyrinoes", format="swiss",
                              name="Autumn Cup", starts_in_hours=1, round_hours=48, rounds=3)
    assert "✅" in res.text, res.text
    number = int(re.search(r"#(\d+)", res.text).group(1))  # type: ignore[union-attr]
    assert "Sign-up is open" in card_text(standings_card(harness, general))
    for user in users:
        joined = await harness.slash(user, general, "pyramid tournament join")
        assert "✅" in joined.text, joined.text
    again = await harness.slash(users[1], general, "pyramid tournament join")
    assert "already" in again.text
    clock.advance(hours=1, minutes=1)
    await runner(harness).sweep()
    await harness.settle()
    return {u.id: u for u in users}, number


async def test_a_seven_player_swiss_of_pyrinoes_to_its_final_card(emulator: Any, harness: Harness,
                                                                  clock: FakeClock) -> None:
    users, number = await open_swiss(emulator, harness, clock)
    general = emulator.general
    store = runner(harness).store
    late = await harness.add_user("hal")
    refused = await harness.slash(late, general, "pyramid tournament join")
    assert "sign-up is closed" in refused.text  # a late joiner

    # Round 1: three games in threads named for the tournament and round, and one bye.
    first = await round_games(harness, number, 1)
    assert len(first) == 3
    for game_id in first:
        assert (await thread_of(harness, game_id)).name.startswith("Autumn Cup · Round 1 · Pyrinoes #")
    assert len(await store.byes(number)) == 1
    card_id = standings_card(harness, general).id
    for game_id in first:
        await play_and_resign(harness, users, game_id)
    assert standings_card(harness, general).id == card_id

    # Round 2 was paired by the last game's end: one entrant withdraws mid-game, one game runs
    # past the round's deadline and the clock decides it, one ends by resignation.
    second = await round_games(harness, number, 2)
    assert len(second) == 3
    leaver_game, timed_game, played_game = second
    leaver = users[(await harness.bot.services.store.seats(leaver_game))[0].user_id]
    gone = await harness.slash(leaver, general, "pyramid tournament withdraw")
    assert "✅" in gone.text, gone.text
    await harness.settle()
    assert (await harness.bot.services.store.game_record(leaver_game)).status == "finished"  # type: ignore[union-attr]
    await play_and_resign(harness, users, played_game)
    assert await round_games(harness, number, 3) == []  # the round waits for its last game
    timed = await session_of(harness, timed_game)
    late_seat = timed.seat(timed.to_act)
    clock.advance(hours=48, minutes=1)
    done = await runner(harness).sweep()
    await harness.settle()
    assert f"deadline:{number}:{timed_game}" in done
    places = {g.game_id: g.places for g in await store.games(number)}
    entrant_of = {e.user_id: e.entrant for e in await store.entrants(number)}
    assert places[timed_game][entrant_of[late_seat.user_id]] == 2  # the one to act ran out of time and lost

    # Round 3: six still in (the withdrawn entrant is paired no more), no bye.
    third = await round_games(harness, number, 3)
    assert len(third) == 3
    seated = {s.user_id for g in third for s in await harness.bot.services.store.seats(g)}
    assert leaver.id not in seated and len(seated) == 6
    for game_id in third:
        await play_and_resign(harness, users, game_id)

    # Nobody met anyone twice; nobody had two byes; the final card has the podium.
    met = [frozenset(p) for p in places.values() if p] + [frozenset(g.places) for g in await store.games(number)
                                                          if g.round == 3 and g.places]
    assert len(met) == len(set(met)) == 9
    byes = [entrant for _, entrant, _ in await store.byes(number)]
    assert len(byes) == len(set(byes)) == 2
    final = [m for m in harness.messages(general) if "🏁" in card_text(m)]
    assert len(final) == 1
    text = card_text(final[0])
    assert "Autumn Cup" in text and all(medal in text for medal in ("🥇", "🥈", "🥉"))
    card = card_text(standings_card(harness, general))
    assert "Final standings after 3 rounds" in card and "(withdrew)" in card
    assert standings_card(harness, general).id == card_id
    assert (await store.get(number)).status == "finished"  # type: ignore[union-attr]
    harness.assert_no_bot_errors()


@pytest.mark.slow  # about 25 s: five players' whole games over the rounds
async def test_a_five_player_tournament_of_flaming_pyramids_in_multi_player_rounds(
        emulator: Any, harness: Harness, clock: FakeClock) -> None:
    """Tables of at most four re-drawn by the standings each round; who cannot be seated sits
    out (a different player each round); points by finishing place; the deadline's forfeits
    end the games (the AIs that take the seats play them out)."""
    users = [await harness.add_user(name) for name in NAMES[:5]]
    await harness.start_bot()
    general = emulator.general
    res = await harness.slash(users[0], general, "pyramid-admin tournament new", game="flaming-pyramids",
                              format="tables", name="Fire Cup", starts_in_hours=1, round_hours=24, rounds=2,
                              table_size=4)
    assert "✅" in res.text, res.text
    number = int(re.search(r"#(\d+)", res.text).group(1))  # type: ignore[union-attr]
    for user in users:
        assert "✅" in (await harness.slash(user, general, "pyramid tournament join")).text
    clock.advance(hours=1, minutes=1)
    await runner(harness).sweep()
    await harness.settle()
    store = runner(harness).store
    for round_no in (1, 2):
        games = await round_games(harness, number, round_no)
        assert len(games) == 1
        assert len(await harness.bot.services.store.seats(games[0])) == 4
        clock.advance(hours=24, minutes=1)
        for _ in range(20):
            await runner(harness).sweep()
            await harness.settle()
            if all(g.places for g in await store.games(number) if g.round == round_no):
                break
        places = next(g.places for g in await store.games(number) if g.round == round_no)
        assert places is not None and sorted(places.values()) == [1, 2, 3, 4]
    sat_out = [entrant for _, entrant, _ in await store.byes(number)]
    assert len(sat_out) == len(set(sat_out)) == 2
    lines = card_text(standings_card(harness, general))
    assert "Final standings after 2 rounds" in lines
    final = [m for m in harness.messages(general) if "🏁" in card_text(m)]
    assert len(final) == 1 and "🥉" in card_text(final[0])


async def test_refusals_are_friendly_and_change_nothing(emulator: Any, harness: Harness, clock: FakeClock) -> None:
    admin = await harness.add_user("ana")
    member = await harness.add_user("ben", permissions=0)
    await harness.start_bot()
    general = emulator.general
    for user, options, said in [
        (admin, {"game": "continuous-pyramid", "format": "swiss"}, "is for two-player games"),
        (admin, {"game": "pyrinoes", "format": "tables"}, "Multi-player rounds need tables"),
    ]:
        res = await harness.slash(user, general, "pyramid-admin tournament new", check=False, **options)
        assert "❌" in res.text and said in res.text, res.text
    store = runner(harness).store
    assert await store.newest_in(emulator.guild.id, ("signup", "running", "finished", "cancelled")) is None
    for command, said in [("pyramid tournament join", "No tournament here fits"),
                          ("pyramid tournament standings", "No tournament here fits")]:
        res = await harness.slash(member, general, command)
        assert said in res.text, res.text
    res = await harness.slash(member, general, "pyramid tournament standings", tournament=99)
    assert "no tournament #99" in res.text
    opened = await harness.slash(admin, general, "pyramid-admin tournament new", game="pyrinoes", format="swiss",
                                 starts_in_hours=1)
    assert "✅" in opened.text
    res = await harness.slash(member, general, "pyramid tournament withdraw")
    assert "not (or no longer) in" in res.text
    # One entrant: the tournament is cancelled at its start, and the card says so.
    assert "✅" in (await harness.slash(member, general, "pyramid tournament join")).text
    clock.advance(hours=2)
    assert (await runner(harness).sweep()) == ["cancelled:1"]
    await harness.settle()
    assert "Cancelled: too few entrants" in card_text(standings_card(harness, general))
    assert await harness.bot.services.store.all_games() == []


async def test_a_round_robin_where_one_withdraws(emulator: Any, harness: Harness, clock: FakeClock) -> None:
    """Four entrants, three rounds: every pair is scheduled once; the one who withdraws in round 2
    forfeits that game, and their round-3 opponent gets the forfeit win without a game."""
    users = [await harness.add_user(name) for name in NAMES[:4]]
    by_id = {u.id: u for u in users}
    await harness.start_bot()
    general = emulator.general
    res = await harness.slash(users[0], general, "pyramid-admin tournament new", game="pyrinoes",
                              format="round-robin", name="Ring", starts_in_hours=1)
    number = int(re.search(r"#(\d+)", res.text).group(1))  # type: ignore[union-attr]
    for user in users:
        await harness.slash(user, general, "pyramid tournament join")
    clock.advance(hours=1, minutes=1)
    await runner(harness).sweep()
    await harness.settle()
    store = runner(harness).store
    assert (await store.get(number)).rounds == 3  # type: ignore[union-attr]
    for game_id in await round_games(harness, number, 1):
        await play_and_resign(harness, by_id, game_id)
    second = await round_games(harness, number, 2)
    leaver = by_id[(await harness.bot.services.store.seats(second[0]))[1].user_id]
    assert "✅" in (await harness.slash(leaver, general, "pyramid tournament withdraw")).text
    await harness.settle()
    await play_and_resign(harness, by_id, second[1])
    third = await round_games(harness, number, 3)
    assert len(third) == 1  # the leaver's game is not played
    await play_and_resign(harness, by_id, third[0])
    entrants = {e.user_id: e.entrant for e in await store.entrants(number)}
    byes = await store.byes(number)
    assert [(r, points) for r, _, points in byes] == [(3, 1.0)] and byes[0][1] != entrants[leaver.id]
    met = [frozenset(g.places) for g in await store.games(number)] + [
        frozenset((entrant, entrants[leaver.id])) for _, entrant, _ in byes]
    assert len(met) == len(set(met)) == 6  # every pair once
    assert (await store.get(number)).status == "finished"  # type: ignore[union-attr]


async def test_an_unrated_tournament_keeps_its_games_out_of_the_ratings(emulator: Any, harness: Harness,
                                                                       clock: FakeClock) -> None:
    """``rated:False``: its games are not counted at all (a rated tournament's are, as any game's)."""
    users = [await harness.add_user(name) for name in NAMES[:2]]
    by_id = {u.id: u for u in users}
    await harness.start_bot()
    general = emulator.general
    counted: dict[bool, int] = {}
    for rated in (False, True):
        res = await harness.slash(users[0], general, "pyramid-admin tournament new", game="pyrinoes",
                                  format="swiss", name=f"Rated {rated}", starts_in_hours=1, rounds=1, rated=rated)
        number = int(re.search(r"#(\d+)", res.text).group(1))  # type: ignore[union-attr]
        for user in users:
            await harness.slash(user, general, "pyramid tournament join", tournament=number)
        clock.advance(hours=1, minutes=1)
        await runner(harness).sweep()
        await harness.settle()
        [game_id] = await round_games(harness, number, 1)
        await play_and_resign(harness, by_id, game_id, undo=True)
        assert (await runner(harness).store.get(number)).status == "finished"  # type: ignore[union-attr]
        row = await harness.bot.services.db.read_one("SELECT COUNT(*) FROM rated_games WHERE game_id = ?",
                                                     (game_id,))
        counted[rated] = int(row[0]) if row is not None else 0
    assert counted == {False: 0, True: 1}
    # ``pyramid-bot rebuild-ratings`` works every finished game out again: the unrated one stays out.
    rebuilt = await rebuild_ratings(harness.bot.services.db)
    assert (rebuilt.finished, rebuilt.rated) == (2, 1), rebuilt.describe()
