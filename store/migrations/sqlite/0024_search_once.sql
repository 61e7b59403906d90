-- Issue 27, H2 and compatibility. The triggers of migration 0021 built a
-- person's search text again for every email written, reading all the
-- person's emails each time: a card of 40,000 EMAIL lines took minutes,
-- holding the one writer. Now an email written leaves the text alone, and
-- the store, once it has written a person's details, asks for the text
-- again once (Store.refreshSearch): it sets search_text to NULL, and
-- persons_search_refresh builds it.
--
-- The triggers also used group_concat(… ORDER BY …) and concat_ws, which
-- came with SQLite 3.44: the sqlite3 of Debian 12 (3.40) could not read
-- the schema. They are written here in SQLite 3.40's words; the emails
-- come in id order from the subquery's ORDER BY.
DROP TRIGGER contact_details_search_insert;
DROP TRIGGER contact_details_search_update;
DROP TRIGGER contact_details_search_delete;
DROP TRIGGER persons_search_insert;
DROP TRIGGER persons_search_names;
DROP TRIGGER persons_search_index;

CREATE TRIGGER persons_search_insert AFTER INSERT ON persons BEGIN
  UPDATE persons SET search_text = first_name || coalesce(' ' || middle_name, '') || coalesce(' ' || last_name, '')
      || coalesce(' ' || nickname, '') || coalesce(' ' || maiden_name, '')
      || coalesce(' ' || (SELECT group_concat(e.value, ' ') FROM (SELECT d.value FROM contact_details d
        WHERE d.person_id = persons.id AND d.kind = 'email' ORDER BY d.id) e), '')
    WHERE id = NEW.id;
END;
CREATE TRIGGER persons_search_names AFTER UPDATE OF first_name, last_name, middle_name, nickname, maiden_name ON persons BEGIN
  UPDATE persons SET search_text = first_name || coalesce(' ' || middle_name, '') || coalesce(' ' || last_name, '')
      || coalesce(' ' || nickname, '') || coalesce(' ' || maiden_name, '')
      || coalesce(' ' || (SELECT group_concat(e.value, ' ') FROM (SELECT d.value FROM contact_details d
        WHERE d.person_id = persons.id AND d.kind = 'email' ORDER BY d.id) e), '')
    WHERE id = NEW.id;
END;
-- The store's request: search_text set to NULL is built again.
CREATE TRIGGER persons_search_refresh AFTER UPDATE OF search_text ON persons WHEN NEW.search_text IS NULL BEGIN
  UPDATE persons SET search_text = first_name || coalesce(' ' || middle_name, '') || coalesce(' ' || last_name, '')
      || coalesce(' ' || nickname, '') || coalesce(' ' || maiden_name, '')
      || coalesce(' ' || (SELECT group_concat(e.value, ' ') FROM (SELECT d.value FROM contact_details d
        WHERE d.person_id = persons.id AND d.kind = 'email' ORDER BY d.id) e), '')
    WHERE id = NEW.id;
END;
-- The index follows the column, but not its NULL of a moment: the text
-- built after it is what is indexed, whichever trigger SQLite runs first.
CREATE TRIGGER persons_search_index AFTER UPDATE OF search_text ON persons WHEN NEW.search_text IS NOT NULL BEGIN
  DELETE FROM persons_search WHERE rowid = NEW.id;
  INSERT INTO persons_search (rowid, search_text) VALUES (NEW.id, NEW.search_text);
END;
