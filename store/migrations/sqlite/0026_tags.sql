-- Tags belong to an account, and a person has any number of them
-- (contract-people §5). A name is unique in the account ignoring case:
-- name_key is the name under Unicode simple case folding, written by the
-- store (store.FoldTag), since neither engine folds that way by itself;
-- the unique index makes it hold whoever writes. It also orders the lists,
-- byte by byte on both engines.
CREATE TABLE tags (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  -- the spelling it was made with (or renamed to)
  name       TEXT    NOT NULL,
  name_key   TEXT    NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX tags_name ON tags(account_id, name_key);

CREATE TABLE person_tags (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  -- account_id repeats the person's, for the card counter's triggers.
  account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  person_id  INTEGER NOT NULL REFERENCES persons(id) ON DELETE CASCADE,
  tag_id     INTEGER NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX person_tags_person ON person_tags(person_id, tag_id);
-- A tag's persons: its count, ?tag=, a rename, a merge, a deletion.
CREATE INDEX person_tags_tag ON person_tags(tag_id, person_id);

-- A person's tags are their card's CATEGORIES: taking one on or off, or
-- renaming one, changes the card (migration 0020).
CREATE TRIGGER person_tags_card_insert AFTER INSERT ON person_tags BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq) WHERE id = NEW.person_id;
END;
CREATE TRIGGER person_tags_card_delete AFTER DELETE ON person_tags BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = OLD.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = OLD.account_id), card_seq) WHERE id = OLD.person_id;
END;
CREATE TRIGGER tags_card_update AFTER UPDATE OF name ON tags BEGIN
  UPDATE persons SET uid = uid WHERE id IN (SELECT person_id FROM person_tags WHERE tag_id = NEW.id);
END;
