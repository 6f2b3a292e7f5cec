-- Each player's practice and puzzle progress, shared by their devices: one row per record
-- (a puzzle to practise, a rated puzzle, the rating, a day, a theme, a daily puzzle, a best),
-- its JSON, its rank (of two versions the higher is kept) and the number it was written under.
-- The head row numbers a player's writes and counts their records; it is locked first by
-- every write, so a player's writes go one at a time on every node.
CREATE TABLE training_heads (
    player TEXT PRIMARY KEY,
    seq BIGINT NOT NULL,
    records BIGINT NOT NULL
);
CREATE TABLE training (
    player TEXT NOT NULL,
    key TEXT NOT NULL,
    rank BIGINT NOT NULL,
    seq BIGINT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (player, key)
);
CREATE INDEX training_by_seq ON training (player, seq);
