-- Which bot process delivered each outbox row (issue #42, DM clicks handed to the game's own
-- process): the lease holder's name (host:pid:random, bot/store/leases.process_name), written in
-- the transaction that marks the row done. An operator reads from it which process announced a
-- move; with several processes, a move made from a hand DM (received by shard 0's process) is
-- announced by the process that runs its server's shard (bot/posting/handoff.py).
ALTER TABLE outbox ADD COLUMN done_by TEXT;
