-- A correspondence room's days per move (0: a live room), so a player's games are found
-- without reading every clock.
ALTER TABLE rooms ADD COLUMN days BIGINT NOT NULL DEFAULT 0;
CREATE INDEX rooms_by_days ON rooms (days, status);

-- A player's vacation: on it until then (NULL: not), and how much of the year's allowance
-- (in ms) the year `vacation_year` has used.
ALTER TABLE players ADD COLUMN vacation_until_ms BIGINT;
ALTER TABLE players ADD COLUMN vacation_used_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN vacation_year BIGINT NOT NULL DEFAULT 0;
CREATE INDEX players_on_vacation ON players (vacation_until_ms);

-- Whether the player abandoned that rated game (left it, or ran out of time while gone): the
-- pools pair such players last.
ALTER TABLE rated_games ADD COLUMN abandoned BIGINT NOT NULL DEFAULT 0;

-- Keys the server made for itself (the VAPID key pair of Web Push), shared by every node.
CREATE TABLE server_keys (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- Devices that asked to be notified: the push service's endpoint, the device's keys, and the
-- language its notifications are written in.
CREATE TABLE push_subscriptions (
    endpoint TEXT PRIMARY KEY,
    player TEXT NOT NULL,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    lang TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
CREATE INDEX push_by_player ON push_subscriptions (player);

-- What each player wants to hear of, the address of their daily e-mail (opt-in), and when the
-- last one was due.
ALTER TABLE players ADD COLUMN notify_turn BIGINT NOT NULL DEFAULT 1;
ALTER TABLE players ADD COLUMN notify_challenges BIGINT NOT NULL DEFAULT 1;
ALTER TABLE players ADD COLUMN notify_ended BIGINT NOT NULL DEFAULT 1;
ALTER TABLE players ADD COLUMN email TEXT NOT NULL DEFAULT '';
ALTER TABLE players ADD COLUMN email_digest BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN email_lang TEXT NOT NULL DEFAULT 'en';
ALTER TABLE players ADD COLUMN digest_ms BIGINT NOT NULL DEFAULT 0;
CREATE INDEX players_by_digest ON players (email_digest, digest_ms);
