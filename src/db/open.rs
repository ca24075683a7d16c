//! Opening a database file: recognising a kifudex database, the readers' read-only
//! connections, the writer's connection, and the journal mode a file rests in.
//!
//! # Recognising a database
//!
//! A kifudex database is a SQLite file whose header carries kifudex's application id
//! ([`APPLICATION_ID`], written by a migration), or, for files made before that id existed,
//! an earlier schema version and kifudex's `meta` table. The first 100 bytes are read with a
//! plain file read before SQLite opens anything, so a file that is not SQLite, an empty file,
//! and a SQLite file with another application id or with neither id nor schema version are
//! refused without SQLite ever opening them. Only a file that may be kifudex's is opened,
//! read-only, to read its schema.
//!
//! Readers refuse everything but a kifudex database of a schema version they read
//! ([`migrate::READABLE_FROM`] to [`migrate::VERSION`]). The writer also takes an empty file
//! (0 bytes, or a SQLite file with no schema at all) as a new database, and refuses any other
//! file that is not kifudex's: it never adds tables to someone else's file.
//!
//! # Journal mode at rest
//!
//! A run writes in WAL mode, so that readers go on reading while it writes, and puts the
//! file back in rollback-journal mode when it ends. Reading a file in rollback mode needs
//! nothing but the file: read-only files and directories and other users' databases read as
//! any other. Reading one in WAL mode needs the `-shm` file beside it, or the right to create
//! it; a file is in WAL mode at rest only when a run was killed, when other programs had it
//! open as the run ended (SQLite leaves WAL mode only when no other connection has the file
//! open), when a run failed with its log still holding pages (a full disk, say: they are
//! the run's committed batches), or when an older kifudex wrote it.
//! Where such a file cannot be read, the reader says so and how to mend it.
//!
//! A run that fails where SQLite cannot leave WAL mode itself (no room for the `-shm` file,
//! or for the log, on a full disk or file system) while its log holds nothing, puts the file
//! back in rollback mode by hand ([`mend`]): the file then holds every committed page, and
//! reads as it did before the run.

use std::{
    ffi::OsString,
    fs,
    io::Read,
    path::{Path, PathBuf},
    sync::atomic::{AtomicBool, Ordering},
    time::{Duration, Instant},
};

use rusqlite::{Connection, ErrorCode, OpenFlags};

use super::{Error, PAGE_SIZE, Result, migrate};

/// The SQLite application id of kifudex databases: "KFDX".
pub const APPLICATION_ID: i64 = 0x4B46_4458;

/// How long a connection waits for a lock another connection holds, in general.
const BUSY_WAIT: Duration = Duration::from_secs(10);
/// How long the writer waits, at the start of a run, for readers to let it switch to WAL
/// mode (in rollback mode a reader's transaction holds off every writer).
pub const START_WAIT: Duration = Duration::from_secs(60);
/// How often, while it waits so, the writer tries again and looks at its stop flag.
const START_POLL: Duration = Duration::from_millis(200);

/// How the writer waits for readers at the start of a run (see [`START_WAIT`]).
#[derive(Clone, Copy, Default)]
pub struct StartWait<'a> {
    /// Once set, the writer waits no longer: opening fails with [`Error::Interrupted`].
    pub stop: Option<&'a AtomicBool>,
    /// Called once, when the writer finds that it has to wait.
    pub waiting: Option<&'a dyn Fn()>,
}

/// What the first bytes of a file say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sniff {
    /// 0 bytes.
    Empty,
    /// Not a SQLite file (or not a regular file).
    Foreign,
    Sqlite {
        application_id: i64,
        user_version: i64,
        wal: bool,
        /// The schema in the file (not counting its log) has no table, index or view: the first
        /// page, which holds it, is a leaf with no cell.
        bare: bool,
    },
}

impl Sniff {
    /// Whether the header carries kifudex's id with a schema version of kifudex's: the
    /// migration that writes the id writes the version in the same transaction.
    fn marked_ours(self) -> bool {
        matches!(self, Sniff::Sqlite { application_id: APPLICATION_ID, user_version, .. }
            if user_version >= migrate::MARKED)
    }
}

/// What a SQLite file holds, as its schema says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// No schema at all.
    Empty,
    /// A kifudex database of this schema version.
    Kifudex(i64),
    Foreign,
}

/// The suffixes of the files SQLite keeps beside a database (its write-ahead log, the log's
/// shared memory, and its rollback journal), added to the database's file name.
pub const SIDE_FILES: [&str; 3] = ["-wal", "-shm", "-journal"];

/// The path with a suffix added to its file name (`-wal`, `.lock`).
pub(super) fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = OsString::from(path.as_os_str());
    name.push(suffix);
    PathBuf::from(name)
}

/// Whether a failed run's file may need [`mend`], given what [`end_run`] gave: unless other
/// connections kept it in WAL mode, SQLite may have left it there without a word (a log it
/// could not open is one it does not leave, and its header still says WAL).
pub(super) fn needs_mending(ended: Result<bool>) -> bool {
    !matches!(ended, Ok(false))
}

/// Puts the database at `path` back in rollback-journal mode after a failed run, when its
/// write-ahead log holds nothing: none is there, or it is empty. Every committed page is then
/// in the file, so the two header bytes that name the journal mode (18 and 19: 2 for WAL, 1
/// for rollback) are all that keep readers from reading it as it is; they are written back,
/// in place (no room is needed), and the empty log is removed, since SQLite reads a file
/// beside which a log exists in WAL mode whatever its header says. A log with pages is left
/// alone: the pages may be committed batches, which SQLite reads back from it.
///
/// Called by the writer, holding the lock, with its connection closed; what cannot be done
/// is left undone (the next run mends the file as it opens it).
pub(super) fn mend(path: &Path) {
    use std::os::unix::fs::FileExt;
    let wal = with_suffix(path, "-wal");
    let empty_log = match fs::symlink_metadata(&wal) {
        Ok(meta) if meta.is_file() && meta.len() == 0 => true,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => false,
        _ => return,
    };
    let Ok(file) = fs::OpenOptions::new().read(true).write(true).open(path) else { return };
    let mut header = [0u8; 20];
    if file.read_exact_at(&mut header, 0).is_err() || !header.starts_with(b"SQLite format 3\0") {
        return;
    }
    if header[18..20] == [2, 2] && (file.write_all_at(&[1, 1], 18).is_err() || file.sync_data().is_err()) {
        return;
    }
    if empty_log {
        let _ = fs::remove_file(&wal);
    }
}

/// Whether nothing is at `path`: not a file that cannot be looked at (in a directory this
/// user may not enter, say), which is there all the same.
pub(crate) fn gone(path: &Path) -> bool {
    fs::metadata(path).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound)
}

/// Reads the SQLite header of the file at `path`, without SQLite.
fn sniff(path: &Path) -> Result<Sniff> {
    let file_error = |error| Error::File { path: path.to_path_buf(), error };
    let meta = match fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(Error::Missing(path.to_path_buf())),
        Err(e) => return Err(file_error(e)),
    };
    if meta.is_dir() {
        return Err(Error::Directory(path.to_path_buf()));
    }
    if !meta.is_file() {
        // A device or a pipe: reading one could block, and none is a database.
        return Ok(Sniff::Foreign);
    }
    // Read even when its size is 0: a file of /proc says so, and holds text all the same.
    let mut head = Vec::with_capacity(HEAD);
    match fs::File::open(path).and_then(|f| f.take(HEAD as u64).read_to_end(&mut head)) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(Error::Missing(path.to_path_buf())),
        read => read.map_err(file_error)?,
    };
    if head.is_empty() {
        return Ok(Sniff::Empty);
    }
    if head.len() < HEAD || !head.starts_with(b"SQLite format 3\0") {
        return Ok(Sniff::Foreign);
    }
    let wal = head[18] == 2 || head[19] == 2;
    if !wal && let Some(log) = stray_log(path) {
        return Err(Error::StrayLog { path: path.to_path_buf(), log });
    }
    // The first page's b-tree header follows the file's: its type, then its cell count at 3.
    const LEAF_TABLE: u8 = 0x0d;
    let word =
        |at: usize| i64::from(i32::from_be_bytes([head[at], head[at + 1], head[at + 2], head[at + 3]]));
    Ok(Sniff::Sqlite {
        application_id: word(68),
        user_version: word(60),
        wal,
        bare: head[100] == LEAF_TABLE && head[103..105] == [0, 0],
    })
}

/// The log beside the file at `path` (where SQLite keeps it: beside the file a link leads
/// to), when it holds pages and is not the file's own, the file's header having just said it is
/// not in WAL mode. A run says WAL mode in the header before it makes a log, and says it no
/// more only after the log is removed, so a log seen before and after the header said so, and
/// unchanged in between, is another file's: a killed run's, beside a copy put in its place.
/// A log that changes is left to SQLite: a run is writing it.
fn stray_log(path: &Path) -> Option<PathBuf> {
    use std::os::unix::fs::MetadataExt;
    /// The size of a log's own header: a longer log holds pages.
    const LOG_HEADER: u64 = 32;
    let real = fs::canonicalize(path).ok()?;
    let log = with_suffix(&real, "-wal");
    let state = || {
        fs::symlink_metadata(&log)
            .ok()
            .filter(|m| m.is_file() && m.len() > LOG_HEADER)
            .map(|m| (m.dev(), m.ino(), m.len(), m.mtime(), m.mtime_nsec(), m.ctime(), m.ctime_nsec()))
    };
    let before = state()?;
    let mut head = [0u8; 20];
    let read = fs::File::open(&real).and_then(|f| f.take(20).read_exact(&mut head));
    let rollback = read.is_ok() && head.starts_with(b"SQLite format 3\0") && head[18..20] == [1, 1];
    (rollback && state() == Some(before)).then_some(log)
}

/// The bytes [`sniff`] reads: the file's header (100) and the first page's b-tree header.
const HEAD: usize = 108;

/// Whether the header shows a file that holds nothing yet: no byte, or a SQLite file with no
/// id, no schema version and no schema, whose log holds nothing (an `index` run makes a
/// database of it; a first run killed before its first commit leaves one).
fn empty_by_header(path: &Path, sniff: Sniff) -> bool {
    match sniff {
        Sniff::Empty => true,
        Sniff::Foreign => false,
        Sniff::Sqlite { application_id, user_version, bare, .. } => {
            application_id == 0
                && user_version == 0
                && bare
                && !fs::metadata(with_suffix(path, "-wal")).is_ok_and(|m| m.len() > 0)
        }
    }
}

/// Whether the header alone shows that the file is not a kifudex database. A header with
/// neither id nor schema version counts only when no write-ahead log beside the file holds
/// changes its main file lacks yet; for the writer (`empty_ok`) it does not count, since
/// such a file may be an empty database.
fn foreign_by_header(path: &Path, sniff: Sniff, empty_ok: bool) -> bool {
    match sniff {
        Sniff::Empty => !empty_ok,
        Sniff::Foreign => true,
        Sniff::Sqlite { application_id, user_version, .. } => {
            let unversioned = user_version == 0
                && !empty_ok
                && !fs::metadata(with_suffix(path, "-wal")).is_ok_and(|m| m.len() > 0);
            application_id != APPLICATION_ID
                && (application_id != 0 || unversioned || user_version >= migrate::MARKED)
        }
    }
}

/// What the schema of the database on `conn` says it is.
fn kind(conn: &Connection) -> rusqlite::Result<Kind> {
    let application_id: i64 = conn.query_row("PRAGMA application_id", [], |r| r.get(0))?;
    let version = migrate::version(conn)?;
    let objects: i64 = conn.query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get(0))?;
    if application_id == APPLICATION_ID {
        // The migration that writes the id writes its schema version in the same transaction,
        // so kifudex's id with an earlier version is on a file another program marked so.
        return Ok(match version {
            v if v >= migrate::MARKED => Kind::Kifudex(version),
            0 if objects == 0 => Kind::Empty,
            _ => Kind::Foreign,
        });
    }
    if application_id != 0 {
        return Ok(Kind::Foreign);
    }
    if objects == 0 && version == 0 {
        return Ok(Kind::Empty);
    }
    // Before the application id: the `meta` table with kifudex's first setting.
    let meta: bool = conn.query_row(
        "SELECT EXISTS(SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'meta')",
        [],
        |r| r.get(0),
    )?;
    let ours = meta
        && (1..migrate::MARKED).contains(&version)
        && conn
            .query_row("SELECT EXISTS(SELECT 1 FROM meta WHERE key = 'keypos_max_ply')", [], |r| r.get(0))?;
    Ok(if ours { Kind::Kifudex(version) } else { Kind::Foreign })
}

/// The error for a failure to read the file at `path` as a database.
fn read_error(path: &Path, wal: bool, ours: bool, error: rusqlite::Error) -> Error {
    match error.sqlite_error_code() {
        Some(ErrorCode::NotADatabase) => Error::NotKifudex(path.to_path_buf()),
        Some(ErrorCode::CannotOpen | ErrorCode::ReadOnly) if wal && linked_side(path).is_none() => {
            Error::WalUnreadable { path: path.to_path_buf(), error, ours }
        }
        _ => open_error(path, error),
    }
}

/// The error for a failure to open the database at `path`: [`Error::SideLink`] when one of
/// its side files is a symbolic link (SQLite refuses to open a log or journal through one, or
/// takes a link to a file for a journal to roll back), else [`Error::Open`].
fn open_error(path: &Path, error: rusqlite::Error) -> Error {
    match linked_side(path) {
        Some(side) => Error::SideLink { path: path.to_path_buf(), side },
        None => Error::Open { path: path.to_path_buf(), error },
    }
}

/// The first of the side files of the database at `path` that is a symbolic link: beside the
/// name given, or beside the file it names through links, where SQLite keeps them.
fn linked_side(path: &Path) -> Option<PathBuf> {
    let real = fs::canonicalize(path).ok();
    [Some(path), real.as_deref()]
        .into_iter()
        .flatten()
        .flat_map(|db| SIDE_FILES.iter().map(move |suffix| with_suffix(db, suffix)))
        .find(|side| fs::symlink_metadata(side).is_ok_and(|m| m.file_type().is_symlink()))
}

/// Opens the kifudex database at `path` read-only: nothing is created, migrated or changed.
///
/// A failure to read files that change while they are opened is tried again, for a while:
/// another process may be removing the database or making it afresh at that path, and the
/// answer is then what is there once it is done (or [`Error::Missing`] while nothing is).
///
/// # Errors
///
/// [`Error::Missing`], [`Error::Directory`], [`Error::NotKifudex`], [`Error::TooNew`],
/// [`Error::TooOld`], [`Error::WalUnreadable`], or another failure to open it.
pub(super) fn open_read(path: &Path) -> Result<Connection> {
    let started = Instant::now();
    loop {
        let before = OnDisk::of(path);
        match open_read_once(path) {
            Err(e) if !is_verdict(&e) && OnDisk::of(path) != before && started.elapsed() < REOPEN_WAIT => {}
            // Gone while it was opened: removed, or being replaced.
            Err(_) if gone(path) => return Err(Error::Missing(path.to_path_buf())),
            opened => return opened,
        }
        std::thread::sleep(REOPEN_POLL);
    }
}

/// How long a reader tries again to open a database whose files change while it opens them
/// (see [`open_read`]), and how often.
const REOPEN_WAIT: Duration = Duration::from_secs(2);
const REOPEN_POLL: Duration = Duration::from_millis(10);

/// What can be seen of a database's files without opening them: for the file and its
/// write-ahead log, the device, inode, size, modification time and status change time (each
/// time in seconds and nanoseconds), or `None` for one that is not there. Removing, replacing
/// or writing either changes it; so does a copy put in the file's place that keeps its size and
/// modification time (`cp -p`, `rsync -a --inplace`), which cannot keep its status change time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OnDisk([Option<[i64; 7]>; 2]);

impl OnDisk {
    /// The files of the database at `path`, now: the log is the one beside the file that
    /// `path` names through links, where SQLite keeps it.
    pub fn of(path: &Path) -> OnDisk {
        use std::os::unix::fs::MetadataExt;
        let real = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        OnDisk([path.to_path_buf(), with_suffix(&real, "-wal")].map(|f| {
            fs::metadata(f).ok().map(|m| {
                [
                    m.dev() as i64,
                    m.ino() as i64,
                    m.size() as i64,
                    m.mtime(),
                    m.mtime_nsec(),
                    m.ctime(),
                    m.ctime_nsec(),
                ]
            })
        }))
    }
}

/// Whether the error is a verdict on the file as it is (none, a directory, not a kifudex
/// database, a schema this build does not read), rather than a failure to read it.
fn is_verdict(e: &Error) -> bool {
    matches!(
        e,
        Error::Missing(_)
            | Error::Directory(_)
            | Error::NotKifudex(_)
            | Error::Empty(_)
            | Error::TooNew { .. }
            | Error::TooOld { .. }
    )
}

/// The flags of a read-only connection.
const READ_ONLY: OpenFlags = OpenFlags::SQLITE_OPEN_READ_ONLY.union(OpenFlags::SQLITE_OPEN_NO_MUTEX);

/// A read-only connection to the SQLite file at `path` (whose header is `sniffed`), to read
/// its schema and nothing else. A file at rest in WAL mode (its header says so, and no log,
/// or an empty one, is beside it) is opened as immutable: SQLite would otherwise make a log
/// and its shared memory beside it, two files in another program's directory, left there
/// when the file is not kifudex's. At rest, the file holds every committed page.
///
/// A file whose log holds pages and has no shared memory file beside it (as a copy of the
/// file and its log leaves it) is not opened: SQLite would make that file ([`Error::UnreadLog`]).
fn open_schema(path: &Path, sniffed: Sniff) -> Result<Connection> {
    let wal = matches!(sniffed, Sniff::Sqlite { wal: true, .. });
    // `None` for no log, else its length when it is a file (a link is left to `read_error`).
    let log = fs::symlink_metadata(with_suffix(path, "-wal")).ok().map(|m| m.is_file().then_some(m.len()));
    let no_shm = || {
        fs::symlink_metadata(with_suffix(path, "-shm"))
            .is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound)
    };
    if log.flatten().is_some_and(|len| len > 0) && no_shm() {
        return Err(Error::UnreadLog(path.to_path_buf()));
    }
    match (wal && matches!(log, None | Some(Some(0))), std::path::absolute(path)) {
        (true, Ok(absolute)) => {
            Connection::open_with_flags(immutable_uri(&absolute), READ_ONLY | OpenFlags::SQLITE_OPEN_URI)
        }
        _ => Connection::open_with_flags(path, READ_ONLY),
    }
    .map_err(|e| read_error(path, wal, false, e))
}

/// The URI that opens the file at the absolute `path` as immutable: every byte of the path
/// but letters, digits and `/-._~` escaped, an empty authority before it.
fn immutable_uri(path: &Path) -> String {
    use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_encode};
    use std::os::unix::ffi::OsStrExt;
    const KEPT: &AsciiSet =
        &NON_ALPHANUMERIC.remove(b'/').remove(b'-').remove(b'.').remove(b'_').remove(b'~');
    format!("file://{}?immutable=1", percent_encode(path.as_os_str().as_bytes(), KEPT))
}

/// [`open_read`], once. A failure to read a file that another process removes or replaces
/// meanwhile (`index` making a database afresh at its path, say) is only that.
fn open_read_once(path: &Path) -> Result<Connection> {
    let sniffed = sniff(path)?;
    if empty_by_header(path, sniffed) {
        return Err(Error::Empty(path.to_path_buf()));
    }
    if foreign_by_header(path, sniffed, false) {
        return Err(Error::NotKifudex(path.to_path_buf()));
    }
    let wal = matches!(sniffed, Sniff::Sqlite { wal: true, .. });
    // A file at rest whose header lacks kifudex's id is refused whatever its schema says
    // (every schema version readers read carries the id; at rest the header is the file's
    // latest): its schema is read only to say why, writing nothing beside it.
    let ours_by_id = sniffed.marked_ours();
    let conn = match ours_by_id {
        true => Connection::open_with_flags(path, READ_ONLY).map_err(|e| read_error(path, wal, true, e))?,
        false => open_schema(path, sniffed)?,
    };
    conn.busy_timeout(BUSY_WAIT).map_err(|e| read_error(path, wal, ours_by_id, e))?;
    // A change that a program stopped in the middle of, in a hot journal, is undone only by a
    // connection that may write: not by a reader (which changes no file), but by an index run.
    let found = kind(&conn).map_err(|e| match e {
        rusqlite::Error::SqliteFailure(f, _)
            if f.extended_code == rusqlite::ffi::SQLITE_READONLY_ROLLBACK && linked_side(path).is_none() =>
        {
            Error::HotJournal { path: path.to_path_buf(), journal: with_suffix(path, "-journal") }
        }
        e => read_error(path, wal, ours_by_id, e),
    })?;
    match found {
        Kind::Kifudex(found) if found > migrate::VERSION => {
            Err(Error::TooNew { path: path.to_path_buf(), found, known: migrate::VERSION })
        }
        Kind::Kifudex(found) if found < migrate::READABLE_FROM => {
            Err(Error::TooOld { path: path.to_path_buf(), found })
        }
        Kind::Kifudex(_) => Ok(conn),
        Kind::Empty => Err(Error::Empty(path.to_path_buf())),
        Kind::Foreign => Err(Error::NotKifudex(path.to_path_buf())),
    }
}

/// What the schema of the SQLite file at `path`, read through a read-only connection, says
/// the writer must refuse: a file that is not a kifudex database, or one of a newer schema.
/// The writer asks before it opens the file: a connection that may write would, on opening or
/// closing, bring the file up to date with its write-ahead log or its hot journal, which
/// writes it (a newer kifudex killed in a run leaves its changes in the log). A file that
/// cannot be read so is left to the writer's own checks.
fn refused_by_schema(path: &Path, sniffed: Sniff) -> Option<Error> {
    if !matches!(sniffed, Sniff::Sqlite { application_id: 0 | APPLICATION_ID, .. }) {
        return None;
    }
    let conn = match open_schema(path, sniffed) {
        Err(e @ Error::UnreadLog(_)) => return Some(e),
        opened => opened.ok()?,
    };
    match kind(&conn).ok()? {
        Kind::Foreign => Some(Error::NotKifudex(path.to_path_buf())),
        Kind::Kifudex(found) if found > migrate::VERSION => {
            Some(Error::TooNew { path: path.to_path_buf(), found, known: migrate::VERSION })
        }
        Kind::Kifudex(_) | Kind::Empty => None,
    }
}

/// The refusal that the kifudex database at `path` gives an index run of `asked` (a shard, or
/// every file), read through a read-only connection before the writer opens it, which would
/// write its header (see [`super::shard::refusal`]). `None` when the run may go on, and when
/// it cannot be told so: the run's own transaction decides then.
pub(super) fn refused_share(path: &Path, asked: Option<crate::shard::Shard>) -> Option<Error> {
    // Only a file that says it is kifudex's is opened here: opening another program's file in
    // WAL mode would make its log, and the writer refuses it without opening it.
    if !sniff(path).ok()?.marked_ours() {
        return None;
    }
    let conn = Connection::open_with_flags(path, READ_ONLY).ok()?;
    match kind(&conn).ok()? {
        Kind::Kifudex(found) if found <= migrate::VERSION => super::shard::refusal(&conn, asked),
        _ => None,
    }
}

/// Opens (creating it if there is no file) the database at `path` for the writer, which
/// holds its lock, puts it in WAL mode and brings its schema up to date.
///
/// # Errors
///
/// [`Error::Directory`], [`Error::NotKifudex`], [`Error::TooNew`], [`Error::ReadOnly`],
/// [`Error::InUse`], [`Error::Interrupted`] when `wait.stop` is set while it waits for
/// readers, a failed migration, or another failure to open it. A file this opening made is
/// removed when it fails (with what SQLite made beside it): a file with no schema yet would
/// read as no kifudex database.
pub(super) fn open_write(path: &Path, wait: StartWait<'_>) -> Result<Connection> {
    let (sniffed, made) = match sniff(path) {
        Err(Error::Missing(_)) => (Sniff::Empty, true),
        other => (other?, false),
    };
    let opened = open_write_sniffed(path, sniffed, wait);
    if opened.is_err() && made {
        let _ = fs::remove_file(path);
        for suffix in SIDE_FILES {
            let _ = fs::remove_file(with_suffix(path, suffix));
        }
    }
    opened
}

fn open_write_sniffed(path: &Path, sniffed: Sniff, wait: StartWait<'_>) -> Result<Connection> {
    if foreign_by_header(path, sniffed, true) {
        return Err(Error::NotKifudex(path.to_path_buf()));
    }
    if let Some(refused) = refused_by_schema(path, sniffed) {
        return Err(refused);
    }
    // Refused before the file is touched: the switch to WAL mode would write its header
    // before SQLite found the link.
    if let Some(side) = linked_side(path) {
        return Err(Error::SideLink { path: path.to_path_buf(), side });
    }
    let open_error = |error| open_error(path, error);
    let flags =
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let mut conn = Connection::open_with_flags(path, flags).map_err(open_error)?;
    conn.busy_timeout(BUSY_WAIT).map_err(open_error)?;
    // SQLite opens a file it may not write read-only, without a word.
    if conn.is_readonly(rusqlite::MAIN_DB).map_err(open_error)? {
        return Err(Error::ReadOnly(path.to_path_buf()));
    }
    let kind = kind(&conn).map_err(|e| read_error(path, false, true, e))?;
    match kind {
        Kind::Foreign => return Err(Error::NotKifudex(path.to_path_buf())),
        Kind::Kifudex(found) if found > migrate::VERSION => {
            return Err(Error::TooNew { path: path.to_path_buf(), found, known: migrate::VERSION });
        }
        Kind::Kifudex(_) => {}
        // The page size and auto_vacuum must be chosen before the first table exists, and
        // the page size before WAL mode is on. Choosing auto_vacuum writes the first page:
        // journaled in memory (as in `start_run`), or a run killed then would leave a hot
        // journal beside a file readers are refused until a writer rolls it back.
        Kind::Empty => conn
            .execute_batch(&format!(
                "PRAGMA journal_mode = MEMORY; PRAGMA page_size = {PAGE_SIZE}; PRAGMA auto_vacuum = INCREMENTAL"
            ))
            .map_err(open_error)?,
    }
    conn.execute_batch("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = OFF;").map_err(open_error)?;
    if let Err(e) = start_run(path, &conn, wait) {
        // Switched, the file may be unreadable in WAL mode (no room for its `-shm` file).
        drop(conn);
        mend(path);
        return Err(e);
    }
    if let Err(e) = migrate::migrate(&mut conn) {
        // Rolled back: the file is put back as it was, out of WAL mode too.
        if needs_mending(end_run(&conn)) {
            drop(conn);
            mend(path);
        }
        return Err(e);
    }
    // A new database's header says it is kifudex's once the log is copied into the file. Left
    // in the log, a first run killed and its `-shm` file lost (copied without it, say) would
    // leave a file no reader can tell from another program's, whose log is not read.
    // (A checkpoint that fails leaves it to the run's own, which fail as it does.)
    if kind == Kind::Empty {
        let _ = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
    }
    Ok(conn)
}

/// Whether the error is SQLite's "the database is locked" (another connection holds a lock).
fn is_busy(e: &rusqlite::Error) -> bool {
    e.sqlite_error_code() == Some(ErrorCode::DatabaseBusy)
}

/// Puts the database in WAL mode for the run, waiting up to [`START_WAIT`] for other
/// programs' transactions: readers', in rollback mode, and writers' in either mode.
///
/// SQLite rewrites the header for a switch of journal mode in a transaction of the rollback
/// kind, journaled as the connection's rollback mode says: in memory here (and in
/// [`end_run`]), so that a run killed during a switch never leaves a hot journal on disk,
/// which only a writer could roll back (a reader would then be refused). The switch
/// changes a few bytes of the header's first sector, written with one write.
fn start_run(path: &Path, conn: &Connection, wait: StartWait<'_>) -> Result<()> {
    let mode =
        |set: &str| conn.query_row(&format!("PRAGMA journal_mode{set}"), [], |r| r.get::<_, String>(0));
    // Tried again every START_POLL, so that a stop is seen while readers hold the file.
    conn.busy_timeout(START_POLL)?;
    let (started, mut told) = (Instant::now(), false);
    let switched = loop {
        // A file left in WAL mode (by a killed run) stays in it: leaving it would wait for
        // every other connection to close.
        let switched = mode("")
            .and_then(|now| match now.as_str() {
                "wal" => Ok(now),
                _ => mode(" = MEMORY").and_then(|_| mode(" = WAL")),
            })
            // In WAL mode readers hold off nothing, but another program's write transaction
            // holds off every write of the run: it waits here, saying so, not at its first
            // write, in silence.
            .and_then(|now| match now.as_str() {
                "wal" => conn.execute_batch("BEGIN IMMEDIATE; ROLLBACK").map(|()| now),
                _ => Ok(now),
            });
        match &switched {
            Err(e) if is_busy(e) && started.elapsed() < START_WAIT => {}
            _ => break switched,
        }
        if wait.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            conn.busy_timeout(BUSY_WAIT)?;
            return Err(Error::Interrupted);
        }
        if let Some(waiting) = wait.waiting.filter(|_| !told) {
            waiting();
            told = true;
        }
    };
    conn.busy_timeout(BUSY_WAIT)?;
    match switched {
        Ok(now) if now == "wal" => Ok(()),
        // A file system without the shared memory that WAL mode needs: the run writes with a
        // rollback journal on disk (and readers wait for its transactions).
        Ok(_) => {
            mode(" = DELETE").map_err(|error| open_error(path, error))?;
            Ok(())
        }
        Err(e) if is_busy(&e) => {
            Err(Error::InUse { path: path.to_path_buf(), seconds: START_WAIT.as_secs() })
        }
        Err(error) => Err(open_error(path, error)),
    }
}

/// Ends the run: copies the write-ahead log into the file and puts the file back in
/// rollback-journal mode (see [`start_run`] for the journal of the switch). Returns false
/// when other connections have the file open, which keeps it in WAL mode (SQLite refuses
/// the switch at once then); the file is sound either way.
///
/// # Errors
///
/// Any database failure other than that.
pub(super) fn end_run(conn: &Connection) -> Result<bool> {
    let ended = conn
        .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
        .and_then(|()| conn.query_row("PRAGMA journal_mode = MEMORY", [], |r| r.get::<_, String>(0)));
    match ended {
        Ok(mode) => Ok(mode == "memory"),
        Err(e) if is_busy(&e) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A failed run's file in WAL mode whose log holds nothing is put back in rollback mode
    /// by hand, and reads with nothing beside it; one whose log holds pages is left alone.
    #[test]
    fn mend_puts_a_file_with_an_empty_log_back_in_rollback_mode() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("k.sqlite");
        let wal = with_suffix(&path, "-wal");
        let header = |path: &Path| {
            let mut head = [0u8; 20];
            fs::File::open(path).unwrap().read_exact(&mut head).unwrap();
            [head[18], head[19]]
        };
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch("PRAGMA journal_mode = WAL; CREATE TABLE t(x); INSERT INTO t VALUES (7);")
                .unwrap();
        }
        // Closed, the log is gone and the header still says WAL (2): as a run that could not
        // make its log leaves it. An empty log beside it is what a full disk leaves.
        assert_eq!(header(&path), [2, 2]);
        assert!(!wal.exists());
        fs::write(&wal, b"").unwrap();
        mend(&path);
        assert_eq!(header(&path), [1, 1]);
        assert!(!wal.exists());
        let conn = Connection::open_with_flags(&path, OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
        assert_eq!(conn.query_row("PRAGMA journal_mode", [], |r| r.get::<_, String>(0)).unwrap(), "delete");
        assert_eq!(conn.query_row("SELECT x FROM t", [], |r| r.get::<_, i64>(0)).unwrap(), 7);
        drop(conn);
        // A log with pages holds what the file lacks: nothing is touched.
        let writer = Connection::open(&path).unwrap();
        writer
            .execute_batch(
                "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; INSERT INTO t VALUES (8);",
            )
            .unwrap();
        let logged = fs::metadata(&wal).unwrap().len();
        assert!(logged > 0);
        mend(&path);
        assert_eq!(header(&path), [2, 2]);
        assert_eq!(fs::metadata(&wal).unwrap().len(), logged);
        // Neither a file that is not SQLite's nor a missing one is written.
        let text = tmp.path().join("notes.txt");
        fs::write(&text, "SQLite format 2, and more than twenty bytes").unwrap();
        mend(&text);
        mend(&tmp.path().join("missing.sqlite"));
        assert_eq!(fs::read_to_string(&text).unwrap(), "SQLite format 2, and more than twenty bytes");
        assert!(!tmp.path().join("missing.sqlite").exists());
    }

    /// Another program's file at rest in WAL mode, which only its schema tells from a kifudex
    /// database, is refused by readers and the writer with nothing made beside it, whatever
    /// bytes its name holds.
    #[test]
    fn a_foreign_file_at_rest_in_wal_mode_is_refused_with_nothing_made_beside_it() {
        use std::os::unix::ffi::OsStrExt;
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("odd ?#%20 dir");
        fs::create_dir(&dir).unwrap();
        let path = dir.join(std::ffi::OsStr::from_bytes(b"app?immutable=0#%41 \xff.db"));
        // Another program may even carry kifudex's id, with no schema version of kifudex's.
        let headers = [(0, 0), (0, 1), (APPLICATION_ID, 0), (APPLICATION_ID, migrate::MARKED - 1)];
        for (application_id, user_version) in headers {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(&format!(
                "PRAGMA journal_mode = WAL; CREATE TABLE IF NOT EXISTS notes(x);
                 PRAGMA application_id = {application_id}; PRAGMA user_version = {user_version}"
            ))
            .unwrap();
            drop(conn);
            let listing = || fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect::<Vec<_>>();
            assert_eq!(listing().len(), 1);
            let before = fs::read(&path).unwrap();
            assert!(matches!(open_read(&path), Err(Error::NotKifudex(_))), "{application_id} {user_version}");
            assert!(matches!(open_write(&path, StartWait::default()), Err(Error::NotKifudex(_))));
            assert_eq!(listing().len(), 1, "files made beside it: {:?}", listing());
            assert_eq!(fs::read(&path).unwrap(), before);
        }
    }

    /// A database named through a link has its log beside the file the link leads to: a
    /// commit there changes the state seen through the link.
    #[test]
    fn the_state_through_a_link_is_that_of_the_log_where_sqlite_keeps_it() {
        let tmp = tempfile::tempdir().unwrap();
        let (real, link) = (tmp.path().join("real"), tmp.path().join("link"));
        fs::create_dir_all(&real).unwrap();
        fs::create_dir_all(&link).unwrap();
        fs::write(real.join("k.sqlite"), b"").unwrap();
        std::os::unix::fs::symlink("../real/k.sqlite", link.join("k.sqlite")).unwrap();
        let before = OnDisk::of(&link.join("k.sqlite"));
        fs::write(real.join("k.sqlite-wal"), b"a commit").unwrap();
        assert_ne!(OnDisk::of(&link.join("k.sqlite")), before);
        assert_eq!(OnDisk::of(&link.join("k.sqlite")), OnDisk::of(&real.join("k.sqlite")));
    }

    #[test]
    fn a_file_that_says_it_is_empty_and_holds_text_is_foreign() {
        let proc_file = Path::new("/proc/self/status");
        if !proc_file.exists() {
            eprintln!("skipped: no /proc here");
            return;
        }
        assert_eq!(fs::metadata(proc_file).unwrap().len(), 0);
        assert!(matches!(sniff(proc_file), Ok(Sniff::Foreign)));
        let tmp = tempfile::tempdir().unwrap();
        let empty = tmp.path().join("empty.sqlite");
        fs::write(&empty, b"").unwrap();
        assert!(matches!(sniff(&empty), Ok(Sniff::Empty)));
    }

    #[test]
    fn headers_that_show_a_foreign_file() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("f.sqlite");
        let sqlite = |application_id, user_version| Sniff::Sqlite {
            application_id,
            user_version,
            wal: false,
            bare: false,
        };
        for empty_ok in [false, true] {
            assert!(foreign_by_header(&path, Sniff::Foreign, empty_ok));
            assert!(foreign_by_header(&path, sqlite(7, 1), empty_ok), "another application's id");
            assert!(foreign_by_header(&path, sqlite(0, migrate::MARKED), empty_ok), "would carry the id");
            assert!(!foreign_by_header(&path, sqlite(APPLICATION_ID, 0), empty_ok));
            assert!(
                !foreign_by_header(&path, sqlite(0, 1), empty_ok),
                "from before the id: the schema decides"
            );
        }
        // Empty, or no id and no schema version: nothing to read, or an empty database to write.
        assert!(foreign_by_header(&path, Sniff::Empty, false));
        assert!(!foreign_by_header(&path, Sniff::Empty, true));
        assert!(foreign_by_header(&path, sqlite(0, 0), false));
        assert!(!foreign_by_header(&path, sqlite(0, 0), true));
        // A write-ahead log with changes: the header may not be the file's latest.
        fs::write(with_suffix(&path, "-wal"), [1]).unwrap();
        assert!(!foreign_by_header(&path, sqlite(0, 0), false));
    }

    #[test]
    fn a_run_starts_beside_open_connections_to_a_file_in_wal_mode_and_ends_in_rollback_mode_without_them() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("k.sqlite");
        let journal = |path: &Path| fs::read(path).unwrap()[18..20].to_vec();
        // A database left in WAL mode, which another program has open.
        let conn = open_write(&path, StartWait::default()).unwrap();
        assert_eq!(journal(&path), [2, 2]);
        let other = Connection::open(&path).unwrap();
        other.query_row("SELECT count(*) FROM games", [], |r| r.get::<_, i64>(0)).unwrap();
        let started = std::time::Instant::now();
        let second = open_write(&path, StartWait::default()).unwrap();
        assert!(started.elapsed() < BUSY_WAIT, "the run waited for the other connection");
        // Ending: kept in WAL mode while others have it open, then back to rollback mode.
        assert!(!end_run(&second).unwrap());
        drop((conn, other));
        assert!(end_run(&second).unwrap());
        assert_eq!(journal(&path), [1, 1]);
        assert!(!with_suffix(&path, "-wal").exists());
    }

    #[test]
    fn schemas_that_are_kifudex_s() {
        let conn = Connection::open_in_memory().unwrap();
        assert_eq!(kind(&conn).unwrap(), Kind::Empty);
        conn.execute_batch("CREATE TABLE foo(x)").unwrap();
        assert_eq!(kind(&conn).unwrap(), Kind::Foreign);
        let mut conn2 = Connection::open_in_memory().unwrap();
        migrate::migrate(&mut conn2).unwrap();
        assert_eq!(kind(&conn2).unwrap(), Kind::Kifudex(migrate::VERSION));
        // A file from before the application id: version and `meta` table.
        conn2.pragma_update(None, "application_id", 0).unwrap();
        conn2.pragma_update(None, "user_version", migrate::MARKED - 1).unwrap();
        assert_eq!(kind(&conn2).unwrap(), Kind::Kifudex(migrate::MARKED - 1));
        conn2.execute_batch("DELETE FROM meta").unwrap();
        assert_eq!(kind(&conn2).unwrap(), Kind::Foreign);
        conn.pragma_update(None, "user_version", 1).unwrap();
        assert_eq!(kind(&conn).unwrap(), Kind::Foreign);
        // kifudex's id comes with its schema version: without one, only an empty file is taken.
        let marked = Connection::open_in_memory().unwrap();
        marked.pragma_update(None, "application_id", APPLICATION_ID).unwrap();
        assert_eq!(kind(&marked).unwrap(), Kind::Empty);
        marked.execute_batch("CREATE TABLE foo(x)").unwrap();
        assert_eq!(kind(&marked).unwrap(), Kind::Foreign);
        marked.pragma_update(None, "user_version", migrate::MARKED - 1).unwrap();
        assert_eq!(kind(&marked).unwrap(), Kind::Foreign);
    }
}
