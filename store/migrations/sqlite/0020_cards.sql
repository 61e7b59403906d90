-- What vCard and CardDAV need of a person: a stable UID (a card imported
-- from a phone keeps its own, so that importing it again updates rather
-- than duplicates), the card's properties that Kith has no field for
-- (vcard_extra, a vCard fragment given back on export), and a change
-- counter for CardDAV's sync-collection.
--
-- accounts.card_seq counts the changes to the account's address book;
-- persons.card_seq is its value when the person's card last changed, and
-- deleted_cards keeps, for a sync token older than the deletion, which
-- cards went. Triggers keep them, so that no write path (API, web, import,
-- CardDAV, kith copy) can forget a change: a phone that misses one keeps a
-- stale contact for ever.
ALTER TABLE persons ADD COLUMN uid TEXT;
ALTER TABLE persons ADD COLUMN vcard_extra TEXT;
-- card_name is the name a CardDAV client gave the card's resource when it
-- is not the UID's own (<uid>.vcf); null for most.
ALTER TABLE persons ADD COLUMN card_name TEXT;
ALTER TABLE persons ADD COLUMN card_seq INTEGER NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN card_seq INTEGER NOT NULL DEFAULT 0;

UPDATE persons SET uid = lower(substr(hex(randomblob(16)), 1, 8) || '-' || substr(hex(randomblob(16)), 1, 4) || '-4' ||
  substr(hex(randomblob(16)), 1, 3) || '-a' || substr(hex(randomblob(16)), 1, 3) || '-' || substr(hex(randomblob(16)), 1, 12));
CREATE UNIQUE INDEX persons_uid ON persons(account_id, uid);
CREATE UNIQUE INDEX persons_card_name ON persons(account_id, card_name);
-- sync-collection: the cards changed since a token, in one index range.
CREATE INDEX persons_card_seq ON persons(account_id, card_seq);

CREATE TABLE deleted_cards (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  uid        TEXT    NOT NULL,
  name       TEXT,
  card_seq   INTEGER NOT NULL
);
CREATE INDEX deleted_cards_seq ON deleted_cards(account_id, card_seq);

CREATE TRIGGER persons_card_insert AFTER INSERT ON persons BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq),
    uid = coalesce(NEW.uid, lower(substr(hex(randomblob(16)), 1, 8) || '-' || substr(hex(randomblob(16)), 1, 4) || '-4' ||
      substr(hex(randomblob(16)), 1, 3) || '-a' || substr(hex(randomblob(16)), 1, 3) || '-' || substr(hex(randomblob(16)), 1, 12)))
  WHERE id = NEW.id;
  -- A card deleted and then created again (an import of the same UID) is
  -- no longer deleted.
  DELETE FROM deleted_cards WHERE account_id = NEW.account_id AND uid = NEW.uid;
END;

-- Only writes that leave card_seq alone are changes; the triggers' own
-- write of card_seq is not.
CREATE TRIGGER persons_card_update AFTER UPDATE ON persons WHEN OLD.card_seq = NEW.card_seq BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq) WHERE id = NEW.id;
END;

-- The account is gone when its persons go with it: then nothing is kept.
CREATE TRIGGER persons_card_delete AFTER DELETE ON persons BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = OLD.account_id;
  INSERT INTO deleted_cards (account_id, uid, name, card_seq)
    SELECT id, OLD.uid, OLD.card_name, card_seq FROM accounts WHERE id = OLD.account_id AND OLD.uid IS NOT NULL;
END;

-- A person's card holds their contact details, important dates, notes and
-- work: a change to any of them is a change to the card.
CREATE TRIGGER contact_details_card_insert AFTER INSERT ON contact_details BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq) WHERE id = NEW.person_id;
END;
CREATE TRIGGER contact_details_card_update AFTER UPDATE ON contact_details BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq) WHERE id = NEW.person_id;
END;
CREATE TRIGGER contact_details_card_delete AFTER DELETE ON contact_details BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = OLD.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = OLD.account_id), card_seq) WHERE id = OLD.person_id;
END;
CREATE TRIGGER important_dates_card_insert AFTER INSERT ON important_dates BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq) WHERE id = NEW.person_id;
END;
CREATE TRIGGER important_dates_card_update AFTER UPDATE ON important_dates BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq) WHERE id = NEW.person_id;
END;
CREATE TRIGGER important_dates_card_delete AFTER DELETE ON important_dates BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = OLD.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = OLD.account_id), card_seq) WHERE id = OLD.person_id;
END;
CREATE TRIGGER notes_card_insert AFTER INSERT ON notes BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq) WHERE id = NEW.person_id;
END;
CREATE TRIGGER notes_card_update AFTER UPDATE ON notes BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq) WHERE id = NEW.person_id;
END;
CREATE TRIGGER notes_card_delete AFTER DELETE ON notes BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = OLD.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = OLD.account_id), card_seq) WHERE id = OLD.person_id;
END;
CREATE TRIGGER work_history_card_insert AFTER INSERT ON work_history BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq) WHERE id = NEW.person_id;
END;
CREATE TRIGGER work_history_card_update AFTER UPDATE ON work_history BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq) WHERE id = NEW.person_id;
END;
CREATE TRIGGER work_history_card_delete AFTER DELETE ON work_history BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = OLD.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = OLD.account_id), card_seq) WHERE id = OLD.person_id;
END;

-- A card's GENDER names its gender: a new name changes the cards.
CREATE TRIGGER genders_card_update AFTER UPDATE OF name ON genders BEGIN
  UPDATE persons SET uid = uid WHERE gender_id = NEW.id;
END;
