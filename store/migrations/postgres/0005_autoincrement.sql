-- On SQLite this version rebuilds the tables with AUTOINCREMENT, so that
-- the id of a deleted row is never given to another. PostgreSQL's
-- identities (0001 and on) never reuse an id, so there is nothing to do;
-- the file exists so that both engines count the same versions.
SELECT 1;
