-- Games, seats and the move log. The move log is the source of truth: a game's state
-- is rebuilt by replaying (kind, options, seed, seats, moves); snapshots only cache it.

CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    kind        TEXT    NOT NULL,
    guild_id    INTEGER,
    channel_id  INTEGER NOT NULL,
    thread_id   INTEGER,
    options     TEXT    NOT NULL DEFAULT '{}',
    status      TEXT    NOT NULL DEFAULT 'lobby'
                CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    seed        INTEGER NOT NULL,
    created_by  INTEGER,
    challenge_id INTEGER REFERENCES challenges(id) ON DELETE SET NULL,
    result      TEXT,
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL
);
CREATE INDEX games_by_guild_status ON games(guild_id, status);
CREATE INDEX games_by_channel ON games(channel_id);

CREATE TABLE seats (
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL CHECK (seat >= 0),
    user_id    INTEGER,
    ai_level   TEXT CHECK (ai_level IS NULL OR ai_level IN ('easy', 'normal', 'hard')),
    name       TEXT    NOT NULL DEFAULT '',
    resigned   INTEGER NOT NULL DEFAULT 0,
    joined_at  TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat),
    CHECK (user_id IS NOT NULL OR ai_level IS NOT NULL)
);
CREATE UNIQUE INDEX seats_one_per_user ON seats(game_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX seats_by_user ON seats(user_id);

CREATE TABLE moves (
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    seat       INTEGER NOT NULL,
    move       TEXT    NOT NULL,
    actor_id   INTEGER,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE snapshots (
    game_id    INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    position   TEXT    NOT NULL
);

-- Messages the bot keeps editing (lobby, board, DM hand, leaderboard), so superseded
-- ones can lose their buttons and restarts know what to update.
CREATE TABLE messages (
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    role       TEXT    NOT NULL,
    seat       INTEGER NOT NULL DEFAULT -1,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    version    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, role, seat)
);

CREATE TABLE guild_settings (
    guild_id        INTEGER PRIMARY KEY,
    use_threads     INTEGER NOT NULL DEFAULT 1,
    reminder_hours  REAL,
    timeout_hours   REAL,
    timeout_action  TEXT NOT NULL DEFAULT 'ai' CHECK (timeout_action IN ('ai', 'forfeit'))
);

-- Continuous Pyramid challenges: one deal, many players, one leaderboard message.
CREATE TABLE challenges (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER,
    channel_id  INTEGER NOT NULL,
    seed        INTEGER NOT NULL,
    options     TEXT    NOT NULL DEFAULT '{}',
    created_by  INTEGER,
    message_id  INTEGER,
    created_at  TEXT    NOT NULL,
    closes_at   TEXT
);

-- Reminder bookkeeping: when the player to move was last nudged, per game and move.
CREATE TABLE reminders (
    game_id    INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    reminded_at TEXT
);

-- Users whose DMs are closed: told once, then served by ephemeral messages.
CREATE TABLE dm_closed (
    user_id    INTEGER PRIMARY KEY,
    noticed_at TEXT NOT NULL
);
