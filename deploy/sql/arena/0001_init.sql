-- arena owns schema `arena`: accounts and their tokens.
CREATE TABLE accounts (
  account_id     text PRIMARY KEY,
  name           text NOT NULL UNIQUE,
  password_hash  text,
  role           text NOT NULL DEFAULT 'player' CHECK (role IN ('player', 'admin', 'guest')),
  created_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE tokens (
  token_id     text PRIMARY KEY,
  account_id   text NOT NULL REFERENCES accounts(account_id),
  token_hash   bytea NOT NULL UNIQUE,
  label        text NOT NULL DEFAULT '',
  created_at   timestamptz NOT NULL DEFAULT now(),
  revoked_at   timestamptz
);
