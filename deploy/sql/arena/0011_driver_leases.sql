-- arena 0011: several arena replicas (issue 27 item 2; docs/architecture.md, "Several arena
-- replicas").
--
-- The AI-turn work is a queue of driven tables: a replica drives the AI seats of a table only
-- while it holds the table's lease. It claims unowned or expired tables with
-- FOR UPDATE SKIP LOCKED, renews its own every few seconds, and every write that spends or
-- records a turn (ai_turns, the game's end) first checks, under a share lock on this row, that
-- driver_epoch is still the one it claimed: a replica whose lease was taken can no longer
-- record or pay for a turn. Every claim adds one to driver_epoch (the fencing token).
ALTER TABLE driven_tables ADD COLUMN driver text;
ALTER TABLE driven_tables ADD COLUMN driver_epoch bigint NOT NULL DEFAULT 0;
ALTER TABLE driven_tables ADD COLUMN driver_until timestamptz;
CREATE INDEX driven_tables_claimable ON driven_tables (created_at)
  WHERE state = 'active';

-- The replicas that drive tables, each seen on every lease pass: how many share the work, so
-- that a replica claims new and orphaned tables only up to its fair share and replicas started
-- at different times still split the tables between them.
CREATE TABLE driver_replicas (
  replica_id  text PRIMARY KEY,
  seen_at     timestamptz NOT NULL
);

-- The fair-play check's queue is shared the same way: a replica claims the oldest pending game
-- for a while (SKIP LOCKED), so two replicas never analyse the same game at once; a claim that
-- outlives its replica expires and the game is picked again.
ALTER TABLE ranked_pairings ADD COLUMN fair_play_claimed_until timestamptz;
