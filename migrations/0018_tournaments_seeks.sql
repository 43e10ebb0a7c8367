-- Tournaments, open seeks and the queue (issue #40). A tournament: an event of one server's channel, its entrants, its rounds
-- and the games each round made. bot/tournaments/store.py holds every statement.
--
-- status: signup (until starts_at), running, finished, cancelled. rounds: NULL until the
-- start fixes it from the entrants when the admin named none. card_message_id: the
-- standings card, edited in place after every game.
-- (A word in double braces is spelled for each backend by bot/store/migrate.py's WORDS.)
CREATE TABLE tournaments (
    id              {{ROW_ID}},
    guild_id        BIGINT  NOT NULL,
    channel_id      BIGINT  NOT NULL,
    name            TEXT    NOT NULL,
    kind            TEXT    NOT NULL,
    format          TEXT    NOT NULL,
    rounds          INTEGER,
    table_size      INTEGER,
    starts_at       TEXT    NOT NULL,
    round_hours     REAL    NOT NULL,
    rated           INTEGER NOT NULL DEFAULT 1,
    status          TEXT    NOT NULL DEFAULT 'signup',
    created_by      BIGINT  NOT NULL,
    created_at      TEXT    NOT NULL,
    card_message_id BIGINT
);
CREATE INDEX tournaments_by_status ON tournaments(status, id);
CREATE INDEX tournaments_by_guild ON tournaments(guild_id, id);

-- entrant: the sign-up number (the last tie-break). rating: at the start (mu - 3 sigma in
-- the server's ratings of the game; 0 for a player never rated). withdrawn_round: NULL
-- while in; else the round during which they withdrew (0: before the start).
CREATE TABLE tournament_entrants (
    tournament_id   BIGINT  NOT NULL REFERENCES tournaments(id),
    entrant         INTEGER NOT NULL,
    user_id         BIGINT  NOT NULL,
    name            TEXT    NOT NULL,
    rating          REAL    NOT NULL DEFAULT 0,
    withdrawn_round INTEGER,
    joined_at       TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, entrant),
    UNIQUE (tournament_id, user_id)
);

-- A round exists once it is paired: its primary key is what makes the pairing happen
-- exactly once, whatever the processes (the round, its games and its byes are written
-- in one transaction; a second writer of the same round fails and writes nothing).
CREATE TABLE tournament_rounds (
    tournament_id BIGINT  NOT NULL REFERENCES tournaments(id),
    round         INTEGER NOT NULL,
    paired_at     TEXT    NOT NULL,
    deadline      TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, round)
);

-- Each game of a round (board: its table, 0 first) and, once it ended, each entrant's
-- finishing place as JSON {"entrant": place}.
CREATE TABLE tournament_games (
    game_id       BIGINT  NOT NULL PRIMARY KEY REFERENCES games(id),
    tournament_id BIGINT  NOT NULL REFERENCES tournaments(id),
    round         INTEGER NOT NULL,
    board         INTEGER NOT NULL,
    places        TEXT
);
CREATE INDEX tournament_games_by_round ON tournament_games(tournament_id, round, board);

CREATE TABLE tournament_byes (
    tournament_id BIGINT  NOT NULL REFERENCES tournaments(id),
    round         INTEGER NOT NULL,
    entrant       INTEGER NOT NULL,
    points        REAL    NOT NULL,
    PRIMARY KEY (tournament_id, round, entrant)
);

-- Open seeks (/pyramid seek): a lobby the bot starts by itself once `players` have joined,
-- or, when the seeker asked for it, with AIs in the empty seats at fill_at. status: open,
-- started, closed (started by hand, cancelled, or gone). bot/seeks/store.py.
CREATE TABLE seeks (
    game_id    BIGINT  NOT NULL PRIMARY KEY REFERENCES games(id),
    guild_id   BIGINT  NOT NULL,
    user_id    BIGINT  NOT NULL,
    players    INTEGER NOT NULL,
    ai_level   TEXT,
    fill_at    TEXT,
    status     TEXT    NOT NULL DEFAULT 'open',
    created_at TEXT    NOT NULL
);
CREATE INDEX seeks_open ON seeks(status, game_id);

-- The queue (/pyramid queue): who waits for a two-player game of `kind` in a server, from
-- which channel, at which rating. A match deletes both rows in the transaction that writes
-- their game, so nobody is matched twice.
CREATE TABLE queue_entries (
    guild_id   BIGINT  NOT NULL,
    kind       TEXT    NOT NULL,
    user_id    BIGINT  NOT NULL,
    name       TEXT    NOT NULL,
    channel_id BIGINT  NOT NULL,
    rating     REAL    NOT NULL,
    joined_at  TEXT    NOT NULL,
    PRIMARY KEY (guild_id, kind, user_id)
);

-- Seasons: the champion card of each server, game and month is posted once (its key).
-- A month's games are read by rated_games_in_order (kind, finished_at).
CREATE TABLE season_cards (
    guild_id  BIGINT NOT NULL,
    kind      TEXT   NOT NULL,
    season    TEXT   NOT NULL,
    posted_at TEXT   NOT NULL,
    PRIMARY KEY (guild_id, kind, season)
);

-- A game its ratings never see (a game of a tournament its admin made unrated): bot.store.records.GameRecord.rated.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
