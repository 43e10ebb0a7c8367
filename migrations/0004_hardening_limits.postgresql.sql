-- PostgreSQL's form of 0004_hardening_limits.sql (read it for why): the same new
-- column and the same clamps, with PostgreSQL's LEAST/GREATEST and JSON functions.
ALTER TABLE guild_settings ADD COLUMN max_open_games INTEGER NOT NULL DEFAULT 3
    CHECK (max_open_games BETWEEN 1 AND 25);

UPDATE guild_settings SET reminder_hours = LEAST(GREATEST(reminder_hours, 1.0), 720.0)
 WHERE reminder_hours IS NOT NULL;
UPDATE guild_settings SET timeout_hours = LEAST(GREATEST(timeout_hours, 1.0), 2160.0)
 WHERE timeout_hours IS NOT NULL;
UPDATE guild_settings SET timeout_hours = LEAST(reminder_hours * 3, 2160.0)
 WHERE reminder_hours IS NOT NULL AND timeout_hours IS NOT NULL AND timeout_hours <= reminder_hours;

CREATE OR REPLACE FUNCTION pg_temp.json_or_null(raw TEXT) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    RETURN raw::jsonb;
EXCEPTION WHEN others THEN
    RETURN NULL;
END $$;

-- An integer option as a number, or NULL when it is absent or not a whole number.
CREATE OR REPLACE FUNCTION pg_temp.whole(options TEXT, key TEXT) RETURNS NUMERIC LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN jsonb_typeof(pg_temp.json_or_null(options) -> key) = 'number'
                 AND (pg_temp.json_or_null(options) ->> key) ~ '^-?[0-9]+$'
                THEN (pg_temp.json_or_null(options) ->> key)::NUMERIC END
$$;

UPDATE games
   SET options = jsonb_set(pg_temp.json_or_null(options), '{target}',
                           to_jsonb(LEAST(GREATEST(pg_temp.whole(options, 'target'), 10), 1000)))::text
 WHERE kind = 'pyrinoes' AND status = 'lobby'
   AND pg_temp.whole(options, 'target') NOT BETWEEN 10 AND 1000;
UPDATE games
   SET options = jsonb_set(pg_temp.json_or_null(options), '{rounds}',
                           to_jsonb(LEAST(GREATEST(pg_temp.whole(options, 'rounds'), 1), 20)))::text
 WHERE kind = 'pyramido' AND status = 'lobby'
   AND pg_temp.whole(options, 'rounds') NOT BETWEEN 1 AND 20;

DELETE FROM snapshots
 WHERE game_id IN (SELECT id FROM games
                    WHERE kind = 'flaming-pyramids' AND pg_temp.whole(options, 'turn_limit') > 2000);
UPDATE games
   SET options = jsonb_set(pg_temp.json_or_null(options), '{turn_limit}', '2000')::text
 WHERE kind = 'flaming-pyramids' AND pg_temp.whole(options, 'turn_limit') > 2000;

DROP FUNCTION pg_temp.whole(TEXT, TEXT);
DROP FUNCTION pg_temp.json_or_null(TEXT);
