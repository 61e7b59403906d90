-- The counts behind rate limits and login throttles, shared by every Kith
-- server on this database: a client must not get N times the limit by
-- spreading over N servers. UNLOGGED: no WAL, no fsync, several times
-- faster; a crash empties them, which only refills every bucket.
--
-- A bucket of tokens per key (a user, a client address), in thousandths of
-- a token, refilled from at_ms (Unix milliseconds) on.
CREATE UNLOGGED TABLE rate_buckets (
  key       text   PRIMARY KEY,
  millis    bigint NOT NULL,
  at_ms     bigint NOT NULL,
  -- whether the request that last wrote the row got its token
  allowed   boolean NOT NULL
);

-- Failures per kind (logins, accounts, resends) and key, counted from
-- first_ms; blocked until until_ms.
CREATE UNLOGGED TABLE rate_failures (
  kind     text   NOT NULL,
  key      text   NOT NULL,
  count    bigint NOT NULL,
  first_ms bigint NOT NULL,
  last_ms  bigint NOT NULL,
  until_ms bigint NOT NULL,
  PRIMARY KEY (kind, key)
);
CREATE INDEX rate_buckets_at ON rate_buckets(at_ms);
CREATE INDEX rate_failures_last ON rate_failures(last_ms);
