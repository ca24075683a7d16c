-- Aggregated next-move statistics of hot positions: the positions that many games reach.
-- A key is hot when it has rows here; they count the position `keypos` stores for it, over
-- every live game and at any ply: the row with move 0 counts the games that reach it (each
-- once) and its occurrences, and a row per move (Move::code) the games that played that move
-- from it (each once). `index` keeps them exact in the transaction that changes the games.
CREATE TABLE hot(
  key         INTEGER NOT NULL,        -- keypos.key
  move        INTEGER NOT NULL,        -- 0 for the position, else Move::code
  games       INTEGER NOT NULL CHECK(games >= 0),
  black_wins  INTEGER NOT NULL CHECK(black_wins >= 0),
  white_wins  INTEGER NOT NULL CHECK(white_wins >= 0),
  draws       INTEGER NOT NULL CHECK(draws >= 0),
  occurrences INTEGER NOT NULL CHECK(occurrences >= 0),
  PRIMARY KEY(key, move)
) WITHOUT ROWID;
-- Keys are made hot as runs are written and merged; the next `index` run also counts the
-- runs written before this table existed, once, and then sets this row to 'done'.
INSERT INTO meta(key, value)
  VALUES ('hot_scan', CASE WHEN EXISTS(SELECT 1 FROM runs) THEN 'pending' ELSE 'done' END);
