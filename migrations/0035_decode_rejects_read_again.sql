-- Reading now keeps a UTF-16 file with a unit that is no text (half of a surrogate pair, a
-- last odd byte), reading such units as U+FFFD with a warning, where the whole file was
-- rejected as `decode`. Those rejects are marked as changed (a size, time and hash no file
-- has), so that the next index run reads them again.
UPDATE files SET size = -1, mtime_ns = -1, hash = x'' WHERE error = 'decode';
