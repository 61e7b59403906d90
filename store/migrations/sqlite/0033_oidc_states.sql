-- The states of single sign-ons that came back (only their SHA-256), so
-- that a state works once even if its cookie is replayed, on any server
-- of the database. A row outlives its cookie by nothing: it goes once
-- expires_at has passed.
CREATE TABLE oidc_states (
  state_hash BLOB    NOT NULL PRIMARY KEY CHECK (length(state_hash) = 32),
  expires_at INTEGER NOT NULL
);
