-- Issue 34: every paginated list costs the same at 100,000 rows as at
-- 1,000, as the people list does since migration 0038.
--
-- The account's tasks, a user's log and a journal's entries are kept
-- counted, so that a page reads its total in a row or four instead of
-- counting the rows one by one. Triggers keep the counts, whatever writes
-- or deletes a row (API, web, import, merge, the deletion of a person,
-- journal, user or account, kith copy, which skips these tables and lets
-- the triggers count the rows as they arrive). An owner without rows may
-- have no count: its total is 0. No id of their own: a count is its
-- owner's, which kith copy does not copy.
--
-- task_counts has the account's tasks by the two filters a list may
-- combine without a date range, done or not and dated or not: a filter
-- adds up the cells it keeps.
CREATE TABLE task_counts (
  account_id   INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  is_completed INTEGER NOT NULL CHECK (is_completed IN (0, 1)),
  dated        INTEGER NOT NULL CHECK (dated IN (0, 1)),
  tasks        INTEGER NOT NULL,
  UNIQUE (account_id, is_completed, dated)
);
INSERT INTO task_counts (account_id, is_completed, dated, tasks)
  SELECT account_id, is_completed, due_at IS NOT NULL, count(*) FROM tasks GROUP BY 1, 2, 3;

CREATE TRIGGER tasks_count_insert AFTER INSERT ON tasks BEGIN
  INSERT INTO task_counts (account_id, is_completed, dated, tasks) VALUES (NEW.account_id, NEW.is_completed, NEW.due_at IS NOT NULL, 1)
    ON CONFLICT (account_id, is_completed, dated) DO UPDATE SET tasks = tasks + 1;
END;
-- An account's delete takes its tasks and their counts: the update then
-- finds no row, or one about to go.
CREATE TRIGGER tasks_count_delete AFTER DELETE ON tasks BEGIN
  UPDATE task_counts SET tasks = tasks - 1
    WHERE account_id = OLD.account_id AND is_completed = OLD.is_completed AND dated = (OLD.due_at IS NOT NULL);
END;
CREATE TRIGGER tasks_count_update AFTER UPDATE OF account_id, is_completed, due_at ON tasks
WHEN OLD.account_id <> NEW.account_id OR OLD.is_completed <> NEW.is_completed OR (OLD.due_at IS NULL) <> (NEW.due_at IS NULL) BEGIN
  UPDATE task_counts SET tasks = tasks - 1
    WHERE account_id = OLD.account_id AND is_completed = OLD.is_completed AND dated = (OLD.due_at IS NOT NULL);
  INSERT INTO task_counts (account_id, is_completed, dated, tasks) VALUES (NEW.account_id, NEW.is_completed, NEW.due_at IS NOT NULL, 1)
    ON CONFLICT (account_id, is_completed, dated) DO UPDATE SET tasks = tasks + 1;
END;

-- A page of the account's tasks in their order (AccountTasks: the soonest
-- due first, those without a date last) read from this index is as many
-- steps as the page's offset and size; without it the account's tasks
-- were sorted whole for each page.
CREATE INDEX tasks_account_order ON tasks(account_id, (due_at IS NULL), due_at, id);
-- The open or the done tasks alone, the same: from the index above, a page
-- of the open ones would first step over every task done before them.
CREATE INDEX tasks_account_done_order ON tasks(account_id, is_completed, (due_at IS NULL), due_at, id);

-- log_counts is how many log entries each user has (a user reads only
-- their own).
CREATE TABLE log_counts (
  user_id INTEGER NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
  logs    INTEGER NOT NULL
);
INSERT INTO log_counts (user_id, logs) SELECT user_id, count(*) FROM logs GROUP BY user_id;

CREATE TRIGGER logs_count_insert AFTER INSERT ON logs BEGIN
  INSERT INTO log_counts (user_id, logs) VALUES (NEW.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET logs = logs + 1;
END;
CREATE TRIGGER logs_count_delete AFTER DELETE ON logs BEGIN
  UPDATE log_counts SET logs = logs - 1 WHERE user_id = OLD.user_id;
END;

-- entry_counts is how many entries each journal has. account_id repeats
-- the journal's, as journal_entries does: the account's deletion counts
-- its rows by it.
CREATE TABLE entry_counts (
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  journal_id INTEGER NOT NULL UNIQUE REFERENCES journals(id) ON DELETE CASCADE,
  entries    INTEGER NOT NULL
);
CREATE INDEX entry_counts_account ON entry_counts(account_id);
INSERT INTO entry_counts (account_id, journal_id, entries)
  SELECT account_id, journal_id, count(*) FROM journal_entries GROUP BY account_id, journal_id;

CREATE TRIGGER journal_entries_count_insert AFTER INSERT ON journal_entries BEGIN
  INSERT INTO entry_counts (account_id, journal_id, entries) VALUES (NEW.account_id, NEW.journal_id, 1)
    ON CONFLICT (journal_id) DO UPDATE SET entries = entries + 1;
END;
CREATE TRIGGER journal_entries_count_delete AFTER DELETE ON journal_entries BEGIN
  UPDATE entry_counts SET entries = entries - 1 WHERE journal_id = OLD.journal_id;
END;

-- Stay in touch: the reminders and digests read only the cadences due by
-- the last day they show, through an index, instead of every cadence of
-- the account. due_day is the day a person is due, in days since
-- 1970-01-01: every_days after their last interaction (last_contacted,
-- migration 0038), or after since_on without one. The dates are the
-- user's, as the store keeps them; null for a date that is none.
ALTER TABLE stay_in_touch ADD COLUMN due_day INTEGER;
UPDATE stay_in_touch SET due_day = CAST(julianday(coalesce((SELECT p.last_contacted FROM persons p WHERE p.id = stay_in_touch.person_id),
  since_on)) - 2440587.5 AS INTEGER) + every_days;
-- It takes the place of stay_in_touch_account, which served the reading
-- of every cadence (and which SQLite's planner would still pick, for the
-- order by person).
DROP INDEX stay_in_touch_account;
CREATE INDEX stay_in_touch_due ON stay_in_touch(account_id, due_day);

CREATE TRIGGER stay_in_touch_due_insert AFTER INSERT ON stay_in_touch BEGIN
  UPDATE stay_in_touch SET due_day = CAST(julianday(coalesce((SELECT p.last_contacted FROM persons p WHERE p.id = NEW.person_id),
    NEW.since_on)) - 2440587.5 AS INTEGER) + NEW.every_days WHERE id = NEW.id;
END;
-- A merge moves a cadence to the person kept.
CREATE TRIGGER stay_in_touch_due_update AFTER UPDATE OF person_id, every_days, since_on ON stay_in_touch BEGIN
  UPDATE stay_in_touch SET due_day = CAST(julianday(coalesce((SELECT p.last_contacted FROM persons p WHERE p.id = NEW.person_id),
    NEW.since_on)) - 2440587.5 AS INTEGER) + NEW.every_days WHERE id = NEW.id;
END;
CREATE TRIGGER persons_contact_due AFTER UPDATE OF last_contacted ON persons BEGIN
  UPDATE stay_in_touch SET due_day = CAST(julianday(coalesce(NEW.last_contacted, since_on)) - 2440587.5 AS INTEGER) + every_days
    WHERE person_id = NEW.id;
END;
