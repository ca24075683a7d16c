-- The Western reader changed; its files are marked as changed (a size, time and hash no file
-- has), so that the next index run reads them again:
-- * a `{` comment with no `}` took the rest of the file, later games included; it now stops
--   its game (`bad_comment`) and never runs into the next game's tags;
-- * a `(` with no `)` took the rest of the game into a variation, result included; it now
--   stops the game at its `(` (`bad_variation`);
-- * comments before the first tag made an empty game of their own; they are now the comments
--   of the game the tags start.
UPDATE files SET size = -1, mtime_ns = -1, hash = x'' WHERE format = 'western';
