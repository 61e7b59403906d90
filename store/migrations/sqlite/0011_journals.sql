-- Journals belong to an account; each has at most one entry per date,
-- which the UNIQUE constraint keeps even when two first requests for a
-- date race. An entry goes only with its journal.

CREATE TABLE journals (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name       TEXT    NOT NULL,
  -- "<id>-<name slugged>", remade by the store on every rename
  slug       TEXT    NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX journals_account ON journals(account_id, created_at DESC, id DESC);

CREATE TABLE journal_entries (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  -- account_id repeats the journal's so that every lookup is scoped by
  -- account in one indexed condition.
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  journal_id INTEGER NOT NULL REFERENCES journals(id) ON DELETE CASCADE,
  year       INTEGER NOT NULL CHECK (year BETWEEN 1 AND 9999),
  month      INTEGER NOT NULL CHECK (month BETWEEN 1 AND 12),
  day        INTEGER NOT NULL CHECK (day BETWEEN 1 AND 31),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (journal_id, year, month, day)
);

-- Every existing account gets the journal a new one starts with
-- (store.insertDefaultJournal), created now; its slug needs its id.
INSERT INTO journals (account_id, name, slug, created_at, updated_at)
SELECT id, 'My first journal', '', CAST(strftime('%s', 'now') AS INTEGER), CAST(strftime('%s', 'now') AS INTEGER)
FROM accounts ORDER BY id;
UPDATE journals SET slug = CAST(id AS TEXT) || '-my-first-journal' WHERE slug = '';
