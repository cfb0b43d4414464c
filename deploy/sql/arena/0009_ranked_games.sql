-- arena 0009: staked games of ranked chess (issue 26; docs/ranked.md, "Playing and settling").
-- A pairing becomes a game: arena holds both stakes (ledger holds into system:escrow), makes a
-- ranked table on game-state and records who has white; when the game ends it settles the
-- pot out of escrow and writes here how the game ended and what each player got back.
--
-- white:     the account with white (set when the game starts; NULL before).
-- result:    'white', 'black', 'draw' or 'aborted' once ended.
-- end_reason: why ("checkmate", "first-move-abort", "stake-not-covered: <name>", ...).
-- payout_a, payout_b, fee: micro-credits paid out of escrow to player_a, player_b and
--            system:fees (0 for an aborted game: its holds were voided, nothing moved).
ALTER TABLE ranked_pairings ADD COLUMN white text REFERENCES accounts(account_id);
ALTER TABLE ranked_pairings ADD COLUMN result text
  CHECK (result IN ('white', 'black', 'draw', 'aborted'));
ALTER TABLE ranked_pairings ADD COLUMN end_reason text NOT NULL DEFAULT '';
ALTER TABLE ranked_pairings ADD COLUMN payout_a bigint NOT NULL DEFAULT 0 CHECK (payout_a >= 0);
ALTER TABLE ranked_pairings ADD COLUMN payout_b bigint NOT NULL DEFAULT 0 CHECK (payout_b >= 0);
ALTER TABLE ranked_pairings ADD COLUMN fee bigint NOT NULL DEFAULT 0 CHECK (fee >= 0);
-- What a settled game paid out never exceeds its pot.
ALTER TABLE ranked_pairings ADD CONSTRAINT ranked_pairings_pot
  CHECK (payout_a + payout_b + fee <= 2 * stake);
-- The work list of the ranked loop: pairings to start and games to settle.
CREATE INDEX ranked_pairings_open ON ranked_pairings (state, pairing_id)
  WHERE state IN ('paired', 'playing');
-- One's ranked history, newest first.
CREATE INDEX ranked_pairings_by_b ON ranked_pairings (player_b, paired_at);
