-- A game's identity no longer holds the move number of its start: one game written from its
-- first move, or numbered from its second (a KIF `手数＝1` after a position with White to move,
-- which a CSA or JKF copy of it cannot say), is one game. Games stored with a start whose
-- move number is not 1 were found by a hash that held it, and may have been stored twice. The
-- files that hold them are marked as changed (a size, time and hash no file has), so that the
-- next index run reads them again: their games are then hashed without the number, and one
-- game's records join.
UPDATE files SET size = -1, mtime_ns = -1, hash = x''
WHERE id IN (SELECT s.file FROM sources s JOIN games g ON g.id = s.game
             WHERE g.start IS NOT NULL AND g.start NOT LIKE '% 1');
