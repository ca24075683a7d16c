-- A record whose game ends with a foul written as a move (`   9 ２五歩打` after which the
-- record says `反則勝ち`) keeps that move: its text in `sources.foul`, its time after the
-- moves' times and its comments at the ply after the last move; the ending's time and
-- comments follow it. Before, the foul, its time and comments and the ending's were not
-- stored. The files of games that end by a foul are marked as changed (a size, time and hash
-- no file has), so that the next index run reads them again.
ALTER TABLE sources ADD COLUMN foul TEXT;
UPDATE files SET size = -1, mtime_ns = -1, hash = x''
WHERE id IN (SELECT s.file FROM sources s JOIN games g ON g.id = s.game
             WHERE g.termination = 'illegal_move' OR s.own_termination = 'illegal_move');
