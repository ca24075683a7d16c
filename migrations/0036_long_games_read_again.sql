-- A game of more moves than the index holds positions for (65,535) now gets a
-- `positions_not_indexed` warning. The files that hold such a game are marked as changed (a
-- size, time and hash no file has), so that the next index run reads them again.
UPDATE files SET size = -1, mtime_ns = -1, hash = x''
WHERE id IN (SELECT s.file FROM sources s JOIN games g ON g.id = s.game WHERE g.plies > 65535);
