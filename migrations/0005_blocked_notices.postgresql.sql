-- PostgreSQL's form of 0005_blocked_notices.sql (read it for why): a 64-bit game id.
CREATE TABLE blocked_notices (
    game_id  BIGINT  NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    cause    TEXT    NOT NULL,
    told_at  TEXT    NOT NULL,
    told_how TEXT    NOT NULL,
    PRIMARY KEY (game_id, cause)
);
