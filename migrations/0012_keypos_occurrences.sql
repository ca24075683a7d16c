-- A row of `keypos` may name the occurrence whose position it keeps instead of holding the
-- position: the integer game * 32 + ply, the first occurrence of its key, which its game
-- plays back (a few bytes instead of about 44). Before a game is deleted, the rows that name
-- it get its positions, packed as before. Rows written before stay packed and are still read.
-- A kifudex that reads only packed rows must not open this database, so the schema version
-- changes; nothing else does.
INSERT INTO meta(key, value) VALUES ('keypos_rows', 'packed or occurrence')
  ON CONFLICT(key) DO UPDATE SET value = excluded.value;
