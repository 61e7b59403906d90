-- Issue 34: a search that does not grow with the account. The trigram
-- index (migration 0021) finds a query by its rarest trigram, and a
-- trigram of a name is shared by ever more persons as the account grows
-- (in "family000500", "500" is in 20 persons of 10,000 and 300 of
-- 100,000); it also holds every account's persons, so one account's
-- search reads the others'. A query of five characters or more is
-- looked up instead by its 5-grams, each hashed with the account's id
-- (a key is one account's), in a GIN index of the persons' own: a
-- 5-gram of a name is rare whatever the account's size. The LIKE stays
-- the exact test, so two grams of one hash cost a row read, not a wrong
-- answer. GIN drops a text's repeated keys itself. It needs no extension.
CREATE FUNCTION person_search_grams(account_id bigint, t text) RETURNS bigint[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ARRAY(SELECT hashtextextended(substr(t, i, 5), account_id) FROM generate_series(1, length(t) - 4) i)
$$;
CREATE INDEX persons_search_grams ON persons USING gin (person_search_grams(account_id, search_text));
