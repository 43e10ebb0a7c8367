-- Provably fair deals: every game gets a random salt when it is created. The game's
-- first board shows sha256 over its kind, seed and salt (bot/records/fairness.py,
-- docs/game-record.md) and its last board reveals the seed and the salt, so anyone can
-- check that the deal was fixed before the first move. Games created before this
-- migration keep a NULL salt: they were never sealed, and nothing claims they were.
ALTER TABLE games ADD COLUMN salt TEXT;
