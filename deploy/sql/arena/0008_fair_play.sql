-- arena 0008: ranked chess for people (issue 26), fair play: the engine-use check's report on
-- each player of each ranked game, and the admin review of the flagged ones. See docs/ranked.md
-- ("Fair play"), services/arena/ranked/fair_play.h and fair_play_store.h.

-- One report per (game, player), written once when the game has been analysed: a repeat of
-- the same analysis changes nothing. The figures are the check's (moves analysed, engine match
-- rate, average centipawn loss, median think time when timings were known); evidence_json holds
-- every figure, the thresholds used and the per-move list, for the reviewing admin.
--
-- review_state: 'none' for a report that was not flagged (it never enters review); 'open' for
-- a flagged one awaiting review; then 'dismissed' (nothing wrong) or 'actioned' (the caller
-- refunded and blocked as it saw fit). reviewed_by / review_reason / reviewed_at are set with
-- the review, and every review also writes a row in audit_log in the same transaction.
-- game_id names a game of the game-state service (another database schema): no foreign key.
CREATE TABLE fair_play_reports (
  report_id        bigserial UNIQUE NOT NULL,
  game_id          text NOT NULL CHECK (length(game_id) BETWEEN 1 AND 128),
  account_id       text NOT NULL REFERENCES accounts(account_id),
  color            text NOT NULL CHECK (color IN ('white', 'black')),
  moves_analysed   int NOT NULL CHECK (moves_analysed >= 0),
  match_rate       double precision NOT NULL CHECK (match_rate >= 0 AND match_rate <= 1),
  acpl             double precision NOT NULL CHECK (acpl >= 0),
  median_think_ms  double precision CHECK (median_think_ms >= 0),
  flagged          boolean NOT NULL,
  evidence_json    text NOT NULL,
  review_state     text NOT NULL
                     CHECK (review_state IN ('none', 'open', 'dismissed', 'actioned')),
  reviewed_by      text,
  review_reason    text,
  reviewed_at      timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (game_id, account_id),
  CHECK ((review_state = 'none') = (NOT flagged)),
  CHECK ((review_state IN ('dismissed', 'actioned')) =
         (reviewed_by IS NOT NULL AND review_reason IS NOT NULL AND reviewed_at IS NOT NULL))
);
-- The review queue: flagged reports by state, oldest first.
CREATE INDEX fair_play_flags ON fair_play_reports (review_state, created_at, report_id)
  WHERE flagged;
CREATE INDEX fair_play_by_account ON fair_play_reports (account_id, created_at);
