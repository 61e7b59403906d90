-- Search of persons by any part of a name, nickname or email address
-- (GET /api/persons?q=, the web app's search): persons.search_text holds
-- them in lower case, kept by triggers whatever writes a person or an
-- email, and a trigram index (pg_trgm) serves LIKE '%…%' on it. Where
-- pg_trgm cannot be installed (a role that may not create extensions),
-- search works all the same, reading the account's persons.
ALTER TABLE persons ADD COLUMN search_text text;

CREATE FUNCTION persons_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := lower(concat_ws(' ', NEW.first_name, NEW.middle_name, NEW.last_name, NEW.nickname, NEW.maiden_name,
    (SELECT string_agg(d.value, ' ' ORDER BY d.id) FROM contact_details d WHERE d.person_id = NEW.id AND d.kind = 'email')));
  RETURN NEW;
END
$$;
CREATE TRIGGER persons_search_text BEFORE INSERT OR UPDATE ON persons
  FOR EACH ROW EXECUTE FUNCTION persons_search_text();

-- An email written: its person's text is computed again (by the trigger
-- above, on this update).
CREATE FUNCTION contact_details_search() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  IF r.kind = 'email' OR (TG_OP = 'UPDATE' AND OLD.kind = 'email') THEN
    UPDATE persons SET search_text = NULL WHERE id = r.person_id;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER contact_details_search AFTER INSERT OR UPDATE OR DELETE ON contact_details
  FOR EACH ROW EXECUTE FUNCTION contact_details_search();

-- Writing search_text is no change to a person's card (migration 0020).
CREATE OR REPLACE FUNCTION persons_card_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.uid := coalesce(NEW.uid, gen_random_uuid()::text);
    DELETE FROM deleted_cards WHERE account_id = NEW.account_id AND uid = NEW.uid;
  ELSIF OLD.card_seq <> NEW.card_seq OR (OLD.search_text IS DISTINCT FROM NEW.search_text
      AND ROW(OLD.first_name, OLD.last_name, OLD.middle_name, OLD.nickname, OLD.maiden_name, OLD.updated_at)
        IS NOT DISTINCT FROM ROW(NEW.first_name, NEW.last_name, NEW.middle_name, NEW.nickname, NEW.maiden_name, NEW.updated_at)) THEN
    RETURN NEW;
  END IF;
  NEW.card_seq := coalesce(card_bump(NEW.account_id), NEW.card_seq);
  RETURN NEW;
END
$$;

UPDATE persons SET search_text = NULL;

-- The index, where pg_trgm can be had. Its operator class is named with
-- its schema, so that the index is found whatever the search_path.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public;
  CREATE INDEX persons_search_trgm ON persons USING gin (search_text public.gin_trgm_ops);
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'kith: no trigram index for search (%): it reads the persons instead', SQLERRM;
END
$$;
