-- The list of the newest games of a hot position is one row instead of one row a game: a
-- bulk index run rewrites most lists in every transaction (a dated archive brings newer games
-- in each), and rewriting one small blob costs a fraction of deleting and inserting fifty
-- rows and reading them back.
--
-- For a key with a row, `games` holds exactly the live games that reach the position `keypos`
-- stores for it and sort before or at the row's cut (every such game when `cut_game` is
-- NULL), at most 50, in the order of a query's list: by the date of the game's shown record,
-- newest first and undated last, then by id, highest first. Each game is three fields, one
-- after the other, each a LEB128 varint save the date's bytes: its id; the first ply at which
-- it is there; and its date, as its length in bytes plus one (0 for no date) followed by
-- those bytes (UTF-8).
--
-- The lists of the tables this replaces are not converted: a hot key without a row has no
-- list yet, and the next `index` run makes it from the postings (readers meanwhile answer from
-- the postings, as for a key without a list).
DROP TABLE hot_newest;
DROP TABLE hot_listed;
CREATE TABLE hot_lists(
  key      INTEGER PRIMARY KEY,        -- hot.key
  cut_date TEXT,                       -- with cut_game: where the list ends
  cut_game INTEGER,                    -- NULL: the list holds every game of the key
  games    BLOB NOT NULL
);
