-- The opening tree of `kifudex export tree`, computed by DuckDB from the positions exports of
-- any number of kifudex databases (the shards of one archive, indexed on several machines):
--
--   kifudex export positions --format parquet --out-dir exports/positions   # on each machine
--
-- then, with every machine's exports/positions/shard=*/ folders gathered in one place
-- (`pip install duckdb`):
--
--   python3 -c 'import duckdb, sys
--   con = duckdb.connect()
--   con.execute("SET VARIABLE positions = ?", [sys.argv[1]])
--   con.execute("SET VARIABLE max_ply = ?", [int(sys.argv[2])])
--   con.sql(open("scripts/tree_duckdb.sql").read()).write_csv(sys.argv[3])' \
--       'exports/positions/**/*.parquet' 10 tree.csv
--
-- or, in the duckdb shell: SET VARIABLE positions = '…'; then .read scripts/tree_duckdb.sql
--
-- Variables: `positions`, the Parquet files (a glob or a list; default
-- 'positions/**/*.parquet'), and `max_ply`, the tree's depth (default 10, as `export tree`).
--
-- The rows are those of `kifudex export tree --max-ply N` over one database holding every
-- game, with the same meanings, but for the `japanese` and `western` columns, which need the
-- rules of the game: one row per position some game reaches at ply N or earlier and move
-- played from it: `sfen` (with the move number of the lowest ply the position is reached
-- at: where records number one start differently, the smallest of theirs, and kifudex the
-- first game's), `key` (16 hexadecimal digits), `ply` (that lowest ply), `games` (the games that reach
-- the position, at any ply), `usi`, `played` (the games that played the move from it, each
-- once however often), `reached` (the games that reach the position after the move, by any
-- order, at any ply), `black_wins`, `white_wins`, `draws` (the results of the games that
-- played it). Positions are told apart by their SFEN without the move number (board, side to
-- move, hands), so two positions that share a key are two positions, as in kifudex.
--
-- Games are counted by `game_key`, the hash of their start and moves that every database
-- gives the same game: a game that several databases hold (a copy of one record in two
-- machines' shares) counts once, as one database counts it. A copy that states no result
-- (`unknown`: a bare list of moves) never hides the result another copy states, as in one
-- database. Copies may also state different results when the moves do not decide one: then
-- the first in alphabetical order (`black`, `draw`, `white`) is taken, where one database
-- takes that of the first record read. The exports hold results, not endings: a copy that
-- ends without a winner (an interrupted game, `unknown`) is one that states nothing here,
-- where one database keeps it when it is the first record in path order to say how the
-- game ended.
--
-- Rows come in kifudex's order of positions (the key as a signed 64-bit number), then by the
-- position's SFEN, then the moves most played first, ties by USI (kifudex breaks those ties by
-- its internal move code).

WITH src AS NOT MATERIALIZED (
    SELECT game_key, result, ply, key, sfen, usi
    FROM read_parquet(coalesce(getvariable('positions'), 'positions/**/*.parquet'))
),
depth AS (
    SELECT coalesce(getvariable('max_ply'), 10) AS max_ply
),
-- The keys of the positions some game reaches at max_ply or earlier. Rows are picked by key
-- first (a number, cheap to compare), then told apart by position.
node_keys AS (
    SELECT DISTINCT key FROM src WHERE ply <= (SELECT max_ply FROM depth)
),
-- Every occurrence under those keys, at any ply, once per game and ply: a game that several
-- databases hold is one game.
at_key AS (
    SELECT DISTINCT game_key, ply, key, sfen, regexp_replace(sfen, ' [0-9]+$', '') AS pos, usi
    FROM src
    WHERE key IN (SELECT key FROM node_keys)
),
-- The positions of the tree, each with the lowest ply it is reached at.
nodes AS (
    SELECT pos, min(ply) AS ply
    FROM at_key
    WHERE ply <= (SELECT max_ply FROM depth)
    GROUP BY pos
),
at_node AS (
    SELECT * FROM at_key WHERE pos IN (SELECT pos FROM nodes)
),
-- Each game's moves from them, with the position each leads to.
steps AS (
    SELECT DISTINCT a.pos, a.usi, c.key AS child_key, regexp_replace(c.sfen, ' [0-9]+$', '') AS child,
           a.game_key
    FROM at_node a JOIN src c ON c.game_key = a.game_key AND c.ply = a.ply + 1
),
results AS (
    SELECT game_key, coalesce(min(result) FILTER (WHERE result <> 'unknown'), 'unknown') AS result
    FROM src WHERE ply = 0 GROUP BY game_key
),
played AS (
    SELECT s.pos, s.usi, min(s.child_key) AS child_key, min(s.child) AS child, count(*) AS played,
           count(*) FILTER (WHERE r.result = 'black') AS black_wins,
           count(*) FILTER (WHERE r.result = 'white') AS white_wins,
           count(*) FILTER (WHERE r.result = 'draw') AS draws
    FROM steps s JOIN results r ON r.game_key = s.game_key
    GROUP BY s.pos, s.usi
),
-- The games that reach each position a move leads to, at any ply.
reached AS (
    SELECT pos, count(DISTINCT game_key) AS reached
    FROM (
        SELECT game_key, regexp_replace(sfen, ' [0-9]+$', '') AS pos
        FROM src
        WHERE key IN (SELECT child_key FROM played)
    )
    WHERE pos IN (SELECT child FROM played)
    GROUP BY pos
),
heads AS (
    SELECT a.pos, min(a.key) AS key, n.ply,
           arg_min(a.sfen, CAST(regexp_extract(a.sfen, '[0-9]+$') AS BIGINT)) FILTER (WHERE a.ply = n.ply) AS sfen,
           count(DISTINCT a.game_key) AS games
    FROM at_node a JOIN nodes n ON n.pos = a.pos
    GROUP BY a.pos, n.ply
)
SELECT h.sfen, lpad(lower(hex(h.key)), 16, '0') AS key, h.ply, h.games, p.usi, p.played,
       r.reached, p.black_wins, p.white_wins, p.draws
FROM heads h
JOIN played p ON p.pos = h.pos
JOIN reached r ON r.pos = p.child
ORDER BY h.key >= 9223372036854775808 DESC, h.key, h.pos, p.played DESC, p.usi;
