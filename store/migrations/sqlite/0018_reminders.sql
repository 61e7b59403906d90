-- Reminders that arrive: each user's daily digest, and the channels it
-- goes to.
--
-- A user's digest settings; no row means the defaults (send_at NULL is the
-- server's reminders.send_at, days 7).
CREATE TABLE reminder_settings (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id    INTEGER NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
  send_at    TEXT    CHECK (send_at IS NULL OR length(send_at) = 5),
  days       INTEGER NOT NULL CHECK (days BETWEEN 0 AND 365),
  updated_at INTEGER NOT NULL
);

-- Where a user's digest goes. done_day is the last day (YYYY-MM-DD, in the
-- user's time zone) whose digest this channel has been given, or had
-- nothing to give: it is written as the channel accepts the digest, so a
-- restart never sends that day's again. failures counts the failed tries
-- of fail_day; the next try waits until retry_at.
CREATE TABLE channels (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id       INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind          TEXT    NOT NULL CHECK (kind IN ('email', 'ntfy', 'gotify', 'webhook')),
  name          TEXT,
  url           TEXT,
  -- ntfy's access token, Gotify's application token, the webhook's HMAC
  -- key: Kith must send or sign with them, so they are kept as given.
  token         TEXT,
  enabled       INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  done_day      TEXT,
  fail_day      TEXT,
  failures      INTEGER NOT NULL DEFAULT 0,
  retry_at      INTEGER,
  -- a server sending to the channel holds it until claimed_until, so
  -- that two servers on one database do not both send
  claimed_until INTEGER,
  last_sent_at  INTEGER,
  last_error    TEXT,
  last_error_at INTEGER,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
);
CREATE INDEX channels_user ON channels(user_id, id);
-- One email channel a user: it goes to their own address.
CREATE UNIQUE INDEX channels_one_email ON channels(user_id) WHERE kind = 'email';

-- What the daily pass reads for each account: birthdays by month and day,
-- life events to be reminded of, open tasks by due date.
CREATE INDEX persons_birthday ON persons(account_id, age_month, age_day);
CREATE INDEX life_events_account ON life_events(account_id);
CREATE INDEX tasks_account_due ON tasks(account_id, due_at);

-- Every user has had email reminders on from the start.
INSERT INTO channels (user_id, kind, created_at, updated_at)
SELECT id, 'email', created_at, created_at FROM users;
