-- Who was told that a game's announcements are blocked (missing permissions or
-- access): once per game and cause, kept across restarts so a restart does not
-- repeat the notice.
-- (A word in double braces is spelled for each backend by bot/store/migrate.py's WORDS.)
CREATE TABLE blocked_notices (
    game_id  {{INT64}} NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    cause    TEXT    NOT NULL,
    told_at  TEXT    NOT NULL,
    told_how TEXT    NOT NULL,
    PRIMARY KEY (game_id, cause)
);
