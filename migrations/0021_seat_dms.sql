-- The queue across servers and games played in their players' own DMs (issue #40;
-- bot/seeks/across.py, bot/posting/seat_dms.py). One file serves both backends.
--
-- games.seat_dms = 1: the game is played in each seat's DM with the bot (a cross-server
-- match: no channel both players share). It has no server (guild_id NULL: rated across
-- servers only); channel_id is the first seat's DM, and every board, final card and notice
-- goes to every seat's DM.
ALTER TABLE games ADD COLUMN seat_dms INTEGER NOT NULL DEFAULT 0;

-- A queue entry opted in to be matched with players of other servers (across = 1), with
-- the player's rating across servers (mu - 3 sigma; 0 for a newcomer). One such entry per
-- player and game, whichever server it was made in.
ALTER TABLE queue_entries ADD COLUMN across INTEGER NOT NULL DEFAULT 0;
ALTER TABLE queue_entries ADD COLUMN wide_rating DOUBLE PRECISION;
CREATE UNIQUE INDEX queue_entries_across ON queue_entries (kind, user_id) WHERE across = 1;
