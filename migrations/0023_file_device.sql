-- The device of the filesystem that held each file (Unix st_dev) when it was last read or
-- found unchanged. `index --prune` keeps a gone file whose nearest directory still there is
-- on another filesystem and empty: the mount point of a disk not mounted. Files recorded
-- before have none until the next index run finds them, and are pruned as before.
ALTER TABLE files ADD COLUMN device INTEGER;
