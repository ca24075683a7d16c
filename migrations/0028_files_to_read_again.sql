-- The readers now keep what earlier versions read past: KIF and KI2 bookmarks (`&…`) and
-- remarks after a row (`#…`), Western annotation marks (`!?`, `$2`); and they warn of times
-- whose fractions of a second they round down and of CSA times that go with no move. Which
-- files hold such things was not stored, so none is marked as changed. Instead the files
-- indexed before are listed here; a file leaves the list when it is read again (it changed,
-- or a run was told `--reread`), and every index run says how many holding records are left.
CREATE TABLE IF NOT EXISTS files_read_before(file INTEGER PRIMARY KEY);
INSERT OR IGNORE INTO files_read_before(file) SELECT id FROM files;
