-- Players' own preferences (issue #19), one row per Discord user, across servers:
-- discord_locale is the locale their Discord client last sent with an interaction;
-- language is the one they chose with /pyramid settings (NULL: follow Discord's);
-- preview (0/1) shows a move's outcome privately before it is played.
-- One file serves both backends: BIGINT holds Discord ids, nothing autoincrements.
CREATE TABLE players (
    user_id        BIGINT PRIMARY KEY,
    discord_locale TEXT,
    language       TEXT,
    preview        INTEGER NOT NULL DEFAULT 0,
    updated_at     TEXT    NOT NULL
);

-- A server's language for what the channel reads (boards, lobbies); NULL: English.
ALTER TABLE guild_settings ADD COLUMN language TEXT;
-- How long its members may be away (/pyramid away): away_days within any
-- away_window_days days.
ALTER TABLE guild_settings ADD COLUMN away_days INTEGER NOT NULL DEFAULT 14;
ALTER TABLE guild_settings ADD COLUMN away_window_days INTEGER NOT NULL DEFAULT 90;
