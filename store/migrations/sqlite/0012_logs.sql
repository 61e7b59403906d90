-- Logs record the actions of each user, written in the same transaction as
-- the change they tell of. A user sees only their own; the name shown is
-- the user's name when read, so it is not kept here.

CREATE TABLE logs (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  action      TEXT    NOT NULL,
  description TEXT    NOT NULL,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
);
CREATE INDEX logs_user ON logs(user_id, id DESC);
