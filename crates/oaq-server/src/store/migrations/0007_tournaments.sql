-- Tournaments: what the organiser chose, where it stands, and the tournament itself as it runs
-- (its players, their results, the games being played and their rooms) as JSON, written with
-- its version so that two nodes never both write the next one.
CREATE TABLE tournaments (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    organiser TEXT NOT NULL,
    preset TEXT NOT NULL,
    rules TEXT NOT NULL,
    clock TEXT NOT NULL,
    public BIGINT NOT NULL,
    status TEXT NOT NULL,
    starts_ms BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    state TEXT NOT NULL,
    version BIGINT NOT NULL
);
CREATE INDEX tournaments_by_status ON tournaments (status, public);
CREATE INDEX tournaments_by_organiser ON tournaments (organiser, status);

-- Who takes part in which tournament (a player's own list, and the caps).
CREATE TABLE tournament_players (
    tournament TEXT NOT NULL,
    player TEXT NOT NULL,
    PRIMARY KEY (tournament, player)
);
CREATE INDEX tournament_players_by_player ON tournament_players (player);
