-- Views for reading the database with other tools (sqlite3, Datasette, DuckDB's sqlite
-- reader) without knowing its codes: names instead of ids, words instead of numbers.
--
-- games_v: one row per game occurrence (a source file and the game's index in it), with the
-- columns of `kifudex export games` that SQL can give. `moves` is the game's move blob: two
-- bytes a ply, little-endian, each the move's code: for a board move
-- `from * 81 + to`, plus 32768 when it promotes; for a drop `(81 + piece) * 81 + to`, the
-- piece 0 to 6 for pawn, lance, knight, silver, gold, bishop, rook. A square's number is
-- `(file - 1) * 9 + (rank - 1)`, so 7g (file 7, rank g = 7) is 60. The start is the even
-- game's when `start_sfen` is NULL.
CREATE VIEW games_v AS
SELECT s.game AS game_id,
       f.path AS source_path,
       s.idx AS game_index,
       s.line AS line,
       f.format AS format,
       f.encoding AS encoding,
       e.name AS event,
       s.date AS date,
       s.end_date AS end_date,
       pb.name AS black,
       s.black_title AS black_title,
       pw.name AS white,
       s.white_title AS white_title,
       CASE g.handicap
         WHEN 'even' THEN '平手' WHEN 'lance' THEN '香落ち' WHEN 'right-lance' THEN '右香落ち'
         WHEN 'bishop' THEN '角落ち' WHEN 'rook' THEN '飛車落ち' WHEN 'rook-lance' THEN '飛香落ち'
         WHEN '2-piece' THEN '二枚落ち' WHEN '3-piece' THEN '三枚落ち' WHEN '4-piece' THEN '四枚落ち'
         WHEN '5-piece' THEN '五枚落ち' WHEN 'left-5-piece' THEN '左五枚落ち'
         WHEN '6-piece' THEN '六枚落ち' WHEN 'left-7-piece' THEN '左七枚落ち'
         WHEN 'right-7-piece' THEN '右七枚落ち' WHEN '8-piece' THEN '八枚落ち'
         WHEN '10-piece' THEN '十枚落ち'
       END AS handicap,
       g.start AS start_sfen,
       g.plies AS plies,
       g.end_sfen AS final_sfen,
       CASE g.result WHEN 1 THEN 'black' WHEN 2 THEN 'white' WHEN 3 THEN 'draw' ELSE 'unknown' END
         AS result,
       g.termination AS termination,
       coalesce(s.status, 'ok') AS status,
       s.site AS site,
       s.time_control AS time_control,
       s.opening AS opening,
       CASE WHEN EXISTS(SELECT 1 FROM sources s2 JOIN files f2 ON f2.id = s2.file
                        WHERE s2.game = s.game
                          AND (f2.path < f.path OR (f2.path = f.path AND s2.idx < s.idx)))
            THEN s.game END AS duplicate_of,
       g.moves AS moves
FROM sources s
JOIN files f ON f.id = s.file
JOIN games g ON g.id = s.game
LEFT JOIN players pb ON pb.id = s.black
LEFT JOIN players pw ON pw.id = s.white
LEFT JOIN events e ON e.id = s.event;

-- rejects_v: the input that could not be used, as `kifudex export rejects` lists it, with
-- the format and encoding of the file when it has a row.
CREATE VIEW rejects_v AS
SELECT r.path AS path, r.game_index AS game_index, r.line AS line, r.ply AS ply,
       r.code AS code, r.message AS message, f.format AS format, f.encoding AS encoding
FROM rejects r
LEFT JOIN files f ON f.id = r.file;
