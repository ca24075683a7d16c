//! The database option every subcommand that reads or writes the database takes, and the
//! database's errors in the command's words.

use kifudex::ingest::path_text;
use std::path::{Path, PathBuf};

use clap::Args;
use kifudex::db::{self, Reader, Snapshot};

/// The database file when neither `--db` nor `KIFUDEX_DB` names one.
pub const DEFAULT_DB: &str = "kifudex.sqlite";

/// `--db FILE`.
#[derive(Debug, Clone, Args)]
pub struct DbOpt {
    /// The database file [default: $KIFUDEX_DB, else kifudex.sqlite in the current directory]
    #[arg(long, value_name = "FILE", global = true)]
    db: Option<PathBuf>,
}

impl DbOpt {
    /// The path `--db` gave, if it was given.
    pub fn given(&self) -> Option<&std::path::Path> {
        self.db.as_deref()
    }

    /// The database path: `--db`, else `KIFUDEX_DB`, else `kifudex.sqlite`.
    pub fn path(&self) -> PathBuf {
        self.db
            .clone()
            .or_else(|| std::env::var_os("KIFUDEX_DB").filter(|v| !v.is_empty()).map(PathBuf::from))
            .unwrap_or_else(|| PathBuf::from(DEFAULT_DB))
    }

    /// Opens the database read-only, its errors in the command's words ([`explain`]), and
    /// says on stderr when an index run on it is under way or did not finish
    /// ([`warn_unfinished`]).
    pub fn reader(&self) -> anyhow::Result<Reader> {
        let reader = open_reader(&self.path())?;
        warn_unfinished(&reader, &self.path())?;
        Ok(reader)
    }
}

/// Says on stderr that answers cover only part of the files when an index run on the
/// database is writing it now, or did not finish (see [`Reader::unfinished_run`]).
pub fn warn_unfinished(reader: &Reader, db: &Path) -> anyhow::Result<()> {
    if let Some(run) = reader.unfinished_run()? {
        say!("kifudex: warning: {}", run.warning(db));
    }
    Ok(())
}

/// Opens the database at `path` read-only, its errors in the command's words ([`explain`]).
pub fn open_reader(path: &Path) -> anyhow::Result<Reader> {
    Reader::open(path).map_err(explain)
}

/// A database error in the command's words: where an index run mends what the library
/// reports (no database yet, an older schema, a file only a writer can open), the message
/// says which command to run, with the options that name the file.
pub fn explain(e: db::Error) -> anyhow::Error {
    match (&e, e.advice()) {
        (db::Error::Missing(path), _) => {
            anyhow::anyhow!("no database at {} (run `kifudex index` first, or give --db)", path_text(path))
        }
        (_, Some(advice)) => anyhow::Error::msg(advice),
        _ => e.into(),
    }
}

/// Says on stderr how many stored games a position answer leaves out, and how to bring them
/// in, when the position index lacks some (see [`Snapshot::unindexed_games`]).
pub fn warn_unindexed(snapshot: &Snapshot<'_>, db: &Path) -> anyhow::Result<()> {
    if let Some(warning) = db::unindexed_warning(snapshot.unindexed_games()?, &super::shown_path(db)) {
        say!("kifudex: warning: {warning}");
    }
    Ok(())
}

/// Refuses to write the file `out` (given with `flag`, as in `--out`) where writing would
/// destroy a database: the database `db` itself (by any path to it, a link or another name),
/// the files SQLite keeps beside it (`-wal`, `-shm`, `-journal`), or any existing SQLite
/// database. A command checks this before it opens `out`, which truncates it.
pub fn refuse_database_as_output(out: &Path, flag: &str, db: Option<&Path>) -> anyhow::Result<()> {
    // A pipe, a terminal or a device is no database, and is never opened to look: opening a
    // pipe to read it would wait for a writer, which is this command.
    if std::fs::metadata(out).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        return Ok(());
    }
    if let Some(db) = db {
        // SQLite keeps its files beside the database's real path, a link followed.
        let names = [Some(db.to_path_buf()), db.canonicalize().ok()];
        for (name, suffix) in names
            .iter()
            .flatten()
            .flat_map(|n| std::iter::once("").chain(db::SIDE_FILES).map(move |s| (n, s)))
        {
            let mut companion = name.as_os_str().to_owned();
            companion.push(suffix);
            if same_place(out, Path::new(&companion)) {
                let what = if suffix.is_empty() { "the database" } else { "a file of the database" };
                anyhow::bail!(
                    "{flag} {} is {what} {}: writing there would destroy it; give another file",
                    path_text(out),
                    path_text(db)
                );
            }
        }
    }
    // The files SQLite keeps beside any database, whichever database the command reads.
    use std::os::unix::ffi::OsStrExt;
    let name = out.as_os_str().as_bytes();
    for suffix in db::SIDE_FILES {
        if let Some(base) = name.strip_suffix(suffix.as_bytes()) {
            let base = Path::new(std::ffi::OsStr::from_bytes(base));
            if is_sqlite_file(base) {
                anyhow::bail!(
                    "{flag} {} is a file of the database {}: writing there would destroy it; give another file",
                    path_text(out),
                    path_text(base)
                );
            }
        }
    }
    if is_sqlite_file(out) {
        anyhow::bail!(
            "{flag} {} is an SQLite database, which kifudex does not write over; give another file \
             (or remove it first, if it is to go)",
            path_text(out)
        );
    }
    Ok(())
}

/// Refuses to write the table or list a command writes (CSV, JSON Lines, Parquet) over `out`
/// when it is a file of game records: a record file named by mistake (a completed name, a
/// `--rejects` inside the archive) would be lost, and the next index run would drop its
/// games. A table kifudex wrote before is no record, even when its moves and comments read
/// as one, and is written over. Commands that write records do not ask: `convert` refuses
/// only the file it reads, `show` a record file its database has indexed.
pub fn refuse_records_as_output(out: &Path, flag: &str) -> anyhow::Result<()> {
    use std::io::Read;
    if !std::fs::metadata(out).is_ok_and(|m| m.is_file() && m.len() > 0) {
        return Ok(());
    }
    let mut head = Vec::with_capacity(RECORD_HEAD);
    let read = std::fs::File::open(out).and_then(|f| f.take(RECORD_HEAD as u64).read_to_end(&mut head));
    let whole = std::fs::metadata(out).is_ok_and(|m| m.len() <= RECORD_HEAD as u64);
    if read.is_ok() && !is_table(&head) && kifudex::kifu::looks_like_record(Some(out), &head, whole) {
        anyhow::bail!(
            "{flag} {} holds game records, which kifudex does not write over; give another file \
             (or remove it first, if it is to go)",
            path_text(out)
        );
    }
    Ok(())
}

/// Whether `head`, the first bytes of a file, starts as a table kifudex exports does: a CSV
/// header row of one of its tables, or a JSON Lines row with that table's keys in order.
fn is_table(head: &[u8]) -> bool {
    use kifudex::export::{Options, Table, columns};
    let first = head.split(|&b| b == b'\n').next().unwrap_or_default();
    let Ok(first) = std::str::from_utf8(first.strip_suffix(b"\r").unwrap_or(first)) else {
        return false;
    };
    let keys: Vec<String> = match serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(first) {
        Ok(row) => row.keys().cloned().collect(),
        Err(_) => first.split(',').map(str::to_owned).collect(),
    };
    let tables = [Table::Games, Table::Moves, Table::Positions, Table::Tree, Table::Rejects, Table::Warnings];
    tables
        .into_iter()
        .flat_map(|t| [false, true].map(|by_year| columns(t, &Options { by_year, ..Options::default() })))
        .any(|cols| cols.len() == keys.len() && cols.iter().zip(&keys).all(|(c, k)| c.name == k))
}

/// The bytes of a file read to tell whether it holds game records.
const RECORD_HEAD: usize = 64 * 1024;

/// Whether `a` and `b` name the same file: one file by two paths, or, while neither exists,
/// the same name in the same directory. Told by the device and inode each path leads to, with
/// neither opened: opening a named pipe waits for the other end, which may be this command.
pub fn same_place(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    if let (Ok(a), Ok(b)) = (std::fs::metadata(a), std::fs::metadata(b))
        && (a.dev(), a.ino()) == (b.dev(), b.ino())
    {
        return true;
    }
    let dir = |p: &Path| {
        let parent = p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        parent.canonicalize().ok()
    };
    a.file_name().is_some() && a.file_name() == b.file_name() && dir(a).is_some() && dir(a) == dir(b)
}

/// Whether `path` is a file that starts as an SQLite database does.
fn is_sqlite_file(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 16];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head)).is_ok()
        && &head == b"SQLite format 3\0"
}
