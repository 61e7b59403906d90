-- Reminders a user sets on a person: a label, a first date and how often it
-- comes back. Dates are YYYY-MM-DD, which sort as text; when each falls is
-- worked out in Go (store.Occurrences), from one read of the account's.
CREATE TABLE reminders (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  -- account_id repeats the person's so that every lookup by id is scoped
  -- by account in one indexed condition.
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  person_id  INTEGER NOT NULL REFERENCES persons(id) ON DELETE CASCADE,
  label      TEXT    NOT NULL,
  starts_on  TEXT    NOT NULL CHECK (starts_on LIKE '____-__-__'),
  frequency  TEXT    NOT NULL CHECK (frequency IN ('one_time', 'daily', 'weekly', 'monthly', 'yearly')),
  every      INTEGER NOT NULL DEFAULT 1 CHECK (every BETWEEN 1 AND 1000),
  until      TEXT    CHECK (until IS NULL OR until LIKE '____-__-__'),
  -- a one_time reminder's first delivery in a digest; it is kept after
  sent_at    INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
-- The person's list, by id.
CREATE INDEX reminders_person ON reminders(person_id, id);
-- What the digests, upcoming and the calendar feed read: the account's.
CREATE INDEX reminders_account ON reminders(account_id, id);
