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
-- As person_counts (migration 0038), a transaction writes each count
-- once, at its commit: each row written adds to the transaction's change,
-- kept in a setting local to it (which a rolled back savepoint undoes
-- with its rows), and the first of the deferred triggers at commit to
-- find a change writes it. Updating the count for each row would leave a
-- version of its row for each one an import or a copy writes.
CREATE FUNCTION count_delta_add(key text, d bigint) RETURNS void LANGUAGE sql AS $$
  SELECT set_config(key, (coalesce(nullif(current_setting(key, true), ''), '0')::bigint + d)::text, true);
$$;
-- count_delta_take is the change kept under key, which it sets back to 0.
CREATE FUNCTION count_delta_take(key text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  delta bigint := coalesce(nullif(current_setting(key, true), ''), '0')::bigint;
BEGIN
  IF delta <> 0 THEN
    PERFORM set_config(key, '0', true);
  END IF;
  RETURN delta;
END
$$;

-- task_counts has the account's tasks by the two filters a list may
-- combine without a date range, done or not and dated or not: a filter
-- adds up the cells it keeps.
CREATE TABLE task_counts (
  account_id   bigint  NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  is_completed boolean NOT NULL,
  dated        boolean NOT NULL,
  tasks        bigint  NOT NULL,
  UNIQUE (account_id, is_completed, dated)
);
INSERT INTO task_counts (account_id, is_completed, dated, tasks)
  SELECT account_id, is_completed, due_at IS NOT NULL, count(*) FROM tasks GROUP BY 1, 2, 3;

CREATE FUNCTION task_count_key(acct bigint, done boolean, due bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT 'kith.tasks_delta_' || acct || '_' || done::int || '_' || (due IS NOT NULL)::int;
$$;
CREATE FUNCTION tasks_count_note() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM count_delta_add(task_count_key(OLD.account_id, OLD.is_completed, OLD.due_at), -1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM count_delta_add(task_count_key(NEW.account_id, NEW.is_completed, NEW.due_at), 1);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER tasks_count_note AFTER INSERT OR DELETE OR UPDATE OF account_id, is_completed, due_at ON tasks
  FOR EACH ROW EXECUTE FUNCTION tasks_count_note();

-- An account deleted in the same transaction has no count to write.
CREATE FUNCTION task_count_apply(acct bigint, done boolean, due bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  delta bigint := count_delta_take(task_count_key(acct, done, due));
BEGIN
  IF delta <> 0 THEN
    INSERT INTO task_counts AS c (account_id, is_completed, dated, tasks)
      SELECT acct, done, due IS NOT NULL, delta WHERE EXISTS (SELECT 1 FROM accounts WHERE id = acct)
      ON CONFLICT (account_id, is_completed, dated) DO UPDATE SET tasks = c.tasks + EXCLUDED.tasks;
  END IF;
END
$$;
CREATE FUNCTION tasks_count_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM task_count_apply(OLD.account_id, OLD.is_completed, OLD.due_at);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM task_count_apply(NEW.account_id, NEW.is_completed, NEW.due_at);
  END IF;
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER tasks_count_apply AFTER INSERT OR DELETE OR UPDATE OF account_id, is_completed, due_at ON tasks
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION tasks_count_apply();

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
  user_id bigint NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
  logs    bigint NOT NULL
);
INSERT INTO log_counts (user_id, logs) SELECT user_id, count(*) FROM logs GROUP BY user_id;

CREATE FUNCTION logs_count_note() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM count_delta_add('kith.logs_delta_' || NEW.user_id, 1);
  ELSE
    PERFORM count_delta_add('kith.logs_delta_' || OLD.user_id, -1);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER logs_count_note AFTER INSERT OR DELETE ON logs
  FOR EACH ROW EXECUTE FUNCTION logs_count_note();

-- A user deleted in the same transaction has no count to write.
CREATE FUNCTION logs_count_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  owner bigint := CASE WHEN TG_OP = 'INSERT' THEN NEW.user_id ELSE OLD.user_id END;
  delta bigint := count_delta_take('kith.logs_delta_' || owner);
BEGIN
  IF delta <> 0 THEN
    INSERT INTO log_counts AS c (user_id, logs)
      SELECT owner, delta WHERE EXISTS (SELECT 1 FROM users WHERE id = owner)
      ON CONFLICT (user_id) DO UPDATE SET logs = c.logs + EXCLUDED.logs;
  END IF;
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER logs_count_apply AFTER INSERT OR DELETE ON logs
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION logs_count_apply();

-- entry_counts is how many entries each journal has. account_id repeats
-- the journal's, as journal_entries does: the account's deletion counts
-- its rows by it.
CREATE TABLE entry_counts (
  account_id bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  journal_id bigint NOT NULL UNIQUE REFERENCES journals(id) ON DELETE CASCADE,
  entries    bigint NOT NULL
);
CREATE INDEX entry_counts_account ON entry_counts(account_id);
INSERT INTO entry_counts (account_id, journal_id, entries)
  SELECT account_id, journal_id, count(*) FROM journal_entries GROUP BY account_id, journal_id;

CREATE FUNCTION journal_entries_count_note() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM count_delta_add('kith.entries_delta_' || NEW.journal_id, 1);
  ELSE
    PERFORM count_delta_add('kith.entries_delta_' || OLD.journal_id, -1);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER journal_entries_count_note AFTER INSERT OR DELETE ON journal_entries
  FOR EACH ROW EXECUTE FUNCTION journal_entries_count_note();

-- A journal deleted in the same transaction has no count to write.
CREATE FUNCTION journal_entries_count_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  acct bigint := CASE WHEN TG_OP = 'INSERT' THEN NEW.account_id ELSE OLD.account_id END;
  owner bigint := CASE WHEN TG_OP = 'INSERT' THEN NEW.journal_id ELSE OLD.journal_id END;
  delta bigint := count_delta_take('kith.entries_delta_' || owner);
BEGIN
  IF delta <> 0 THEN
    INSERT INTO entry_counts AS c (account_id, journal_id, entries)
      SELECT acct, owner, delta WHERE EXISTS (SELECT 1 FROM journals WHERE id = owner)
      ON CONFLICT (journal_id) DO UPDATE SET entries = c.entries + EXCLUDED.entries;
  END IF;
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER journal_entries_count_apply AFTER INSERT OR DELETE ON journal_entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION journal_entries_count_apply();

-- Stay in touch: the reminders and digests read only the cadences due by
-- the last day they show, through an index, instead of every cadence of
-- the account. due_day is the day a person is due, in days since
-- 1970-01-01: every_days after their last interaction (last_contacted,
-- migration 0038), or after since_on without one. The dates are the
-- user's, as the store keeps them.
ALTER TABLE stay_in_touch ADD COLUMN due_day bigint;
UPDATE stay_in_touch SET due_day = (coalesce((SELECT p.last_contacted FROM persons p WHERE p.id = stay_in_touch.person_id),
  since_on)::date - DATE '1970-01-01') + every_days;
-- It takes the place of stay_in_touch_account, which served the reading
-- of every cadence (and which SQLite's planner would still pick, for the
-- order by person).
DROP INDEX stay_in_touch_account;
CREATE INDEX stay_in_touch_due ON stay_in_touch(account_id, due_day);

-- A merge moves a cadence to the person kept.
CREATE FUNCTION stay_in_touch_due() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.due_day := (coalesce((SELECT p.last_contacted FROM persons p WHERE p.id = NEW.person_id), NEW.since_on)::date
    - DATE '1970-01-01') + NEW.every_days;
  RETURN NEW;
END
$$;
CREATE TRIGGER stay_in_touch_due BEFORE INSERT OR UPDATE OF person_id, every_days, since_on ON stay_in_touch
  FOR EACH ROW EXECUTE FUNCTION stay_in_touch_due();

CREATE FUNCTION persons_contact_due() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE stay_in_touch SET due_day = (coalesce(NEW.last_contacted, since_on)::date - DATE '1970-01-01') + every_days
    WHERE person_id = NEW.id;
  RETURN NULL;
END
$$;
CREATE TRIGGER persons_contact_due AFTER UPDATE OF last_contacted ON persons
  FOR EACH ROW WHEN (OLD.last_contacted IS DISTINCT FROM NEW.last_contacted) EXECUTE FUNCTION persons_contact_due();
