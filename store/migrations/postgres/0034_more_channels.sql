-- Issue 33: digests also go to Telegram, Pushover and Matrix. Each of
-- them has one secret (the bot token, the application token, the access
-- token), kept in token as the other kinds' are, and one more thing to
-- address the message with: Telegram's chat, Pushover's user, Matrix's
-- room. url is optional for Telegram and Pushover (their public servers).
ALTER TABLE channels DROP CONSTRAINT channels_kind_check;
ALTER TABLE channels ADD CONSTRAINT channels_kind_check
  CHECK (kind IN ('email', 'ntfy', 'gotify', 'webhook', 'telegram', 'pushover', 'matrix'));
ALTER TABLE channels ADD COLUMN chat_id text;
ALTER TABLE channels ADD COLUMN user_key text;
ALTER TABLE channels ADD COLUMN room_id text;
