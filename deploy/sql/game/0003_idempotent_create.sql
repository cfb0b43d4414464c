-- CreateTableRequest.idempotency_key (issue 9): a repeat with the same key from the same caller
-- returns the table created first. The unique index makes that hold across restarts; keys are
-- scoped by the calling service's name, so two services may use the same key.
ALTER TABLE games
  ADD COLUMN idempotency_scope text,
  ADD COLUMN idempotency_key   text;

CREATE UNIQUE INDEX games_idempotency ON games (idempotency_scope, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
