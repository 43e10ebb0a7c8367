-- Turns running when the clock came keep their old deadline (issue #37; bot/play/timekeeping/upgrade.py).
-- The per-turn timeout before the clock (0012) did not count quiet hours, stood still while the
-- player was away and started afresh at their return. A turn running at that upgrade falls due
-- when that rule would have fired it, or later: its first bank is what makes its deadline the
-- old one, at least a full one. One file serves both backends; instants are ISO-8601 UTC text.

-- The games whose running turn began before 0012 was applied (all running games, when this
-- runs in the same start-up as 0012): the turn (the number of moves then) and when the old
-- rule started counting it (the game's last change, as the old bot read it).
CREATE TABLE clock_upgrade_turns (
    game_id    BIGINT  PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,
    started_at TEXT    NOT NULL
);
INSERT INTO clock_upgrade_turns (game_id, seq, started_at)
SELECT g.id, (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id), g.updated_at
FROM games g
WHERE g.status = 'active'
  AND COALESCE((SELECT MAX(m.created_at) FROM moves m WHERE m.game_id = g.id), g.updated_at)
      < COALESCE((SELECT REPLACE(SUBSTR(s.applied_at, 1, 19), ' ', 'T') FROM schema_migrations s
                  WHERE s.version = 12), '');

-- The quiet hours the old rule left out, as they stood (a window set then may be longer than
-- the 12 hours /pyramid quiet allows now: the old rule counted it whole).
CREATE TABLE clock_upgrade_quiet (
    user_id BIGINT PRIMARY KEY,
    starts  TEXT   NOT NULL,
    ends    TEXT   NOT NULL,
    zone    TEXT   NOT NULL
);
INSERT INTO clock_upgrade_quiet (user_id, starts, ends, zone)
SELECT user_id, starts, ends, zone FROM quiet_hours;
