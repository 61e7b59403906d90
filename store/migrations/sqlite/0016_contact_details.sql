-- Contact details of a person: email addresses, phone numbers, postal
-- addresses, websites and social profiles, vCard's EMAIL, TEL, ADR, URL and
-- X-SOCIALPROFILE. One table for the five kinds, as a vCard is one list of
-- properties sharing a label (TYPE) and an order (PREF): a person's details
-- list in one indexed query, and a detail can change kind and keep its id.
-- The CHECKs keep each row to its kind's columns, so that a row the API
-- could not have written cannot exist.
CREATE TABLE contact_details (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  -- account_id repeats the person's so that every lookup by id is scoped
  -- by account in one indexed condition.
  account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  person_id   INTEGER NOT NULL REFERENCES persons(id) ON DELETE CASCADE,
  kind        TEXT    NOT NULL CHECK (kind IN ('email', 'phone', 'address', 'website', 'social')),
  -- home, work, mobile, other or any text; NULL when unset
  label       TEXT,
  -- the order within the kind; equal positions fall back to id
  position    INTEGER NOT NULL,
  -- the address, number, URL or handle of every kind but address
  value       TEXT,
  -- the social network (mastodon, instagram…) of a social profile
  network     TEXT,
  -- the parts of an address, every one optional
  street      TEXT,
  city        TEXT,
  postal_code TEXT,
  region      TEXT,
  -- ISO 3166-1 alpha-2, upper case
  country     TEXT CHECK (country IS NULL OR (length(country) = 2 AND country = upper(country))),
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL,
  CHECK ((value IS NULL) = (kind = 'address')),
  CHECK ((network IS NULL) = (kind <> 'social')),
  CHECK (kind = 'address' OR (street IS NULL AND city IS NULL AND postal_code IS NULL AND region IS NULL AND country IS NULL)),
  CHECK (kind <> 'address' OR coalesce(street, city, postal_code, region, country) IS NOT NULL)
);
CREATE INDEX contact_details_person ON contact_details(person_id, kind, position, id);
