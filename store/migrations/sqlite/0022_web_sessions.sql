-- The web app's sign-ins. The cookie holds "<id>|<secret>"; as for API
-- keys only the secret's SHA-256 is kept, so a copy of the database signs
-- nobody in. A session ends at expires_at, or when it is signed out
-- (deleted); a user's deletion takes their sessions with it.
CREATE TABLE web_sessions (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  secret_hash BLOB    NOT NULL UNIQUE CHECK (length(secret_hash) = 32),
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL
);
CREATE INDEX web_sessions_user ON web_sessions (user_id);
