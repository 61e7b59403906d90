-- kith: foreign keys off
-- Issue 33: digests also go to Telegram, Pushover and Matrix. Each of
-- them has one secret (the bot token, the application token, the access
-- token), kept in token as the other kinds' are, and one more thing to
-- address the message with: Telegram's chat, Pushover's user, Matrix's
-- room. url is optional for Telegram and Pushover (their public servers).
--
-- SQLite cannot ALTER a CHECK, so the table is rebuilt
-- (https://www.sqlite.org/lang_altertable.html): the same columns in the
-- same order, the three new ones last as PostgreSQL adds them, its rows
-- copied with their ids and its indexes made again. Foreign keys are off
-- (the first line) so that a table referring to channels keeps its rows.
-- sqlite_sequence is carried over, so that a deleted channel's id is not
-- given again.
CREATE TABLE new_channels (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id       INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind          TEXT    NOT NULL CHECK (kind IN ('email', 'ntfy', 'gotify', 'webhook', 'telegram', 'pushover', 'matrix')),
  name          TEXT,
  url           TEXT,
  -- ntfy's access token, Gotify's application token, the webhook's HMAC
  -- key, Telegram's bot token, Pushover's application token, Matrix's
  -- access token: Kith must send or sign with them, so they are kept as
  -- given.
  token         TEXT,
  enabled       INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  done_day      TEXT,
  fail_day      TEXT,
  failures      INTEGER NOT NULL DEFAULT 0,
  retry_at      INTEGER,
  claimed_until INTEGER,
  last_sent_at  INTEGER,
  last_error    TEXT,
  last_error_at INTEGER,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  chat_id       TEXT,
  user_key      TEXT,
  room_id       TEXT
);
INSERT INTO new_channels (id, user_id, kind, name, url, token, enabled, done_day, fail_day, failures, retry_at,
  claimed_until, last_sent_at, last_error, last_error_at, created_at, updated_at)
SELECT id, user_id, kind, name, url, token, enabled, done_day, fail_day, failures, retry_at,
  claimed_until, last_sent_at, last_error, last_error_at, created_at, updated_at
FROM channels;
DELETE FROM sqlite_sequence WHERE name = 'new_channels';
UPDATE sqlite_sequence SET name = 'new_channels' WHERE name = 'channels';
DROP TABLE channels;
ALTER TABLE new_channels RENAME TO channels;
CREATE INDEX channels_user ON channels(user_id, id);
-- One email channel a user: it goes to their own address.
CREATE UNIQUE INDEX channels_one_email ON channels(user_id) WHERE kind = 'email';
