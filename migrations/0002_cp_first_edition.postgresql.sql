-- PostgreSQL's form of 0002_cp_first_edition.sql (read it for why): the same
-- corrections with PostgreSQL's JSON functions. Options are stored as text, so they are
-- read as jsonb only where they parse.
CREATE OR REPLACE FUNCTION pg_temp.json_or_null(raw TEXT) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    RETURN raw::jsonb;
EXCEPTION WHEN others THEN
    RETURN NULL;
END $$;

UPDATE games
   SET options = jsonb_set(pg_temp.json_or_null(options), '{edition}', '1')::text
 WHERE kind = 'continuous-pyramid'
   AND jsonb_typeof(pg_temp.json_or_null(options)) = 'object'
   AND pg_temp.json_or_null(options) -> 'edition' IS NULL
   AND (status <> 'lobby' OR challenge_id IS NOT NULL);

UPDATE challenges
   SET options = jsonb_set(pg_temp.json_or_null(options), '{edition}', '1')::text
 WHERE jsonb_typeof(pg_temp.json_or_null(options)) = 'object'
   AND pg_temp.json_or_null(options) -> 'edition' IS NULL;

DELETE FROM snapshots
 WHERE game_id IN (SELECT id FROM games WHERE kind = 'continuous-pyramid');

DROP FUNCTION pg_temp.json_or_null(TEXT);
