//! The reader: consistent snapshots for queries, streams for exports, file states for ingest.

use std::{collections::HashSet, path::Path, rc::Rc};

use rusqlite::{
    Connection, OptionalExtension, Row, params, params_from_iter, types::Value, vtab::array::Array,
};

use super::{
    GameId, GameResult, Result,
    codec::{decode_comments, decode_headers, decode_moves, decode_times},
    runs::{self, Run},
};
use crate::shogi::{Handicap, Move, Setup};

/// The reader: one connection, used from one thread.
pub struct Reader {
    conn: Connection,
}

/// What the database knows of a file, for deciding whether it changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileState {
    pub size: u64,
    pub mtime_ns: i64,
    pub hash: Vec<u8>,
    /// The reject code when the file yielded no game.
    pub error: Option<String>,
    /// Games in it that stopped early.
    pub stopped: u64,
}

/// Which games to keep. Empty fields do not filter.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// A player on either side (part of the name).
    pub player: Option<String>,
    pub black: Option<String>,
    pub white: Option<String>,
    /// Part of the event name.
    pub event: Option<String>,
    /// Games on or after this date (ISO 8601, as precise as wanted).
    pub since: Option<String>,
    /// Games on or before this date (a partial date includes all of it).
    pub until: Option<String>,
    pub result: Option<GameResult>,
    pub handicap: Option<Handicap>,
}

impl GameFilter {
    /// Whether the filter keeps every game.
    pub fn is_empty(&self) -> bool {
        *self == GameFilter::default()
    }
}

/// One row of the games export: a game as one file holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OccurrenceRow {
    pub game: GameId,
    pub path: String,
    pub index: u32,
    pub format: Option<String>,
    pub encoding: Option<String>,
    pub event: Option<String>,
    pub date: Option<String>,
    pub black: Option<String>,
    pub white: Option<String>,
    pub handicap: Option<Handicap>,
    pub start_sfen: String,
    pub plies: u32,
    pub end_sfen: String,
    pub result: GameResult,
    pub termination: Option<String>,
    /// `None` when this source was replayed to the end, else the stop reason code.
    pub status: Option<String>,
    /// Set when an earlier source (in path order) holds the same game: that game's id.
    pub duplicate_of: Option<GameId>,
}

/// A reject row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RejectRow {
    pub path: String,
    pub game_index: Option<u32>,
    pub line: Option<u32>,
    pub ply: Option<u32>,
    pub code: String,
    pub message: String,
}

/// A warning row: the same columns as a reject's.
pub type WarningRow = RejectRow;

/// A game's list entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: GameId,
    pub date: Option<String>,
    pub event: Option<String>,
    pub black: Option<String>,
    pub white: Option<String>,
    pub result: GameResult,
}

/// A stored game, whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    pub row: GameRow,
    pub start: Setup,
    pub handicap: Option<Handicap>,
    pub moves: Vec<Move>,
    /// Seconds per move, when known (empty when the record gave none).
    pub times: Vec<Option<u32>>,
    /// Comments by ply: 0 before the first move, n after move n.
    pub comments: Vec<(u32, String)>,
    /// Every header as written.
    pub headers: Vec<(String, String)>,
    pub termination: Option<String>,
    pub site: Option<String>,
    pub end_date: Option<String>,
    pub time_control: Option<String>,
    pub opening: Option<String>,
    pub black_title: Option<String>,
    pub white_title: Option<String>,
}

/// A stored game's moves, as the moves and positions exports read them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameMoves {
    pub id: GameId,
    pub start: Setup,
    pub moves: Vec<Move>,
    /// Seconds per move, when known (empty when the record gave none).
    pub times: Vec<Option<u32>>,
    /// Comments by ply: 0 before the first move, n after move n.
    pub comments: Vec<(u32, String)>,
}

/// The SFEN of the start, from its stored form (`None` is the even game).
pub(super) fn start_setup(start: Option<&str>) -> Result<Setup> {
    match start {
        None => Ok(Handicap::Even.setup()),
        Some(s) => s.parse().map_err(|_| super::Corrupt("a stored start is not SFEN").into()),
    }
}

impl Reader {
    /// Opens the kifudex database at `path` read-only: it must exist, and nothing in it is
    /// created, migrated or changed (see the [module documentation](super) for a file in
    /// WAL mode).
    ///
    /// # Errors
    ///
    /// [`super::Error::Missing`] when there is no file there; [`super::Error::NotKifudex`]
    /// when it is not a kifudex database; [`super::Error::TooNew`] or
    /// [`super::Error::TooOld`] for a schema this build does not read; any other failure to
    /// open it.
    pub fn open(path: &Path) -> Result<Reader> {
        let conn = super::open::open_read(path)?;
        // Readers touch few pages per answer and stream exports once: a small page cache
        // keeps their memory the same whatever the size of the database.
        conn.execute_batch("PRAGMA query_only = ON; PRAGMA cache_size = -8192")?;
        rusqlite::vtab::array::load_module(&conn)?;
        Ok(Reader { conn })
    }

    /// Sets the connection's page cache to about `kib` KiB (it is 8 MiB otherwise). A
    /// reader that looks files up in path order, as indexing does, needs little.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn set_cache_kib(&self, kib: u32) -> Result<()> {
        self.conn.pragma_update(None, "cache_size", -i64::from(kib))?;
        Ok(())
    }

    /// Whether any file is recorded.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn has_files(&self) -> Result<bool> {
        Ok(self.conn.query_row("SELECT EXISTS(SELECT 1 FROM files)", [], |r| r.get(0))?)
    }

    /// The state recorded for the file at `path`, if any.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn file_state(&self, path: &str) -> Result<Option<FileState>> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT size, mtime_ns, hash, error, stopped FROM files WHERE path = ?1")?;
        let state = stmt
            .query_row([path], |r| {
                Ok(FileState {
                    size: r.get::<_, i64>(0)? as u64,
                    mtime_ns: r.get(1)?,
                    hash: r.get(2)?,
                    error: r.get(3)?,
                    stopped: r.get::<_, i64>(4)? as u64,
                })
            })
            .optional()?;
        Ok(state)
    }

    /// Starts a consistent read: everything read through the snapshot sees one state of
    /// the database, whatever a writer commits meanwhile.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn snapshot(&mut self) -> Result<Snapshot<'_>> {
        let tx = self.conn.transaction()?;
        let runs = runs::live(&tx)?;
        let dead = {
            let mut stmt = tx.prepare_cached("SELECT game FROM dead")?;
            let ids = stmt.query_map([], |r| r.get::<_, i64>(0))?;
            ids.filter_map(|id| id.ok().and_then(|id| u32::try_from(id).ok())).collect()
        };
        let early_max = tx
            .query_row("SELECT value FROM meta WHERE key = 'keypos_max_ply'", [], |r| r.get::<_, String>(0))
            .optional()?
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        Ok(Snapshot { tx, runs, dead, early_max })
    }
}

/// A consistent view of the database (see [`Reader::snapshot`]).
pub struct Snapshot<'a> {
    pub(super) tx: rusqlite::Transaction<'a>,
    pub(super) runs: Vec<Run>,
    pub(super) dead: HashSet<u32>,
    /// Occurrences up to this ply were checked against `keypos` when indexed.
    pub(super) early_max: u32,
}

fn game_row(r: &Row<'_>) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        id: r.get(0)?,
        date: r.get(1)?,
        event: r.get(2)?,
        black: r.get(3)?,
        white: r.get(4)?,
        result: r.get(5)?,
    })
}

/// The columns [`game_row`] reads, and the joins they need.
const GAME_COLUMNS: &str = "g.id, g.date, e.name, pb.name, pw.name, g.result";
const GAME_JOINS: &str = "FROM games g
     LEFT JOIN events e ON e.id = g.event
     LEFT JOIN players pb ON pb.id = g.black
     LEFT JOIN players pw ON pw.id = g.white";

/// The SQL conditions of `filter` on the games table aliased `g`, each starting with ` AND`,
/// and their arguments. User text is only ever an argument, never SQL.
fn filter_clause(filter: &GameFilter) -> (String, Vec<Value>) {
    let mut sql = String::new();
    let mut args: Vec<Value> = Vec::new();
    let mut arg = |sql: &mut String, clause: &str, v: &str| {
        args.push(Value::Text(v.to_string()));
        sql.push_str(&clause.replacen('?', &format!("?{}", args.len()), 1));
    };
    const PLAYER: &str = "(SELECT id FROM players WHERE instr(name, ?) > 0)";
    if let Some(p) = &filter.player {
        arg(&mut sql, &format!(" AND (g.black IN {PLAYER}"), p);
        arg(&mut sql, &format!(" OR g.white IN {PLAYER})"), p);
    }
    if let Some(p) = &filter.black {
        arg(&mut sql, &format!(" AND g.black IN {PLAYER}"), p);
    }
    if let Some(p) = &filter.white {
        arg(&mut sql, &format!(" AND g.white IN {PLAYER}"), p);
    }
    if let Some(e) = &filter.event {
        arg(&mut sql, " AND g.event IN (SELECT id FROM events WHERE instr(name, ?) > 0)", e);
    }
    if let Some(d) = &filter.since {
        arg(&mut sql, " AND g.date >= ?", d);
    }
    if let Some(d) = &filter.until {
        // A partial date includes all of it: --until 2010 keeps 2010-12-31.
        arg(&mut sql, " AND substr(g.date, 1, length(?)) <= ", d);
        arg(&mut sql, "?", d);
    }
    if let Some(r) = filter.result {
        sql.push_str(&format!(" AND g.result = {}", r.code()));
    }
    if let Some(h) = filter.handicap {
        arg(&mut sql, " AND g.handicap = ?", h.slug());
    }
    (sql, args)
}

impl Snapshot<'_> {
    /// The stored games that the position index lacks: none, unless a run of an older
    /// kifudex (which committed games before their postings) was killed, and no run since
    /// has rebuilt them. Position answers leave these games out.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn unindexed_games(&self) -> Result<u64> {
        let n: i64 = self.tx.query_row(
            "SELECT count(*) FROM games
             WHERE id > (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'indexed_through')",
            [],
            |r| r.get(0),
        )?;
        Ok(n as u64)
    }

    /// The number of games stored.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn game_count(&self) -> Result<u64> {
        Ok(self.tx.query_row("SELECT count(*) FROM games", [], |r| r.get::<_, i64>(0))? as u64)
    }

    /// The games `filter` keeps, or `None` when it keeps every game.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn filter_games(&self, filter: &GameFilter) -> Result<Option<HashSet<GameId>>> {
        if filter.is_empty() {
            return Ok(None);
        }
        let (clause, args) = filter_clause(filter);
        let mut stmt = self.tx.prepare(&format!("SELECT g.id FROM games g WHERE 1{clause}"))?;
        let ids = stmt.query_map(params_from_iter(args), |r| r.get(0))?;
        Ok(Some(ids.collect::<rusqlite::Result<_>>()?))
    }

    /// The list entries of `ids` (sorted, without repeats), newest first (by date, then id),
    /// the first `offset` left out, at most `limit`.
    ///
    /// Few ids are looked up directly; many are found by walking the date index from the
    /// newest game until `offset + limit` of them have come, whichever reads fewer rows.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn newest_games(&self, ids: &[GameId], offset: usize, limit: usize) -> Result<Vec<GameRow>> {
        if ids.len() <= offset || limit == 0 {
            return Ok(Vec::new());
        }
        let wanted = offset.saturating_add(limit);
        let stored: i64 = self.tx.query_row("SELECT ifnull(max(id), 0) FROM games", [], |r| r.get(0))?;
        // Walking reads about limit × stored / ids rows, looking up reads ids rows.
        let (k, limit_n) = (ids.len() as u128, wanted as u128);
        let chosen: Vec<GameId> = if k * k > limit_n * stored.max(1) as u128 {
            let mut walk = self.tx.prepare_cached("SELECT id FROM games ORDER BY date DESC, id DESC")?;
            let mut rows = walk.query([])?;
            let mut chosen = Vec::with_capacity(wanted.min(ids.len()));
            while chosen.len() < wanted {
                let Some(row) = rows.next()? else {
                    break;
                };
                let id: GameId = row.get(0)?;
                if ids.binary_search(&id).is_ok() {
                    chosen.push(id);
                }
            }
            chosen
        } else {
            ids.to_vec()
        };
        let array: Array = Rc::new(chosen.into_iter().map(|id| Value::Integer(id.0)).collect());
        let mut stmt = self.tx.prepare_cached(&format!(
            "SELECT {GAME_COLUMNS} {GAME_JOINS} WHERE g.id IN rarray(?1) ORDER BY g.date DESC, g.id DESC LIMIT ?2 OFFSET ?3"
        ))?;
        let bound = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        let rows = stmt.query_map(params![array, bound(limit), bound(offset)], game_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The whole stored game with this id.
    ///
    /// # Errors
    ///
    /// Any database failure, or [`super::Corrupt`] when its blobs do not decode.
    pub fn game(&self, id: GameId) -> Result<Option<StoredGame>> {
        let sql = format!(
            "SELECT {GAME_COLUMNS}, g.start, g.handicap, g.moves, g.times, g.comments, g.headers, g.termination,
               g.site, g.end_date, g.time_control, g.opening, g.black_title, g.white_title
             {GAME_JOINS} WHERE g.id = ?1"
        );
        let mut stmt = self.tx.prepare_cached(&sql)?;
        let mut rows = stmt.query([id])?;
        let Some(r) = rows.next()? else {
            return Ok(None);
        };
        let start: Option<String> = r.get(6)?;
        let handicap: Option<String> = r.get(7)?;
        let times: Option<Vec<u8>> = r.get(9)?;
        let comments: Option<Vec<u8>> = r.get(10)?;
        let headers: Option<String> = r.get(11)?;
        Ok(Some(StoredGame {
            row: game_row(r)?,
            start: start_setup(start.as_deref())?,
            handicap: handicap.as_deref().and_then(Handicap::from_name),
            moves: decode_moves(r.get_ref(8)?.as_blob()?)?,
            times: times.as_deref().map(decode_times).transpose()?.unwrap_or_default(),
            comments: comments.as_deref().map(decode_comments).transpose()?.unwrap_or_default(),
            headers: headers.as_deref().map(decode_headers).unwrap_or_default(),
            termination: r.get(12)?,
            site: r.get(13)?,
            end_date: r.get(14)?,
            time_control: r.get(15)?,
            opening: r.get(16)?,
            black_title: r.get(17)?,
            white_title: r.get(18)?,
        }))
    }

    /// Calls `each` for every game occurrence (source file and index) of the games `filter`
    /// keeps, in path order then index order, reading one row at a time.
    ///
    /// # Errors
    ///
    /// Any database failure, or the first error `each` returns.
    pub fn for_each_occurrence<E: From<super::Error>>(
        &self,
        filter: &GameFilter,
        mut each: impl FnMut(&OccurrenceRow) -> Result<(), E>,
    ) -> Result<(), E> {
        let (clause, args) = filter_clause(filter);
        let mut stmt = self
            .tx
            .prepare(&format!(
                "SELECT s.game, f.path, s.idx, f.format, f.encoding, e.name, g.date, pb.name, pw.name, g.handicap,
                   g.start, g.plies, g.end_sfen, g.result, g.termination, s.status,
                   EXISTS(SELECT 1 FROM sources s2 JOIN files f2 ON f2.id = s2.file
                          WHERE s2.game = s.game AND (f2.path < f.path OR (f2.path = f.path AND s2.idx < s.idx)))
                 FROM files f
                 JOIN sources s ON s.file = f.id
                 JOIN games g ON g.id = s.game
                 LEFT JOIN events e ON e.id = g.event
                 LEFT JOIN players pb ON pb.id = g.black
                 LEFT JOIN players pw ON pw.id = g.white
                 WHERE 1{clause}
                 ORDER BY f.path, s.idx"
            ))
            .map_err(super::Error::from)?;
        let mut rows = stmt.query(params_from_iter(args)).map_err(super::Error::from)?;
        while let Some(r) = rows.next().map_err(super::Error::from)? {
            let row = occurrence_row(r)?;
            each(&row)?;
        }
        Ok(())
    }

    /// Calls `each` with the moves of every game `filter` keeps, by id, reading one game at a
    /// time.
    ///
    /// # Errors
    ///
    /// Any database failure, [`super::Corrupt`] when a game's blobs do not decode, or the first
    /// error `each` returns.
    pub fn for_each_game<E: From<super::Error>>(
        &self,
        filter: &GameFilter,
        mut each: impl FnMut(GameMoves) -> Result<(), E>,
    ) -> Result<(), E> {
        let (clause, args) = filter_clause(filter);
        let sql = format!(
            "SELECT g.id, g.start, g.moves, g.times, g.comments FROM games g WHERE 1{clause} ORDER BY g.id"
        );
        let mut stmt = self.tx.prepare(&sql).map_err(super::Error::from)?;
        let mut rows = stmt.query(params_from_iter(args)).map_err(super::Error::from)?;
        while let Some(r) = rows.next().map_err(super::Error::from)? {
            let game = (|| -> Result<GameMoves> {
                let start: Option<String> = r.get(1)?;
                let times: Option<Vec<u8>> = r.get(3)?;
                let comments: Option<Vec<u8>> = r.get(4)?;
                Ok(GameMoves {
                    id: r.get(0)?,
                    start: start_setup(start.as_deref())?,
                    moves: decode_moves(r.get_ref(2)?.as_blob()?)?,
                    times: times.as_deref().map(decode_times).transpose()?.unwrap_or_default(),
                    comments: comments.as_deref().map(decode_comments).transpose()?.unwrap_or_default(),
                })
            })()?;
            each(game)?;
        }
        Ok(())
    }

    /// The stored start (`None` for the even game) and move blob of game `id`, if it exists.
    pub(super) fn start_and_moves(&self, id: GameId) -> Result<Option<(Option<String>, Vec<u8>)>> {
        let mut stmt = self.tx.prepare_cached("SELECT start, moves FROM games WHERE id = ?1")?;
        Ok(stmt.query_row([id], |r| Ok((r.get(0)?, r.get(1)?))).optional()?)
    }

    /// Whether the game `id` starts from `start` and its first moves are `moves`.
    ///
    /// # Errors
    ///
    /// Any database failure, or [`super::Corrupt`] when its blobs do not decode.
    pub fn plays_sequence(&self, id: GameId, start: &Setup, moves: &[Move]) -> Result<bool> {
        let Some((stored_start, blob)) = self.start_and_moves(id)? else {
            return Ok(false);
        };
        if 2 * moves.len() > blob.len()
            || start_setup(stored_start.as_deref())?.position_text() != start.position_text()
        {
            return Ok(false);
        }
        Ok(decode_moves(&blob[..2 * moves.len()])? == moves)
    }

    /// Calls `each` for every reject, in path order.
    ///
    /// # Errors
    ///
    /// Any database failure, or the first error `each` returns.
    pub fn for_each_reject<E: From<super::Error>>(
        &self,
        each: impl FnMut(&RejectRow) -> Result<(), E>,
    ) -> Result<(), E> {
        self.for_each_note("rejects", each)
    }

    /// Calls `each` for every warning, in path order, then game order. A database
    /// from before warnings were kept has none.
    ///
    /// # Errors
    ///
    /// Any database failure, or the first error `each` returns.
    pub fn for_each_warning<E: From<super::Error>>(
        &self,
        each: impl FnMut(&WarningRow) -> Result<(), E>,
    ) -> Result<(), E> {
        let kept: bool = self
            .tx
            .query_row("SELECT EXISTS(SELECT 1 FROM sqlite_schema WHERE name = 'warnings')", [], |r| r.get(0))
            .map_err(super::Error::from)?;
        if !kept {
            return Ok(());
        }
        self.for_each_note("warnings", each)
    }

    /// The rows of `table` (`rejects` or `warnings`, which share their columns) in path order.
    fn for_each_note<E: From<super::Error>>(
        &self,
        table: &str,
        mut each: impl FnMut(&RejectRow) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut stmt = self
            .tx
            .prepare(&format!(
                "SELECT path, game_index, line, ply, code, message FROM {table}
                 ORDER BY path, game_index IS NOT NULL, game_index, id"
            ))
            .map_err(super::Error::from)?;
        let mut rows = stmt.query([]).map_err(super::Error::from)?;
        while let Some(r) = rows.next().map_err(super::Error::from)? {
            let row = RejectRow {
                path: r.get(0).map_err(super::Error::from)?,
                game_index: r.get(1).map_err(super::Error::from)?,
                line: r.get(2).map_err(super::Error::from)?,
                ply: r.get(3).map_err(super::Error::from)?,
                code: r.get(4).map_err(super::Error::from)?,
                message: r.get(5).map_err(super::Error::from)?,
            };
            each(&row)?;
        }
        Ok(())
    }
}

fn occurrence_row(r: &Row<'_>) -> Result<OccurrenceRow> {
    let game: GameId = r.get(0)?;
    let handicap: Option<String> = r.get(9)?;
    let start: Option<String> = r.get(10)?;
    let earlier: bool = r.get(16)?;
    Ok(OccurrenceRow {
        game,
        path: r.get(1)?,
        index: r.get(2)?,
        format: r.get(3)?,
        encoding: r.get(4)?,
        event: r.get(5)?,
        date: r.get(6)?,
        black: r.get(7)?,
        white: r.get(8)?,
        handicap: handicap.as_deref().and_then(Handicap::from_name),
        start_sfen: start.unwrap_or_else(|| Handicap::Even.sfen()),
        plies: r.get(11)?,
        end_sfen: r.get(12)?,
        result: r.get(13)?,
        termination: r.get(14)?,
        status: r.get(15)?,
        duplicate_of: earlier.then_some(game),
    })
}
