-- Placeholder on branch scale only: migration numbers must have no gaps, and 0019 is reserved for another
-- branch of this round (0017 notify, 0018 tourney, 0019 undo). DELETE THIS FILE when that branch's
-- 0019_*.sql is merged (two files with one number would silently replace each other).
SELECT 1;
