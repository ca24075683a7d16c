-- The keys of names and events take as one the marks that Shift_JIS decoders read two ways
-- (`〜` and `～`, `−` and `－`, `‖` and `∥`, `—` and `―`), leave out a `・` between the parts
-- of a name as they leave out a space, and write `ß` as `ss`. SQL cannot make the keys: they
-- are cleared here, and the writer fills every key that is NULL when it opens the database,
-- and makes the keys of the aliases again. Records without moves are told apart by their
-- names' keys: the files of the records that name a player whose stored name holds one of
-- these marks are marked as changed (a size, time and hash no file has), so that the next
-- index run reads them again.
UPDATE players SET key = NULL;
UPDATE events SET key = NULL;
UPDATE files SET size = -1, mtime_ns = -1, hash = x''
WHERE id IN (SELECT s.file FROM sources s JOIN players p ON p.id IN (s.black, s.white)
             WHERE p.name GLOB '*[〜−‖—・･ßẞ]*');
