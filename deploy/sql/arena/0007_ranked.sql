-- arena 0007: ranked chess for people (issue 26), the matchmaking core: cities (one stake pool
-- each, admin-managed), the durable queue, and the pairings the matchmaker makes. See
-- docs/ranked.md and services/arena/ranked/ranked_store.h.

-- A city is one stake pool: everyone queueing there stakes `stake` micro-credits a game, and
-- the winner pays `fee_bps` basis points of the pot. An inactive city takes no new players and
-- makes no pairings; games already paired keep the stake and fee they were made with.
CREATE TABLE cities (
  city_id     text PRIMARY KEY CHECK (city_id ~ '^[a-z][a-z0-9-]{1,31}$'),
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
  stake       bigint NOT NULL CHECK (stake > 0 AND stake <= 1000000000000000),
  fee_bps     int NOT NULL CHECK (fee_bps BETWEEN 0 AND 10000),
  active      boolean NOT NULL DEFAULT true,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

-- One row per waiting player. The primary key is the player: nobody waits in two queues at
-- once. joined_at is the clock of the arena that accepted the join (the matchmaker's windows
-- widen from it); joining the same queue again keeps it. rating: the player's Glicko-2 rating
-- for the time control when they joined (it cannot change while they wait: they are not
-- playing a ranked game).
CREATE TABLE ranked_queue (
  player_id     text PRIMARY KEY REFERENCES accounts(account_id),
  city_id       text NOT NULL REFERENCES cities(city_id),
  time_control  text NOT NULL CHECK (time_control IN ('3+2', '5+0', '10+0')),
  rating        double precision NOT NULL CHECK (rating > -1e6 AND rating < 1e6),
  joined_at     timestamptz NOT NULL
);
CREATE INDEX ranked_queue_by_queue ON ranked_queue (city_id, time_control, joined_at, player_id);

-- One row per pairing the matchmaker made: two players, one future staked game. The pair is
-- stored in id order (player_a < player_b) so that the pair's games of a day are one index
-- range. The pairing keeps what it was made with: the stake and fee of the city, both
-- ratings and join times, and the window it was made within (the narrower of the two), so
-- every pairing can be checked against the rules after the fact.
--
-- paired_at: the pairing pass's clock (the one the windows and the UTC day were judged by).
-- recorded_at / ended_at: the database's own clock when the row was written and when it
-- ended, so a player's pairings can be shown never to overlap.
-- state: 'paired' (made; no game yet), 'playing' (the game exists, both stakes in escrow),
-- 'finished' (settled), 'aborted' (nobody played: stakes refunded). game_id and the escrow
-- hold ids are filled in when the game starts.
--
-- Daily pair counts are not a table of their own: they are the pairings of the pair made in
-- the UTC day, aborted ones excepted, read through ranked_pairings_by_pair. One source of truth
-- that a crash cannot leave out of step.
CREATE TABLE ranked_pairings (
  pairing_id    bigserial PRIMARY KEY,
  city_id       text NOT NULL REFERENCES cities(city_id),
  time_control  text NOT NULL CHECK (time_control IN ('3+2', '5+0', '10+0')),
  stake         bigint NOT NULL CHECK (stake > 0),
  fee_bps       int NOT NULL CHECK (fee_bps BETWEEN 0 AND 10000),
  player_a      text NOT NULL REFERENCES accounts(account_id),
  player_b      text NOT NULL REFERENCES accounts(account_id),
  rating_a      double precision NOT NULL,
  rating_b      double precision NOT NULL,
  joined_a      timestamptz NOT NULL,
  joined_b      timestamptz NOT NULL,
  rating_window int NOT NULL CHECK (rating_window > 0),
  paired_at     timestamptz NOT NULL,
  state         text NOT NULL DEFAULT 'paired'
                  CHECK (state IN ('paired', 'playing', 'finished', 'aborted')),
  game_id       text,
  hold_a        text NOT NULL DEFAULT '',
  hold_b        text NOT NULL DEFAULT '',
  recorded_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
  ended_at      timestamptz,
  CHECK (player_a < player_b),
  CHECK (abs(rating_a - rating_b) <= rating_window)
);
CREATE INDEX ranked_pairings_by_pair ON ranked_pairings (player_a, player_b, paired_at);
CREATE INDEX ranked_pairings_open_a ON ranked_pairings (player_a)
  WHERE state IN ('paired', 'playing');
CREATE INDEX ranked_pairings_open_b ON ranked_pairings (player_b)
  WHERE state IN ('paired', 'playing');
