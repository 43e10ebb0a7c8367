-- The daily deal (bot/play/daily.py, bot/store/daily.py): one Continuous Pyramid deal a
-- day (UTC) for everyone on every server, each player in a game of their own in their
-- DMs. One file serves both backends: BIGINT holds Discord ids (64-bit on PostgreSQL;
-- SQLite takes it as INTEGER), and nothing here autoincrements.

-- Secrets the bot keeps for itself, made once and shared by every process on the
-- database (insert-if-absent): "daily" keys the HMAC that turns a date into the day's
-- seed, so nobody can work a day's deal (and its face-down stock, CP-3) out from the date.
CREATE TABLE bot_secrets (
    name       TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    created_at TEXT NOT NULL
);

-- The deal of each day, as a challenge (its seed and options; guild and channel empty):
-- every player's daily game is a game of that challenge, so whatever keeps a challenge's
-- seed secret while others may still play it keeps the day's seed secret too.
CREATE TABLE daily_deals (
    day          TEXT   PRIMARY KEY,
    challenge_id BIGINT NOT NULL REFERENCES challenges(id),
    created_at   TEXT   NOT NULL
);

-- One daily game per player and day, written with the game itself (so a second
-- /pyramid daily finds it), and its score once it is over (tiles placed of 144, won,
-- undos; timed_out: an AI took the seat over, and the score is the player's own plays).
-- guild_id/channel_id: where the player ran /pyramid daily; the result is posted in the
-- opted-in channels of that server, and counts for its daily leaderboard.
CREATE TABLE daily_results (
    day         TEXT    NOT NULL,
    user_id     BIGINT  NOT NULL,
    game_id     BIGINT  NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    guild_id    BIGINT,
    channel_id  BIGINT,
    name        TEXT    NOT NULL DEFAULT '',
    tiles       INTEGER,
    won         INTEGER,
    undos       INTEGER,
    timed_out   INTEGER NOT NULL DEFAULT 0,
    started_at  TEXT    NOT NULL,
    finished_at TEXT,
    PRIMARY KEY (day, user_id)
);
CREATE UNIQUE INDEX daily_results_by_game ON daily_results(game_id);
CREATE INDEX daily_results_by_guild ON daily_results(guild_id, day);
CREATE INDEX daily_results_by_user ON daily_results(user_id, day);

-- Channels whose server admins asked for the daily results (/pyramid-admin daily).
CREATE TABLE daily_channels (
    channel_id BIGINT PRIMARY KEY,
    guild_id   BIGINT NOT NULL,
    enabled_by BIGINT,
    enabled_at TEXT   NOT NULL
);
CREATE INDEX daily_channels_by_guild ON daily_channels(guild_id);

-- The results message of each day in each opted-in channel: created with the day's
-- first result there, edited as more come in.
CREATE TABLE daily_posts (
    day        TEXT   NOT NULL,
    channel_id BIGINT NOT NULL,
    message_id BIGINT NOT NULL,
    PRIMARY KEY (day, channel_id)
);
