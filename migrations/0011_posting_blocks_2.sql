-- Posting blocks of a second format: bit-packed, and without the move played past ply 24
-- (a lookup plays such occurrences back and reads the move in the game). Blocks of the first
-- format stay as they are, are still read, and are rewritten in the second when their runs
-- are merged. A kifudex that reads only the first format must not open this database, so
-- the schema version changes; nothing else does.
INSERT INTO meta(key, value) VALUES ('posting_blocks', '2')
  ON CONFLICT(key) DO UPDATE SET value = excluded.value;
