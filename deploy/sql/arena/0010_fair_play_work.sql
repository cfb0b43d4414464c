-- arena 0010: the fair-play check's work list (issue 26; docs/ranked.md, "Fair play").
-- Every ranked game that ends finished is analysed once, after it is settled; fair_play says
-- where that stands for the pairing:
--   'pending'  settled and waiting for the check (an aborted game stays 'pending' but is never
--              picked: nobody played for money);
--   'done'     both players' reports are in fair_play_reports (written in the same
--              transaction as this mark);
--   'failed'   the record could not be analysed at all (fair_play_error says why; an admin
--              can read the game and reset it to 'pending').
ALTER TABLE ranked_pairings ADD COLUMN fair_play text NOT NULL DEFAULT 'pending'
  CHECK (fair_play IN ('pending', 'done', 'failed'));
ALTER TABLE ranked_pairings ADD COLUMN fair_play_error text NOT NULL DEFAULT '';
-- The check's queue: finished games not yet analysed, oldest first.
CREATE INDEX ranked_pairings_fair_play ON ranked_pairings (ended_at, pairing_id)
  WHERE state = 'finished' AND fair_play = 'pending';
