-- Persons and their tasks belong to an account, shared by its users.

CREATE TABLE persons (
  id             INTEGER PRIMARY KEY,
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
CREATE INDEX persons_account ON persons(account_id, id);

CREATE TABLE tasks (
  id               INTEGER PRIMARY KEY,
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
CREATE INDEX tasks_person ON tasks(person_id, created_at DESC, id DESC);
CREATE INDEX tasks_category ON tasks(task_category_id);
