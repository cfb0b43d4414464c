-- arena-game-state owns schema `game`: tables, seats and the append-only event log.
CREATE TABLE games (
  game_id        text PRIMARY KEY,
  game_kind      text NOT NULL,
  variant        text NOT NULL DEFAULT '',
  settings_json  jsonb NOT NULL DEFAULT '{}'::jsonb,
  status         text NOT NULL DEFAULT 'waiting',
  created_at     timestamptz NOT NULL DEFAULT now(),
  finished_at    timestamptz,
  deleted        boolean NOT NULL DEFAULT false
);

CREATE TABLE seats (
  game_id          text NOT NULL REFERENCES games(game_id) ON DELETE CASCADE,
  seat             integer NOT NULL CHECK (seat >= 0),
  kind             text NOT NULL,
  credential_hash  bytea,
  spec_json        jsonb NOT NULL DEFAULT '{}'::jsonb,
  PRIMARY KEY (game_id, seat)
);

-- One row per accepted action or service event; never updated.
CREATE TABLE events (
  game_id     text NOT NULL REFERENCES games(game_id) ON DELETE CASCADE,
  seq         bigint NOT NULL CHECK (seq >= 0),
  at          timestamptz NOT NULL DEFAULT now(),
  type        text NOT NULL,
  seat        integer,
  action      text,
  payload     jsonb NOT NULL DEFAULT '{}'::jsonb,
  PRIMARY KEY (game_id, seq)
);
