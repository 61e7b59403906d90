-- The counts behind rate limits and login throttles, for when several Kith
-- servers share one database (PostgreSQL): a client must not get N times
-- the limit by spreading over N servers. On SQLite one server has the
-- database, and counts in its memory, which is faster; these tables stay
-- empty, and exist so that both engines have one schema.
--
-- A bucket of tokens per key (a user, a client address), in thousandths of
-- a token, refilled from at_ms (Unix milliseconds) on.
CREATE TABLE rate_buckets (
  key       TEXT    PRIMARY KEY,
  millis    INTEGER NOT NULL,
  at_ms     INTEGER NOT NULL,
  -- whether the request that last wrote the row got its token
  allowed   INTEGER NOT NULL CHECK (allowed IN (0, 1))
);

-- Failures per kind (logins, accounts, resends) and key, counted from
-- first_ms; blocked until until_ms.
CREATE TABLE rate_failures (
  kind     TEXT    NOT NULL,
  key      TEXT    NOT NULL,
  count    INTEGER NOT NULL,
  first_ms INTEGER NOT NULL,
  last_ms  INTEGER NOT NULL,
  until_ms INTEGER NOT NULL,
  PRIMARY KEY (kind, key)
);
CREATE INDEX rate_buckets_at ON rate_buckets(at_ms);
CREATE INDEX rate_failures_last ON rate_failures(last_ms);
