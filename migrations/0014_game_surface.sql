-- Where a game lives (issue #27, play anywhere; bot/play/in_place.py). One file serves
-- both backends.
--
-- 'channel': the bot user is in the game's channel (a server that added the bot, or the
-- DM with the bot) and posts its boards there itself, as every game did before.
-- 'interactions': only a user install reaches the channel (a group DM, a server the bot
-- is not in). The bot user is not there: the game lives in one message, the card, that
-- the players' clicks update; nothing is posted on its own.
ALTER TABLE games ADD COLUMN surface TEXT NOT NULL DEFAULT 'channel'
    CHECK (surface IN ('channel', 'interactions'));
