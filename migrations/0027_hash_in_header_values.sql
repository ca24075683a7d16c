-- A `#` in a header's value starts a remark in KIF and KI2 files only: a CSA, JKF or Western
-- record's name or event holding one (`N+user#1234`, `$EVENT:Cup #3`) was stored cut there,
-- and found by no filter on the rest. The files of those formats whose records have a header
-- holding a `#` are marked as changed (a size, time and hash no file has), so that the next
-- index run reads them again.
UPDATE files SET size = -1, mtime_ns = -1, hash = x''
WHERE format NOT IN ('kif', 'ki2')
  AND id IN (SELECT file FROM sources WHERE instr(headers, '#') > 0);
