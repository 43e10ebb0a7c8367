-- Several bot processes on one database (PostgreSQL), or one on SQLite: the same rules.

-- Leases: background work on a game (delivering its announcements, an AI's turn, the
-- reminder sweep) is done by whichever process holds the game's lease for that work.
-- A lease names its holder and expires, so the work of a process that died is taken
-- up by another once its lease runs out; two live processes never do it at once.
CREATE TABLE leases (
    name       TEXT PRIMARY KEY,
    owner      TEXT NOT NULL,
    expires_at TEXT NOT NULL
);

-- Every change to a game (a move, a seat taken over, a status) bumps its revision, so a
-- process that keeps a game in memory notices another process's write with one read.
ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
