-- Issue 34: bulk in at thousands a second. Every write of a person ran
-- triggers a row at a time: the card counter (migration 0020) wrote the
-- person's row again for each contact detail, date, note, tag and photo,
-- and the search text (migrations 0021, 0024) was built for each person
-- and built again once their emails were in. While an import writes a
-- batch, the per-row triggers stand aside, and at the end of the batch the
-- store counts the batch's cards once and builds their search text in one
-- statement (store/import_bulk.go).
--
-- SQLite, which has one writer, marks the batch with its account's row in
-- bulk_writes. PostgreSQL marks it in a setting local to the transaction,
-- as card_bump keeps its count: no other transaction sees it or waits for
-- it, and it goes with the transaction whatever happens. The table is
-- here all the same, empty, so that both engines have one schema.
CREATE TABLE bulk_writes (
  account_id bigint NOT NULL UNIQUE REFERENCES accounts(id) ON DELETE CASCADE
);

CREATE FUNCTION bulk_writing(acct bigint) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce(current_setting('kith.bulk_' || acct, true), '') = '1'
$$;

-- A person made in a batch still gets a UID, and a card deleted before
-- and made again is no longer deleted.
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
  IF bulk_writing(NEW.account_id) THEN
    RETURN NEW;
  END IF;
  NEW.card_seq := coalesce(card_bump(NEW.account_id), NEW.card_seq);
  RETURN NEW;
END
$$;

CREATE OR REPLACE FUNCTION card_child_write() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
  seq bigint;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  IF bulk_writing(r.account_id) THEN
    RETURN NULL;
  END IF;
  seq := card_bump(r.account_id);
  -- A person written already in this transaction (one made with its
  -- details, by an import) has the count: no new version of its row.
  UPDATE persons SET card_seq = seq WHERE id = r.person_id AND card_seq IS DISTINCT FROM seq;
  RETURN NULL;
END
$$;

-- The search text of a batch's persons is built when the batch ends.
CREATE OR REPLACE FUNCTION persons_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF bulk_writing(NEW.account_id) THEN
    RETURN NEW;
  END IF;
  NEW.search_text := lower(concat_ws(' ', NEW.first_name, NEW.middle_name, NEW.last_name, NEW.nickname, NEW.maiden_name,
    (SELECT string_agg(d.value, ' ' ORDER BY d.id) FROM contact_details d WHERE d.person_id = NEW.id AND d.kind = 'email')));
  RETURN NEW;
END
$$;
