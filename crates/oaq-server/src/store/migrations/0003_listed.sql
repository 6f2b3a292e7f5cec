-- Whether the lobby lists a room: public, waiting for players, and everyone seated in it still
-- connected (a room whose creator has gone is not offered to strangers).
ALTER TABLE rooms ADD COLUMN listed BIGINT NOT NULL DEFAULT 0;
UPDATE rooms SET listed = public WHERE status = 'waiting' AND seated > 0;
CREATE INDEX rooms_listed ON rooms (listed, updated_ms);
