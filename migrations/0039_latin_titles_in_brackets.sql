-- A title in brackets may be written in Latin letters (`Yamada Taro (Meijin)`, `(9-dan,
-- Kisei)`), and titles in brackets may be split by a comma: such a bracket is a title, no
-- longer part of the name, and a title is cut off as a record is read. The files of the
-- records that name a player whose stored name ends in a bracket holding a Latin letter or a
-- comma are marked as changed (a size, time and hash no file has), so that the next index
-- run reads them again. (A file marked whose names need no new reading is read again all the
-- same, as any changed file is.)
UPDATE files SET size = -1, mtime_ns = -1, hash = x''
WHERE id IN (SELECT s.file FROM sources s JOIN players p ON p.id IN (s.black, s.white)
             WHERE p.name GLOB '*[(（]*[A-Za-zＡ-Ｚａ-ｚ,，]*[)）]');
