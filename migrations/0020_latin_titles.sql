-- A title or a women's rank written in Latin letters after a player's name, as CSA names write
-- them (`Kondo_Osamu_Ryuo`, `Ito_Chihiro_W2dan`, `Tanaka_Taro_ama`), is a title, no longer
-- part of the name; and the `_` before a rank (`Ito_Chihiro_9dan`) was once stored as the end
-- of the name (`Ito_Chihiro_`). The files of the records that name such a player are marked as
-- changed (a size, time and hash no file has), so that the next index run reads them again.
-- (LIKE ignores the case of Latin letters. A file marked whose names need no new reading is
-- read again all the same, as any changed file is.)
WITH words(word) AS (
  VALUES ('meijin'), ('ryuo'), ('oi'), ('oza'), ('kio'), ('osho'), ('kisei'), ('eio'), ('ama'),
         ('w_dan'), ('w__dan'), ('w_kyu'), ('w__kyu')
)
UPDATE files SET size = -1, mtime_ns = -1, hash = x''
WHERE id IN (SELECT s.file FROM sources s JOIN players p ON p.id IN (s.black, s.white)
             WHERE p.name LIKE '%\_' ESCAPE '\'
                OR EXISTS (SELECT 1 FROM words
                           WHERE p.name LIKE '%\_' || word ESCAPE '\'
                              OR p.name LIKE '% ' || word
                              OR p.name LIKE '%' || char(12288) || word));
