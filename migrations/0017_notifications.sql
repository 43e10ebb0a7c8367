-- Notifications that fit each player (issue #39; bot/store/notifications.py, bot/notifications/).
-- One file serves both backends: BIGINT holds Discord ids and game ids, nothing autoincrements.
-- Instants are ISO-8601 UTC text, as everywhere in the store.

-- /pyramid notify: a player's own settings (game_id 0) and their overrides for one game.
-- A NULL field follows the player's own setting (game rows) or the default (game 0).
CREATE TABLE notify_settings (
    user_id        BIGINT  NOT NULL,
    game_id        BIGINT  NOT NULL,
    mode           TEXT    CHECK (mode IS NULL OR mode IN ('board', 'dm', 'both', 'digest')),
    interval_hours INTEGER,
    cap            INTEGER,
    heads_up       INTEGER,
    muted          INTEGER,
    digest_hour    INTEGER,
    zone           TEXT,
    updated_at     TEXT    NOT NULL,
    PRIMARY KEY (user_id, game_id)
);

-- Every notice the gate decided on: (game, version, kind) names it, so the board and the hand
-- DM of one turn hear one verdict. verdict: buzz, hold (waits for the batch), silent (the
-- player's choice). told_at: when a held notice went out in a batch (or was dropped).
-- Batches and digests are rows of game 0. Rows older than a day are purged by the sweep.
CREATE TABLE notify_log (
    user_id BIGINT  NOT NULL,
    game_id BIGINT  NOT NULL,
    version INTEGER NOT NULL,
    kind    TEXT    NOT NULL,
    verdict TEXT    NOT NULL CHECK (verdict IN ('buzz', 'hold', 'silent')),
    at      TEXT    NOT NULL,
    told_at TEXT,
    PRIMARY KEY (user_id, game_id, version, kind)
);
CREATE INDEX notify_log_recent ON notify_log(user_id, at);
CREATE INDEX notify_log_held ON notify_log(verdict, told_at);

-- Each turn's repeated reminders (the player's interval) and its "no more pings this turn".
CREATE TABLE notify_turns (
    user_id BIGINT  NOT NULL,
    game_id BIGINT  NOT NULL,
    version INTEGER NOT NULL,
    repeats INTEGER NOT NULL DEFAULT 0,
    stopped INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, game_id, version)
);

-- The daily digest: the local day it last went out (at most one a day), and whether it found
-- the player's DMs closed (said once where they next use the bot: told).
CREATE TABLE notify_digests (
    user_id  BIGINT PRIMARY KEY,
    last_day TEXT   NOT NULL,
    sent_at  TEXT   NOT NULL,
    blocked  INTEGER NOT NULL DEFAULT 0,
    told     INTEGER NOT NULL DEFAULT 0
);
