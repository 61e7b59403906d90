-- Two-factor sign-in (TOTP). The secret must compute codes, so unlike an
-- API key's it is kept as is; pending_secret waits for its first code
-- (confirm) and secret is set once two-factor is on. last_step is the
-- last 30-second step whose code was accepted: a code works once.
CREATE TABLE two_factor (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id        INTEGER NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
  pending_secret TEXT,
  secret         TEXT,
  last_step      INTEGER NOT NULL DEFAULT 0
);
-- Recovery codes, only their SHA-256; a used one is deleted.
CREATE TABLE two_factor_recovery (
  id        INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id   INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  code_hash BLOB    NOT NULL CHECK (length(code_hash) = 32),
  UNIQUE (user_id, code_hash)
);
