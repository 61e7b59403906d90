-- Issue 29: a journal entry has text, which a client writes (PUT) and
-- searches (?q=). The search ignores case for every script, the same on
-- both engines: SQLite's LIKE folds ASCII only and PostgreSQL's lower()
-- follows the database's locale, so the store writes body_folded, the
-- text case-folded by Go (store.foldCase), beside body and searches it.
ALTER TABLE journal_entries ADD COLUMN body TEXT NOT NULL DEFAULT '';
ALTER TABLE journal_entries ADD COLUMN body_folded TEXT NOT NULL DEFAULT '';
