-- Action links in digests ("Mark done", "Log a call", "Snooze a week").
-- server_secrets holds the key every server on this database signs links
-- with, made by whichever server needs it first.
CREATE TABLE server_secrets (
  id    INTEGER PRIMARY KEY AUTOINCREMENT,
  name  TEXT NOT NULL UNIQUE,
  value BLOB NOT NULL CHECK (length(value) = 32)
);
-- A used link, by the SHA-256 of its token: a link works once. Rows older
-- than a link's life are pruned, since an expired link is refused anyway.
CREATE TABLE action_links_used (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  token_hash BLOB    NOT NULL UNIQUE CHECK (length(token_hash) = 32),
  user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  used_at    INTEGER NOT NULL
);
CREATE INDEX action_links_used_at ON action_links_used (used_at);
-- A snoozed occurrence: the item of kind and row ref_id that falls on
-- occurs_on is shown to this user a week later instead.
CREATE TABLE snoozes (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind       TEXT    NOT NULL,
  ref_id     INTEGER NOT NULL,
  occurs_on  TEXT    NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (user_id, kind, ref_id, occurs_on)
);
