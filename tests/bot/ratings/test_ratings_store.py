"""Ratings in the database, on SQLite and PostgreSQL: a game counts once, in the order
games ended, and a rebuild's write gives the numbers applying game by game gave."""

from __future__ import annotations

from bot.ratings import EVERYWHERE, GameOutcome, Ledger, SeatOutcome
from bot.ratings.store import RatingStore
from bot.store import GameStore

GUILD = 7


async def finished_game(store: GameStore, guild: int | None = GUILD, kind: str = "flaming-pyramids") -> int:
    return await store.create_game(kind, guild_id=guild, channel_id=2, options={}, seed=1, created_by=101,
                                   status="finished")


def outcome(game_id: int, second: int, *seats: tuple[int | str, int], guild: int | None = GUILD) -> GameOutcome:
    return GameOutcome(
        game_id=game_id, kind="flaming-pyramids", guild_id=guild, finished_at=f"2025-01-01T00:00:{second:02d}+00:00",
        rated=True,
        seats=tuple(SeatOutcome(seat=n, user_id=who if isinstance(who, int) else None,
                                ai_level=who if isinstance(who, str) else None,  # type: ignore[arg-type]
                                rank=rank, won=rank == 0) for n, (who, rank) in enumerate(seats)),
    )


def solo(game_id: int, second: int, user: int, score: float, won: bool) -> GameOutcome:
    return GameOutcome(game_id=game_id, kind="continuous-pyramid", guild_id=GUILD, rated=False, variant="solo",
                       finished_at=f"2025-01-01T00:00:{second:02d}+00:00",
                       seats=(SeatOutcome(seat=0, user_id=user, won=won, score=score),))


async def test_a_game_counts_once_however_often_it_is_applied(store: GameStore) -> None:
    ratings = RatingStore(store.db)
    game = await finished_game(store)
    first = outcome(game, 1, (101, 0), (102, 1), ("hard", 2))
    assert await ratings.apply(first)
    after_one = await ratings.everything()
    assert not await ratings.apply(first)
    assert await ratings.everything() == after_one
    standings, records, games = after_one
    assert games == [first] and records == []
    # Each player in the server and across servers; the AI has no row. Floats come back exactly.
    assert sorted((s.scope, s.user_id) for s in standings) == [(EVERYWHERE, 101), (EVERYWHERE, 102), (GUILD, 101),
                                                               (GUILD, 102)]
    assert standings == sorted(Ledger().apply_all([first]).standings.values(), key=lambda s: s.key)


async def test_games_applied_out_of_order_give_the_numbers_of_the_right_order(store: GameStore) -> None:
    ratings = RatingStore(store.db)
    ids = [await finished_game(store) for _ in range(4)]
    games = [outcome(ids[0], 1, (101, 0), (102, 1)), outcome(ids[1], 2, (102, 0), (103, 1), ("easy", 2)),
             outcome(ids[2], 3, (101, 1), (103, 0)), outcome(ids[3], 4, (101, 0), (102, 1), (103, 2))]
    for g in (games[0], games[2], games[1], games[3]):  # game 2's end was announced late
        assert await ratings.apply(g)
    standings, _, _ = await ratings.everything()
    assert standings == sorted(Ledger().apply_all(games).standings.values(), key=lambda s: s.key)


async def test_replace_all_writes_what_applying_game_by_game_wrote(store: GameStore) -> None:
    ratings = RatingStore(store.db)
    ids = [await finished_game(store) for _ in range(3)]
    cp = await finished_game(store, kind="continuous-pyramid")
    games = [outcome(ids[0], 1, (101, 0), (102, 1)), outcome(ids[1], 2, (102, 0), (101, 1), guild=None),
             outcome(ids[2], 3, (101, 0), ("normal", 1)), solo(cp, 4, 101, 97.0, False)]
    for g in games:
        await ratings.apply(g)
    live = await ratings.everything()
    assert await ratings.replace_all(reversed(games), finished=[*ids, cp])
    assert await ratings.everything() == live
    # A game that ended meanwhile: nothing is written, the caller works it out again.
    late = await finished_game(store)
    assert not await ratings.replace_all([], finished=[*ids, cp])
    assert await ratings.everything() == live
    assert await ratings.replace_all([], finished=[*ids, cp, late])
    assert await ratings.everything() == ([], [], [])


async def test_reads_for_stats_and_the_leaderboard(store: GameStore) -> None:
    ratings = RatingStore(store.db)
    ids = [await finished_game(store) for _ in range(4)]
    cp = await finished_game(store, kind="continuous-pyramid")
    for n, game_id in enumerate(ids):
        await ratings.apply(outcome(game_id, n, (101, 0), (102, 1), (103, 2) if n == 0 else ("easy", 2)))
    await ratings.apply(solo(cp, 9, 101, 144.0, True))
    board = await ratings.leaderboard(GUILD, "flaming-pyramids", min_games=2)
    assert [s.user_id for s in board] == [101, 102]  # 103 played once
    assert board[0].skill.ordinal > board[1].skill.ordinal
    assert [s.user_id for s in await ratings.leaderboard(GUILD, "flaming-pyramids", min_games=1)] == [101, 102, 103]
    assert await ratings.leaderboard(GUILD, "pyrinoes", min_games=1) == []
    mine = await ratings.standings_of(101, [GUILD])
    assert [(s.scope, s.games, s.wins, s.streak) for s in mine] == [(GUILD, 4, 4, 4)]
    records = await ratings.records_of(101, [GUILD, EVERYWHERE])
    assert [(r.scope, r.games, r.wins, r.best_score) for r in records] == [(EVERYWHERE, 1, 1, 144.0),
                                                                          (GUILD, 1, 1, 144.0)]
    assert await ratings.finish_times() == {**{g: f"2025-01-01T00:00:{n:02d}+00:00" for n, g in enumerate(ids)},
                                            cp: "2025-01-01T00:00:09+00:00"}
    assert (await ratings.counted(cp)) == solo(cp, 9, 101, 144.0, True)
    assert await ratings.finished_game_ids() == sorted([*ids, cp])
