-- A file that is text in no one encoding (a stray byte of another encoding, a file cut inside
-- a character, two files of different encodings joined) is now read a line at a time, and
-- its games are kept with a warning; before, it was a `decode` reject with no game. Those
-- files are marked as changed (a size, time and hash no file has), so that the next index
-- run reads them again.
UPDATE files SET size = -1, mtime_ns = -1, hash = x'' WHERE error = 'decode';
