-- Time away and quiet hours (issue #19; bot/store/availability.py, bot/play/availability.py).
-- One file serves both backends: BIGINT holds Discord ids and game ids, nothing
-- autoincrements. Instants are ISO-8601 UTC text, as everywhere in the store.

-- /pyramid away: one row per time away. ends_at is the planned return, moved back to
-- the moment of /pyramid back when it ends early (the budget counts the time used).
-- guild_id: the server whose budget allowed it (NULL: asked in a DM, the default budget).
CREATE TABLE away_periods (
    user_id    BIGINT NOT NULL,
    starts_at  TEXT   NOT NULL,
    ends_at    TEXT   NOT NULL,
    guild_id   BIGINT,
    created_at TEXT   NOT NULL,
    PRIMARY KEY (user_id, starts_at)
);
CREATE INDEX away_periods_by_end ON away_periods(user_id, ends_at);

-- The other players of each game are told once that a player is away (kind 'away')
-- and, after /pyramid back, that they are back ('back'). A row is written, untold,
-- with the away; whoever sets told_at first (the command, or the sweep retrying) posts.
CREATE TABLE away_notices (
    user_id   BIGINT NOT NULL,
    starts_at TEXT   NOT NULL,
    game_id   BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    kind      TEXT   NOT NULL CHECK (kind IN ('away', 'back')),
    told_at   TEXT,
    PRIMARY KEY (user_id, starts_at, game_id, kind)
);
CREATE INDEX away_notices_untold ON away_notices(told_at);

-- /pyramid quiet: a daily window in the player's own zone, kept as they said it (local
-- 'HH:MM' and the IANA zone), so each day's UTC instants follow daylight saving.
CREATE TABLE quiet_hours (
    user_id    BIGINT PRIMARY KEY,
    starts     TEXT   NOT NULL,
    ends       TEXT   NOT NULL,
    zone       TEXT   NOT NULL,
    updated_at TEXT   NOT NULL
);
