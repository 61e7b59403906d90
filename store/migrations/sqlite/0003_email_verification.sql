-- A changed email is unverified until the link sent to it is opened.
-- Users who exist before this migration keep their verified standing.
ALTER TABLE users ADD COLUMN email_verified_at INTEGER;
UPDATE users SET email_verified_at = created_at;

-- Pending links. Only the SHA-256 of a link's secret is kept, so a copy of
-- this file cannot verify anything. A link is bound to the address it was
-- sent to: a later email change makes it useless even before it is deleted.
CREATE TABLE email_verifications (
  id          INTEGER PRIMARY KEY,
  user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  email       TEXT    NOT NULL,
  secret_hash BLOB    NOT NULL UNIQUE CHECK (length(secret_hash) = 32),
  expires_at  INTEGER NOT NULL,
  created_at  INTEGER NOT NULL
);
CREATE INDEX email_verifications_user ON email_verifications(user_id);
