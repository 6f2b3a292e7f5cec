-- Bots: players whose program plays through the bot API, for good once turned. Their API
-- token is kept only as its hash, one per bot (a new one replaces it; none: revoked).
ALTER TABLE players ADD COLUMN bot BIGINT NOT NULL DEFAULT 0;
CREATE INDEX players_by_bot ON players (bot, rating);
CREATE TABLE bot_tokens (
    token_hash TEXT PRIMARY KEY,
    player TEXT NOT NULL UNIQUE,
    created_ms BIGINT NOT NULL
);
