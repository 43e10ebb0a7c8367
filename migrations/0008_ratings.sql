-- Skill ratings and completion records (bot/ratings, bot/store/ratings.py). One file
-- serves both backends: BIGINT holds Discord ids (64-bit on PostgreSQL; SQLite takes
-- it as INTEGER), DOUBLE PRECISION is SQLite's REAL, and nothing here autoincrements.

-- Every finished game that counted, applied once: its key makes applying a game
-- idempotent (the game's finish row may run more than once). ``outcome`` is how the
-- game counts (bot.ratings.GameOutcome as JSON: each seat's rank, win, leaving, score),
-- so ratings can be recomputed in order without replaying; ``finished_at`` orders
-- the games, and a rebuild keeps it.
CREATE TABLE rated_games (
    game_id     BIGINT  NOT NULL PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL,
    guild_id    BIGINT,
    finished_at TEXT    NOT NULL,
    rated       INTEGER NOT NULL,
    outcome     TEXT    NOT NULL,
    applied_at  TEXT    NOT NULL
);
CREATE INDEX rated_games_in_order ON rated_games(kind, finished_at, game_id);

-- A player's OpenSkill rating in one game, per server (scope = the server's id) and
-- across servers (scope = 0). AI seats have fixed ratings and no row.
CREATE TABLE ratings (
    scope        BIGINT  NOT NULL,
    kind         TEXT    NOT NULL,
    user_id      BIGINT  NOT NULL,
    mu           DOUBLE PRECISION NOT NULL,
    sigma        DOUBLE PRECISION NOT NULL,
    games        INTEGER NOT NULL,
    wins         INTEGER NOT NULL,
    losses       INTEGER NOT NULL,
    streak       INTEGER NOT NULL,
    best_streak  INTEGER NOT NULL,
    last_game_id BIGINT  NOT NULL,
    updated_at   TEXT    NOT NULL,
    PRIMARY KEY (scope, kind, user_id)
);
CREATE INDEX ratings_by_user ON ratings(user_id);

-- Solo and co-op games: finished, won, best score, per variant ("solo", "co-op (small)").
CREATE TABLE completion_records (
    scope        BIGINT  NOT NULL,
    kind         TEXT    NOT NULL,
    variant      TEXT    NOT NULL,
    user_id      BIGINT  NOT NULL,
    games        INTEGER NOT NULL,
    wins         INTEGER NOT NULL,
    best_score   DOUBLE PRECISION,
    streak       INTEGER NOT NULL,
    best_streak  INTEGER NOT NULL,
    last_game_id BIGINT  NOT NULL,
    updated_at   TEXT    NOT NULL,
    PRIMARY KEY (scope, kind, variant, user_id)
);
CREATE INDEX completion_records_by_user ON completion_records(user_id);
