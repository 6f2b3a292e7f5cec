-- A room's winning score (the rule set's win_at), for the lobby to show; NULL: none.
ALTER TABLE rooms ADD COLUMN win_at BIGINT;
