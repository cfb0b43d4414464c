-- arena 0003: tables that arena drives (AI seats), every AI turn it took, leagues with their
-- schedules and results, and per-game-kind ratings. See docs/leagues.md.

-- A table arena created on arena-game-state. state: 'active' while it is driven, then the
-- game's final status ('finished', 'aborted', 'voided').
CREATE TABLE driven_tables (
  game_id        text PRIMARY KEY,
  owner_account  text REFERENCES accounts(account_id),
  league_id      bigint,
  slot           int,
  engine_game    text NOT NULL,
  settings_json  text NOT NULL,
  policy_json    text NOT NULL,
  state          text NOT NULL DEFAULT 'active'
                   CHECK (state IN ('active', 'finished', 'aborted', 'voided')),
  result_json    text,
  created_at     timestamptz NOT NULL DEFAULT now(),
  finished_at    timestamptz
);
CREATE INDEX driven_tables_active ON driven_tables (state) WHERE state = 'active';
CREATE INDEX driven_tables_by_league ON driven_tables (league_id) WHERE league_id IS NOT NULL;

-- Every seat of a driven table. participant: 'bot:<level>', 'model:<id>', 'user:<name>' or
-- 'guest'. key_handle: the gateway's opaque handle for an own-key model seat (not the key; it is
-- useless without arena's service credential). key_state: 'none', 'registered' or 'needed'.
CREATE TABLE table_seats (
  game_id        text NOT NULL REFERENCES driven_tables(game_id),
  seat           int NOT NULL,
  kind           text NOT NULL CHECK (kind IN ('human', 'guest', 'bot', 'model')),
  participant    text NOT NULL,
  spec_json      text NOT NULL,
  owner_account  text,
  key_handle     text NOT NULL DEFAULT '',
  key_state      text NOT NULL DEFAULT 'none' CHECK (key_state IN ('none', 'registered', 'needed')),
  PRIMARY KEY (game_id, seat)
);
CREATE INDEX table_seats_by_participant ON table_seats (participant);

-- One row per model turn, keyed by the game's last event sequence when the turn began (a turn
-- the clock ends without an action takes no action number, so the number alone is not a key),
-- so a driver that restarts resumes the turn instead of asking (and paying) twice. state:
-- 'asked' (a hold reserved, the gateway asked), 'answered' (the answer and its cost are
-- recorded), 'submitted'. tries counts gateway calls (each with its own hold).
CREATE TABLE ai_turns (
  game_id        text NOT NULL REFERENCES driven_tables(game_id),
  turn_seq       bigint NOT NULL,
  action_number  bigint NOT NULL,
  seat           int NOT NULL,
  participant    text NOT NULL,
  state          text NOT NULL CHECK (state IN ('asked', 'answered', 'submitted')),
  tries          int NOT NULL DEFAULT 0,
  hold_id        bigint NOT NULL DEFAULT 0,
  hold_amount    bigint NOT NULL DEFAULT 0,
  action_kind    int NOT NULL DEFAULT 0,
  action_text    text NOT NULL DEFAULT '',
  reasoning      text NOT NULL DEFAULT '',
  outcome        text NOT NULL DEFAULT '',  -- 'ok', 'illegal', 'provider', 'key_needed', ...
  cost           bigint NOT NULL DEFAULT 0,
  tokens         bigint NOT NULL DEFAULT 0,
  latency_ms     bigint NOT NULL DEFAULT 0,
  illegal        int NOT NULL DEFAULT 0,     -- attempts labelled illegal
  unparsable     int NOT NULL DEFAULT 0,     -- attempts labelled unparsable, empty or truncated
  attempts_json  text NOT NULL DEFAULT '[]',
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (game_id, turn_seq)
);
CREATE INDEX ai_turns_by_participant ON ai_turns (participant);

CREATE TABLE leagues (
  league_id        bigserial PRIMARY KEY,
  name             text NOT NULL,
  owner_account    text NOT NULL REFERENCES accounts(account_id),
  engine_game      text NOT NULL,
  settings_json    text NOT NULL,
  policy_json      text NOT NULL,
  format           text NOT NULL CHECK (format IN ('round-robin', 'swiss')),
  games_per_pairing int NOT NULL,
  concurrency      int NOT NULL,
  swiss_rounds     int NOT NULL DEFAULT 0,
  max_reschedules  int NOT NULL,
  seed             bigint NOT NULL DEFAULT 0,
  state            text NOT NULL DEFAULT 'created'
                     CHECK (state IN ('created', 'running', 'paused', 'finished', 'cancelled')),
  created_at       timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE league_participants (
  league_id    bigint NOT NULL REFERENCES leagues(league_id),
  idx          int NOT NULL,
  participant  text NOT NULL,
  spec_json    text NOT NULL,
  PRIMARY KEY (league_id, idx),
  UNIQUE (league_id, participant)
);

-- One scheduled game. order_json: participant indices in table seat order, the first leads.
-- state: 'scheduled', 'running', 'finished', 'voided' (a replay was scheduled), 'abandoned'
-- (voided once more than max_reschedules allows), 'cancelled'.
CREATE TABLE league_games (
  league_id     bigint NOT NULL REFERENCES leagues(league_id),
  slot          int NOT NULL,
  round         int NOT NULL,
  order_json    text NOT NULL,
  replay_of     int,          -- the voided slot this one replays
  attempt       int NOT NULL DEFAULT 0,
  state         text NOT NULL DEFAULT 'scheduled'
                  CHECK (state IN ('scheduled', 'running', 'finished', 'voided', 'abandoned',
                                   'cancelled')),
  game_id       text,
  ranks_json    text,         -- per table seat, 0 best
  reason        text NOT NULL DEFAULT '',
  PRIMARY KEY (league_id, slot)
);

-- Every rated result, once per game: the input of Glicko-2 and Bradley-Terry.
CREATE TABLE rated_results (
  game_id        text PRIMARY KEY,
  engine_game    text NOT NULL,
  league_id      bigint,
  participants_json text NOT NULL,  -- table seat order
  ranks_json     text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rated_results_by_game ON rated_results (engine_game);

CREATE TABLE ratings (
  engine_game  text NOT NULL,
  participant  text NOT NULL,
  rating       double precision NOT NULL,
  deviation    double precision NOT NULL,
  volatility   double precision NOT NULL,
  games        int NOT NULL DEFAULT 0,
  PRIMARY KEY (engine_game, participant)
);
