-- The status change time (Unix ctime) of each file, with its size and modification time:
-- a file rewritten with its size and time kept (`cp -p`, `touch -d`, a coarse clock) now reads
-- as changed. Files recorded before have none, and are read and hashed once by the next index
-- run (those whose content is the same are not read again as records).
ALTER TABLE files ADD COLUMN ctime_ns INTEGER;
