-- Genders belong to an account, which orders them by position; a person
-- has one or none. Deleting a gender leaves its persons without one.

CREATE TABLE genders (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name       TEXT    NOT NULL,
  position   INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  -- NULL until first updated, as the reference system shows for defaults
  updated_at INTEGER
);
CREATE INDEX genders_account ON genders(account_id, position, id);

-- A NULL default lets SQLite add a column with a foreign key in place.
ALTER TABLE persons ADD COLUMN gender_id INTEGER REFERENCES genders(id) ON DELETE SET NULL;
CREATE INDEX persons_gender ON persons(gender_id);

-- Every existing account gets the defaults a new one starts with
-- (store.defaultGenders), created now, never updated.
INSERT INTO genders (account_id, name, position, created_at)
SELECT a.id, d.name, d.position, CAST(strftime('%s', 'now') AS INTEGER)
FROM accounts a
CROSS JOIN (SELECT 'Man' AS name, 1 AS position UNION ALL SELECT 'Woman', 2 UNION ALL SELECT 'Other', 3) d
ORDER BY a.id, d.position;
