-- Work history of a person: the jobs they have held, at most one of them
-- active. The partial unique index makes that rule hold in the database
-- itself; the store makes the other entries inactive before it saves an
-- active one, in the same transaction.
CREATE TABLE work_history (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  -- account_id repeats the person's so that every lookup by id is scoped
  -- by account in one indexed condition.
  account_id       INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  person_id        INTEGER NOT NULL REFERENCES persons(id) ON DELETE CASCADE,
  company_name     TEXT,
  job_title        TEXT    NOT NULL,
  estimated_salary TEXT,
  duration         TEXT,
  active           INTEGER NOT NULL DEFAULT 0 CHECK (active IN (0, 1)),
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL
);
CREATE INDEX work_history_person ON work_history(person_id, id);
CREATE UNIQUE INDEX work_history_active ON work_history(person_id) WHERE active;
