-- Taking a move back (issue #41; engine/core/undo.py decides, bot/forecasts/undo.py does it).
-- One file serves both backends: BIGINT holds Discord ids and game ids, DOUBLE PRECISION is
-- SQLite's REAL, nothing autoincrements. Instants are ISO-8601 UTC text.

-- The moves taken back: the move log loses the move (records, ratings and replays read the
-- log, so they never see it), and this row keeps what it was, for the one-undo-per-turn rule
-- (a player takes back move `seq` at most once) and for the operator.
CREATE TABLE undos (
    game_id   BIGINT  NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,
    seat      INTEGER NOT NULL,
    user_id   BIGINT,
    move      TEXT    NOT NULL,
    undone_at TEXT    NOT NULL,
    -- the interaction that asked (a Discord id: it grows with time): a click on a message
    -- older than it, naming this move number or a later one, is stale (bot/forecasts/stale.py)
    discord_id BIGINT,
    PRIMARY KEY (game_id, seq)
);

-- What stood before each move, written in the move's own transaction, so an undo puts it
-- back and the clock stands where it stood: the game's updated_at (where a game's first turn
-- and its idleness count from) and, when the move changed the mover's time bank (banked = 1),
-- that bank (NULL: the seat had no row, a full bank). Rows of moves long made are of no
-- further use but harmless.
CREATE TABLE before_moves (
    game_id        BIGINT           NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq            INTEGER          NOT NULL,
    seat           INTEGER          NOT NULL,
    updated_before TEXT             NOT NULL,
    banked         INTEGER          NOT NULL CHECK (banked IN (0, 1)),
    bank_seconds   DOUBLE PRECISION,
    PRIMARY KEY (game_id, seq)
);

-- How many moves of the game were taken back: every post after an undo carries it in its
-- nonce, so the board of the move made again is never taken for the one taken back.
ALTER TABLE games ADD COLUMN undos INTEGER NOT NULL DEFAULT 0;

-- Whether a server's players may take moves back: 'off' never; 'casual' (the default, no
-- row) in games that are neither rated nor a shared deal's; 'all' in every game.
CREATE TABLE undo_settings (
    guild_id BIGINT PRIMARY KEY,
    mode     TEXT   NOT NULL CHECK (mode IN ('off', 'casual', 'all'))
);

-- Forced moves played for the player (bot/forecasts/autoplay.py): a player's choice for all
-- their games (game_id 0) and for one game (its id, which wins over the other).
CREATE TABLE autoplay (
    user_id BIGINT  NOT NULL,
    game_id BIGINT  NOT NULL,
    enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
    PRIMARY KEY (user_id, game_id)
);

-- Forecasts (bot/forecasts/lines.py): a seat's lines of "if the others play these public
-- moves, I answer this", set after its move `after_seq`; private until one is played.
-- others: a JSON list of [seat, move] pairs, in order.
CREATE TABLE forecasts (
    game_id    BIGINT  NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    line       INTEGER NOT NULL,
    after_seq  INTEGER NOT NULL,
    others     TEXT    NOT NULL,
    answer     TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat, line)
);

-- How a move was made when the bot made it for the player: 'auto' (their only move) or
-- 'forecast' (a line of theirs matched). Written in the move's transaction; records show it.
CREATE TABLE move_notes (
    game_id BIGINT  NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    note    TEXT    NOT NULL CHECK (note IN ('auto', 'forecast')),
    PRIMARY KEY (game_id, seq)
);
