-- The keys of names leave out `_` as they leave out spaces: CSA names write a space as `_`, so
-- `Ito_Chihiro` of a CSA record and `Ito Chihiro` of another are one player. SQL cannot make
-- the keys: they are cleared here, and the writer fills every key that is NULL when it opens
-- the database (readers of a database of an earlier version make the keys themselves).
UPDATE players SET key = NULL;
UPDATE events SET key = NULL;

-- A handicap name written with digits or full-width letters (`２枚落ち`, `ＬＡＮＣＥ`) names
-- its handicap now, where it was read as no handicap (the even game, with the warning
-- `unknown_handicap`): the files with that warning are marked as changed (a size, time and
-- hash no file has), so that the next index run reads them again.
UPDATE files SET size = -1, mtime_ns = -1, hash = x''
WHERE id IN (SELECT file FROM warnings WHERE code = 'unknown_handicap');
