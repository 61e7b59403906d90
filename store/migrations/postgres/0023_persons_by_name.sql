-- The web app lists people by name (Store.PersonsByName): this index
-- serves that ORDER BY within an account, so a far page of 10,000 people
-- is read in order rather than sorted on every request. The expressions
-- are those of the query, which must stay the same to use it.
CREATE INDEX persons_by_name ON persons (account_id, lower(first_name), lower(coalesce(last_name, '')), id);
