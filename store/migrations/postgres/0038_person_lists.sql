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
  account_id bigint NOT NULL UNIQUE REFERENCES accounts(id) ON DELETE CASCADE,
  persons    bigint NOT NULL
);
INSERT INTO person_counts (account_id, persons) SELECT account_id, count(*) FROM persons GROUP BY account_id;

-- A transaction writes the count once, at its commit, as card_bump
-- (migration 0020) writes the account's card counter once: updating one
-- row for each person an import adds would leave a version of it for
-- each. Each person written adds to the transaction's change, kept in a
-- setting local to it (which a rolled back savepoint undoes with its
-- rows); the first of the deferred triggers at commit writes it.
CREATE FUNCTION persons_count_note() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  acct bigint := CASE WHEN TG_OP = 'INSERT' THEN NEW.account_id ELSE OLD.account_id END;
  key text := 'kith.persons_delta_' || acct;
BEGIN
  PERFORM set_config(key, (coalesce(nullif(current_setting(key, true), ''), '0')::bigint
    + CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END)::text, true);
  RETURN NULL;
END
$$;
CREATE TRIGGER persons_count_note AFTER INSERT OR DELETE ON persons
  FOR EACH ROW EXECUTE FUNCTION persons_count_note();

-- An account deleted in the same transaction has no count to write.
CREATE FUNCTION persons_count_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  acct bigint := CASE WHEN TG_OP = 'INSERT' THEN NEW.account_id ELSE OLD.account_id END;
  key text := 'kith.persons_delta_' || acct;
  delta bigint := coalesce(nullif(current_setting(key, true), ''), '0')::bigint;
BEGIN
  IF delta <> 0 THEN
    PERFORM set_config(key, '0', true);
    INSERT INTO person_counts AS c (account_id, persons)
      SELECT acct, delta WHERE EXISTS (SELECT 1 FROM accounts WHERE id = acct)
      ON CONFLICT (account_id) DO UPDATE SET persons = c.persons + EXCLUDED.persons;
  END IF;
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER persons_count_apply AFTER INSERT OR DELETE ON persons
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION persons_count_apply();

-- last_contacted is the day of the person's latest interaction (null for
-- none), kept by the interactions' triggers: the list sorted by it reads
-- an index instead of working out every person's latest day and sorting
-- them all (a second at 100,000 people).
ALTER TABLE persons ADD COLUMN last_contacted text;

-- Writing last_contacted, like search_text, is no change to the person's
-- card (migrations 0020 and 0021).
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

UPDATE persons SET last_contacted = (SELECT max(i.happened_on) FROM interactions i WHERE i.person_id = persons.id)
  WHERE id IN (SELECT person_id FROM interactions);

-- Each writes last_contacted only when it changes.
CREATE FUNCTION interactions_last_contacted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE persons SET last_contacted = NEW.happened_on
      WHERE id = NEW.person_id AND (last_contacted IS NULL OR last_contacted < NEW.happened_on);
    RETURN NULL;
  END IF;
  UPDATE persons SET last_contacted = (SELECT max(i.happened_on) FROM interactions i WHERE i.person_id = persons.id)
    WHERE id = OLD.person_id
      AND last_contacted IS DISTINCT FROM (SELECT max(i.happened_on) FROM interactions i WHERE i.person_id = persons.id);
  IF TG_OP = 'UPDATE' AND NEW.person_id <> OLD.person_id THEN
    UPDATE persons SET last_contacted = (SELECT max(i.happened_on) FROM interactions i WHERE i.person_id = persons.id)
      WHERE id = NEW.person_id
        AND last_contacted IS DISTINCT FROM (SELECT max(i.happened_on) FROM interactions i WHERE i.person_id = persons.id);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER interactions_last_contacted AFTER INSERT OR DELETE OR UPDATE OF person_id, happened_on ON interactions
  FOR EACH ROW EXECUTE FUNCTION interactions_last_contacted();

-- The people list by last contact (OrderByLastContacted), as
-- persons_by_name serves it by name: the expressions are the query's.
CREATE INDEX persons_by_last_contacted ON persons (account_id, coalesce(last_contacted, '') DESC, lower(first_name),
  lower(coalesce(last_name, '')), id);

-- A search reads the whole of the trigram index's pending list, the
-- entries written since it was last merged into the index: up to 4 MB by
-- default, which an import of a few thousand persons fills, and which made
-- one search of 100,000 persons take 20 ms instead of 2. A smaller list is
-- merged more often, a little at a time. The index is there only where
-- pg_trgm could be had (migration 0021).
ALTER INDEX IF EXISTS persons_search_trgm SET (gin_pending_list_limit = 128);
