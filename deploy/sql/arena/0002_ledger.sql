-- arena 0002: sign-in tokens of every kind, block lists, invitations, the double-entry credit
-- ledger (accounts, immutable transfers, two-phase holds, caller-scoped idempotency) and the
-- admin audit log. Amounts are integer micro-credits. See docs/ledger.md.

-- Tokens: "session" (from sign-in), "api" (CreateToken), "guest" (GuestToken).
ALTER TABLE tokens ADD COLUMN kind text NOT NULL DEFAULT 'session'
  CHECK (kind IN ('session', 'api', 'guest'));
ALTER TABLE tokens ADD COLUMN expires_at timestamptz;
CREATE INDEX tokens_by_account ON tokens (account_id);

-- Who blocked whom: a blocked account cannot invite the blocker.
CREATE TABLE blocks (
  blocker_id  text NOT NULL REFERENCES accounts(account_id),
  blocked_id  text NOT NULL REFERENCES accounts(account_id),
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (blocker_id, blocked_id)
);

-- Invitations by name (to play; the table is attached when seating lands).
CREATE TABLE invitations (
  invitation_id  bigserial PRIMARY KEY,
  inviter_id     text NOT NULL REFERENCES accounts(account_id),
  invitee_id     text NOT NULL REFERENCES accounts(account_id),
  note           text NOT NULL DEFAULT '',
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX invitations_by_invitee ON invitations (invitee_id, invitation_id);

-- One row per ledger account. `name` is the user's account_id for kind 'user', or
-- 'system:<kind>' for the system accounts. balance = posted credits; held = open holds on it.
-- Only issuance may go negative; every other account keeps balance - held >= 0.
CREATE TABLE ledger_accounts (
  ledger_account_id  bigserial PRIMARY KEY,
  name               text NOT NULL UNIQUE,
  kind               text NOT NULL
    CHECK (kind IN ('user', 'pool', 'model_spend', 'fees', 'escrow', 'issuance')),
  balance            bigint NOT NULL DEFAULT 0,
  held               bigint NOT NULL DEFAULT 0 CHECK (held >= 0),
  may_go_negative    boolean NOT NULL DEFAULT false,
  frozen             boolean NOT NULL DEFAULT false,
  frozen_at          timestamptz,
  daily_allowance    bigint NOT NULL DEFAULT 0 CHECK (daily_allowance >= 0),
  created_at         timestamptz NOT NULL DEFAULT now(),
  CHECK (may_go_negative OR balance - held >= 0)
);

INSERT INTO ledger_accounts (name, kind, may_go_negative) VALUES
  ('system:issuance', 'issuance', true),
  ('system:pool', 'pool', false),
  ('system:model_spend', 'model_spend', false),
  ('system:fees', 'fees', false),
  ('system:escrow', 'escrow', false);

-- Two-phase holds: reserve (held += amount on the debit account), then exactly one of post
-- (a transfer of 0..amount, the rest released), void, or expire.
CREATE TABLE holds (
  hold_id          bigserial PRIMARY KEY,
  debit_id         bigint NOT NULL REFERENCES ledger_accounts(ledger_account_id),
  credit_id        bigint NOT NULL REFERENCES ledger_accounts(ledger_account_id),
  amount           bigint NOT NULL CHECK (amount > 0),
  posted_amount    bigint NOT NULL DEFAULT 0 CHECK (posted_amount >= 0 AND posted_amount <= amount),
  state            text NOT NULL DEFAULT 'open'
    CHECK (state IN ('open', 'posted', 'voided', 'expired')),
  -- The user whose daily pool allowance this hold counts against (pool holds only).
  allowance_user   text,
  memo             text NOT NULL DEFAULT '',
  created_at       timestamptz NOT NULL DEFAULT now(),
  expires_at       timestamptz NOT NULL,
  settled_at       timestamptz,
  CHECK (debit_id <> credit_id)
);
CREATE INDEX holds_open_by_expiry ON holds (expires_at) WHERE state = 'open';
CREATE INDEX holds_open_by_debit ON holds (debit_id) WHERE state = 'open';
CREATE INDEX holds_by_allowance_user ON holds (allowance_user, created_at)
  WHERE allowance_user IS NOT NULL;

-- Immutable transfers: one row moves `amount` from debit to credit, so each balances.
CREATE TABLE transfers (
  transfer_id  bigserial PRIMARY KEY,
  debit_id     bigint NOT NULL REFERENCES ledger_accounts(ledger_account_id),
  credit_id    bigint NOT NULL REFERENCES ledger_accounts(ledger_account_id),
  amount       bigint NOT NULL CHECK (amount > 0),
  kind         text NOT NULL,
  memo         text NOT NULL DEFAULT '',
  hold_id      bigint REFERENCES holds(hold_id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  CHECK (debit_id <> credit_id)
);
CREATE INDEX transfers_by_debit ON transfers (debit_id, transfer_id);
CREATE INDEX transfers_by_credit ON transfers (credit_id, transfer_id);

CREATE FUNCTION refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME;
END $$;
CREATE TRIGGER transfers_immutable BEFORE UPDATE OR DELETE ON transfers
  FOR EACH ROW EXECUTE FUNCTION refuse_change();

-- Idempotency: (caller, key) -> the body's hash and what it produced. Scoped to the caller,
-- so one caller's key never matches or reveals another's.
CREATE TABLE ledger_requests (
  caller        text NOT NULL,
  request_key   text NOT NULL,
  request_hash  text NOT NULL,
  op            text NOT NULL,
  result_id     bigint NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (caller, request_key)
);

-- Admin audit log: who, when, why.
CREATE TABLE audit_log (
  audit_id     bigserial PRIMARY KEY,
  actor_id     text NOT NULL,
  action       text NOT NULL,
  target_id    text NOT NULL DEFAULT '',
  reason       text NOT NULL,
  detail_json  text NOT NULL DEFAULT '{}',
  at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_by_target ON audit_log (target_id, audit_id);
CREATE TRIGGER audit_immutable BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION refuse_change();

-- Guests and players show a display name; `name` stays the unique sign-in name.
ALTER TABLE accounts ADD COLUMN display_name text NOT NULL DEFAULT '';
