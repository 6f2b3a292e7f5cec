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
