-- The readers now keep a record's time and comments for its ending: a KIF ending row's time
-- (`  95 投了  ( 0:16/…)`), CSA's `T` line after the `%` word, a JKF `special` move's `time`
-- and `comments`, and the comments after a KIF or KI2 ending row or `まで` line, a CSA `%`
-- word or a Western result. The comments were stored as the last move's, and the time not
-- at all. The files whose records hold times or comments are marked as changed (a size,
-- time and hash no file has), so that the next index run reads them again.
UPDATE files SET size = -1, mtime_ns = -1, hash = x''
WHERE format != 'usi'
  AND id IN (SELECT file FROM sources WHERE comments IS NOT NULL OR times IS NOT NULL);
