-- Counts the listings show, kept as games finish (issue #37). Wins per player in each
-- server: `/pyramid leaderboard`
-- without a game read every finished game of the server and its seats (20,000 games:
-- 20,005 reads, 7 s). Now it reads at most 15 rows of this table, by its index.
-- bot/store/tallies.py adds each game once, in the transaction that finishes it.
--
-- played: finished games of the server the person had a seat in; wins: those their seat
-- won without having resigned. first_game/first_seat: where the person was first seen
-- (the smallest game, then seat), which orders equal tallies as the listing always did.
CREATE TABLE server_wins (
    guild_id   BIGINT  NOT NULL,
    user_id    BIGINT  NOT NULL,
    played     INTEGER NOT NULL,
    wins       INTEGER NOT NULL,
    first_game BIGINT  NOT NULL,
    first_seat INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
CREATE INDEX server_wins_board ON server_wins(guild_id, wins DESC, played, first_game, first_seat);

-- The games finished before: as the listing counted them (a result that is no JSON: the
-- game was left out).
INSERT INTO server_wins (guild_id, user_id, played, wins, first_game, first_seat)
SELECT g.guild_id, s.user_id, COUNT(*),
       SUM(CASE WHEN s.resigned = 0 AND g.result IS NOT NULL AND EXISTS (
               SELECT 1 FROM json_each(g.result, '$.winners') w WHERE w.value = s.seat) THEN 1 ELSE 0 END),
       MIN(g.id), 0
FROM games g JOIN seats s ON s.game_id = g.id
WHERE g.status = 'finished' AND g.guild_id IS NOT NULL AND s.user_id IS NOT NULL
  AND (g.result IS NULL OR json_valid(g.result))
GROUP BY g.guild_id, s.user_id;
UPDATE server_wins SET first_seat = (
    SELECT s.seat FROM seats s WHERE s.game_id = server_wins.first_game AND s.user_id = server_wins.user_id);

-- The rating leaderboard reads its 15 rows from an index in its own order (mu - 3 sigma).
CREATE INDEX ratings_board ON ratings(scope, kind, (mu - 3 * sigma) DESC, games DESC, user_id);

-- Listings that look games up by their thread or their challenge (and a channel's latest
-- challenge) read them by an index, not by reading every game; a player's games are found
-- newest first.
CREATE INDEX games_by_thread ON games(thread_id);
CREATE INDEX games_by_challenge ON games(challenge_id);
CREATE INDEX seats_by_user_game ON seats(user_id, game_id);
CREATE INDEX challenges_by_channel ON challenges(channel_id, id);

-- The daily deal's streaks, kept as daily games finish (bot/store/daily.py): the streak
-- board read every daily result of the server's players, one row per player and day.
-- best: the longest run of consecutive finished days; run: the latest run, which ends on
-- last_day. daily_players: who took a daily deal from a server, under their latest name.
CREATE TABLE daily_streaks (
    user_id  BIGINT  NOT NULL PRIMARY KEY,
    best     INTEGER NOT NULL,
    run      INTEGER NOT NULL,
    last_day TEXT    NOT NULL
);
CREATE TABLE daily_players (
    guild_id     BIGINT NOT NULL,
    user_id      BIGINT NOT NULL,
    name         TEXT   NOT NULL,
    last_day     TEXT   NOT NULL,
    last_started TEXT   NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
INSERT INTO daily_players (guild_id, user_id, name, last_day, last_started)
SELECT r.guild_id, r.user_id, r.name, r.day, r.started_at FROM daily_results r
WHERE r.guild_id IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM daily_results o WHERE o.guild_id = r.guild_id AND o.user_id = r.user_id
    AND (o.day > r.day OR (o.day = r.day AND o.started_at > r.started_at)));
-- Runs of consecutive days: a day's number minus its rank is the same along a run.
WITH days AS (SELECT DISTINCT user_id, day FROM daily_results WHERE finished_at IS NOT NULL),
islands AS (SELECT user_id, day,
                   CAST(julianday(day) AS INTEGER) - ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY day) AS island
            FROM days),
runs AS (SELECT user_id, island, COUNT(*) AS length, MAX(day) AS last FROM islands GROUP BY user_id, island)
INSERT INTO daily_streaks (user_id, best, run, last_day)
SELECT user_id, MAX(length),
       (SELECT r.length FROM runs r WHERE r.user_id = runs.user_id ORDER BY r.last DESC LIMIT 1), MAX(last)
FROM runs GROUP BY user_id;
