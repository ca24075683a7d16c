-- The readers now keep what earlier versions read past: KIF and KI2 bookmarks (`&…`) and
-- remarks after a row (`#…`), Western annotation marks (`!?`, `$2`); and they warn of times
-- whose fractions of a second they round down and of CSA times that go with no move. Which
-- files hold such things was not stored, so none is marked as changed. Instead the files
-- indexed before are counted here, and every index run says how to read them again
-- (`index --reread`) until one that does so completes.
INSERT INTO meta(key, value)
SELECT 'files_to_read_again', (SELECT count(*) FROM files)
WHERE EXISTS (SELECT 1 FROM files);
