-- How each person left a game (issue #25; bot/store/departures.py): a resignation, or a
-- timeout that handed the seat to an AI or forfeited it. One file serves both backends:
-- BIGINT holds game ids, nothing autoincrements, instants are ISO-8601 UTC text.
--
-- after_move: how many moves the game had when the person left; the seat's moves after
-- it are the AI's (ai_level; NULL when the leaving ended the game). Ratings order the
-- leavers by it (who held out longer), and game records mark the seat with it.
-- A person leaves a game once: the key refuses a second row for the same seat.
CREATE TABLE seat_departures (
    game_id    BIGINT  NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    how        TEXT    NOT NULL CHECK (how IN ('resigned', 'timed out')),
    after_move INTEGER NOT NULL CHECK (after_move >= 0),
    ai_level   TEXT,
    at         TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat)
);
