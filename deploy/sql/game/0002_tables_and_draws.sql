-- Tables, credentials and the provably-fair draw (issue 5).
-- The secret seed is revealed through the API only after the game ends; it lives here so a
-- restarted server can keep drawing from it. Credentials are stored only as keyed hashes.
ALTER TABLE games
  ADD COLUMN secret_seed     bytea,
  ADD COLUMN seed_commitment text NOT NULL DEFAULT '',
  ADD COLUMN host_hash       bytea,
  ADD COLUMN is_public       boolean NOT NULL DEFAULT true,
  ADD COLUMN protected       boolean NOT NULL DEFAULT false;  -- rated or league: never deleted

ALTER TABLE seats
  ADD COLUMN seat_seed text NOT NULL DEFAULT '',
  ADD COLUMN filled    boolean NOT NULL DEFAULT false;

ALTER TABLE events
  ADD COLUMN action_number bigint;

CREATE INDEX games_unfinished ON games (created_at) WHERE status IN ('waiting', 'active') AND NOT deleted;
