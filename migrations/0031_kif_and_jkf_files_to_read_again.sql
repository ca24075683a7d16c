-- The KIF and JKF readers now warn of running totals that are not the sums of the moves'
-- times (`time_totals`), which are not stored; and the KIF reader no longer takes rows
-- numbered back from the row before them (the moves of a variation whose `変化` line was
-- lost) as moves of the line they follow (`row_out_of_order`). Which files hold such things
-- was not stored, so none is marked as changed: the KIF and JKF files indexed before join
-- the list of migration 0028, which a file leaves when it is read again (it changed, or a run
-- was told `--reread`), and every index run says how many holding records are left.
INSERT OR IGNORE INTO files_read_before(file) SELECT id FROM files WHERE format IN ('kif', 'jkf');
