-- The game each row is of: NULL for shogi, 'yari' for yari shogi (Variant::name). A yari
-- game's start is always stored (as a seven-file SFEN), so the games stored before this
-- column are told apart by the width of their start's first rank: each digit counts that
-- many empty squares, each letter one square, a '+' none.
ALTER TABLE games ADD COLUMN variant TEXT;
UPDATE games SET variant = 'yari'
 WHERE start IS NOT NULL
   AND length(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(
         substr(start, 1, instr(start, '/') - 1),
         '+', ''), '1', 'x'), '2', 'xx'), '3', 'xxx'), '4', 'xxxx'), '5', 'xxxxx'), '6', 'xxxxxx'),
         '7', 'xxxxxxx'), '8', 'xxxxxxxx'), '9', 'xxxxxxxxx')) = 7;
CREATE INDEX games_variant ON games(variant) WHERE variant IS NOT NULL;
