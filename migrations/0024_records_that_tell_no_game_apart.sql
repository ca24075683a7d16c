-- Two changes in reading and storing games; the files they touch are marked as changed (a
-- size, time and hash no file has), so that the next index run reads them again:
-- * a game stopped at a move that cannot be read (`bad_move_text`) keeps the ending its
--   record states after it, as one stopped at an illegal move did;
-- * a record with no move, or stopped early, is one game only with the records of the same
--   moves that say the same players, day and ending, and never with a whole record. Such
--   records that share a game with another record are read again, and those that do not
--   say the same become games of their own.
UPDATE files SET size = -1, mtime_ns = -1, hash = x''
WHERE id IN (SELECT file FROM sources WHERE status = 'bad_move_text')
   OR id IN (SELECT s.file FROM sources s JOIN games g ON g.id = s.game
             WHERE EXISTS (SELECT 1 FROM sources o WHERE o.game = s.game AND (o.file != s.file OR o.idx != s.idx))
               AND (g.plies = 0 OR EXISTS (SELECT 1 FROM sources p WHERE p.game = s.game AND p.status IS NOT NULL)));
