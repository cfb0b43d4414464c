-- Game ownership (issue 27 item 1): one lease per game. The replica named by `owner` serves
-- the game from memory and appends its events while `epoch` is still the one it took; every
-- acquisition adds one to the epoch, so a replica that lost the lease is fenced off the log.
-- `expires_at` (the database's clock, never a replica's) is renewed by the owner; once it has
-- passed, any replica may take the game over by replaying its log.
CREATE TABLE game_leases (
  game_id        text PRIMARY KEY REFERENCES games(game_id) ON DELETE CASCADE,
  owner          text NOT NULL,
  owner_address  text NOT NULL DEFAULT '',
  epoch          bigint NOT NULL CHECK (epoch > 0),
  expires_at     timestamptz NOT NULL
);
