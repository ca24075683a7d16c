-- Warnings: what a game's record holds that was read past or judged against the record's own
-- words, while the game itself is kept whole (a line that is no part of the format, an ending
-- the moves contradict). Beside rejects, with the same columns; every row has a file, and the
-- rows go when the file's games are replaced or removed.
CREATE TABLE warnings(
  id         INTEGER PRIMARY KEY,
  path       TEXT    NOT NULL,
  file       INTEGER NOT NULL,       -- files.id
  game_index INTEGER,
  line       INTEGER,
  ply        INTEGER,
  code       TEXT    NOT NULL,
  message    TEXT    NOT NULL
);
CREATE INDEX warnings_file ON warnings(file);
