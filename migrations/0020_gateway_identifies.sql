-- Gateway logins (issue #42): every IDENTIFY the bot's processes send, one row each, so
-- that processes on one database take turns on Discord's login limit and a process that
-- keeps restarting is slowed down (bot/gateway/logins.py, bot/store/identifies.py).
--
-- bucket: the shard's rate limit key (shard_id % max_concurrency); Discord allows one
-- IDENTIFY per bucket every 5 seconds. sent_at: Unix seconds, the moment the process was
-- given its turn (the row is written in the turn's own serialized transaction). Rows
-- older than two days are deleted at start.
CREATE TABLE gateway_identifies (
    shard_id INTEGER          NOT NULL,
    bucket   INTEGER          NOT NULL,
    owner    TEXT             NOT NULL,
    sent_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (shard_id, sent_at)
);
CREATE INDEX gateway_identifies_by_bucket ON gateway_identifies(bucket, sent_at);
