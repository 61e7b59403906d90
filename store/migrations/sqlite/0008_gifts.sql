-- Gifts: ideas for a person, and what was given, offered or received.

CREATE TABLE gifts (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  -- account_id repeats the person's so that every lookup by id is scoped
  -- by account in one indexed condition, as for tasks.
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  person_id  INTEGER NOT NULL REFERENCES persons(id) ON DELETE CASCADE,
  name       TEXT    NOT NULL,
  occasion   TEXT,
  url        TEXT,
  -- PeopleOS's API writes the first three, its web app also "received".
  status     TEXT    NOT NULL CHECK (status IN ('idea', 'given', 'offered', 'received')),
  gifted_at  INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
-- The list is newest first within one person.
CREATE INDEX gifts_person ON gifts(person_id, created_at DESC, id DESC);
