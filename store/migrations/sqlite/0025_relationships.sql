-- Relationship types belong to an account: name is what the other person
-- is to the person a relationship is seen from, name_reverse the same seen
-- from the other side (parent and child; a symmetric type has both the
-- same).
CREATE TABLE relationship_types (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id   INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name         TEXT    NOT NULL,
  name_reverse TEXT    NOT NULL,
  group_name   TEXT    NOT NULL CHECK (group_name IN ('love', 'family', 'friend', 'work', 'other')),
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL
);
CREATE INDEX relationship_types_account ON relationship_types(account_id, id);

-- A relationship is stored once, on the person it was made on (person_id):
-- other_person_id is, to person_id, the type's name, and person_id is, to
-- other_person_id, its name_reverse. The type's reference has no ON
-- DELETE: a type in use is not deleted (the store says why), and the check
-- runs at the end of the statement, so that an account's deletion, which
-- cascades to both tables, goes through.
CREATE TABLE relationships (
  id                   INTEGER PRIMARY KEY AUTOINCREMENT,
  -- account_id repeats the persons' so that every lookup by id is scoped
  -- by account in one indexed condition.
  account_id           INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  relationship_type_id INTEGER NOT NULL REFERENCES relationship_types(id),
  person_id            INTEGER NOT NULL REFERENCES persons(id) ON DELETE CASCADE,
  other_person_id      INTEGER NOT NULL REFERENCES persons(id) ON DELETE CASCADE,
  created_at           INTEGER NOT NULL,
  updated_at           INTEGER NOT NULL,
  CHECK (person_id <> other_person_id)
);
-- One relationship of a type between two persons, whichever side it was
-- made on: the pair is keyed lower id first. It also finds a type's
-- relationships, which the foreign key's check on a type's deletion reads.
CREATE UNIQUE INDEX relationships_pair ON relationships(relationship_type_id,
  min(person_id, other_person_id), max(person_id, other_person_id));
-- A person's relationships, from either side.
CREATE INDEX relationships_person ON relationships(person_id, id);
CREATE INDEX relationships_other ON relationships(other_person_id, id);

-- Every existing account gets the types a new one starts with
-- (store.defaultRelationshipTypes), in their order, created now.
INSERT INTO relationship_types (account_id, name, name_reverse, group_name, created_at, updated_at)
SELECT a.id, d.name, d.name_reverse, d.group_name, CAST(strftime('%s', 'now') AS INTEGER), CAST(strftime('%s', 'now') AS INTEGER)
FROM accounts a
CROSS JOIN (
            SELECT 1 AS position, 'partner' AS name, 'partner' AS name_reverse, 'love' AS group_name
  UNION ALL SELECT 2, 'spouse', 'spouse', 'love'
  UNION ALL SELECT 3, 'parent', 'child', 'family'
  UNION ALL SELECT 4, 'sibling', 'sibling', 'family'
  UNION ALL SELECT 5, 'grandparent', 'grandchild', 'family'
  UNION ALL SELECT 6, 'uncle or aunt', 'nephew or niece', 'family'
  UNION ALL SELECT 7, 'cousin', 'cousin', 'family'
  UNION ALL SELECT 8, 'friend', 'friend', 'friend'
  UNION ALL SELECT 9, 'best friend', 'best friend', 'friend'
  UNION ALL SELECT 10, 'colleague', 'colleague', 'work'
  UNION ALL SELECT 11, 'manager', 'report', 'work'
  UNION ALL SELECT 12, 'mentor', 'mentee', 'work'
) d
ORDER BY a.id, d.position;
