-- Accounts own the relationship data; users log in to an account; API keys
-- belong to one user. Times are Unix seconds (UTC).

CREATE TABLE accounts (
  id         INTEGER PRIMARY KEY,
  created_at INTEGER NOT NULL
);

CREATE TABLE users (
  id            INTEGER PRIMARY KEY,
  account_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  first_name    TEXT    NOT NULL,
  last_name     TEXT    NOT NULL,
  nickname      TEXT,
  -- stored lower-cased by the store; UNIQUE makes the instance-wide rule hold
  -- even between two concurrent writers
  email         TEXT    NOT NULL UNIQUE,
  password_hash TEXT    NOT NULL,
  born_at       INTEGER,
  timezone      TEXT    NOT NULL DEFAULT 'UTC',
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
);
CREATE INDEX users_account ON users(account_id);

-- Only the SHA-256 of a key's secret is kept: a copy of this file must not
-- let anyone authenticate.
CREATE TABLE api_keys (
  id           INTEGER PRIMARY KEY,
  user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name         TEXT    NOT NULL,
  secret_hash  BLOB    NOT NULL CHECK (length(secret_hash) = 32),
  last_used_at INTEGER,
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL
);
CREATE INDEX api_keys_user ON api_keys(user_id);

CREATE TABLE task_categories (
  id         INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name       TEXT    NOT NULL,
  color      TEXT    NOT NULL,
  created_at INTEGER NOT NULL,
  -- NULL until first updated, as the reference system shows for defaults
  updated_at INTEGER
);
CREATE INDEX task_categories_account ON task_categories(account_id);
