-- The postings of one key may fill several blocks of a run (see the posting block format),
-- which then share their first key: (run, lo) orders blocks, with id after it, and is no
-- longer unique.
DROP INDEX pblocks_run_lo;
CREATE INDEX pblocks_run_lo ON pblocks(run, lo);
