-- Search of persons by any part of a name, nickname or email address
-- (GET /api/persons?q=, the web app's search): persons.search_text holds
-- them, kept by triggers whatever writes a person or an email, and an FTS5
-- index of its trigrams (case and diacritics folded) finds a substring
-- among 10,000 persons without reading them all. The index keeps no copy
-- of the text (contentless), and forgets a row by its id alone
-- (contentless_delete), whatever the text was.
ALTER TABLE persons ADD COLUMN search_text TEXT;
CREATE VIRTUAL TABLE persons_search USING fts5(search_text, content='', contentless_delete=1,
  tokenize='trigram remove_diacritics 1');

CREATE TRIGGER persons_search_insert AFTER INSERT ON persons BEGIN
  UPDATE persons SET search_text = concat_ws(' ', first_name, middle_name, last_name, nickname, maiden_name,
    (SELECT group_concat(d.value, ' ' ORDER BY d.id) FROM contact_details d WHERE d.person_id = persons.id AND d.kind = 'email')) WHERE id = NEW.id;
END;
CREATE TRIGGER persons_search_names AFTER UPDATE OF first_name, last_name, middle_name, nickname, maiden_name ON persons BEGIN
  UPDATE persons SET search_text = concat_ws(' ', first_name, middle_name, last_name, nickname, maiden_name,
    (SELECT group_concat(d.value, ' ' ORDER BY d.id) FROM contact_details d WHERE d.person_id = persons.id AND d.kind = 'email')) WHERE id = NEW.id;
END;
CREATE TRIGGER contact_details_search_insert AFTER INSERT ON contact_details WHEN NEW.kind = 'email' BEGIN
  UPDATE persons SET search_text = concat_ws(' ', first_name, middle_name, last_name, nickname, maiden_name,
    (SELECT group_concat(d.value, ' ' ORDER BY d.id) FROM contact_details d WHERE d.person_id = persons.id AND d.kind = 'email')) WHERE id = NEW.person_id;
END;
CREATE TRIGGER contact_details_search_update AFTER UPDATE ON contact_details WHEN OLD.kind = 'email' OR NEW.kind = 'email' BEGIN
  UPDATE persons SET search_text = concat_ws(' ', first_name, middle_name, last_name, nickname, maiden_name,
    (SELECT group_concat(d.value, ' ' ORDER BY d.id) FROM contact_details d WHERE d.person_id = persons.id AND d.kind = 'email')) WHERE id = NEW.person_id;
END;
CREATE TRIGGER contact_details_search_delete AFTER DELETE ON contact_details WHEN OLD.kind = 'email' BEGIN
  UPDATE persons SET search_text = concat_ws(' ', first_name, middle_name, last_name, nickname, maiden_name,
    (SELECT group_concat(d.value, ' ' ORDER BY d.id) FROM contact_details d WHERE d.person_id = persons.id AND d.kind = 'email')) WHERE id = OLD.person_id;
END;

-- The index follows the column: out with the old text, in with the new.
CREATE TRIGGER persons_search_index AFTER UPDATE OF search_text ON persons BEGIN
  DELETE FROM persons_search WHERE rowid = NEW.id;
  INSERT INTO persons_search (rowid, search_text) SELECT NEW.id, NEW.search_text WHERE NEW.search_text IS NOT NULL;
END;
CREATE TRIGGER persons_search_delete AFTER DELETE ON persons BEGIN
  DELETE FROM persons_search WHERE rowid = OLD.id;
END;

-- Writing search_text is no change to a person's card (migration 0020).
DROP TRIGGER persons_card_update;
CREATE TRIGGER persons_card_update AFTER UPDATE ON persons
WHEN OLD.card_seq = NEW.card_seq AND OLD.search_text IS NEW.search_text BEGIN
  UPDATE accounts SET card_seq = card_seq + 1 WHERE id = NEW.account_id;
  UPDATE persons SET card_seq = coalesce((SELECT card_seq FROM accounts WHERE id = NEW.account_id), card_seq) WHERE id = NEW.id;
END;

UPDATE persons SET search_text = concat_ws(' ', first_name, middle_name, last_name, nickname, maiden_name,
    (SELECT group_concat(d.value, ' ' ORDER BY d.id) FROM contact_details d WHERE d.person_id = persons.id AND d.kind = 'email'));
