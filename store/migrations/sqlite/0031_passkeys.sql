-- Passkeys (WebAuthn). A user's handle is random bytes, never the email:
-- an authenticator keeps it and hands it back on every sign-in, so it must
-- say nothing about the person and never change.
CREATE TABLE passkey_handles (
  id      INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
  handle  BLOB    NOT NULL UNIQUE CHECK (length(handle) = 32)
);
-- A credential: its public key signs each sign-in. flags keeps the
-- authenticator's backup flags, which a later assertion must repeat.
CREATE TABLE passkeys (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id       INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  credential_id BLOB    NOT NULL UNIQUE,
  public_key    BLOB    NOT NULL,
  sign_count    INTEGER NOT NULL DEFAULT 0,
  flags         INTEGER NOT NULL DEFAULT 0,
  transports    TEXT    NOT NULL DEFAULT '',
  aaguid        BLOB,
  name          TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  created_at    INTEGER NOT NULL,
  last_used_at  INTEGER
);
CREATE INDEX passkeys_by_user ON passkeys (user_id);
-- The challenges Kith issued, kept in the database so that any of several
-- servers on it can finish a ceremony another began; each is deleted by
-- its first use. A registration's belongs to its user.
CREATE TABLE passkey_challenges (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  challenge  BLOB    NOT NULL UNIQUE,
  kind       TEXT    NOT NULL CHECK (kind IN ('register', 'login')),
  user_id    INTEGER REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  CHECK ((kind = 'register') = (user_id IS NOT NULL))
);
CREATE INDEX passkey_challenges_by_time ON passkey_challenges (created_at);
