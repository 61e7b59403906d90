-- Issue 34: bulk in at thousands a second. Migration 0040 held the per-row
-- triggers back in a batch from inside their functions: each row of an
-- import still entered plpgsql once for every trigger on its table, and
-- each AFTER trigger's call was queued with the row and run at the end of
-- its statement, only to return. A WHEN clause is evaluated with the row,
-- without a call: held back, a trigger costs nothing. A clause names the
-- row as NEW or OLD, so a trigger of both an INSERT and a DELETE is split
-- in two. The batch's end does, once for the batch, what the triggers
-- held back would have done for each row (store/import_bulk.go): it counts
-- the persons it made and clears their UIDs from deleted_cards.

-- One search text, for the trigger and for an import that writes a new
-- person's text with the person (store/import_cards.go).
CREATE FUNCTION person_search_text(first_name text, middle_name text, last_name text, nickname text,
  maiden_name text, emails text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT lower(concat_ws(' ', first_name, middle_name, last_name, nickname, maiden_name, emails))
$$;

CREATE OR REPLACE FUNCTION persons_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := person_search_text(NEW.first_name, NEW.middle_name, NEW.last_name, NEW.nickname, NEW.maiden_name,
    (SELECT string_agg(d.value, ' ' ORDER BY d.id) FROM contact_details d WHERE d.person_id = NEW.id AND d.kind = 'email'));
  RETURN NEW;
END
$$;
DROP TRIGGER persons_search_text ON persons;
CREATE TRIGGER persons_search_text BEFORE INSERT OR UPDATE OF first_name, middle_name, last_name, nickname, maiden_name, search_text
  ON persons FOR EACH ROW WHEN (NOT bulk_writing(NEW.account_id)) EXECUTE FUNCTION persons_search_text();

-- The card counter of a person's row. BEFORE triggers run in the order of
-- their names: the card's, then its UID's, then the search text's, as
-- persons_card_write ran before persons_search_text.
CREATE OR REPLACE FUNCTION persons_card_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.uid := coalesce(NEW.uid, gen_random_uuid()::text);
    DELETE FROM deleted_cards WHERE account_id = NEW.account_id AND uid = NEW.uid;
  ELSIF OLD.card_seq <> NEW.card_seq OR ((OLD.search_text IS DISTINCT FROM NEW.search_text
        OR OLD.last_contacted IS DISTINCT FROM NEW.last_contacted)
      AND ROW(OLD.first_name, OLD.last_name, OLD.middle_name, OLD.nickname, OLD.maiden_name, OLD.updated_at)
        IS NOT DISTINCT FROM ROW(NEW.first_name, NEW.last_name, NEW.middle_name, NEW.nickname, NEW.maiden_name, NEW.updated_at)) THEN
    RETURN NEW;
  END IF;
  NEW.card_seq := coalesce(card_bump(NEW.account_id), NEW.card_seq);
  RETURN NEW;
END
$$;
DROP TRIGGER persons_card_write ON persons;
CREATE TRIGGER persons_card_insert BEFORE INSERT ON persons
  FOR EACH ROW WHEN (NOT bulk_writing(NEW.account_id)) EXECUTE FUNCTION persons_card_write();
CREATE TRIGGER persons_card_update BEFORE UPDATE ON persons
  FOR EACH ROW WHEN (NOT bulk_writing(NEW.account_id)) EXECUTE FUNCTION persons_card_write();

-- A person made in a batch without a UID (a JSON import's) still gets one.
CREATE FUNCTION persons_card_uid() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.uid := gen_random_uuid()::text;
  RETURN NEW;
END
$$;
CREATE TRIGGER persons_card_uid BEFORE INSERT ON persons
  FOR EACH ROW WHEN (NEW.uid IS NULL AND bulk_writing(NEW.account_id)) EXECUTE FUNCTION persons_card_uid();

-- The count of persons (migration 0038): a batch adds its persons at its
-- end. A deletion is never in a batch.
DROP TRIGGER persons_count_note ON persons;
CREATE TRIGGER persons_count_insert AFTER INSERT ON persons
  FOR EACH ROW WHEN (NOT bulk_writing(NEW.account_id)) EXECUTE FUNCTION persons_count_note();
CREATE TRIGGER persons_count_delete AFTER DELETE ON persons
  FOR EACH ROW EXECUTE FUNCTION persons_count_note();
DROP TRIGGER persons_count_apply ON persons;
CREATE CONSTRAINT TRIGGER persons_count_apply AFTER INSERT ON persons
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NOT bulk_writing(NEW.account_id)) EXECUTE FUNCTION persons_count_apply();
CREATE CONSTRAINT TRIGGER persons_count_apply_delete AFTER DELETE ON persons
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION persons_count_apply();

-- What a card holds beside the person's row (migrations 0020, 0026, 0027).
CREATE OR REPLACE FUNCTION card_child_write() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
  seq bigint;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  seq := card_bump(r.account_id);
  -- A person written already in this transaction (one made with its
  -- details, by an import) has the count: no new version of its row.
  UPDATE persons SET card_seq = seq WHERE id = r.person_id AND card_seq IS DISTINCT FROM seq;
  RETURN NULL;
END
$$;
DROP TRIGGER contact_details_card ON contact_details;
CREATE TRIGGER contact_details_card AFTER INSERT OR UPDATE ON contact_details
  FOR EACH ROW WHEN (NOT bulk_writing(NEW.account_id)) EXECUTE FUNCTION card_child_write();
CREATE TRIGGER contact_details_card_delete AFTER DELETE ON contact_details
  FOR EACH ROW WHEN (NOT bulk_writing(OLD.account_id)) EXECUTE FUNCTION card_child_write();
DROP TRIGGER important_dates_card ON important_dates;
CREATE TRIGGER important_dates_card AFTER INSERT OR UPDATE ON important_dates
  FOR EACH ROW WHEN (NOT bulk_writing(NEW.account_id)) EXECUTE FUNCTION card_child_write();
CREATE TRIGGER important_dates_card_delete AFTER DELETE ON important_dates
  FOR EACH ROW WHEN (NOT bulk_writing(OLD.account_id)) EXECUTE FUNCTION card_child_write();
DROP TRIGGER notes_card ON notes;
CREATE TRIGGER notes_card AFTER INSERT OR UPDATE ON notes
  FOR EACH ROW WHEN (NOT bulk_writing(NEW.account_id)) EXECUTE FUNCTION card_child_write();
CREATE TRIGGER notes_card_delete AFTER DELETE ON notes
  FOR EACH ROW WHEN (NOT bulk_writing(OLD.account_id)) EXECUTE FUNCTION card_child_write();
DROP TRIGGER work_history_card ON work_history;
CREATE TRIGGER work_history_card AFTER INSERT OR UPDATE ON work_history
  FOR EACH ROW WHEN (NOT bulk_writing(NEW.account_id)) EXECUTE FUNCTION card_child_write();
CREATE TRIGGER work_history_card_delete AFTER DELETE ON work_history
  FOR EACH ROW WHEN (NOT bulk_writing(OLD.account_id)) EXECUTE FUNCTION card_child_write();
DROP TRIGGER person_tags_card ON person_tags;
CREATE TRIGGER person_tags_card AFTER INSERT ON person_tags
  FOR EACH ROW WHEN (NOT bulk_writing(NEW.account_id)) EXECUTE FUNCTION card_child_write();
CREATE TRIGGER person_tags_card_delete AFTER DELETE ON person_tags
  FOR EACH ROW WHEN (NOT bulk_writing(OLD.account_id)) EXECUTE FUNCTION card_child_write();
DROP TRIGGER photos_card ON photos;
CREATE TRIGGER photos_card AFTER INSERT OR UPDATE ON photos
  FOR EACH ROW WHEN (NOT bulk_writing(NEW.account_id)) EXECUTE FUNCTION card_child_write();
CREATE TRIGGER photos_card_delete AFTER DELETE ON photos
  FOR EACH ROW WHEN (NOT bulk_writing(OLD.account_id)) EXECUTE FUNCTION card_child_write();
