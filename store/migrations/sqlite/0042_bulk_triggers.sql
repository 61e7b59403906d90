-- Issue 34: bulk in at thousands a second. In a batch (migration 0040)
-- the count of persons (migration 0038) is held back too, and a person
-- made in a batch no longer clears its UID from deleted_cards a row at a
-- time: the batch's end does both once for the batch
-- (store/import_bulk.go), as PostgreSQL's does.
DROP TRIGGER persons_count_insert;
CREATE TRIGGER persons_count_insert AFTER INSERT ON persons
WHEN NOT EXISTS (SELECT 1 FROM bulk_writes WHERE account_id = NEW.account_id) BEGIN
  INSERT INTO person_counts (account_id, persons) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET persons = persons + 1;
END;

DROP TRIGGER persons_card_insert_bulk;
CREATE TRIGGER persons_card_insert_bulk AFTER INSERT ON persons
WHEN NEW.uid IS NULL AND EXISTS (SELECT 1 FROM bulk_writes WHERE account_id = NEW.account_id) BEGIN
  UPDATE persons SET uid = lower(substr(hex(randomblob(16)), 1, 8) || '-' || substr(hex(randomblob(16)), 1, 4) || '-4' ||
      substr(hex(randomblob(16)), 1, 3) || '-a' || substr(hex(randomblob(16)), 1, 3) || '-' || substr(hex(randomblob(16)), 1, 12))
  WHERE id = NEW.id;
END;
