-- "Newest first" is created_at descending, then id descending (the
-- contract's order, as for gifts and life events): ids follow the order of
-- commits, and a clock set back, or a restored database, can put a later id
-- on an earlier time. The user's page is read in this index's order.
DROP INDEX logs_user;
CREATE INDEX logs_user ON logs(user_id, created_at DESC, id DESC);
