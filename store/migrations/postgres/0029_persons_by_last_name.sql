-- The people list sorted by last name (Store.ListPersons, OrderByLastName):
-- this index serves that ORDER BY within an account, people without a last
-- name after the rest, as persons_by_name serves the list by name. The
-- expressions are those of the query, which must stay the same to use it.
CREATE INDEX persons_by_last_name ON persons (account_id, (coalesce(last_name, '') = ''), lower(coalesce(last_name, '')), lower(first_name), id);
