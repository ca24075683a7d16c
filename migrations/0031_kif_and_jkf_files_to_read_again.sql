-- The KIF and JKF readers now warn of running totals that are not the sums of the moves'
-- times (`time_totals`), which are not stored. Which files hold such totals was not stored
-- either, so none is marked as changed: the KIF and JKF files indexed before join the list of
-- migration 0028, which a file leaves when it is read again (it changed, or a run was told
-- `--reread`), and every index run says how many holding records are left.
INSERT OR IGNORE INTO files_read_before(file) SELECT id FROM files WHERE format IN ('kif', 'jkf');
