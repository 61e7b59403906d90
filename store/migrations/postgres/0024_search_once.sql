-- Issue 27, H2. The trigger of migration 0021 built a person's search text
-- again for every email written, and persons_search_text again on every
-- update of a person, the card counter's too (migration 0020), each time
-- reading all the person's emails: a card of 40,000 EMAIL lines took
-- minutes. Now an email written leaves the text alone, and the store, once
-- it has written a person's details, asks for the text again once
-- (Store.refreshSearch) by setting search_text to NULL; the text is built
-- when a name or search_text is written, not on other updates.
DROP TRIGGER contact_details_search ON contact_details;
DROP FUNCTION contact_details_search();
DROP TRIGGER persons_search_text ON persons;
CREATE TRIGGER persons_search_text BEFORE INSERT OR UPDATE OF first_name, middle_name, last_name, nickname, maiden_name, search_text
  ON persons FOR EACH ROW EXECUTE FUNCTION persons_search_text();
