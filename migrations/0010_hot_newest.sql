-- The newest games of each hot position, so that its game list costs the same whatever the
-- size of the archive. Games sort as a query lists them: by the date of the record shown for
-- each (its first in path order), newest first and undated last, then by id, highest first.
-- For a key with a `hot_listed` row, `hot_newest` holds exactly the live games that reach the
-- position `keypos` stores for it and sort before or at the row's cut (every such game when
-- `cut_game` is NULL), each with the date it sorts by and the first ply at which it is there.
-- A hot key without a `hot_listed` row has no list yet; the next `index` run makes it.
CREATE TABLE hot_newest(
  key  INTEGER NOT NULL,               -- hot.key
  game INTEGER NOT NULL,               -- games.id
  date TEXT,                           -- the date of the game's shown record
  ply  INTEGER NOT NULL CHECK(ply >= 0),
  PRIMARY KEY(key, game)
) WITHOUT ROWID;
CREATE TABLE hot_listed(
  key      INTEGER PRIMARY KEY,        -- hot.key
  cut_date TEXT,                       -- with cut_game: where the list ends
  cut_game INTEGER                     -- NULL: the list holds every game of the key
);
