-- The device that subscribed each push subscription: signing that device out ends it too.
ALTER TABLE push_subscriptions ADD COLUMN device TEXT NOT NULL DEFAULT '';
CREATE INDEX push_by_device ON push_subscriptions (device);

-- Child mode switched off without a password ends at this time (NULL: nobody asked), after
-- the account's other devices were told.
ALTER TABLE players ADD COLUMN child_off_ms BIGINT;

-- When the player last started a vacation (vacations have a cooldown).
ALTER TABLE players ADD COLUMN vacation_started_ms BIGINT NOT NULL DEFAULT 0;

-- The daily e-mail goes only to an address confirmed by a link sent to it: the pending
-- confirmation's one-time nonce (NULL: none pending) and whether the address was confirmed.
ALTER TABLE players ADD COLUMN email_confirmed BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN email_nonce TEXT;

-- Addresses whose owner asked to be sent nothing more (by anyone), as keyed hashes.
CREATE TABLE mail_refused (
    address_hash TEXT PRIMARY KEY,
    at_ms BIGINT NOT NULL
);

-- Confirmation e-mails sent to an address (a keyed hash) on a day (Unix days).
CREATE TABLE mail_sent (
    address_hash TEXT NOT NULL,
    day BIGINT NOT NULL,
    sent BIGINT NOT NULL,
    PRIMARY KEY (address_hash, day)
);

-- Expired challenges are deleted as new ones come.
CREATE INDEX challenges_by_expiry ON challenges (expires_ms);
