-- Important dates of a person: a label and a day of the year, with or
-- without a year (vCard's --MM-DD), which the reminders may recall every
-- year. The day is kept as numbers so that the list sorts by month and
-- day and a date without a year is no special case.
CREATE TABLE important_dates (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  -- account_id repeats the person's so that every lookup by id is scoped
  -- by account in one indexed condition.
  account_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  person_id     INTEGER NOT NULL REFERENCES persons(id) ON DELETE CASCADE,
  label         TEXT    NOT NULL,
  year          INTEGER CHECK (year BETWEEN 1 AND 9999),
  month         INTEGER NOT NULL CHECK (month BETWEEN 1 AND 12),
  day           INTEGER NOT NULL CHECK (day BETWEEN 1 AND 31),
  remind_yearly INTEGER NOT NULL DEFAULT 0 CHECK (remind_yearly IN (0, 1)),
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL
);
-- The person's list, by month, day and id.
CREATE INDEX important_dates_person ON important_dates(person_id, month, day, id);
-- YearlyDates: the account's dates to recall, already in calendar order.
CREATE INDEX important_dates_yearly ON important_dates(account_id, month, day, id) WHERE remind_yearly;

-- Interactions: when the user was last in touch with a person, and how.
-- happened_on is a calendar date, YYYY-MM-DD, which sorts as text.
CREATE TABLE interactions (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  person_id   INTEGER NOT NULL REFERENCES persons(id) ON DELETE CASCADE,
  happened_on TEXT    NOT NULL CHECK (happened_on LIKE '____-__-__'),
  kind        TEXT    NOT NULL CHECK (kind IN ('call', 'message', 'meeting', 'email', 'other')),
  note        TEXT,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
);
-- The person's list, newest first (read backwards), and the person's last
-- interaction, max(happened_on), in one index lookup.
CREATE INDEX interactions_person ON interactions(person_id, happened_on, id);

-- How often the user wants to be in touch with a person: at most one row a
-- person, none without a cadence. since_on is the day, in the user's time
-- zone, that the cadence was set: a person with no interaction is due
-- every_days after it. A table of its own, not columns of persons, and an
-- id like every other table's, which kith copy orders rows by.
CREATE TABLE stay_in_touch (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  person_id  INTEGER NOT NULL UNIQUE REFERENCES persons(id) ON DELETE CASCADE,
  every_days INTEGER NOT NULL CHECK (every_days BETWEEN 1 AND 3650),
  since_on   TEXT    NOT NULL CHECK (since_on LIKE '____-__-__'),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
-- DueContacts: the account's cadences.
CREATE INDEX stay_in_touch_account ON stay_in_touch(account_id, person_id);
