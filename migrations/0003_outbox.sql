-- The announcement outbox. A move is written together with rows saying what must be
-- shown for it (the board, players' hand DMs, the AI's turn, the end of the game), in
-- the same transaction, so a crash between writing a move and announcing it loses
-- nothing: the delivery worker finds the rows on the next start. A row is done once
-- its work reached Discord (or was no longer needed); until then it waits for
-- ``due_at`` on the bot's clock. ``blocked`` names a cause Discord gave that the bot
-- cannot fix by retrying at once (missing permissions, an archived thread...); such
-- rows are retried periodically, and can be made due at once when the cause is fixed.
-- (A word in double braces is spelled for each backend by bot/store/migrate.py's WORDS.)
CREATE TABLE outbox (
    id          {{ROW_ID}},
    game_id     {{INT64}} NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    version     INTEGER NOT NULL CHECK (version >= 0),
    kind        TEXT    NOT NULL CHECK (kind IN ('board', 'hand', 'strip', 'ai', 'finish')),
    seat        INTEGER NOT NULL DEFAULT -1,
    payload     TEXT    NOT NULL DEFAULT '{}',
    created_at  TEXT    NOT NULL,
    due_at      TEXT    NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 0,
    -- 1 when an attempt may have reached Discord without the bot learning the answer
    -- (a crash, a timeout, a 5xx): the retry must reuse the same nonce and content.
    uncertain   INTEGER NOT NULL DEFAULT 0,
    blocked     TEXT,
    channel_id  {{INT64}},
    last_error  TEXT,
    done_at     TEXT,
    outcome     TEXT,
    UNIQUE (game_id, version, kind, seat)
);
CREATE INDEX outbox_pending ON outbox(due_at) WHERE done_at IS NULL;
CREATE INDEX outbox_pending_by_game ON outbox(game_id, id) WHERE done_at IS NULL;
CREATE INDEX outbox_blocked ON outbox(channel_id) WHERE done_at IS NULL AND blocked IS NOT NULL;

-- Games started before this migration whose board is behind their move log (the bot
-- stopped between writing a move and showing it), and AI turns that were due: the
-- worker picks these up on the next start, as it would rows written with a move.
INSERT INTO outbox (game_id, version, kind, created_at, due_at)
SELECT g.id, COALESCE(m.seq, 0), 'board', {{NOW}}, '1970-01-01T00:00:00+00:00'
  FROM games g
  LEFT JOIN (SELECT game_id, MAX(seq) AS seq FROM moves GROUP BY game_id) m ON m.game_id = g.id
 WHERE g.status IN ('active', 'finished')
   AND COALESCE((SELECT version FROM messages WHERE game_id = g.id AND role = 'board' AND seat = -1), -1)
       < COALESCE(m.seq, 0);

INSERT INTO outbox (game_id, version, kind, created_at, due_at)
SELECT g.id, COALESCE((SELECT MAX(seq) FROM moves WHERE game_id = g.id), 0), 'ai',
       {{NOW}}, '1970-01-01T00:00:00+00:00'
  FROM games g
 WHERE g.status = 'active';

-- A game the bot cannot work on (its thread was deleted, its move log is damaged) is
-- parked: background work skips it instead of failing on it at every pass.
ALTER TABLE games ADD COLUMN parked TEXT;
ALTER TABLE games ADD COLUMN parked_at TEXT;

-- Closed DMs are tried again after ``retry_at`` (or at once after the player's next
-- interaction with the bot): people open their DMs, and the bot should notice.
ALTER TABLE dm_closed ADD COLUMN retry_at TEXT;
