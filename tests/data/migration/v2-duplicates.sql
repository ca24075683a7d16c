-- A database of schema version 2, built by kifudex at commit 839b0da (`kifudex index
-- /tmp/kifudex-v2-fixture`, a copy of tests/data/duplicates) and written out by `sqlite3 .dump`.
-- Its files hold one game four times with different headers, and another game once.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE meta(
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
INSERT INTO meta VALUES('indexed_through','2');
INSERT INTO meta VALUES('keypos_max_ply','16');
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
INSERT INTO files VALUES(1,'/tmp/kifudex-v2-fixture/csa/habu.csa',474,1795505771071948151,X'd3dad4878f8cfa668eafa85723d6e870','csa','utf-8',1,0,NULL);
INSERT INTO files VALUES(2,'/tmp/kifudex-v2-fixture/csa/twice.csa',407,1795505771071979287,X'71ce6e1ab208cc8f6f49b90df0bc3b6a','csa','utf-8',2,0,NULL);
INSERT INTO files VALUES(3,'/tmp/kifudex-v2-fixture/kif/habu.kifu',947,1795505771072078143,X'263a70a75b413f0d2dfc854b956dafb3','kif','utf-8',1,0,NULL);
INSERT INTO files VALUES(4,'/tmp/kifudex-v2-fixture/kif/other.kifu',306,1795505771072030953,X'aff583a8ae796a2bdec803d5ce5458b6','kif','utf-8',1,0,NULL);
CREATE TABLE players(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
INSERT INTO players VALUES(1,'Habu Yoshiharu');
INSERT INTO players VALUES(2,'Fujii Takeshi');
INSERT INTO players VALUES(3,'加藤一二三');
INSERT INTO players VALUES(4,'米長邦雄');
CREATE TABLE events(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
INSERT INTO events VALUES(1,'Meijin-sen A-class league, 65th term');
INSERT INTO events VALUES(2,'練習将棋');
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
INSERT INTO games VALUES(1,-8341534181563103982,NULL,'even',12,X'37136906cd044b097b043e035c085c14200e920bb110c50e',X'080c040302021f1505070809','lnsg1gsnl/2k2r3/ppppp1bpp/5pp2/7P1/2P6/PP1PPPP1P/1BK2S1R1/LNSG1G1NL b - 13',2,'resign',1,NULL,2,NULL,1,'Tokyo Shogi Kaikan','2006-12-16T10:00:00','2006-12-17T01:23:00','6:00+00','Shikenbisha',replace('V	2.2\nN+	Habu Yoshiharu\nN-	Fujii Takeshi\n$EVENT	Meijin-sen A-class league, 65th term\n$SITE	Tokyo Shogi Kaikan\n$START_TIME	2006/12/16 10:00:00\n$END_TIME	2006/12/17 01:23:00\n$TIME_LIMIT	6:00+00\n$OPENING	Shikenbisha\n','\n',char(10)),X'0045412068616e642d7772697474656e20636f7079206f66207468652073616d652067616d652c20726f6d616e697a65642c207769746820697473206f776e2068656164657273000f6265666f7265207468652067616d65011b6f70656e732074686520626973686f70277320646961676f6e616c');
INSERT INTO games VALUES(2,5523074060934480470,NULL,'even',4,X'cd04d3147b042515',NULL,'lnsgkgsnl/1r5b1/p1ppppppp/9/1p5P1/9/PPPPPPP1P/1B5R1/LNSGKGSNL b - 5',0,'interrupted',3,NULL,4,NULL,2,NULL,'1980-04-01',NULL,NULL,NULL,replace('開始日時	1980/04/01\n棋戦	練習将棋\n先手	加藤一二三\n後手	米長邦雄\n','\n',char(10)),NULL);
CREATE TABLE sources(
  file   INTEGER NOT NULL,           -- files.id
  idx    INTEGER NOT NULL,           -- 0-based index of the game in its file
  game   INTEGER NOT NULL,           -- games.id
  line   INTEGER NOT NULL,           -- 1-based line where the game starts
  status TEXT,                       -- NULL when replayed to the end, else the stop reason code
  PRIMARY KEY(file, idx)
) WITHOUT ROWID;
INSERT INTO sources VALUES(1,0,1,1,NULL);
INSERT INTO sources VALUES(2,0,1,1,NULL);
INSERT INTO sources VALUES(2,1,1,23,NULL);
INSERT INTO sources VALUES(3,0,1,1,NULL);
INSERT INTO sources VALUES(4,0,2,1,NULL);
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
CREATE TABLE runs(
  id       INTEGER PRIMARY KEY,
  postings INTEGER NOT NULL,
  min_game INTEGER NOT NULL,
  max_game INTEGER NOT NULL
);
INSERT INTO runs VALUES(1,18,1,2);
CREATE TABLE pblocks(
  id   INTEGER PRIMARY KEY,
  run  INTEGER NOT NULL,             -- runs.id
  lo   INTEGER NOT NULL,             -- the first key in the block, as a signed integer
  n    INTEGER NOT NULL,             -- postings in the block
  data BLOB    NOT NULL
);
INSERT INTO pblocks VALUES(1,1,-8642969734090108928,18,X'0001020c251582b9c1b9b1c9b0ed0901011e5c1492d89a8b98d6d2d90c01010acd04a59090a1b4e883df01010126920bf4bfb3d7ba8ee4e92201010669068fa2b4e39098e9eb09010204d314fbabd0f0a69af5e2140101320000ebf8c9a5f4fedccc0c0102100000dd8bf5c381e882f3080101127b04bd83dbcff3b782c50f0101163e0385ecedd482dcc3af2a01012ab110f4f69e91c0fdbfe30201012ec50ec998f3f6878d88800601010e4b09d1a6c6eecba8fbde2001011a5c0887c7b1f5b588add50f02010237130100cd04e2f3f99c93bf939d07010122200e8bf0f8a69af991f9070102087b04');
CREATE TABLE dead(game INTEGER PRIMARY KEY, postings INTEGER NOT NULL);
CREATE TABLE keypos(key INTEGER PRIMARY KEY, position BLOB NOT NULL);
INSERT INTO keypos VALUES(-8642969734090108928,X'01452f172d5ab468d1e54501cf8100a70346440786748054078e7480440706a40e14f11c08');
INSERT INTO keypos VALUES(-7932876215058453374,X'01452b37495eb468c9e34501cf81001d30224e07a4038354078e7480440706a40e14f11c08');
INSERT INTO keypos VALUES(-7017718939531454316,X'00458f272d5ab468c9e34501cf8100a70346440786748054078e7480440706a40e14f11c08');
INSERT INTO keypos VALUES(-6892164318338064199,X'01452b37595ea478c9e24501cf81001d30224e0724756090ea8074e090e8c0800e14f11c08');
INSERT INTO keypos VALUES(-4382656074499276627,X'01458f172d5ab468c9e34501cf8100a70346440786748054078e7480440706a40e14f11c08');
INSERT INTO keypos VALUES(-3673439459121016388,X'01454f172d5ab468d1e34501cf8100a70346440786748054078e7480440706a40e14f11c08');
INSERT INTO keypos VALUES(-2176603007695427657,X'00452b37594ea4e8e9e24501cf81001d30224e072475601007a403245607ce800e14f11c08');
INSERT INTO keypos VALUES(-1268718701956897758,X'00452f172d5ab468d1e94501cf8100a70346440786748054078e7480440706a40e14f11c08');
INSERT INTO keypos VALUES(-627506335093347841,X'00454f274d5ab468c9e34501cf8100a70346440786748054078e7480440706a40e14f11c08');
INSERT INTO keypos VALUES(492211839177518012,X'01452f274d5ab468c9e34501cf8100a70346440786748054078e7480440706a40e14f11c08');
INSERT INTO keypos VALUES(3545387267508298177,X'00452b37594ee478c9e24501cf81001d30224e0724756010076475e090e8c0800e14f11c08');
INSERT INTO keypos VALUES(3745515890086386997,X'01452b37594ee468e9e24501cf81001d30224e0724756010076475804407ce800e14f11c08');
INSERT INTO keypos VALUES(4177897087491041662,X'01454f272d5ab468c9e34501cf8100a70346440786748054078e7480440706a40e14f11c08');
INSERT INTO keypos VALUES(6537199746801237199,X'00452b374d5ab468c9e34501cf81001d30224e0786748054078e7480440706a40e14f11c08');
INSERT INTO keypos VALUES(7666112604855132246,X'00458f172d5ab468d1e34501cf8100a70346440786748054078e7480440706a40e14f11c08');
INSERT INTO keypos VALUES(8186927044478065208,X'00452b37595eb468c9e24501cf81001d30224e0724756090eac0910e90e8c0800e14f11c08');
INSERT INTO keypos VALUES(8759526078487564867,X'00454f172d5ab468d1e54501cf8100a70346440786748054078e7480440706a40e14f11c08');
CREATE TABLE collisions(
  key  INTEGER NOT NULL,
  game INTEGER NOT NULL,
  ply  INTEGER NOT NULL,
  PRIMARY KEY(key, game, ply)
) WITHOUT ROWID;
ANALYZE sqlite_schema;
INSERT INTO sqlite_stat1 VALUES('sources','sources_game','5 3');
INSERT INTO sqlite_stat1 VALUES('sources','sources','5 2 1');
INSERT INTO sqlite_stat1 VALUES('games','games_date','2 1');
INSERT INTO sqlite_stat1 VALUES('games','games_event','2 1');
INSERT INTO sqlite_stat1 VALUES('games','games_white','2 1');
INSERT INTO sqlite_stat1 VALUES('games','games_black','2 1');
INSERT INTO sqlite_stat1 VALUES('games','games_movehash','2 1');
INSERT INTO sqlite_stat1 VALUES('pblocks','pblocks_run_lo','1 1 1');
INSERT INTO sqlite_stat1 VALUES('events','sqlite_autoindex_events_1','2 1');
INSERT INTO sqlite_stat1 VALUES('meta','meta','2 1');
INSERT INTO sqlite_stat1 VALUES('files','sqlite_autoindex_files_1','4 1');
INSERT INTO sqlite_stat1 VALUES('players','sqlite_autoindex_players_1','4 1');
ANALYZE sqlite_schema;
DELETE FROM sqlite_sequence;
INSERT INTO sqlite_sequence VALUES('games',2);
CREATE INDEX games_movehash ON games(movehash);
CREATE INDEX games_black ON games(black);
CREATE INDEX games_white ON games(white);
CREATE INDEX games_event ON games(event);
CREATE INDEX games_date ON games(date);
CREATE INDEX sources_game ON sources(game);
CREATE INDEX rejects_path ON rejects(path);
CREATE INDEX pblocks_run_lo ON pblocks(run, lo);
COMMIT;
