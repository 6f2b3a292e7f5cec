-- Each device signed in as a player has a token of its own, kept as its hash; signing a device
-- out deletes its row. Every guest's token so far becomes that player's first device.
CREATE TABLE devices (
    id TEXT PRIMARY KEY,
    player TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    label TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    last_ms BIGINT NOT NULL
);
CREATE INDEX devices_by_player ON devices (player);
INSERT INTO devices (id, player, token_hash, label, created_ms, last_ms)
    SELECT id, id, token_hash, '', created_ms, created_ms FROM players;

-- A player's friend code (made when first asked for), recovery code (as a hash), sign-in name
-- and password (an argon2id PHC string), child mode, ban, and whether an operator set the name.
ALTER TABLE players ADD COLUMN friend_code TEXT;
CREATE UNIQUE INDEX players_by_friend_code ON players (friend_code);
ALTER TABLE players ADD COLUMN recovery_hash TEXT;
CREATE UNIQUE INDEX players_by_recovery ON players (recovery_hash);
ALTER TABLE players ADD COLUMN login TEXT;
CREATE UNIQUE INDEX players_by_login ON players (login);
ALTER TABLE players ADD COLUMN password_hash TEXT;
ALTER TABLE players ADD COLUMN child BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN banned BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN name_locked BIGINT NOT NULL DEFAULT 0;

-- One-time codes that link another device, as hashes, until they expire.
CREATE TABLE link_codes (
    code_hash TEXT PRIMARY KEY,
    player TEXT NOT NULL,
    expires_ms BIGINT NOT NULL
);

-- (player, other, 'asked'): player asked other to be friends. Friends have a row each way,
-- both 'friends'.
CREATE TABLE friends (
    player TEXT NOT NULL,
    other TEXT NOT NULL,
    state TEXT NOT NULL,
    since_ms BIGINT NOT NULL,
    PRIMARY KEY (player, other)
);
CREATE INDEX friends_by_other ON friends (other, state);

CREATE TABLE blocks (
    player TEXT NOT NULL,
    other TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (player, other)
);
CREATE INDEX blocks_by_other ON blocks (other);

CREATE TABLE challenges (
    id TEXT PRIMARY KEY,
    from_player TEXT NOT NULL,
    to_player TEXT NOT NULL,
    preset TEXT NOT NULL,
    rules TEXT NOT NULL,
    clock TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);
CREATE INDEX challenges_by_to ON challenges (to_player);
CREATE INDEX challenges_by_from ON challenges (from_player);

-- Each rated game of each player: the rating after it (the profile's graph) and the outcome.
CREATE TABLE rated_games (
    player TEXT NOT NULL,
    code TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    outcome TEXT NOT NULL,
    PRIMARY KEY (player, code)
);
CREATE INDEX rated_games_by_time ON rated_games (player, at_ms);

CREATE TABLE reports (
    id TEXT PRIMARY KEY,
    reporter TEXT NOT NULL,
    player TEXT NOT NULL,
    reason TEXT NOT NULL,
    room TEXT,
    at_ms BIGINT NOT NULL,
    handled BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX reports_by_reporter ON reports (reporter, at_ms);
CREATE INDEX reports_open ON reports (handled, at_ms);

-- What operators did (rename, ban, unban), in order: every node reads new rows and applies
-- them to its connections and rooms.
CREATE TABLE moderation (
    id TEXT PRIMARY KEY,
    player TEXT NOT NULL,
    action TEXT NOT NULL,
    detail TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
CREATE INDEX moderation_by_time ON moderation (at_ms);
