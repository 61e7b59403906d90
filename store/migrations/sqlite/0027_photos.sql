-- A person's photo (contract-people §6): at most one, the JPEG Kith made
-- of what a client sent (server/photo), never the sent bytes. sha256 is
-- the JPEG's digest in hex: the photo's ETag, and how a card that carries
-- Kith's own photo back (a phone saving an edited contact) is known not
-- to change it.
CREATE TABLE photos (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  person_id  INTEGER NOT NULL UNIQUE REFERENCES persons(id) ON DELETE CASCADE,
  jpeg       BLOB    NOT NULL CHECK (length(jpeg) > 0),
  sha256     TEXT    NOT NULL CHECK (length(sha256) = 64),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

-- The photo is the card's PHOTO: a change is a change to the card, as for
-- the tables of migration 0020.
CREATE TRIGGER photos_card_insert AFTER INSERT ON photos BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq) WHERE id = NEW.person_id;
END;
CREATE TRIGGER photos_card_update AFTER UPDATE ON photos BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq) WHERE id = NEW.person_id;
END;
CREATE TRIGGER photos_card_delete AFTER DELETE ON photos BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = OLD.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = OLD.account_id), card_seq) WHERE id = OLD.person_id;
END;
