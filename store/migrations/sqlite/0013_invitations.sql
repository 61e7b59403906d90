-- A user either has joined (has a password and logs in) or is invited: made
-- by another user of the account, with no password until they accept. An
-- invited user's password_hash is the empty string, which no bcrypt hash
-- is and no password matches, so the column keeps its NOT NULL and the
-- users table need not be rebuilt. Their email_verified_at is NULL until
-- they accept: the invitation went to that address, and opening it proves
-- the address theirs.
--
-- Pending invitations. As for verification links, only the SHA-256 of the
-- secret is kept. A user has at most one live invitation: a new one
-- replaces the last, so its link stops working.
CREATE TABLE invitations (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  secret_hash BLOB    NOT NULL UNIQUE CHECK (length(secret_hash) = 32),
  expires_at  INTEGER NOT NULL,
  created_at  INTEGER NOT NULL
);
CREATE INDEX invitations_user ON invitations(user_id);
