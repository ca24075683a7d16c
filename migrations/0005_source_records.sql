-- Each file keeps its own record of a game. A game is its start, its replayed moves and its
-- result, shared by every file that holds it; what a file writes around the moves (players
-- and titles, event, dates, site, time control, opening, every raw header, the times and the
-- comments) belongs to that file's occurrence, a row of `sources`.
--
-- `sources` becomes a rowid table: its rows now hold headers and comments, too large for the
-- keys of a table without rowid, and its indexes each hold the game, so that a filter on one
-- field reads an index alone.

CREATE TABLE sources_records(
  id           INTEGER PRIMARY KEY,
  file         INTEGER NOT NULL,     -- files.id
  idx          INTEGER NOT NULL,     -- 0-based index of the game in its file
  game         INTEGER NOT NULL,     -- games.id
  line         INTEGER NOT NULL,     -- 1-based line where the game starts
  status       TEXT,                 -- NULL when replayed to the end, else the stop reason code
  black        INTEGER,              -- players.id
  black_title  TEXT,
  white        INTEGER,              -- players.id
  white_title  TEXT,
  event        INTEGER,              -- events.id
  site         TEXT,
  date         TEXT,                 -- ISO 8601, as precise as the record
  end_date     TEXT,
  time_control TEXT,
  opening      TEXT,
  headers      TEXT,                 -- every header as written: key TAB value LF, escaped
  times        BLOB,                 -- per ply varint(seconds + 1), 0 = unknown; NULL if none
  comments     BLOB                  -- (varint ply, varint length, UTF-8) repeated; NULL if none
);

-- Until now a game kept the record of the file that first brought it; that is the best
-- known record of each of its occurrences.
INSERT INTO sources_records(file, idx, game, line, status, black, black_title, white, white_title,
  event, site, date, end_date, time_control, opening, headers, times, comments)
SELECT s.file, s.idx, s.game, s.line, s.status, g.black, g.black_title, g.white, g.white_title,
  g.event, g.site, g.date, g.end_date, g.time_control, g.opening, g.headers, g.times, g.comments
FROM sources s JOIN games g ON g.id = s.game
ORDER BY s.file, s.idx;

-- The records of the other files that hold such a game were not kept: those files are marked
-- as changed (a size, time and hash no file has), so that the next index run over them reads
-- them again and stores their own.
UPDATE files SET size = -1, mtime_ns = -1, hash = x''
WHERE id IN (SELECT file FROM sources WHERE game IN
               (SELECT game FROM sources GROUP BY game HAVING count(*) > 1));

DROP TABLE sources;
ALTER TABLE sources_records RENAME TO sources;
CREATE UNIQUE INDEX sources_file_idx ON sources(file, idx);
CREATE INDEX sources_game ON sources(game);
CREATE INDEX sources_black ON sources(black, game);
CREATE INDEX sources_white ON sources(white, game);
CREATE INDEX sources_event ON sources(event, game);
CREATE INDEX sources_date ON sources(date, game);

DROP INDEX games_black;
DROP INDEX games_white;
DROP INDEX games_event;
DROP INDEX games_date;
ALTER TABLE games DROP COLUMN black;
ALTER TABLE games DROP COLUMN black_title;
ALTER TABLE games DROP COLUMN white;
ALTER TABLE games DROP COLUMN white_title;
ALTER TABLE games DROP COLUMN event;
ALTER TABLE games DROP COLUMN site;
ALTER TABLE games DROP COLUMN date;
ALTER TABLE games DROP COLUMN end_date;
ALTER TABLE games DROP COLUMN time_control;
ALTER TABLE games DROP COLUMN opening;
ALTER TABLE games DROP COLUMN headers;
ALTER TABLE games DROP COLUMN times;
ALTER TABLE games DROP COLUMN comments;
