-- Settings → Security lists a user's web sessions so that one they do not
-- know can be signed out: the browser's User-Agent (cut short), the
-- address it signed in from and the one it was last seen from, and when.
-- last_seen_at is written at most every few minutes (store.webSeenEvery),
-- so that reading a page does not wait for the single writer. Sessions
-- made before this know none of it: seen when they were made.
ALTER TABLE web_sessions ADD COLUMN user_agent text NOT NULL DEFAULT '';
ALTER TABLE web_sessions ADD COLUMN created_ip text NOT NULL DEFAULT '';
ALTER TABLE web_sessions ADD COLUMN last_seen_ip text NOT NULL DEFAULT '';
ALTER TABLE web_sessions ADD COLUMN last_seen_at bigint NOT NULL DEFAULT 0;
UPDATE web_sessions SET last_seen_at = created_at;
