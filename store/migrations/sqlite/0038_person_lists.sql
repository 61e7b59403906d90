-- Issue 34: the people list costs the same at 100,000 people as at 1,000.
--
-- person_counts is how many persons each account has, so that a page of
-- the list reads its total in one row instead of counting the account
-- row by row. Triggers keep it, whatever writes or deletes a person
-- (API, web, import, merge, prune, CardDAV, kith copy, which skips the
-- table and lets the triggers count the persons as they arrive). An
-- account without persons may have no row: its total is 0. No id of its
-- own: a row is the account's, which kith copy does not copy.
CREATE TABLE person_counts (
  account_id INTEGER NOT NULL UNIQUE REFERENCES accounts(id) ON DELETE CASCADE,
  persons    INTEGER NOT NULL
);
INSERT INTO person_counts (account_id, persons) SELECT account_id, count(*) FROM persons GROUP BY account_id;

CREATE TRIGGER persons_count_insert AFTER INSERT ON persons BEGIN
  INSERT INTO person_counts (account_id, persons) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET persons = persons + 1;
END;
-- An account's delete takes its persons and their count: the update then
-- finds no row, or one about to go.
CREATE TRIGGER persons_count_delete AFTER DELETE ON persons BEGIN
  UPDATE person_counts SET persons = persons - 1 WHERE account_id = OLD.account_id;
END;

-- last_contacted is the day of the person's latest interaction (null for
-- none), kept by the interactions' triggers: the list sorted by it reads
-- an index instead of working out every person's latest day and sorting
-- them all (a second at 100,000 people).
ALTER TABLE persons ADD COLUMN last_contacted TEXT;

-- Writing last_contacted, like search_text, is no change to the person's
-- card (migrations 0020 and 0021).
DROP TRIGGER persons_card_update;
CREATE TRIGGER persons_card_update AFTER UPDATE ON persons
WHEN OLD.card_seq = NEW.card_seq AND OLD.search_text IS NEW.search_text AND OLD.last_contacted IS NEW.last_contacted BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq) WHERE id = NEW.id;
END;

UPDATE persons SET last_contacted = (SELECT max(i.happened_on) FROM interactions i WHERE i.person_id = persons.id)
  WHERE id IN (SELECT person_id FROM interactions);

-- Each writes last_contacted only when it changes: a write that left it
-- as it was would read, to persons_card_update, as a change to the card.
CREATE TRIGGER interactions_contact_insert AFTER INSERT ON interactions BEGIN
  UPDATE persons SET last_contacted = NEW.happened_on
    WHERE id = NEW.person_id AND (last_contacted IS NULL OR last_contacted < NEW.happened_on);
END;
CREATE TRIGGER interactions_contact_update AFTER UPDATE OF person_id, happened_on ON interactions BEGIN
  UPDATE persons SET last_contacted = (SELECT max(i.happened_on) FROM interactions i WHERE i.person_id = persons.id)
    WHERE id IN (OLD.person_id, NEW.person_id)
      AND last_contacted IS NOT (SELECT max(i.happened_on) FROM interactions i WHERE i.person_id = persons.id);
END;
CREATE TRIGGER interactions_contact_delete AFTER DELETE ON interactions BEGIN
  UPDATE persons SET last_contacted = (SELECT max(i.happened_on) FROM interactions i WHERE i.person_id = persons.id)
    WHERE id = OLD.person_id
      AND last_contacted IS NOT (SELECT max(i.happened_on) FROM interactions i WHERE i.person_id = persons.id);
END;

-- The people list by last contact (OrderByLastContacted), as
-- persons_by_name serves it by name: the expressions are the query's.
CREATE INDEX persons_by_last_contacted ON persons (account_id, coalesce(last_contacted, '') DESC, lower(first_name),
  lower(coalesce(last_name, '')), id);
