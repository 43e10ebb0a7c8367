-- The correspondence clock (issue #25; bot/play/clock.py, bot/store/clocks.py).
-- One file serves both backends: BIGINT holds Discord ids and game ids, DOUBLE
-- PRECISION is SQLite's REAL, nothing autoincrements. Instants are ISO-8601 UTC text.

-- Each seat's time bank, in seconds, as its current or next turn starts. A seat without
-- a row has a full bank (its server's timeout_hours): that is how the games running at
-- this upgrade move to the clock without losing time, since a running turn then starts
-- with a full bank, from its last move, just as its old timeout counted.
CREATE TABLE seat_clocks (
    game_id      BIGINT           NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat         INTEGER          NOT NULL,
    bank_seconds DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seat)
);

-- What a move that passes the turn on adds to the seat's bank (NULL: the bot's
-- PYRAMID_INCREMENT_HOURS). timeout_hours is now the full bank; reminder_hours how much
-- of a full bank a turn uses before the reminder. Both keep their stored values: with a
-- full bank they fall due exactly when they did.
ALTER TABLE guild_settings ADD COLUMN increment_hours DOUBLE PRECISION;

-- Time away is granted per server: an away pauses a game only for the days the budget
-- of that game's own server granted when the player left (guild_id 0: games in DMs).
CREATE TABLE away_grants (
    user_id   BIGINT  NOT NULL,
    starts_at TEXT    NOT NULL,
    guild_id  BIGINT  NOT NULL,
    days      INTEGER NOT NULL CHECK (days >= 0),
    PRIMARY KEY (user_id, starts_at, guild_id)
);
-- 1: the away has its grants above. 0: an away from before this upgrade, which pauses
-- every game of the player as it did (still at most the game's away_days in one turn),
-- and counts against the server where it was asked.
ALTER TABLE away_periods ADD COLUMN granted INTEGER NOT NULL DEFAULT 0;

-- When a notice was written: each game hears of a player's away or return at most once
-- a day (older rows: told_at, else the away's start).
ALTER TABLE away_notices ADD COLUMN noted_at TEXT;
