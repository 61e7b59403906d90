-- Life events of a person: what happened to them, and when. An event with
-- should_be_reminded marks its month and day as a date to be reminded of
-- every year; the mark lives in the row, so deleting the event or its
-- person removes the reminder with it.
CREATE TABLE life_events (
  id                 INTEGER PRIMARY KEY AUTOINCREMENT,
  -- account_id repeats the person's so that every lookup by id is scoped
  -- by account in one indexed condition.
  account_id         INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  person_id          INTEGER NOT NULL REFERENCES persons(id) ON DELETE CASCADE,
  description        TEXT    NOT NULL,
  comment            TEXT,
  icon               TEXT,
  bg_color           TEXT,
  text_color         TEXT,
  happened_at        INTEGER NOT NULL,
  should_be_reminded INTEGER NOT NULL DEFAULT 0 CHECK (should_be_reminded IN (0, 1)),
  created_at         INTEGER NOT NULL,
  updated_at         INTEGER NOT NULL
);
CREATE INDEX life_events_person ON life_events(person_id, created_at DESC, id DESC);
