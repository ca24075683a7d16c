-- A game's result and termination are those of its first record: the `sources` row first in
-- the order of its file's path, then of its place in the file. A record that ends otherwise
-- (interrupted where the first says resigned, another winner) keeps its own ending here, so
-- that when the first record goes (its file changed or pruned), or a record comes before it,
-- the game takes the ending of the record that is now first, instead of keeping the ending of
-- a record no file holds. NULL in `own_result`: the record ends as its game does; otherwise its
-- result (0 unknown, 1 black won, 2 white won, 3 draw), and `own_termination` its termination
-- name (NULL for none).
ALTER TABLE sources ADD COLUMN own_result INTEGER;
ALTER TABLE sources ADD COLUMN own_termination TEXT;

-- Until now no record's own ending was kept, and a game kept the ending of the record stored
-- first: any record of a game held by several may end otherwise. The files that hold such
-- records are marked as changed (a size, time and hash no file has), so that the next index
-- run reads them again and keeps each record's own ending.
UPDATE files SET size = -1, mtime_ns = -1, hash = x''
WHERE id IN (SELECT file FROM sources WHERE game IN
               (SELECT game FROM sources GROUP BY game HAVING count(*) > 1));
