-- Each user's secret calendar feed (GET /ical/<secret>.ics): at most one per
-- user, since making a new one voids the last. As for API keys, only the
-- SHA-256 of the secret is kept, so a copy of the database subscribes to
-- nothing.
--
-- etag is that of the last body served and changed_at when a body first
-- differed from the one before (both Unix seconds, like every time): the
-- feed's Last-Modified, which must move on when a row is deleted too, and
-- which no updated_at of the data can tell.
CREATE TABLE calendar_feeds (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id     INTEGER NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
  secret_hash BLOB    NOT NULL UNIQUE CHECK (length(secret_hash) = 32),
  etag        TEXT    NOT NULL DEFAULT '',
  changed_at  INTEGER NOT NULL,
  created_at  INTEGER NOT NULL
);
