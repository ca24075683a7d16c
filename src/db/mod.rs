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
//! The position index ([`index`]) holds a *posting* (key, game, ply, move played, result)
//! for every position of every main line, in immutable sorted *runs* of compressed blocks:
//! a lookup reads one block per run (a few for the commonest positions), and the move and
//! result in the posting answer a next-move tree without touching the games. Deleted games
//! become tombstones (`dead`) until their runs are merged. Keys are 64-bit hashes; the
//! index makes its answers exact (see [`index`]), so a collision never puts a game in an
//! answer.
//!
//! # Why the position index is not a table
//!
//! A plain table of postings, clustered on (key, game, ply) as a `WITHOUT ROWID` table, is
//! the obvious design, and the one measured against the blocks: it takes 21 to 23 bytes a
//! posting, where the blocks take 11.7 (keys and games are stored as small deltas, the ply
//! and result share a byte or two, and there is no per-row overhead). Positions are most of
//! a database, so on real games that is about 2,350 bytes a game against about 3,300, and
//! fewer pages to read per lookup. The cost: positions are not visible to plain SQL. That
//! is what the Parquet export of positions is for (`kifudex export positions`).
//!
//! # Crash safety
//!
//! Every change is a transaction that leaves the database consistent: a file's games, its
//! `files` row, its rejects and the postings of its games are committed together (the
//! writer writes its buffered postings as a run before each commit). So at every moment,
//! for a reader while a run writes as after a run is killed, position answers cover exactly
//! the stored games. A run killed at any moment leaves what it committed; the next run goes
//! on from there. (`meta.indexed_through` says up to which game id postings are written: an
//! older kifudex committed games before their postings, and opening a writer rebuilds the
//! postings of any later game; [`Snapshot::unindexed_games`] counts them until then.)
//!
//! # Connections
//!
//! Readers ([`Reader`]) open the database read-only: they never create, migrate or change a
//! file. A kifudex database carries the SQLite application id [`APPLICATION_ID`] (files of
//! schema versions before it are recognised by their `meta` table); a file's header is read
//! before SQLite opens it, so a file that is not one (not SQLite, empty, another program's)
//! is refused without being touched. Readers read schema versions [`READABLE_FROM`] to
//! [`VERSION`] as they are; only the writer migrates. [`Writer::open`] takes an empty file
//! (0 bytes, or SQLite with no schema) as a new database and refuses any other that is not
//! kifudex's.
//!
//! One writer at a time: [`Writer::open`] takes an exclusive advisory lock (`flock`) on
//! `DB.lock` beside the database, without waiting, and a second writer is refused. Not on
//! the database file, where SQLite holds POSIX record locks that closing another descriptor
//! of the file would drop. The kernel drops the lock of a killed process; a run that ends
//! removes the file.
//!
//! Journal mode: a run writes in WAL mode, so that readers query while it writes, and puts
//! the file back in rollback-journal mode when it ends (also when it is interrupted or
//! fails), so that reading needs nothing but the file: read-only files, read-only
//! directories and other users' databases read as any other. In rollback mode a reader's
//! transaction holds off the switch to WAL mode, so a run waits for readers to finish before
//! it starts (a minute at most); the switch back needs every other connection closed (if
//! one is open as the run ends, the file stays in WAL mode until the next run). The
//! switches journal in memory, so a run killed during one leaves no hot journal that only a
//! writer could roll back. A file is in WAL mode at rest only after a run was killed, or
//! when an older kifudex wrote it; a reader then needs the `-shm` file beside it (a killed run
//! leaves it) or the right to create it, and where it has neither, it says so and that an
//! index run mends the file.
//!
//! `synchronous=NORMAL`, a page cache (8 MiB for readers, 128 MiB for the writer, whose other
//! memory is its postings buffer) and a busy timeout are set at open.

pub mod codec;
mod filter;
pub mod index;
mod lock;
mod migrate;
mod names;
mod new_game;
mod newest;
mod open;
mod paths;
pub mod play;
mod read;
mod records;
mod shard;
mod signature;
mod stats;
mod write;

use crate::text::path_text;
use std::{
    fmt,
    path::{Path, PathBuf},
};

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

pub(crate) use self::open::gone;
pub use self::{
    index::{
        GamePositions, HOT_GAMES, KEYPOS_MAX_PLY, LISTED, MoveStats, Occurrence, PositionStats, Posting,
        RUN_POSTINGS, first_plies,
    },
    lock::{ends_with_slash, file_in_the_way},
    migrate::{READABLE_FROM, VERSION},
    names::{Alias, AliasError, contradicting_alias, two_names},
    open::{APPLICATION_ID, OnDisk, SIDE_FILES, START_WAIT, StartWait},
    paths::is_under,
    read::{
        FileState, GameFilter, GameMoves, GameRow, NO_GAME_WARNING, OccurrenceRow, Reader, RecordInfo,
        RecordStop, RejectRow, Snapshot, StoredGame, UnfinishedRun, WarningRow, comments_at, ending_ply,
        unindexed_warning,
    },
    records::{Identities, RecordDetails, RecordFacts},
    stats::Stats,
    write::{
        Batch, FileRecord, Finished, NewGame, NewReject, NewWarning, PlayerName, RunScope, WriteCounts,
        Writer,
    },
};
use crate::shard::Shard;
#[cfg(doc)]
use crate::shogi::Move;

/// The page size of new databases.
const PAGE_SIZE: usize = 16_384;

/// Data in the database that does not decode: a damaged file or a bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("corrupt data in the database: {0}")]
pub struct Corrupt(pub &'static str);

/// A database failure. Every one is fatal to the command that meets it.
///
/// The messages say what is wrong in the library's terms; a program that knows its own
/// options adds how to mend it (the command names `kifudex index` and `--db`).
///
/// Each message holds the SQLite error it comes from, which is therefore not also its
/// [`source`](std::error::Error::source) (see the crate's policy on errors).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("no database at {}", path_text(&.0))]
    Missing(PathBuf),
    #[error("not a kifudex database: {}", path_text(&.0))]
    NotKifudex(PathBuf),
    /// An SQLite file that holds no table: an index run makes a database of it. A first run
    /// holds one until its first commit, and leaves one if it is killed before.
    #[error(
        "no kifudex database in {} yet: it is empty (as a first index run leaves it until its first \
         commit, and after, if it stops before)",
        path_text(&.0)
    )]
    Empty(PathBuf),
    #[error("{} is a directory, not a database file", path_text(&.0))]
    Directory(PathBuf),
    #[error("cannot create the database {}: there is no directory {}", path_text(path), path_text(dir))]
    NoDirectory { path: PathBuf, dir: PathBuf },
    /// A path that ends with a slash, and so names a directory, where no directory is.
    #[error(
        "cannot create the database {}: a path that ends with / names a directory, and there is none: \
         give the database file's path",
        path_text(&.0)
    )]
    SlashName(PathBuf),
    #[error("cannot create the database {}: {} is not a directory", path_text(path), path_text(file))]
    NotUnderDirectory { path: PathBuf, file: PathBuf },
    #[error("cannot read {}: {error}", path_text(path))]
    File { path: PathBuf, error: std::io::Error },
    #[error("{}", open_message(path, error))]
    Open { path: PathBuf, error: rusqlite::Error },
    /// The database could not be opened, and a file SQLite keeps beside it (its log, the log's
    /// index or its journal) is a symbolic link, which SQLite will not write through.
    #[error(
        "cannot open the database {}: {} is a symbolic link, and SQLite opens no side file of a \
         database (its log, the log's index, its journal) through a link: remove the link, once no \
         other program uses it",
        path_text(path),
        path_text(side)
    )]
    SideLink { path: PathBuf, side: PathBuf },
    #[error(
        "the database {} was written by a newer kifudex (schema version {found}; this one knows up to \
         {known}): use that version",
        path_text(path)
    )]
    TooNew { path: PathBuf, found: i64, known: i64 },
    #[error(
        "the database {} was written by an older kifudex (schema version {found}): opening it for \
         writing once brings it up to date",
        path_text(path)
    )]
    TooOld { path: PathBuf, found: i64 },
    #[error("another kifudex index run is writing {}", path_text(&.0))]
    Busy(PathBuf),
    /// A run that is writing, by its mark in the database, though its lock file was removed
    /// (taken for one a killed run left, say).
    #[error(
        "an index run (process {pid}) is writing {}, though its lock file {} was removed: one run \
         writes at a time; wait for it to end, or stop it, and run again",
        path_text(db),
        path_text(lock)
    )]
    Unlocked { db: PathBuf, lock: PathBuf, pid: u32 },
    #[error(
        "cannot write the database {}: cannot make its lock file {}: {error}",
        path_text(db),
        path_text(path)
    )]
    Lock { db: PathBuf, path: PathBuf, error: std::io::Error },
    #[error(
        "cannot write the database {}: the file has {links} names (hard links), and runs that name it \
         differently would each write it as their own and could corrupt it; remove the other links, \
         or index into a copy",
        path_text(path)
    )]
    Linked { path: PathBuf, links: u64 },
    #[error("cannot write the database {}: the file is read-only", path_text(&.0))]
    ReadOnly(PathBuf),
    #[error(
        "the database {} is in use: other programs kept it busy (reading or writing it: another tool, or a \
         kifudex export, query or show whose output is still being read) for {seconds} s; run again when they \
         are done",
        path_text(path)
    )]
    InUse { path: PathBuf, seconds: u64 },
    /// A file in WAL mode that cannot be read here; `ours` when its header says it is a
    /// kifudex database (a file whose header does not may be another program's, in WAL mode
    /// of its own).
    #[error(
        "{}",
        if *ours {
            format!(
                "cannot read {} here: it is in WAL mode (an index run was killed while writing it, or \
                 ended while other programs had it open, or an older kifudex wrote it), and reading it \
                 needs the right to write its directory; opening it for writing, as a user who may write \
                 there, makes it readable anywhere ({error})",
                path_text(path)
            )
        } else {
            format!(
                "cannot tell whether {} is a kifudex database: its header does not say so, and what \
                 its write-ahead log holds can be read only with the right to write its directory \
                 ({error})",
                path_text(path)
            )
        }
    )]
    WalUnreadable { path: PathBuf, error: rusqlite::Error, ours: bool },
    /// A file whose header does not say it is kifudex's, beside a log that holds pages and no
    /// shared memory file: reading the log would make that file, beside another program's file.
    #[error(
        "cannot tell whether {} is a kifudex database: its header does not say so, and its write-ahead \
         log (-wal), which may, can be read only by making a shared-memory file (-shm) beside it, which \
         kifudex does not do to a file that may be another program's; the program that wrote it reads it",
        path_text(&.0)
    )]
    UnreadLog(PathBuf),
    /// A file whose header says it is not in WAL mode, beside a log that holds pages: SQLite
    /// would read the pages over the file's own, and no run leaves a file so (the header says
    /// WAL mode before a log is made, and says it no more only after the log is removed).
    #[error(
        "cannot read {}: the write-ahead log beside it, {}, is not its own (the file's header says it \
         was not being written in WAL mode): it was left by the database that was at this path before \
         this one was put in its place, and reading it with that log would mix the two; move the log \
         away (with the -shm file beside it), and keep it with the database it belongs to",
        path_text(path),
        path_text(log)
    )]
    StrayLog { path: PathBuf, log: PathBuf },
    #[error(
        "cannot read {}: a program stopped while writing it, and left the change it had begun in {}; \
         the change must be undone before the file can be read, which reading does not do: an index run \
         on it, by a user who may write the file and its directory, undoes it",
        path_text(path),
        path_text(journal)
    )]
    HotJournal { path: PathBuf, journal: PathBuf },
    #[error("database migration {name} failed: {}", without_sql(.error))]
    Migration { name: &'static str, error: rusqlite::Error },
    #[error("interrupted")]
    Interrupted,
    #[error("cannot start a thread: {0}")]
    Thread(std::io::Error),
    #[error("{0}")]
    Sql(rusqlite::Error),
    #[error(transparent)]
    Corrupt(#[from] Corrupt),
    #[error("unexpected value in the database: {0}")]
    Value(FromSqlError),
    /// The database holds another share of the files than the run asks for (see
    /// [`Shard`]).
    #[error("{}", shard::mismatch(*.recorded, *.asked))]
    Shard { recorded: Option<Shard>, asked: Option<Shard> },
}

/// The message of [`Error::Open`], naming the path once (SQLite's own message may end with it).
fn open_message(path: &Path, error: &rusqlite::Error) -> String {
    let path = path_text(path);
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

impl Error {
    /// The message in the words of the kifudex commands, where an index run mends what is
    /// reported (an empty file, an older schema, a file in WAL mode only a writer can open):
    /// it names the command to run, with the options that name the file. `None` where the
    /// error's own message says all.
    pub fn advice(&self) -> Option<String> {
        Some(match self {
            Error::Empty(_) => format!("{self}: run `kifudex index` to fill it"),
            Error::TooOld { path, found } => format!(
                "the database {path} was written by an older kifudex (schema version {found}): run `kifudex \
                 index` on it once (any PATH, --db {path}) to bring it up to date",
                path = path_text(path)
            ),
            Error::WalUnreadable { path, error, ours: true } => format!(
                "cannot read {path} here: it is in WAL mode (an index run was killed while writing it, or \
                 ended while other programs had it open, or an older kifudex wrote it), and reading it needs \
                 the right to write its directory; an index run on it (any PATH, --db {path}) by a user who \
                 may write there makes it readable anywhere ({error})",
                path = path_text(path)
            ),
            _ => return None,
        })
    }

    /// Whether SQLite stopped because the disk was full (the database's, or that of the
    /// temporary files it sorts in). The transaction under way is rolled back whole: what was
    /// committed before stays, and the database is consistent.
    pub fn is_disk_full(&self) -> bool {
        let sql = match self {
            Error::Sql(e) | Error::Migration { error: e, .. } | Error::Open { error: e, .. } => e,
            _ => return false,
        };
        sql.sqlite_error_code() == Some(rusqlite::ErrorCode::DiskFull)
    }

    /// Whether SQLite stopped on a failed read or write of a file, or on a file it could not
    /// create or open: what a full file system also causes (see [`Error::is_disk_full`]).
    pub fn is_io(&self) -> bool {
        let sql = match self {
            Error::Sql(e) | Error::Migration { error: e, .. } | Error::Open { error: e, .. } => e,
            _ => return false,
        };
        matches!(
            sql.sqlite_error_code(),
            Some(rusqlite::ErrorCode::SystemIoFailure | rusqlite::ErrorCode::CannotOpen)
        )
    }

    /// Whether the message names the database file (so that a caller need not add it).
    pub fn names_database(&self) -> bool {
        matches!(
            self,
            Error::Missing(_)
                | Error::NotKifudex(_)
                | Error::Empty(_)
                | Error::Directory(_)
                | Error::NoDirectory { .. }
                | Error::SlashName(_)
                | Error::NotUnderDirectory { .. }
                | Error::File { .. }
                | Error::Open { .. }
                | Error::SideLink { .. }
                | Error::TooNew { .. }
                | Error::TooOld { .. }
                | Error::Busy(_)
                | Error::Unlocked { .. }
                | Error::Lock { .. }
                | Error::ReadOnly(_)
                | Error::InUse { .. }
                | Error::WalUnreadable { .. }
                | Error::UnreadLog(_)
                | Error::StrayLog { .. }
                | Error::HotJournal { .. }
        )
    }
}

/// A database result.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A stored game's id. Ids follow the order games were first indexed in (sorted paths, then
/// the index in the file) and are never reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GameId(pub i64);

/// A map keyed by game ids, hashed by [`IdHasher`].
pub(crate) type IdMap<V> = std::collections::HashMap<GameId, V, std::hash::BuildHasherDefault<IdHasher>>;

/// Hashes game ids with one multiplication: ids are small, nearly consecutive integers from
/// the database, not chosen to collide, so the default hasher's defence against crafted keys
/// buys nothing, and the writer looks games up in such maps millions of times a run (the
/// lists of the newest games of hot positions). The product's top bits, which a table's probe
/// tags come from, depend on every bit of the id.
#[derive(Default)]
pub(crate) struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0 ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_i64(&mut self, v: i64) {
        self.write_u64(v as u64);
    }
}

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

/// SQLite's message for `error`, without the text of the statement that failed (which a
/// failed migration would otherwise print whole).
fn without_sql(error: &rusqlite::Error) -> String {
    match error {
        rusqlite::Error::SqlInputError { msg, .. } => msg.clone(),
        e => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::Error;

    #[test]
    fn a_full_disk_is_told_from_other_failures() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE t(x BLOB UNIQUE); PRAGMA max_page_count = 8;").unwrap();
        // SQLite refuses the pages past the limit as it refuses them on a full disk.
        let full = (0..100)
            .map(|i| conn.execute("INSERT INTO t VALUES (?1)", [vec![i as u8; 4096]]))
            .find_map(Result::err)
            .expect("a page limit stops the inserts");
        assert!(Error::from(full).is_disk_full());
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE u(x UNIQUE); INSERT INTO u VALUES (1);").unwrap();
        let other = conn.execute("INSERT INTO u VALUES (1)", []).unwrap_err();
        assert!(!Error::from(other).is_disk_full());
        assert!(!Error::Interrupted.is_disk_full());
    }
}
