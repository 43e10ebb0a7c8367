-- Rules, second edition (CP-2): the single level-4 cell now rests on the centre 3:2,2.
-- Continuous Pyramid games dealt before this migration were played under the first
-- edition (top cell on 3:1,1), and their move logs replay only under it. Mark them,
-- and every challenge (whose later entrants must get the same game as the earlier
-- ones), as edition 1; the engine keeps that edition's geometry for them, and their
-- boards say which rule they are played under. Lobbies not yet dealt and not part of
-- a challenge get the current edition when they start.
UPDATE games
   SET options = json_set(options, '$.edition', 1)
 WHERE kind = 'continuous-pyramid'
   AND json_valid(options)
   AND json_extract(options, '$.edition') IS NULL
   AND (status <> 'lobby' OR challenge_id IS NOT NULL);

UPDATE challenges
   SET options = json_set(options, '$.edition', 1)
 WHERE json_valid(options)
   AND json_extract(options, '$.edition') IS NULL;

-- Cached positions of those games were written without the edition: drop them, the
-- move log rebuilds them on the next load.
DELETE FROM snapshots
 WHERE game_id IN (SELECT id FROM games WHERE kind = 'continuous-pyramid');
