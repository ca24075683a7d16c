-- Two readings changed; the files whose games they change are marked as changed (a size, time
-- and hash no file has), so that the next index run reads them again:
-- * a KIF or KI2 file of several games put one after the other is read game by game. Before,
--   the next game's headers were skipped as unknown lines, and its moves stopped the first game
--   as moves after its end;
-- * the lifetime form of a rank or of the titles held (永世十段, 永世七冠), the titles held with
--   王 (七冠王) and a title in brackets (九段 in "(九段)") are titles, no longer part of the name.
UPDATE files SET size = -1, mtime_ns = -1, hash = x''
WHERE (format IN ('kif', 'ki2')
       AND (id IN (SELECT file FROM warnings WHERE code = 'unknown_line')
            OR id IN (SELECT file FROM rejects WHERE code = 'move_after_end' AND file IS NOT NULL)))
   OR id IN (SELECT s.file FROM sources s JOIN players p ON p.id IN (s.black, s.white)
             WHERE p.name LIKE '%永世' OR p.name LIKE '%名誉' OR p.name LIKE '%冠王'
                OR p.name LIKE '%)' OR p.name LIKE '%）');
