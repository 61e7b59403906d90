-- kith: foreign keys off
-- Ids are never reused: without AUTOINCREMENT, SQLite gives a new row the
-- highest id plus one, so a deleted person's id came back as someone
-- else's, and links, logs and clients that kept it pointed at them.
--
-- SQLite cannot ALTER a table to AUTOINCREMENT, so each table whose id the
-- API shows or logs is rebuilt (https://www.sqlite.org/lang_altertable.html,
-- "making other kinds of table schema changes"): a new table of the same
-- columns, in the same order, with the same CHECKs and defaults; its rows
-- copied with their ids; the old table dropped; the new one renamed; its
-- indexes made again. The migration runs with foreign keys off (the first
-- line), or dropping a table would delete its rows and cascade to their
-- children, and the runner checks every reference before it commits.
-- Copying the rows with their ids sets sqlite_sequence to each table's
-- highest id, so the ids of an existing database are not reused either.
-- health_probe's ids are never shown, and it stays as it is.

CREATE TABLE new_accounts (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  created_at INTEGER NOT NULL
);
INSERT INTO new_accounts SELECT * FROM accounts;
DROP TABLE accounts;
ALTER TABLE new_accounts RENAME TO accounts;

CREATE TABLE new_users (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id    INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  first_name    TEXT    NOT NULL,
  last_name     TEXT    NOT NULL,
  nickname      TEXT,
  -- stored lower-cased by the store; UNIQUE makes the instance-wide rule hold
  -- even between two concurrent writers
  email         TEXT    NOT NULL UNIQUE,
  password_hash TEXT    NOT NULL,
  born_at       INTEGER,
  timezone      TEXT    NOT NULL DEFAULT 'UTC',
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  email_verified_at INTEGER
);
INSERT INTO new_users SELECT * FROM users;
DROP TABLE users;
ALTER TABLE new_users RENAME TO users;
CREATE INDEX users_account ON users(account_id);

-- Only the SHA-256 of a key's secret is kept: a copy of this file must not
-- let anyone authenticate.
CREATE TABLE new_api_keys (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name         TEXT    NOT NULL,
  secret_hash  BLOB    NOT NULL CHECK (length(secret_hash) = 32),
  last_used_at INTEGER,
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL
);
INSERT INTO new_api_keys SELECT * FROM api_keys;
DROP TABLE api_keys;
ALTER TABLE new_api_keys RENAME TO api_keys;
CREATE INDEX api_keys_user ON api_keys(user_id);

CREATE TABLE new_task_categories (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name       TEXT    NOT NULL,
  color      TEXT    NOT NULL,
  created_at INTEGER NOT NULL,
  -- NULL until first updated, as the reference system shows for defaults
  updated_at INTEGER
);
INSERT INTO new_task_categories SELECT * FROM task_categories;
DROP TABLE task_categories;
ALTER TABLE new_task_categories RENAME TO task_categories;
CREATE INDEX task_categories_account ON task_categories(account_id);

CREATE TABLE new_persons (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id     INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  first_name     TEXT    NOT NULL,
  last_name      TEXT,
  middle_name    TEXT,
  nickname       TEXT,
  maiden_name    TEXT,
  prefix         TEXT,
  suffix         TEXT,
  how_we_met     TEXT,
  marital_status TEXT    NOT NULL DEFAULT 'unknown' CHECK (marital_status IN ('unknown', 'single', 'couple')),
  kids_status    TEXT    NOT NULL DEFAULT 'unknown' CHECK (kids_status IN ('unknown', 'no_kids', 'maybe_kids', 'has_kids')),
  can_be_deleted INTEGER NOT NULL DEFAULT 1 CHECK (can_be_deleted IN (0, 1)),
  is_listed      INTEGER NOT NULL DEFAULT 1 CHECK (is_listed IN (0, 1)),

  -- Age: one of three kinds; the columns of the other kinds stay NULL.
  age_type        TEXT CHECK (age_type IN ('exact', 'estimated', 'bracket')),
  age_year        INTEGER,
  age_month       INTEGER CHECK (age_month BETWEEN 1 AND 12),
  age_day         INTEGER CHECK (age_day BETWEEN 1 AND 31),
  estimated_age   INTEGER,
  estimated_at    INTEGER,
  age_bracket     TEXT,
  yearly_reminder INTEGER CHECK (yearly_reminder IN (0, 1)),

  -- Physical appearance ("tatoos" is the reference system's spelling).
  height TEXT, weight TEXT, build TEXT, skin_tone TEXT, face_shape TEXT, eye_color TEXT,
  eye_shape TEXT, hair_color TEXT, hair_type TEXT, hair_length TEXT, facial_hair TEXT,
  scars TEXT, tatoos TEXT, piercings TEXT, distinctive_marks TEXT, glasses TEXT,
  dress_style TEXT, voice TEXT,

  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
INSERT INTO new_persons SELECT * FROM persons;
DROP TABLE persons;
ALTER TABLE new_persons RENAME TO persons;
CREATE INDEX persons_account ON persons(account_id, id);

CREATE TABLE new_tasks (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  -- account_id repeats the person's so that every lookup by id is scoped
  -- by account in one indexed condition.
  account_id       INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  person_id        INTEGER NOT NULL REFERENCES persons(id) ON DELETE CASCADE,
  task_category_id INTEGER REFERENCES task_categories(id) ON DELETE SET NULL,
  name             TEXT    NOT NULL,
  is_completed     INTEGER NOT NULL DEFAULT 0 CHECK (is_completed IN (0, 1)),
  due_at           INTEGER,
  completed_at     INTEGER,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL
);
INSERT INTO new_tasks SELECT * FROM tasks;
DROP TABLE tasks;
ALTER TABLE new_tasks RENAME TO tasks;
CREATE INDEX tasks_person ON tasks(person_id, created_at DESC, id DESC);
CREATE INDEX tasks_category ON tasks(task_category_id);

-- Pending links. Only the SHA-256 of a link's secret is kept, so a copy of
-- this file cannot verify anything. A link is bound to the address it was
-- sent to: a later email change makes it useless even before it is deleted.
CREATE TABLE new_email_verifications (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  email       TEXT    NOT NULL,
  secret_hash BLOB    NOT NULL UNIQUE CHECK (length(secret_hash) = 32),
  expires_at  INTEGER NOT NULL,
  created_at  INTEGER NOT NULL
);
INSERT INTO new_email_verifications SELECT * FROM email_verifications;
DROP TABLE email_verifications;
ALTER TABLE new_email_verifications RENAME TO email_verifications;
CREATE INDEX email_verifications_user ON email_verifications(user_id);
