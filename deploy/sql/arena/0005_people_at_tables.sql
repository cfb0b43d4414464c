-- arena 0005: people at tables (issue 17). Every table arena makes is recorded in
-- driven_tables (people-only tables too, so arena sees them end); a person's seat is bound to
-- the account (or guest account) arena seated there; invitations may reserve a seat of a
-- table until answered or expired; every finished game an account played is on its record;
-- people have Glicko-2 ratings per game and time control.

-- Who sits in a seat: table_seats.owner_account is the seated account for person seats (the
-- paying owner for model seats, as before). filled: arena joined the seat on game-state.
ALTER TABLE table_seats ADD COLUMN filled boolean NOT NULL DEFAULT false;
ALTER TABLE table_seats ADD COLUMN holder_name text NOT NULL DEFAULT '';
CREATE INDEX table_seats_by_owner ON table_seats (owner_account) WHERE owner_account IS NOT NULL;

-- An invitation with a table reserves (game_id, seat) while pending and unexpired.
ALTER TABLE invitations ADD COLUMN game_id text REFERENCES driven_tables(game_id);
ALTER TABLE invitations ADD COLUMN seat int;
ALTER TABLE invitations ADD COLUMN state text NOT NULL DEFAULT 'pending'
  CHECK (state IN ('pending', 'accepted', 'declined', 'expired'));
ALTER TABLE invitations ADD COLUMN expires_at timestamptz;
ALTER TABLE invitations ADD COLUMN answered_at timestamptz;
CREATE INDEX invitations_by_inviter ON invitations (inviter_id, invitation_id);
CREATE INDEX invitations_by_seat ON invitations (game_id, seat) WHERE state = 'pending';

-- One row per finished game per account seated at it. result: the account's own ('win',
-- 'loss', 'draw', 'aborted', 'voided'). opponents_json: every other seat
-- [{seat, kind, participant, name}]. rating_*: this game and time control, when rated.
CREATE TABLE account_games (
  account_id     text NOT NULL REFERENCES accounts(account_id),
  game_id        text NOT NULL REFERENCES driven_tables(game_id),
  seat           int NOT NULL,
  engine_game    text NOT NULL,
  time_control   text NOT NULL,
  result         text NOT NULL CHECK (result IN ('win', 'loss', 'draw', 'aborted', 'voided')),
  result_text    text NOT NULL DEFAULT '',
  reason         text NOT NULL DEFAULT '',
  opponents_json text NOT NULL DEFAULT '[]',
  is_public      boolean NOT NULL,
  rated          boolean NOT NULL DEFAULT false,
  rating_before  double precision NOT NULL DEFAULT 0,
  rating_after   double precision NOT NULL DEFAULT 0,
  finished_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, game_id, seat)
);
CREATE INDEX account_games_by_time ON account_games (account_id, finished_at DESC);

-- Glicko-2 of people, per game and time control ("untimed", "per-move 30s", "3+2").
CREATE TABLE person_ratings (
  account_id    text NOT NULL REFERENCES accounts(account_id),
  engine_game   text NOT NULL,
  time_control  text NOT NULL,
  rating        double precision NOT NULL,
  deviation     double precision NOT NULL,
  volatility    double precision NOT NULL,
  games         int NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, engine_game, time_control)
);
