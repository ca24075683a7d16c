-- The first schema: provenance, games, the position index, rejects.
--
-- Shipped migrations are never edited: a change is a new file with the next number.
-- Connection settings (WAL, synchronous, cache, busy timeout) are set at open, not here.

-- Settings of the stored formats, read by every reader.
CREATE TABLE meta(
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
-- Occurrences at this ply or earlier were compared with `keypos` when indexed.
INSERT INTO meta(key, value) VALUES ('keypos_max_ply', '16');
-- Every game with an id up to this one has its postings in a run; the postings of later
-- games are still in the writer's memory (rebuilt from their moves after a crash).
INSERT INTO meta(key, value) VALUES ('indexed_through', '0');

-- One row per record file ever indexed (and not pruned since).
CREATE TABLE files(
  id       INTEGER PRIMARY KEY,
  path     TEXT    NOT NULL UNIQUE,  -- absolute, as walked
  size     INTEGER NOT NULL,
  mtime_ns INTEGER NOT NULL,
  hash     BLOB    NOT NULL,         -- xxh3-128 of the content
  format   TEXT,                     -- kif, ki2, csa, jkf, usi, western; NULL when no record
  encoding TEXT,                     -- utf-8, utf-8-bom, cp932, euc-jp; NULL when no record
  games    INTEGER NOT NULL,         -- games read from it
  stopped  INTEGER NOT NULL,         -- of which stopped early
  error    TEXT                      -- reject code when the file yields no game
);

CREATE TABLE players(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE events(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);

-- One row per distinct game: same start and same replayed moves are one game.
-- AUTOINCREMENT: ids are never reused, because position runs and tombstones name them.
CREATE TABLE games(
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  movehash     INTEGER NOT NULL,     -- xxh3-64 of start and moves; equal blobs confirm it
  start        TEXT,                 -- SFEN of the start; NULL for the even-game start
  handicap     TEXT,                 -- Handicap slug of a standard start; NULL for a custom one
  plies        INTEGER NOT NULL,
  moves        BLOB    NOT NULL,     -- 2 bytes per ply: Move::code, little-endian
  times        BLOB,                 -- per ply varint(seconds + 1), 0 = unknown; NULL if none
  end_sfen     TEXT    NOT NULL,     -- the position after the last move
  result       INTEGER NOT NULL,     -- 0 unknown, 1 black won, 2 white won, 3 draw
  termination  TEXT,                 -- Termination name
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
  comments     BLOB                  -- (varint ply, varint length, UTF-8) repeated; NULL if none
);
CREATE INDEX games_movehash ON games(movehash);
CREATE INDEX games_black ON games(black);
CREATE INDEX games_white ON games(white);
CREATE INDEX games_event ON games(event);
CREATE INDEX games_date ON games(date);

-- Where each game was read: file and index in it. Several sources may share a game.
CREATE TABLE sources(
  file   INTEGER NOT NULL,           -- files.id
  idx    INTEGER NOT NULL,           -- 0-based index of the game in its file
  game   INTEGER NOT NULL,           -- games.id
  line   INTEGER NOT NULL,           -- 1-based line where the game starts
  status TEXT,                       -- NULL when replayed to the end, else the stop reason code
  PRIMARY KEY(file, idx)
) WITHOUT ROWID;
CREATE INDEX sources_game ON sources(game);

-- Input that could not be used: files that hold no record, games that stopped early.
CREATE TABLE rejects(
  id         INTEGER PRIMARY KEY,
  path       TEXT    NOT NULL,
  file       INTEGER,                -- files.id, when the file has a row
  game_index INTEGER,
  line       INTEGER,
  ply        INTEGER,
  code       TEXT    NOT NULL,
  message    TEXT    NOT NULL
);
CREATE INDEX rejects_path ON rejects(path);

-- The position index: every position of every main line, as postings
-- (key, game, ply, move played from it, result) in immutable sorted runs of blocks.
CREATE TABLE runs(
  id       INTEGER PRIMARY KEY,
  postings INTEGER NOT NULL,
  min_game INTEGER NOT NULL,
  max_game INTEGER NOT NULL
);
CREATE TABLE pblocks(
  id   INTEGER PRIMARY KEY,
  run  INTEGER NOT NULL,             -- runs.id
  lo   INTEGER NOT NULL,             -- the first key in the block, as a signed integer
  n    INTEGER NOT NULL,             -- postings in the block
  data BLOB    NOT NULL
);
CREATE UNIQUE INDEX pblocks_run_lo ON pblocks(run, lo);
-- Deleted games whose postings remain in some run until it is merged.
CREATE TABLE dead(game INTEGER PRIMARY KEY, postings INTEGER NOT NULL);

-- Exactness: the position (packed: board, hands, side to move) of every key seen at a ply up
-- to meta.keypos_max_ply. Each such occurrence was compared with it when indexed; one that
-- differed (a key collision) is listed in `collisions`.
CREATE TABLE keypos(key INTEGER PRIMARY KEY, position BLOB NOT NULL);
CREATE TABLE collisions(
  key  INTEGER NOT NULL,
  game INTEGER NOT NULL,
  ply  INTEGER NOT NULL,
  PRIMARY KEY(key, game, ply)
) WITHOUT ROWID;
