-- Guest identities: the token is kept only as its hash.
CREATE TABLE players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL DEFAULT 0,
    created_ms BIGINT NOT NULL
);
CREATE INDEX players_by_rating ON players (rating);

-- One row per room, kept in step with its log: for the lobby, for restarts, for the players'
-- pages.
CREATE TABLE rooms (
    code TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    public BIGINT NOT NULL,
    preset TEXT NOT NULL,
    players BIGINT NOT NULL,
    clock TEXT NOT NULL,
    creator TEXT NOT NULL,
    seated BIGINT NOT NULL,
    -- The log's seq when the row last changed (moves change only the log).
    last_seq BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL
);
CREATE INDEX rooms_by_status ON rooms (status, public, updated_ms);

-- The room itself: its events in order. The key makes a sequence number be written once.
CREATE TABLE room_events (
    code TEXT NOT NULL,
    seq BIGINT NOT NULL,
    body TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (code, seq)
);

CREATE TABLE room_seats (
    code TEXT NOT NULL,
    seat BIGINT NOT NULL,
    player TEXT NOT NULL,
    PRIMARY KEY (code, seat)
);
CREATE INDEX room_seats_by_player ON room_seats (player);
