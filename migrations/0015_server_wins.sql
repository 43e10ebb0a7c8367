-- Wins per player in each server, kept as games finish (issue #37): `/pyramid leaderboard`
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
