-- Hardening: bounded server settings, a per-user cap on open games, and game options
-- brought into the bounds the option models now enforce.

-- How many lobbies and running games one member may have opened in a server at once
-- (each can open a thread). /pyramid settings max_open_games changes it.
ALTER TABLE guild_settings ADD COLUMN max_open_games INTEGER NOT NULL DEFAULT 3
    CHECK (max_open_games BETWEEN 1 AND 25);

-- Settings saved under the old, looser limits (reminder from 0.05 h, timeout from
-- 0.1 h, nothing stopping 1e308 from a forged interaction) must still load: clamp them
-- to reminder 1..720 h and timeout 1..2160 h, and keep the timeout after the reminder.
UPDATE guild_settings SET reminder_hours = MIN(MAX(reminder_hours, 1.0), 720.0)
 WHERE reminder_hours IS NOT NULL;
UPDATE guild_settings SET timeout_hours = MIN(MAX(timeout_hours, 1.0), 2160.0)
 WHERE timeout_hours IS NOT NULL;
UPDATE guild_settings SET timeout_hours = MIN(reminder_hours * 3, 2160.0)
 WHERE reminder_hours IS NOT NULL AND timeout_hours IS NOT NULL AND timeout_hours <= reminder_hours;

-- Lobbies have not been dealt yet, so out-of-range options opened through a forged
-- interaction are simply corrected (Pyrinoes target 10..1000, Pyramido rounds 1..20).
UPDATE games
   SET options = json_set(options, '$.target', MIN(MAX(json_extract(options, '$.target'), 10), 1000))
 WHERE kind = 'pyrinoes' AND status = 'lobby' AND json_valid(options)
   AND json_type(options, '$.target') = 'integer'
   AND json_extract(options, '$.target') NOT BETWEEN 10 AND 1000;
UPDATE games
   SET options = json_set(options, '$.rounds', MIN(MAX(json_extract(options, '$.rounds'), 1), 20))
 WHERE kind = 'pyramido' AND status = 'lobby' AND json_valid(options)
   AND json_type(options, '$.rounds') = 'integer'
   AND json_extract(options, '$.rounds') NOT BETWEEN 1 AND 20;

-- A Flaming Pyramids turn limit above 2000 never ends a game (random games end within
-- ~940 turns), so lowering it changes nothing in play, started or not; the cached
-- positions of those games still carry the old number and are dropped (the move log
-- rebuilds them).
DELETE FROM snapshots
 WHERE game_id IN (SELECT id FROM games
                    WHERE kind = 'flaming-pyramids' AND json_valid(options)
                      AND json_type(options, '$.turn_limit') = 'integer'
                      AND json_extract(options, '$.turn_limit') > 2000);
UPDATE games
   SET options = json_set(options, '$.turn_limit', 2000)
 WHERE kind = 'flaming-pyramids' AND json_valid(options)
   AND json_type(options, '$.turn_limit') = 'integer'
   AND json_extract(options, '$.turn_limit') > 2000;
