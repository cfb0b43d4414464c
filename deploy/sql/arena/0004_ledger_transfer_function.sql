-- arena 0004: a plain transfer (SendCredits, Donate, grants) as one function call, so the
-- ledger's hot path is one round trip to PostgreSQL instead of four (BEGIN, lock, write,
-- COMMIT). It does what Ledger::Transfer did statement by statement, in the same order:
--   1. lock the debit and credit rows, in ledger_account_id order (the deadlock-free order);
--   2. the caller's earlier request with this key: 'conflict' for another body, 'replayed'
--      with its transfer for the same body;
--   3. refusals: 'no_debit', 'no_credit', 'frozen', 'insufficient' (with `available`);
--      overdue holds of the debit account do not count, and are expired only when the
--      transfer then goes ahead, so a refusal writes nothing;
--   4. the transfer row, both balances and the idempotency record.
-- A refusal is a status, not an error, so the caller maps it to the same codes as before. Two
-- first uses of one key at once still race on ledger_requests' primary key: the loser gets
-- unique_violation, retries, and replays the winner (as before). See docs/ledger.md.
CREATE FUNCTION ledger_transfer(p_debit text, p_credit text, p_amount bigint, p_kind text,
                                p_memo text, p_caller text, p_key text, p_hash text,
                                p_allow_frozen_debit boolean,
                                OUT status text, OUT transfer_id bigint, OUT available bigint)
LANGUAGE plpgsql AS $$
DECLARE
  acc record;
  found_any boolean := false;
  d_id bigint;
  d_balance bigint;
  d_held bigint;
  d_may_go_negative boolean;
  d_frozen boolean;
  c_id bigint;
  prior record;
  overdue bigint := 0;
BEGIN
  transfer_id := 0;
  available := 0;
  FOR acc IN
    SELECT a.ledger_account_id, a.name, a.balance, a.held, a.may_go_negative, a.frozen
    FROM arena.ledger_accounts a WHERE a.name IN (p_debit, p_credit)
    ORDER BY a.ledger_account_id FOR UPDATE
  LOOP
    found_any := true;
    IF acc.name = p_debit THEN
      d_id := acc.ledger_account_id;
      d_balance := acc.balance;
      d_held := acc.held;
      d_may_go_negative := acc.may_go_negative;
      d_frozen := acc.frozen;
    ELSE
      c_id := acc.ledger_account_id;
    END IF;
  END LOOP;

  IF found_any AND p_key <> '' THEN
    SELECT r.request_hash, r.result_id INTO prior FROM arena.ledger_requests r
    WHERE r.caller = p_caller AND r.request_key = p_key;
    IF FOUND THEN
      IF prior.request_hash <> p_hash THEN
        status := 'conflict';
      ELSE
        status := 'replayed';
        transfer_id := prior.result_id;
      END IF;
      RETURN;
    END IF;
  END IF;

  IF d_id IS NULL THEN
    status := 'no_debit';
    RETURN;
  END IF;
  IF c_id IS NULL THEN
    status := 'no_credit';
    RETURN;
  END IF;
  IF d_frozen AND NOT p_allow_frozen_debit THEN
    status := 'frozen';
    RETURN;
  END IF;
  IF NOT d_may_go_negative AND d_balance - d_held < p_amount AND d_held > 0 THEN
    SELECT coalesce(sum(h.amount), 0) INTO overdue FROM arena.holds h
    WHERE h.debit_id = d_id AND h.state = 'open' AND h.expires_at <= now();
  END IF;
  IF NOT d_may_go_negative AND d_balance - (d_held - overdue) < p_amount THEN
    status := 'insufficient';
    available := d_balance - (d_held - overdue);
    RETURN;
  END IF;
  IF overdue > 0 THEN
    UPDATE arena.holds h SET state = 'expired', settled_at = now()
    WHERE h.debit_id = d_id AND h.state = 'open' AND h.expires_at <= now();
    UPDATE arena.ledger_accounts SET held = held - overdue WHERE ledger_account_id = d_id;
  END IF;

  INSERT INTO arena.transfers AS t (debit_id, credit_id, amount, kind, memo)
  VALUES (d_id, c_id, p_amount, p_kind, p_memo) RETURNING t.transfer_id INTO transfer_id;
  UPDATE arena.ledger_accounts
  SET balance = balance + CASE WHEN ledger_account_id = d_id THEN -p_amount ELSE p_amount END
  WHERE ledger_account_id IN (d_id, c_id);
  IF p_key <> '' THEN
    INSERT INTO arena.ledger_requests (caller, request_key, request_hash, op, result_id)
    VALUES (p_caller, p_key, p_hash, 'transfer', transfer_id);
  END IF;
  status := 'ok';
END $$;
