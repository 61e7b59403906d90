-- Mail-in: each user's private address, log-SECRET@mail_in.domain, which
-- records an email interaction for every person of the account named in
-- a message's To or Cc. The secret is shown again on every GET, so it is
-- kept as is (a hash could not be shown); it is lower case, so a lookup
-- compares it ignoring case by lower-casing the asked one. Rotating it
-- replaces the row's secret: the old one finds no one from then on.
CREATE TABLE mail_in (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id    INTEGER NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
  secret     TEXT    NOT NULL UNIQUE CHECK (length(secret) >= 20 AND secret = lower(secret)),
  created_at INTEGER NOT NULL
);
-- A message's To and Cc addresses, found among the account's emails
-- without reading every contact detail: as the receiver compares them,
-- trimmed and lower case.
CREATE INDEX contact_details_email ON contact_details(account_id, lower(trim(value))) WHERE kind = 'email';
