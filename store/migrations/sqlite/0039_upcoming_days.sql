-- The upcoming list, the dashboard and the digests find the next days'
-- dates by month and day, through an index, instead of reading the
-- account's every date.
--
-- A life event's day is that of happened_at in the reading user's zone,
-- which the database does not know: utc_month and utc_day are its day in
-- UTC, at most a day from any zone's, so a reader widens its days to
-- either side and keeps the exact ones. A trigger keeps them, so no
-- write path (create, update, import, merge, copy) can forget them.
ALTER TABLE life_events ADD COLUMN utc_month INTEGER;
ALTER TABLE life_events ADD COLUMN utc_day INTEGER;
UPDATE life_events SET utc_month = CAST(strftime('%m', happened_at, 'unixepoch') AS INTEGER),
  utc_day = CAST(strftime('%d', happened_at, 'unixepoch') AS INTEGER);
CREATE TRIGGER life_events_utc_day_insert AFTER INSERT ON life_events BEGIN
  UPDATE life_events SET utc_month = CAST(strftime('%m', NEW.happened_at, 'unixepoch') AS INTEGER),
    utc_day = CAST(strftime('%d', NEW.happened_at, 'unixepoch') AS INTEGER) WHERE id = NEW.id;
END;
CREATE TRIGGER life_events_utc_day_update AFTER UPDATE OF happened_at ON life_events BEGIN
  UPDATE life_events SET utc_month = CAST(strftime('%m', NEW.happened_at, 'unixepoch') AS INTEGER),
    utc_day = CAST(strftime('%d', NEW.happened_at, 'unixepoch') AS INTEGER) WHERE id = NEW.id;
END;
CREATE INDEX life_events_yearly ON life_events(account_id, utc_month, utc_day) WHERE should_be_reminded;

-- A reminder's first day's month and day: a one_time or yearly one falls
-- in the next days only if these do. Daily, weekly and monthly ones fall
-- in nearly any month, and are read by frequency.
ALTER TABLE reminders ADD COLUMN start_month INTEGER;
ALTER TABLE reminders ADD COLUMN start_day INTEGER;
UPDATE reminders SET start_month = CAST(substr(starts_on, 6, 2) AS INTEGER), start_day = CAST(substr(starts_on, 9, 2) AS INTEGER);
CREATE TRIGGER reminders_start_day_insert AFTER INSERT ON reminders BEGIN
  UPDATE reminders SET start_month = CAST(substr(NEW.starts_on, 6, 2) AS INTEGER),
    start_day = CAST(substr(NEW.starts_on, 9, 2) AS INTEGER) WHERE id = NEW.id;
END;
CREATE TRIGGER reminders_start_day_update AFTER UPDATE OF starts_on ON reminders BEGIN
  UPDATE reminders SET start_month = CAST(substr(NEW.starts_on, 6, 2) AS INTEGER),
    start_day = CAST(substr(NEW.starts_on, 9, 2) AS INTEGER) WHERE id = NEW.id;
END;
CREATE INDEX reminders_upcoming ON reminders(account_id, frequency, start_month, start_day) WHERE sent_at IS NULL;

-- The open tasks alone, by due date: the upcoming list shows those due in
-- its days and those overdue, and an account's done tasks, which pile up
-- over the years, are not read for them.
CREATE INDEX tasks_open_due ON tasks(account_id, due_at) WHERE NOT is_completed;
