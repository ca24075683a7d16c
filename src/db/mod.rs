//! The database: the schema, its migrations, and every SQL statement kifudex runs.
//!
//! Nothing outside this module writes SQL. Ingest writes through a [`Writer`] (one per
//! process, owned by one thread); queries and exports read through a [`Reader`].
//!
//! # Layout
//!
//! The schema is in `migrations/`. Games are stored once, however many files hold them, as
//! their start, moves (a blob of [`Move::code`]s) and result; `sources` links each file and
//! index to its game and holds that file's own record of it (players, event, dates, every
//! raw header, times and comments), so copies of one game keep their own headers. Filters
//! match a game through any of its records ([`GameFilter`]).
//! The position index holds a *posting* (key, game, ply, move played, result) for every
//! position of every main line, in immutable sorted *runs* of compressed blocks
//! ([`codec`]): a lookup reads one block per run (a few for the commonest positions), and
//! the move and result in the posting answer a next-move tree without touching the games.
//! Deleted games become tombstones (`dead`) until their runs are merged.
//!
//! # Exactness
//!
//! Keys are 64-bit hashes, so two positions can share one. Every occurrence at a ply up to
//! [`KEYPOS_MAX_PLY`] is compared, when indexed, with the exact position stored for its key
//! (`keypos`); an occurrence that differs is listed in `collisions`. A reader trusts the
//! early occurrences of a key whose stored position is the one asked for, and replays the
//! others ([`Snapshot::exact_occurrences`]), so a collision never puts a game in an answer.
//!
//! # Crash safety
//!
//! Every change is a transaction that leaves the database consistent: a file's games, its
//! `files` row and its rejects are committed together. Postings are buffered and written as
//! a run every few million positions; `meta.indexed_through` says up to which game id they
//! are, and opening a writer rebuilds the postings of any later game from its moves.
//!
//! # Connections
//!
//! WAL journal, `synchronous=NORMAL`, a 64 MiB page cache (16 MiB for the writer, whose
//! other memory is its postings buffer) and a busy timeout are set at open; readers can
//! query while a writer writes.

mod buffer;
mod cache;
pub mod codec;
mod filter;
mod migrate;
mod new_game;
mod newest;
mod read;
mod runs;
mod tree;
mod write;

use std::{fmt, path::Path};

use rusqlite::{
    Connection, OpenFlags,
    types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef},
};

pub use self::{
    codec::Posting,
    migrate::VERSION,
    read::{
        FileState, GameFilter, GameMoves, GameRow, OccurrenceRow, Reader, RejectRow, Snapshot, StoredGame,
    },
    tree::{MoveStats, Occurrence, PositionStats},
    write::{FileRecord, NewGame, NewReject, PlayerName, RUN_POSTINGS, WriteCounts, Writer},
};
#[cfg(doc)]
use crate::shogi::Move;

/// Occurrences up to this ply are checked against `keypos` when indexed (also stored in the
/// `meta` table as `keypos_max_ply`).
pub const KEYPOS_MAX_PLY: u32 = 16;

/// The page size of new databases.
const PAGE_SIZE: usize = 16_384;

/// Data in the database that does not decode: a damaged file or a bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("corrupt data in the database: {0}")]
pub struct Corrupt(pub &'static str);

/// A database failure. Every one is fatal to the command that meets it.
///
/// Each message holds the SQLite error it comes from, which is therefore not also its
/// [`source`](std::error::Error::source) (see the crate's policy on errors).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("no database at {0} (run `kifudex index` first, or give --db)")]
    Missing(std::path::PathBuf),
    #[error("{}", open_message(path, error))]
    Open { path: std::path::PathBuf, error: rusqlite::Error },
    #[error("the database has schema version {found}, newer than this kifudex knows ({known})")]
    TooNew { found: i64, known: i64 },
    #[error("database migration {name} failed: {error}")]
    Migration { name: &'static str, error: rusqlite::Error },
    #[error("{0}")]
    Sql(rusqlite::Error),
    #[error(transparent)]
    Corrupt(#[from] Corrupt),
    #[error("unexpected value in the database: {0}")]
    Value(FromSqlError),
}

/// The message of [`Error::Open`], naming the path once (SQLite's own message may end with it).
fn open_message(path: &Path, error: &rusqlite::Error) -> String {
    let path = path.display().to_string();
    let error = error.to_string();
    let error = error.strip_suffix(&format!(": {path}")).unwrap_or(&error);
    format!("cannot open the database {path}: {error}")
}

impl From<rusqlite::Error> for Error {
    fn from(e: rusqlite::Error) -> Error {
        Error::Sql(e)
    }
}

impl From<FromSqlError> for Error {
    fn from(e: FromSqlError) -> Error {
        Error::Value(e)
    }
}

/// A database result.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A stored game's id. Ids follow the order games were first indexed in (sorted paths, then
/// the index in the file) and are never reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameId(pub i64);

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl ToSql for GameId {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.0))
    }
}

impl FromSql for GameId {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<GameId> {
        i64::column_result(value).map(GameId)
    }
}

/// A game's result, as stored in games and postings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum GameResult {
    #[default]
    Unknown = 0,
    BlackWin = 1,
    WhiteWin = 2,
    Draw = 3,
}

impl GameResult {
    /// The result with this stored code (only the low two bits count).
    pub const fn from_code(code: u8) -> GameResult {
        match code & 3 {
            1 => GameResult::BlackWin,
            2 => GameResult::WhiteWin,
            3 => GameResult::Draw,
            _ => GameResult::Unknown,
        }
    }

    /// The stored code.
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The name used in exports and filters: `black`, `white`, `draw`, or `unknown`.
    pub const fn name(self) -> &'static str {
        match self {
            GameResult::Unknown => "unknown",
            GameResult::BlackWin => "black",
            GameResult::WhiteWin => "white",
            GameResult::Draw => "draw",
        }
    }
}

impl ToSql for GameResult {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(i64::from(self.code())))
    }
}

impl FromSql for GameResult {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<GameResult> {
        match i64::column_result(value)? {
            v @ 0..=3 => Ok(GameResult::from_code(v as u8)),
            v => Err(FromSqlError::OutOfRange(v)),
        }
    }
}

/// Opens (creating it when `create`) a connection with the settings every connection uses,
/// then brings the schema up to date.
fn open(path: &Path, create: bool) -> Result<Connection> {
    if !create && !path.exists() {
        return Err(Error::Missing(path.to_path_buf()));
    }
    let open_error = |error| Error::Open { path: path.to_path_buf(), error };
    let mut flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    if create {
        flags |= OpenFlags::SQLITE_OPEN_CREATE;
    }
    let mut conn = Connection::open_with_flags(path, flags).map_err(open_error)?;
    conn.busy_timeout(std::time::Duration::from_secs(10)).map_err(open_error)?;
    // The page size and auto_vacuum must be chosen before the first table exists (and the
    // page size before WAL mode is on, so a file left by a run killed before its schema keeps
    // SQLite's default); setting them later would take the write lock for nothing, and block
    // while a writer works.
    let empty: bool = conn
        .query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get::<_, i64>(0))
        .map_err(open_error)?
        == 0;
    if create && empty {
        conn.execute_batch(&format!("PRAGMA page_size = {PAGE_SIZE}; PRAGMA auto_vacuum = INCREMENTAL"))
            .map_err(open_error)?;
    }
    let settings = "PRAGMA journal_mode = WAL;
                    PRAGMA synchronous = NORMAL;
                    PRAGMA cache_size = -65536;
                    PRAGMA foreign_keys = OFF;";
    conn.execute_batch(settings).map_err(open_error)?;
    migrate::migrate(&mut conn)?;
    Ok(conn)
}
