-- Issue 34: bulk in at thousands a second. Every write of a person ran
-- triggers a row at a time: the card counter (migration 0020) wrote the
-- account's row and the person's again for each contact detail, date,
-- note, tag and photo, and the search text (migrations 0021, 0024) was
-- built and indexed for each person, in statements of their own, so that
-- SQLite's FTS5 index wrote a segment to the disk for each. An import
-- puts a row in bulk_writes for its account while it writes a batch: the
-- per-row triggers stand aside, and at the end of the batch the store
-- counts the batch's cards once and builds their search text in one
-- statement (store/import_bulk.go). The row is deleted before the batch
-- ends, and SQLite's one writer commits nothing meanwhile: no other
-- connection ever sees one. (PostgreSQL keeps its mark in a setting.)
CREATE TABLE bulk_writes (
  account_id INTEGER NOT NULL UNIQUE REFERENCES accounts(id) ON DELETE CASCADE
);

-- A person made in a batch still gets a UID, and a card deleted before
-- and made again is no longer deleted.
DROP TRIGGER persons_card_insert;
CREATE TRIGGER persons_card_insert AFTER INSERT ON persons WHEN NOT EXISTS (SELECT 1 FROM bulk_writes WHERE account_id = NEW.account_id) BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq),
    uid = coalesce(NEW.uid, lower(substr(hex(randomblob(16)), 1, 8) || '-' || substr(hex(randomblob(16)), 1, 4) || '-4' ||
      substr(hex(randomblob(16)), 1, 3) || '-a' || substr(hex(randomblob(16)), 1, 3) || '-' || substr(hex(randomblob(16)), 1, 12)))
  WHERE id = NEW.id;
  DELETE FROM deleted_cards WHERE account_id = NEW.account_id AND uid = NEW.uid;
END;
CREATE TRIGGER persons_card_insert_bulk AFTER INSERT ON persons WHEN EXISTS (SELECT 1 FROM bulk_writes WHERE account_id = NEW.account_id) BEGIN
  UPDATE persons SET uid = lower(substr(hex(randomblob(16)), 1, 8) || '-' || substr(hex(randomblob(16)), 1, 4) || '-4' ||
      substr(hex(randomblob(16)), 1, 3) || '-a' || substr(hex(randomblob(16)), 1, 3) || '-' || substr(hex(randomblob(16)), 1, 12))
  WHERE id = NEW.id AND NEW.uid IS NULL;
  DELETE FROM deleted_cards WHERE account_id = NEW.account_id AND uid = NEW.uid;
END;

DROP TRIGGER persons_card_update;
CREATE TRIGGER persons_card_update AFTER UPDATE ON persons
WHEN OLD.card_seq = NEW.card_seq AND OLD.search_text IS NEW.search_text AND OLD.last_contacted IS NEW.last_contacted
  AND NOT EXISTS (SELECT 1 FROM bulk_writes WHERE account_id = NEW.account_id) BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq) WHERE id = NEW.id;
END;

DROP TRIGGER contact_details_card_insert;
CREATE TRIGGER contact_details_card_insert AFTER INSERT ON contact_details WHEN NOT EXISTS (SELECT 1 FROM bulk_writes WHERE account_id = NEW.account_id) BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq) WHERE id = NEW.person_id;
END;

DROP TRIGGER contact_details_card_update;
CREATE TRIGGER contact_details_card_update AFTER UPDATE ON contact_details WHEN NOT EXISTS (SELECT 1 FROM bulk_writes WHERE account_id = NEW.account_id) BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq) WHERE id = NEW.person_id;
END;

DROP TRIGGER contact_details_card_delete;
CREATE TRIGGER contact_details_card_delete AFTER DELETE ON contact_details WHEN NOT EXISTS (SELECT 1 FROM bulk_writes WHERE account_id = OLD.account_id) BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = OLD.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = OLD.account_id), card_seq) WHERE id = OLD.person_id;
END;

DROP TRIGGER important_dates_card_insert;
CREATE TRIGGER important_dates_card_insert AFTER INSERT ON important_dates WHEN NOT EXISTS (SELECT 1 FROM bulk_writes WHERE account_id = NEW.account_id) BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq) WHERE id = NEW.person_id;
END;

DROP TRIGGER important_dates_card_update;
CREATE TRIGGER important_dates_card_update AFTER UPDATE ON important_dates WHEN NOT EXISTS (SELECT 1 FROM bulk_writes WHERE account_id = NEW.account_id) BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq) WHERE id = NEW.person_id;
END;

DROP TRIGGER important_dates_card_delete;
CREATE TRIGGER important_dates_card_delete AFTER DELETE ON important_dates WHEN NOT EXISTS (SELECT 1 FROM bulk_writes WHERE account_id = OLD.account_id) BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = OLD.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = OLD.account_id), card_seq) WHERE id = OLD.person_id;
END;

DROP TRIGGER notes_card_insert;
CREATE TRIGGER notes_card_insert AFTER INSERT ON notes WHEN NOT EXISTS (SELECT 1 FROM bulk_writes WHERE account_id = NEW.account_id) BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq) WHERE id = NEW.person_id;
END;

DROP TRIGGER notes_card_update;
CREATE TRIGGER notes_card_update AFTER UPDATE ON notes WHEN NOT EXISTS (SELECT 1 FROM bulk_writes WHERE account_id = NEW.account_id) BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq) WHERE id = NEW.person_id;
END;

DROP TRIGGER notes_card_delete;
CREATE TRIGGER notes_card_delete AFTER DELETE ON notes WHEN NOT EXISTS (SELECT 1 FROM bulk_writes WHERE account_id = OLD.account_id) BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = OLD.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = OLD.account_id), card_seq) WHERE id = OLD.person_id;
END;

DROP TRIGGER work_history_card_insert;
CREATE TRIGGER work_history_card_insert AFTER INSERT ON work_history WHEN NOT EXISTS (SELECT 1 FROM bulk_writes WHERE account_id = NEW.account_id) BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq) WHERE id = NEW.person_id;
END;

DROP TRIGGER work_history_card_update;
CREATE TRIGGER work_history_card_update AFTER UPDATE ON work_history WHEN NOT EXISTS (SELECT 1 FROM bulk_writes WHERE account_id = NEW.account_id) BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq) WHERE id = NEW.person_id;
END;

DROP TRIGGER work_history_card_delete;
CREATE TRIGGER work_history_card_delete AFTER DELETE ON work_history WHEN NOT EXISTS (SELECT 1 FROM bulk_writes WHERE account_id = OLD.account_id) BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = OLD.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = OLD.account_id), card_seq) WHERE id = OLD.person_id;
END;

DROP TRIGGER person_tags_card_insert;
CREATE TRIGGER person_tags_card_insert AFTER INSERT ON person_tags WHEN NOT EXISTS (SELECT 1 FROM bulk_writes WHERE account_id = NEW.account_id) BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq) WHERE id = NEW.person_id;
END;

DROP TRIGGER person_tags_card_delete;
CREATE TRIGGER person_tags_card_delete AFTER DELETE ON person_tags WHEN NOT EXISTS (SELECT 1 FROM bulk_writes WHERE account_id = OLD.account_id) BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = OLD.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = OLD.account_id), card_seq) WHERE id = OLD.person_id;
END;

DROP TRIGGER photos_card_insert;
CREATE TRIGGER photos_card_insert AFTER INSERT ON photos WHEN NOT EXISTS (SELECT 1 FROM bulk_writes WHERE account_id = NEW.account_id) BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq) WHERE id = NEW.person_id;
END;

DROP TRIGGER photos_card_update;
CREATE TRIGGER photos_card_update AFTER UPDATE ON photos WHEN NOT EXISTS (SELECT 1 FROM bulk_writes WHERE account_id = NEW.account_id) BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq) WHERE id = NEW.person_id;
END;

DROP TRIGGER photos_card_delete;
CREATE TRIGGER photos_card_delete AFTER DELETE ON photos WHEN NOT EXISTS (SELECT 1 FROM bulk_writes WHERE account_id = OLD.account_id) BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = OLD.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = OLD.account_id), card_seq) WHERE id = OLD.person_id;
END;

-- The search text of a batch's persons is built when the batch ends.
DROP TRIGGER persons_search_insert;
DROP TRIGGER persons_search_names;
DROP TRIGGER persons_search_refresh;
DROP TRIGGER persons_search_index;
CREATE TRIGGER persons_search_insert AFTER INSERT ON persons WHEN NOT EXISTS (SELECT 1 FROM bulk_writes WHERE account_id = NEW.account_id) BEGIN
  UPDATE persons SET search_text = first_name || coalesce(' ' || middle_name, '') || coalesce(' ' || last_name, '')
      || coalesce(' ' || nickname, '') || coalesce(' ' || maiden_name, '')
      || coalesce(' ' || (SELECT group_concat(e.value, ' ') FROM (SELECT d.value FROM contact_details d
        WHERE d.person_id = persons.id AND d.kind = 'email' ORDER BY d.id) e), '')
    WHERE id = NEW.id;
END;
CREATE TRIGGER persons_search_names AFTER UPDATE OF first_name, last_name, middle_name, nickname, maiden_name ON persons
WHEN NOT EXISTS (SELECT 1 FROM bulk_writes WHERE account_id = NEW.account_id) BEGIN
  UPDATE persons SET search_text = first_name || coalesce(' ' || middle_name, '') || coalesce(' ' || last_name, '')
      || coalesce(' ' || nickname, '') || coalesce(' ' || maiden_name, '')
      || coalesce(' ' || (SELECT group_concat(e.value, ' ') FROM (SELECT d.value FROM contact_details d
        WHERE d.person_id = persons.id AND d.kind = 'email' ORDER BY d.id) e), '')
    WHERE id = NEW.id;
END;
CREATE TRIGGER persons_search_refresh AFTER UPDATE OF search_text ON persons WHEN NEW.search_text IS NULL AND NOT EXISTS (SELECT 1 FROM bulk_writes WHERE account_id = NEW.account_id) BEGIN
  UPDATE persons SET search_text = first_name || coalesce(' ' || middle_name, '') || coalesce(' ' || last_name, '')
      || coalesce(' ' || nickname, '') || coalesce(' ' || maiden_name, '')
      || coalesce(' ' || (SELECT group_concat(e.value, ' ') FROM (SELECT d.value FROM contact_details d
        WHERE d.person_id = persons.id AND d.kind = 'email' ORDER BY d.id) e), '')
    WHERE id = NEW.id;
END;
CREATE TRIGGER persons_search_index AFTER UPDATE OF search_text ON persons WHEN NEW.search_text IS NOT NULL AND NOT EXISTS (SELECT 1 FROM bulk_writes WHERE account_id = NEW.account_id) BEGIN
  DELETE FROM persons_search WHERE rowid = NEW.id;
  INSERT INTO persons_search (rowid, search_text) VALUES (NEW.id, NEW.search_text);
END;
