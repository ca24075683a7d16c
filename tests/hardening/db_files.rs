//! Which files the commands take as a database, and what they leave behind: read commands
//! never create, migrate or change a file and read databases the user cannot write; `index`
//! never writes into a file that is not kifudex's; odd paths get a clear message.

use std::{
    collections::BTreeSet,
    ffi::OsStr,
    fs,
    os::unix::{ffi::OsStrExt, fs::PermissionsExt},
    path::{Path, PathBuf},
    process::Output,
};

use super::harness::{export_games, index, stderr, unprivileged, write_games};
use crate::util::command;

/// Every command that only reads the database, as arguments before `--db`.
const READ_COMMANDS: &[&[&str]] = &[
    &["query"],
    &["query", "--moves", "7g7f"],
    &["show", "1"],
    &["export", "games"],
    &["export", "moves"],
    &["export", "positions"],
    &["export", "tree"],
    &["export", "rejects"],
];

/// A hash of the file's bytes, or `None` when there is no file.
fn hash(path: &Path) -> Option<u128> {
    fs::read(path).ok().map(|bytes| xxhash_rust::xxh3::xxh3_128(&bytes))
}

/// The names in a directory.
fn listing(dir: &Path) -> BTreeSet<String> {
    fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect()
}

fn read_with(args: &[&str], db: &Path) -> Output {
    command().args(args).arg("--db").arg(db).output().unwrap()
}

/// Runs every read command on `db` and checks that each exits 2 with exactly `message`, and
/// that neither the file nor its directory changed.
fn assert_every_read_refused(db: &Path, message: &str) {
    let dir = db.parent().unwrap();
    let (before, names) = (hash(db), listing(dir));
    for args in READ_COMMANDS {
        let out = read_with(args, db);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), format!("kifudex: {message}\n"), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(hash(db), before, "{args:?} changed {}", db.display());
        assert_eq!(listing(dir), names, "{args:?} left files beside {}", db.display());
    }
}

/// A SQLite file of another program: one table, as `sqlite3 f.sqlite "create table foo(x)"`
/// makes it.
fn foreign_sqlite(path: &Path) {
    rusqlite::Connection::open(path).unwrap().execute_batch("CREATE TABLE foo(x)").unwrap();
}

/// Files that are not kifudex databases, by name: a SQLite file of another program, three in
/// WAL mode at rest (with schema versions 7, 1 and none: the header alone tells only the
/// first from a kifudex database), one whose schema is still in its log, an empty file, text,
/// and random bytes.
fn not_databases(dir: &Path) -> Vec<PathBuf> {
    fs::create_dir_all(dir).unwrap();
    let foreign = dir.join("foreign.sqlite");
    foreign_sqlite(&foreign);
    let wal_app = |name: &str, user_version: u32| {
        let wal = dir.join(name);
        let conn = rusqlite::Connection::open(&wal).unwrap();
        conn.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(())).unwrap();
        conn.execute_batch(&format!(
            "CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('x'); PRAGMA user_version = {user_version}"
        ))
        .unwrap();
        drop(conn);
        assert!(!dir.join(format!("{name}-wal")).exists());
        wal
    };
    let wal = wal_app("wal-app.db", 7);
    let wal_v1 = wal_app("wal-app-v1.db", 1);
    let wal_v0 = wal_app("wal-app-v0.db", 0);
    // A program's file in WAL mode whose table is still only in its log, as a program that
    // is running (or was killed) leaves it: the main file is a header without a schema.
    let logged = dir.join("logged.db");
    let conn = rusqlite::Connection::open(&logged).unwrap();
    conn.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(())).unwrap();
    conn.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true).unwrap();
    conn.execute_batch("CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('x')").unwrap();
    drop(conn);
    assert!(fs::metadata(dir.join("logged.db-wal")).unwrap().len() > 0);
    let empty = dir.join("empty.sqlite");
    fs::write(&empty, b"").unwrap();
    let text = dir.join("notes.txt");
    fs::write(&text, "not a database\n").unwrap();
    let random = dir.join("random.bin");
    fs::write(
        &random,
        (0..4096u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect::<Vec<u8>>(),
    )
    .unwrap();
    vec![foreign, wal, wal_v1, wal_v0, logged, empty, text, random]
}

/// What a read command says of a database file that holds nothing yet.
fn empty(db: &Path) -> String {
    format!(
        "no kifudex database in {} yet: it is empty (as a first index run leaves it until its first \
         commit, and after, if it stops before): run `kifudex index` to fill it",
        db.display()
    )
}

#[test]
fn read_commands_refuse_what_is_not_a_kifudex_database_and_leave_it_as_it_was() {
    let tmp = tempfile::tempdir().unwrap();
    for file in not_databases(&tmp.path().join("files")) {
        // An empty file is said to be empty: `index` makes a database of it.
        let message = match file.ends_with("empty.sqlite") {
            true => empty(&file),
            false => format!("not a kifudex database: {}", file.display()),
        };
        assert_every_read_refused(&file, &message);
    }
    // So is an SQLite file in WAL mode with no table, as a first index run killed before its
    // first commit leaves it.
    let begun = tmp.path().join("begun.sqlite");
    let conn = rusqlite::Connection::open(&begun).unwrap();
    conn.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(())).unwrap();
    drop(conn);
    assert_every_read_refused(&begun, &empty(&begun));
    // The same through the environment variable.
    let foreign = tmp.path().join("files/foreign.sqlite");
    let before = hash(&foreign);
    let out = command().args(["export", "games"]).env("KIFUDEX_DB", &foreign).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out), format!("kifudex: not a kifudex database: {}\n", foreign.display()));
    assert_eq!(hash(&foreign), before);
}

#[test]
fn index_never_writes_into_a_file_that_is_not_kifudex_s_and_takes_an_empty_one() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    write_games(&games, 6, 2, 21);
    let reference = tmp.path().join("reference.sqlite");
    assert!(index(&games, &reference).status.success());
    let files = tmp.path().join("files");
    for file in not_databases(&files) {
        if file.ends_with("empty.sqlite") {
            continue;
        }
        let (before, names) = (hash(&file), listing(&files));
        let log_before = hash(&PathBuf::from(format!("{}-wal", file.display())));
        let out = index(&games, &file);
        assert_eq!(out.status.code(), Some(2), "{}", file.display());
        assert_eq!(stderr(&out), format!("kifudex: not a kifudex database: {}\n", file.display()));
        assert_eq!(hash(&file), before, "{}", file.display());
        let log = PathBuf::from(format!("{}-wal", file.display()));
        assert_eq!(hash(&log), log_before, "index wrote the log of {}", file.display());
        assert_eq!(listing(&files), names, "index left files beside {}", file.display());
    }
    // An empty file (`touch k.sqlite`) is an empty database: index makes it one of kifudex's.
    let empty = files.join("empty.sqlite");
    let out = index(&games, &empty);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(export_games(&empty), export_games(&reference));
    let header = fs::read(&empty).unwrap();
    assert_eq!(&header[68..72], b"KFDX", "the SQLite application id");
}

/// A database of `games`, made by `kifudex index`, with its header changed by SQLite.
fn database_with(tmp: &Path, games: &Path, name: &str, change: &str) -> PathBuf {
    let db = tmp.join(name);
    assert!(index(games, &db).status.success());
    rusqlite::Connection::open(&db).unwrap().execute_batch(change).unwrap();
    db
}

#[test]
fn a_database_of_a_newer_kifudex_is_refused_and_left_as_it_was() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    write_games(&games, 4, 2, 22);
    let db = database_with(tmp.path(), &games, "newer.sqlite", "PRAGMA user_version = 999");
    let message = format!(
        "the database {} was written by a newer kifudex (schema version 999; this one knows up to {}): use \
         that version",
        db.display(),
        kifudex::db::VERSION
    );
    assert_every_read_refused(&db, &message);
    let before = hash(&db);
    let out = index(&games, &db);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out), format!("kifudex: {message}\n"));
    assert_eq!(hash(&db), before);
    // The README quotes this message, with the version this kifudex knows up to.
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let quoted =
        format!("(schema version 999; this one knows up to {}): use that version", kifudex::db::VERSION);
    assert!(readme.contains(&quoted), "the README does not quote: {quoted}");
    assert!(readme.contains(&format!("brings it to the current version ({})", kifudex::db::VERSION)));
}

/// A side file of the database (its log, the log's index, its journal) that is a symbolic
/// link to another file: SQLite opens none through a link, so `index` is refused, saying
/// which link is in the way, and the file it leads to is left as it was; so are the read
/// commands, but for a link in place of the log's index, which a database at rest does not
/// need.
#[test]
fn a_side_file_that_is_a_link_is_named_and_the_file_it_leads_to_left_as_it_was() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    write_games(&games, 4, 2, 23);
    let db = tmp.path().join("k.sqlite");
    assert!(index(&games, &db).status.success());
    let other = tmp.path().join("other.txt");
    for side in ["-wal", "-shm", "-journal"] {
        fs::write(&other, "another program's file\n").unwrap();
        let link = tmp.path().join(format!("k.sqlite{side}"));
        std::os::unix::fs::symlink(&other, &link).unwrap();
        let message = format!(
            "cannot open the database {}: {} is a symbolic link, and SQLite opens no side file of a \
             database (its log, the log's index, its journal) through a link: remove the link, once no \
             other program uses it",
            db.display(),
            link.display()
        );
        let before = hash(&db);
        let out = index(&games, &db);
        assert_eq!(out.status.code(), Some(2), "{side}");
        assert_eq!(stderr(&out), format!("kifudex: {message}\n"), "{side}");
        assert_eq!(hash(&db), before, "{side}");
        if side != "-shm" {
            assert_every_read_refused(&db, &message);
        }
        assert_eq!(fs::read_to_string(&other).unwrap(), "another program's file\n", "{side}");
        fs::remove_file(&link).unwrap();
    }
    // Named through a link, the database's side files are beside the file it leads to.
    let via = tmp.path().join("via.sqlite");
    std::os::unix::fs::symlink(&db, &via).unwrap();
    let link = tmp.path().join("k.sqlite-wal");
    std::os::unix::fs::symlink(&other, &link).unwrap();
    let out = index(&games, &via);
    assert_eq!(out.status.code(), Some(2));
    let named = format!(
        "{} is a symbolic link",
        fs::canonicalize(tmp.path()).unwrap().join("k.sqlite-wal").display()
    );
    assert!(stderr(&out).contains(&named), "{}", stderr(&out));
    fs::remove_file(&link).unwrap();
    assert!(index(&games, &db).status.success());
}

/// A database that a newer kifudex left in WAL mode with its newer schema still only in its
/// log, as a run of it killed while it wrote leaves it: `index` refuses it as newer, and
/// writes neither the file nor the log (closing a connection that may write would copy the
/// log into the file).
#[test]
fn a_newer_database_whose_schema_is_in_its_log_is_refused_and_left_as_it_was() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    write_games(&games, 4, 2, 22);
    let db = tmp.path().join("newer.sqlite");
    assert!(index(&games, &db).status.success());
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(())).unwrap();
    conn.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true).unwrap();
    conn.execute_batch("PRAGMA user_version = 999").unwrap();
    drop(conn);
    let wal = tmp.path().join("newer.sqlite-wal");
    assert!(fs::metadata(&wal).unwrap().len() > 0);
    let (before, logged) = (hash(&db), hash(&wal));
    let out = index(&games, &db);
    assert_eq!(out.status.code(), Some(2));
    let message = format!(
        "the database {} was written by a newer kifudex (schema version 999; this one knows up to {}): use \
         that version",
        db.display(),
        kifudex::db::VERSION
    );
    assert_eq!(stderr(&out), format!("kifudex: {message}\n"));
    assert_eq!(hash(&db), before, "the file");
    assert_eq!(hash(&wal), logged, "its log");
}

#[test]
fn a_failed_migration_says_so_in_a_line_and_leaves_the_file_out_of_wal_mode() {
    // A kifudex database whose header says an earlier schema version than it has: the next
    // migration fails.
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    write_games(&games, 4, 2, 23);
    let db = database_with(tmp.path(), &games, "damaged.sqlite", "PRAGMA user_version = 3");
    let out = index(&games, &db);
    assert_eq!(out.status.code(), Some(2));
    let message = stderr(&out);
    assert!(
        message.contains("failed: database migration 0004_warnings failed: table warnings already exists\n"),
        "{message}"
    );
    assert_eq!(message.lines().count(), 1, "{message}");
    assert_eq!(&fs::read(&db).unwrap()[18..20], [1, 1], "the journal mode of the file's header");
    assert!(!listing(tmp.path()).iter().any(|name| name.ends_with("-wal")), "{:?}", listing(tmp.path()));
}

#[test]
fn a_database_of_an_older_kifudex_is_refused_by_readers_and_brought_up_to_date_by_index() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    write_games(&games, 4, 2, 23);
    // A schema-2 file as an earlier kifudex wrote it (no application id, each game's headers
    // on the game): readers read headers from the records of schema 5, so it needs a run.
    let db = tmp.path().join("older.sqlite");
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(include_str!("../data/migration/v2-duplicates.sql")).unwrap();
    conn.pragma_update(None, "user_version", 2).unwrap();
    drop(conn);
    let message = format!(
        "the database {} was written by an older kifudex (schema version 2): run `kifudex index` on it \
         once (any PATH, --db {}) to bring it up to date",
        db.display(),
        db.display()
    );
    assert_every_read_refused(&db, &message);
    // An index run brings it up to date (and marks it), whatever it indexes; then it reads.
    let out = index(&games, &db);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let header = fs::read(&db).unwrap();
    assert_eq!(&header[68..72], b"KFDX");
    assert_eq!(i32::from_be_bytes(header[60..64].try_into().unwrap()) as i64, kifudex::db::VERSION);
    for args in READ_COMMANDS {
        let out = read_with(args, &db);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    }
}

/// Builds a database of `games` in `dir`, and hands the tree to another user: directories
/// traversable, the database's directory with `dir_mode`, the database with `file_mode`.
fn hand_over(dir: &Path, games: &Path, dir_mode: u32, file_mode: u32) -> PathBuf {
    fs::create_dir_all(dir).unwrap();
    let db = dir.join("k.sqlite");
    assert!(index(games, &db).status.success());
    fs::set_permissions(&db, fs::Permissions::from_mode(file_mode)).unwrap();
    fs::set_permissions(dir, fs::Permissions::from_mode(dir_mode)).unwrap();
    db
}

#[test]
fn read_commands_work_on_databases_the_user_cannot_write() {
    let tmp = tempfile::tempdir().unwrap();
    fs::set_permissions(tmp.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let games = tmp.path().join("games");
    write_games(&games, 8, 3, 24);
    let reference = tmp.path().join("reference.sqlite");
    assert!(index(&games, &reference).status.success());
    let cases = [
        // A read-only file in a directory anyone may write.
        hand_over(&tmp.path().join("file"), &games, 0o777, 0o444),
        // A read-only directory (a read-only mount is the same to SQLite).
        hand_over(&tmp.path().join("dir"), &games, 0o555, 0o444),
        // Another user's archive: theirs to write, ours to read.
        hand_over(&tmp.path().join("theirs"), &games, 0o755, 0o644),
    ];
    for db in &cases {
        let dir = db.parent().unwrap();
        let (before, names) = (hash(db), listing(dir));
        for args in READ_COMMANDS {
            let mut cmd = command();
            cmd.args(*args).arg("--db").arg(db);
            let out = unprivileged(&mut cmd).output().unwrap();
            let expected = read_with(args, &reference);
            assert_eq!(
                out.status.code(),
                expected.status.code(),
                "{} {args:?}: {}",
                db.display(),
                stderr(&out)
            );
            assert_eq!(out.stdout, expected.stdout, "{} {args:?}", db.display());
            assert_eq!(hash(db), before, "{} {args:?}", db.display());
            assert_eq!(listing(dir), names, "{} {args:?} left files", db.display());
        }
    }
    for db in &cases {
        fs::set_permissions(db.parent().unwrap(), fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// A database shared in a directory anyone may write to: a lock file another user's run made
/// (which only they may write) still tells a run that theirs is writing, and once their run
/// is gone (killed, the file left), is taken over and removed.
#[test]
fn a_lock_file_another_user_made_is_locked_and_taken_over() {
    if !super::harness::is_root() {
        eprintln!("skipped: a lock file of another user needs two users (run as root)");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    fs::set_permissions(tmp.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let games = tmp.path().join("games");
    write_games(&games, 8, 3, 25);
    let db = hand_over(&tmp.path().join("shared"), &games, 0o777, 0o666);
    let lock = tmp.path().join("shared/k.sqlite.lock");
    // Root's run, writing: its lock file, mode 0644, locked.
    let held = fs::File::create(&lock).unwrap();
    fs::set_permissions(&lock, fs::Permissions::from_mode(0o644)).unwrap();
    assert_eq!(unsafe { libc::flock(std::os::fd::AsRawFd::as_raw_fd(&held), libc::LOCK_EX) }, 0);
    let run = || {
        let mut cmd = command();
        cmd.arg("index").arg(&games).arg("--db").arg(&db).arg("--quiet");
        unprivileged(&mut cmd).output().unwrap()
    };
    let out = run();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("another kifudex index run is writing"), "{}", stderr(&out));
    // Root's run killed: the file stays, unlocked.
    drop(held);
    let out = run();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!lock.exists(), "the lock file left");
}

/// A database in a directory its reader may not enter is there all the same: the reader is
/// told it cannot read it, and why, never that there is no database (to index one first).
#[test]
fn a_database_that_cannot_be_looked_at_is_not_said_to_be_missing() {
    let tmp = tempfile::tempdir().unwrap();
    fs::set_permissions(tmp.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let games = tmp.path().join("games");
    write_games(&games, 2, 1, 25);
    let dir = tmp.path().join("closed");
    fs::create_dir(&dir).unwrap();
    let db = dir.join("k.sqlite");
    assert!(index(&games, &db).status.success());
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o000)).unwrap();
    let mut cmd = command();
    cmd.args(["export", "games", "--db"]).arg(&db);
    let out = unprivileged(&mut cmd).output().unwrap();
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
    let message = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{message}");
    assert!(message.contains("Permission denied") && !message.contains("no database"), "{message}");
}

#[test]
fn a_database_left_in_wal_mode_where_it_cannot_be_read_says_how_to_mend_it() {
    let tmp = tempfile::tempdir().unwrap();
    fs::set_permissions(tmp.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let games = tmp.path().join("games");
    write_games(&games, 4, 2, 25);
    // As an older kifudex left every file: in WAL mode, with no log beside it.
    let dir = tmp.path().join("ro");
    fs::create_dir(&dir).unwrap();
    let db = database_with(&dir, &games, "k.sqlite", "PRAGMA journal_mode = WAL");
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o555)).unwrap();
    let before = hash(&db);
    let mut cmd = command();
    cmd.args(["export", "games", "--db"]).arg(&db);
    let out = unprivileged(&mut cmd).output().unwrap();
    let message = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{message}");
    assert!(message.contains("WAL mode") && message.contains("index run"), "{message}");
    // Each way a file is left so: a killed run, a run that ended while a server read it.
    assert!(message.contains("killed") && message.contains("other programs had it open"), "{message}");
    assert_eq!(message.lines().count(), 1, "{message}");
    assert_eq!(hash(&db), before);
    // An index run by the owner puts it back in rollback mode: readable by anyone again.
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
    assert!(index(&games, &db).status.success());
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o555)).unwrap();
    let mut cmd = command();
    cmd.args(["export", "games", "--db"]).arg(&db);
    let out = unprivileged(&mut cmd).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
}

/// Another program's file in WAL mode, its schema still in its log and no shared memory
/// beside it, in a directory the reader may not write: its header does not say it is kifudex's, and its log cannot be read there,
/// so the reader says it cannot tell, not that an index run was killed writing it (nor that an
/// index run would mend it: one refuses another program's file).
#[test]
fn another_program_s_file_in_wal_mode_where_it_cannot_be_read_is_not_called_a_killed_run() {
    let tmp = tempfile::tempdir().unwrap();
    fs::set_permissions(tmp.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let dir = tmp.path().join("ro");
    let logged = not_databases(&dir).into_iter().find(|p| p.ends_with("logged.db")).unwrap();
    // As a copy of the file and its log leaves it: no shared memory beside them.
    let _ = fs::remove_file(dir.join("logged.db-shm"));
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o555)).unwrap();
    let (before, names) = (hash(&logged), listing(&dir));
    let mut cmd = command();
    cmd.args(["games", "--db"]).arg(&logged);
    let out = unprivileged(&mut cmd).output().unwrap();
    let message = stderr(&out);
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(out.status.code(), Some(2), "{message}");
    assert!(
        message.contains("cannot tell whether") && message.contains("is a kifudex database"),
        "{message}"
    );
    assert!(!message.contains("killed") && !message.contains("index run"), "{message}");
    assert_eq!((hash(&logged), listing(&dir)), (before, names));
}

/// Another program's files as a copy of a file and its log leaves them, with no shared memory
/// file (`-shm`) beside them, in a directory the user may write: SQLite would make one to read
/// the log, beside a file that may not be kifudex's. No command makes it: where the log holds
/// pages, each says it cannot tell; where the log is empty, the file itself holds the answer.
#[test]
fn a_copied_file_and_log_get_no_shared_memory_file_made_beside_them() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    write_games(&games, 2, 1, 22);
    let dir = tmp.path().join("files");
    let files = not_databases(&dir);
    let named = |name: &str| files.iter().find(|p| p.ends_with(name)).unwrap().clone();
    let (logged, at_rest) = (named("logged.db"), named("wal-app-v1.db"));
    fs::remove_file(dir.join("logged.db-shm")).unwrap();
    fs::write(dir.join("wal-app-v1.db-wal"), b"").unwrap();
    let cannot_tell = format!(
        "cannot tell whether {} is a kifudex database: its header does not say so, and its write-ahead log \
         (-wal), which may, can be read only by making a shared-memory file (-shm) beside it, which kifudex \
         does not do to a file that may be another program's; the program that wrote it reads it",
        logged.display()
    );
    assert_every_read_refused(&logged, &cannot_tell);
    assert_every_read_refused(&at_rest, &format!("not a kifudex database: {}", at_rest.display()));
    for (file, message) in
        [(&logged, cannot_tell.clone()), (&at_rest, format!("not a kifudex database: {}", at_rest.display()))]
    {
        let (before, names) = (hash(file), listing(&dir));
        let out = index(&games, file);
        assert_eq!(out.status.code(), Some(2), "{}", file.display());
        assert_eq!(stderr(&out), format!("kifudex: {message}\n"));
        assert_eq!((hash(file), listing(&dir)), (before, names), "{}", file.display());
    }
}

/// Another program stopped in the middle of a change to the database (killed, its machine
/// down) and left a hot journal: readers, which change no file, cannot read past it, and say
/// so in a line that names the journal and the fix; an index run undoes the change, and the
/// file reads as it was before it.
#[test]
fn a_change_another_program_left_half_made_is_named_and_undone_by_an_index_run() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    write_games(&games, 4, 2, 26);
    let db = tmp.path().join("k.sqlite");
    assert!(index(&games, &db).status.success());
    let before = export_games(&db);
    // The change, begun and never committed: its pages spill into the file (a cache of one
    // page), and the file and its journal are copied as a crash would leave them.
    let left = tmp.path().join("left");
    fs::create_dir(&left).unwrap();
    let half = left.join("k.sqlite");
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch(
            "PRAGMA cache_size = 1; BEGIN IMMEDIATE; UPDATE players SET name = name || 'x';
             CREATE TABLE junk(x); INSERT INTO junk SELECT randomblob(2000) FROM games, games;",
        )
        .unwrap();
        fs::copy(&db, &half).unwrap();
        fs::copy(tmp.path().join("k.sqlite-journal"), left.join("k.sqlite-journal")).unwrap();
        conn.execute_batch("ROLLBACK").unwrap();
    }
    let journal = left.join("k.sqlite-journal");
    let message = format!(
        "cannot read {}: a program stopped while writing it, and left the change it had begun in {}; the change \
         must be undone before the file can be read, which reading does not do: an index run on it, by a user \
         who may write the file and its directory, undoes it",
        half.display(),
        journal.display()
    );
    assert_every_read_refused(&half, &message);
    let empty = tmp.path().join("none");
    fs::create_dir(&empty).unwrap();
    assert!(index(&empty, &half).status.success());
    assert!(!journal.exists());
    assert_eq!(export_games(&half), before);
}

#[test]
fn odd_database_paths_get_a_clear_message() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    write_games(&games, 2, 2, 26);
    // A directory.
    let dir = tmp.path().join("somedir");
    fs::create_dir(&dir).unwrap();
    let message = format!("kifudex: {} is a directory, not a database file\n", dir.display());
    assert_eq!(stderr(&read_with(&["export", "games"], &dir)), message);
    let out = index(&games, &dir);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out), message);
    assert_eq!(listing(tmp.path()), BTreeSet::from(["games".to_string(), "somedir".to_string()]));
    // A directory that does not exist.
    let nowhere = tmp.path().join("no/such/dir/k.sqlite");
    let out = index(&games, &nowhere);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "kifudex: cannot create the database {}: there is no directory {}\n",
            nowhere.display(),
            nowhere.parent().unwrap().display()
        )
    );
    let out = read_with(&["query"], &nowhere);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with(&format!("kifudex: no database at {}", nowhere.display())));
    assert!(!tmp.path().join("no").exists());
    // A name that ends with a slash, which names a directory: it is said so, and nothing made.
    let slash = PathBuf::from(format!("{}/", tmp.path().join("k.sqlite").display()));
    let out = index(&games, &slash);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "kifudex: cannot create the database {}: a path that ends with / names a directory, and \
             there is none: give the database file's path\n",
            slash.display()
        )
    );
    assert_eq!(listing(tmp.path()), BTreeSet::from(["games".to_string(), "somedir".to_string()]));
    // A file where a directory should be is named as what it is.
    let notes = tmp.path().join("notes.txt");
    fs::write(&notes, "").unwrap();
    for under in ["k.sqlite", "sub/k.sqlite"] {
        let db = notes.join(under);
        let out = index(&games, &db);
        assert_eq!(out.status.code(), Some(2));
        let message = format!(
            "kifudex: cannot create the database {}: {} is not a directory\n",
            db.display(),
            notes.display()
        );
        assert_eq!(stderr(&out), message);
    }
    fs::remove_file(&notes).unwrap();
    // A name that is not UTF-8 (a Shift_JIS file name) works like any other.
    let sjis = tmp.path().join(OsStr::from_bytes(b"\x8a\xfb\x95\x88.sqlite"));
    let out = index(&games, &sjis);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = read_with(&["export", "games"], &sjis);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 5);
    assert_eq!(read_with(&["query"], &sjis).status.code(), Some(0));
    // Messages name such a path as the database stores it, each byte that is not UTF-8 as
    // `\xNN`: a lossy form (`�`) would name 棋譜 and 将棋 (in CP932) alike.
    let missing = tmp.path().join(OsStr::from_bytes(b"\x8f\xab\x8a\xfb.sqlite"));
    let said = stderr(&read_with(&["query"], &missing));
    assert!(said.contains(r"\x8f\xab\x8a\xfb.sqlite"), "{said}");
    let dir = tmp.path().join(OsStr::from_bytes(b"\x8a\xfb"));
    fs::create_dir(&dir).unwrap();
    let out = command().args(["export", "games", "--db"]).arg(&sjis).arg("--out").arg(&dir).output().unwrap();
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains(r"\x8a\xfb is a directory"), "{said}");
}

#[test]
fn no_output_flag_writes_over_the_database_or_any_sqlite_file() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let record = write_games(&games, 6, 2, 22).remove(0);
    let db = tmp.path().join("k.sqlite");
    assert!(index(&games, &db).status.success());
    std::os::unix::fs::symlink(&db, tmp.path().join("link.sqlite")).unwrap();
    fs::hard_link(&db, tmp.path().join("hard.sqlite")).unwrap();
    let foreign = tmp.path().join("foreign.sqlite");
    foreign_sqlite(&foreign);
    let (before, foreign_before, names) = (hash(&db), hash(&foreign), listing(tmp.path()));
    let dir = tmp.path().to_str().unwrap();
    let db_text = db.to_str().unwrap();
    // (arguments, the file named, what the message says it is)
    let cases: Vec<(Vec<String>, String, String)> = [
        ("index GAMES --db DB --rejects DB", "DB", "the database DB"),
        (
            "index GAMES --db DB --rejects DIR/./k.sqlite-wal",
            "DIR/./k.sqlite-wal",
            "a file of the database DB",
        ),
        ("export games --db DB --out DIR/link.sqlite", "DIR/link.sqlite", "the database DB"),
        ("export moves --db DIR/link.sqlite --out DB", "DB", "the database DIR/link.sqlite"),
        (
            "export positions --format parquet --db DB --out DIR/hard.sqlite",
            "DIR/hard.sqlite",
            "the database DB",
        ),
        ("show 1 --db DB --out DIR/k.sqlite-shm", "DIR/k.sqlite-shm", "a file of the database DB"),
        ("show 1 --db DB --out DIR/foreign.sqlite", "DIR/foreign.sqlite", "an SQLite database"),
        ("convert RECORD --out DIR/hard.sqlite", "DIR/hard.sqlite", "an SQLite database"),
    ]
    .iter()
    .map(|(args, file, what)| {
        let fill = |s: &str| {
            s.replace("GAMES", games.to_str().unwrap())
                .replace("RECORD", record.to_str().unwrap())
                .replace("DB", db_text)
                .replace("DIR", dir)
        };
        (fill(args).split(' ').map(String::from).collect(), fill(file), fill(what))
    })
    .collect();
    for (args, file, what) in &cases {
        let flag = args.iter().rev().nth(1).unwrap();
        let out = command().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let message = stderr(&out);
        assert!(message.starts_with(&format!("kifudex: {flag} {file} is {what}")), "{args:?}: {message}");
        assert_eq!((hash(&db), hash(&foreign)), (before, foreign_before), "{args:?} wrote over a database");
        assert_eq!(listing(tmp.path()), names, "{args:?} left a file");
    }
    // A file of another name beside them is written as ever.
    let out = command()
        .args(["show", "1", "--db", db_text, "--out"])
        .arg(tmp.path().join("g.kif"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(fs::read(tmp.path().join("g.kif")).unwrap().len() > 100);
}

#[test]
fn no_output_flag_writes_over_game_records_or_the_file_read_and_index_checks_its_output_first() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let record = write_games(&games, 6, 2, 23).remove(0);
    let db = tmp.path().join("k.sqlite");
    assert!(index(&games, &db).status.success());
    // A game the refused runs below would add, were they not refused before the run.
    fs::write(games.join("new.usi"), "position startpos moves 7g7f 3c3d 2g2f\n").unwrap();
    let games_before = export_games(&db);
    let (record_before, names) = (hash(&record), listing(tmp.path()));
    let same_record = games.join(".").join(record.strip_prefix(&games).unwrap());
    let p = |p: &Path| p.to_str().unwrap().to_string();
    let (g, d, r, same, t) = (p(&games), p(&db), p(&record), p(&same_record), p(tmp.path()));
    let (journal, nowhere) = (format!("{d}-journal"), format!("{t}/no/r.csv"));
    let slash = format!("{t}/r.csv/");
    // (arguments, the start of the message)
    let cases = [
        (vec!["index", &g, "--db", &d, "--rejects", &r], format!("--rejects {r} holds game records")),
        (vec!["export", "games", "--db", &d, "--out", &r], format!("--out {r} holds game records")),
        (vec!["convert", &r, "--to", "csa", "--out", &same], format!("--out {same} is the record file read")),
        (vec!["convert", &r, "--out", &journal], format!("--out {journal} is a file of the database {d}")),
        (
            vec!["index", &g, "--db", &d, "--rejects", &nowhere],
            format!("cannot create {nowhere}: there is no directory {t}/no"),
        ),
        (
            vec!["export", "games", "--db", &d, "--out", &slash],
            format!("cannot create {slash}: a path that ends with / names a directory, and there is none"),
        ),
        (
            vec!["index", &g, "--db", &d, "--rejects", &slash],
            format!("cannot create {slash}: a path that ends with / names a directory, and there is none"),
        ),
    ];
    for (args, start) in &cases {
        let out = command().args(args).output().unwrap();
        let message = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {message}");
        assert!(message.starts_with(&format!("kifudex: {start}")), "{args:?}: {message}");
        assert_eq!(hash(&record), record_before, "{args:?} wrote over the record");
        assert_eq!(listing(tmp.path()), names, "{args:?} left a file");
        assert_eq!(export_games(&db), games_before, "{args:?} indexed");
    }
    // Another name is written as ever, and so is a file that holds no record.
    let csv = tmp.path().join("rejects.csv");
    fs::write(&csv, "path,game_index\n").unwrap();
    let out = command().args(["index", &g, "--db", &d, "--rejects", &p(&csv)]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = command()
        .args(["convert", &p(&record), "--to", "csa", "--out"])
        .arg(tmp.path().join("g.csa"))
        .output();
    assert!(out.unwrap().status.success());
}

/// An export written again over the file it wrote before replaces it, even when the moves'
/// comments, at the start of their lines, read as KI2 moves: the file is kifudex's own table,
/// not a record; a record file stays refused.
#[test]
fn an_export_is_written_again_over_the_export_it_wrote_before() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    fs::create_dir(&games).unwrap();
    let record = games.join("commented.kifu");
    fs::write(
        &record,
        "手合割：平手\n先手：甲\n後手：乙\n手数----指手---------消費時間--\n   1 ７六歩(77)\n\
         *本譜の前に\n*▲７六歩　△３四歩　▲２六歩\n*と進む順もある。\n   2 ３四歩(33)\n   3 投了\n",
    )
    .unwrap();
    let db = tmp.path().join("k.sqlite");
    assert!(index(&games, &db).status.success());
    for (what, format) in [("moves", "csv"), ("moves", "jsonl"), ("games", "csv"), ("positions", "jsonl")] {
        let out = tmp.path().join(format!("{what}.{format}"));
        let mut written = Vec::new();
        for _ in 0..2 {
            let run = command()
                .args(["export", what, "--format", format, "--db"])
                .arg(&db)
                .arg("--out")
                .arg(&out)
                .output()
                .unwrap();
            assert_eq!(run.status.code(), Some(0), "{what} {format}: {}", stderr(&run));
            written.push(fs::read(&out).unwrap());
        }
        assert_eq!(written[0], written[1], "{what} {format}");
        if what == "moves" {
            let text = String::from_utf8(written[1].clone()).unwrap();
            let comment = if format == "csv" {
                "\"本譜の前に\n▲７六歩　△３四歩　▲２六歩\nと進む順もある。\""
            } else {
                "\"本譜の前に\\n▲７六歩　△３四歩　▲２六歩\\nと進む順もある。\""
            };
            assert!(text.contains(comment), "{format}: {text}");
        }
    }
    let run =
        command().args(["export", "moves", "--db"]).arg(&db).arg("--out").arg(&record).output().unwrap();
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    assert!(stderr(&run).contains("holds game records"), "{}", stderr(&run));
}

/// The aliases file a command reads is never its output: `export` and `show` refuse it,
/// however the path is spelled, and leave it as it was.
#[test]
fn no_output_flag_writes_over_the_aliases_file_read() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    write_games(&games, 6, 2, 23);
    let db = tmp.path().join("k.sqlite");
    assert!(index(&games, &db).status.success());
    let aliases = tmp.path().join("aliases.csv");
    fs::write(&aliases, "alias,name\nSomeone,Player 1\n").unwrap();
    let before = hash(&aliases);
    let a = aliases.to_str().unwrap().to_string();
    let spelled = tmp.path().join(".").join("aliases.csv").to_str().unwrap().to_string();
    let d = db.to_str().unwrap().to_string();
    for args in [
        vec!["export", "games", "--db", &d, "--aliases", &a, "--out", &a],
        vec!["export", "moves", "--db", &d, "--aliases", &a, "--out", &spelled],
        vec!["show", "1", "--db", &d, "--aliases", &a, "--out", &a],
    ] {
        let out = command().args(&args).output().unwrap();
        let message = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {message}");
        let out_path = args.last().unwrap();
        assert!(
            message.starts_with(&format!("kifudex: --out {out_path} is the aliases file read (--aliases)")),
            "{args:?}: {message}"
        );
        assert_eq!(hash(&aliases), before, "{args:?} wrote over the aliases");
    }
}

/// `--out -` is stdout, as it is to most tools: no file named `-` is written.
#[test]
fn out_dash_is_stdout() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let record = write_games(&games, 2, 2, 23).remove(0);
    let db = tmp.path().join("k.sqlite");
    assert!(index(&games, &db).status.success());
    let (d, r) = (db.to_str().unwrap(), record.to_str().unwrap());
    for args in
        [vec!["export", "games", "--db", d], vec!["show", "1", "--db", d], vec!["convert", r, "--to", "csa"]]
    {
        let plain = command().args(&args).current_dir(tmp.path()).output().unwrap();
        let dashed = command().args(&args).args(["--out", "-"]).current_dir(tmp.path()).output().unwrap();
        assert_eq!(dashed.status.code(), Some(0), "{args:?}: {}", stderr(&dashed));
        assert!(!plain.stdout.is_empty());
        assert_eq!(dashed.stdout, plain.stdout, "{args:?}");
        assert!(!tmp.path().join("-").exists(), "{args:?} wrote a file named -");
    }
}

/// An export over a file you may write, in a directory you may not, could only be written in
/// place, and a command stopped on the way would leave it cut where no reader could tell: it
/// is refused, and the file stays as it was.
#[test]
fn an_output_file_in_a_directory_that_may_not_be_written_is_refused_and_kept() {
    let tmp = tempfile::tempdir().unwrap();
    fs::set_permissions(tmp.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let games = tmp.path().join("games");
    write_games(&games, 4, 2, 26);
    let db = tmp.path().join("g.sqlite");
    assert!(index(&games, &db).status.success());
    let dir = tmp.path().join("exports");
    fs::create_dir(&dir).unwrap();
    let out_file = dir.join("games.csv");
    fs::write(&out_file, "the export before\n").unwrap();
    fs::set_permissions(&out_file, fs::Permissions::from_mode(0o666)).unwrap();
    if super::harness::is_root() {
        // Nobody's file, in root's directory.
        std::os::unix::fs::chown(&out_file, Some(65534), Some(65534)).unwrap();
    }
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o555)).unwrap();
    let mut cmd = command();
    cmd.args(["export", "games", "--db"]).arg(&db).arg("--out").arg(&out_file);
    let out = unprivileged(&mut cmd).output().unwrap();
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("may not be written"), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&out_file).unwrap(), "the export before\n");
}

/// A database kept among the records it indexes is no input: named with a record's
/// extension, or taken by `--include '*'`, it and its journal were read as records and
/// rejected (`decode`), run after run. Nor is it one of the archive's files: it and its
/// side files, which come and go with the runs, are not counted (skipped, say), so every
/// run counts the three record files and nothing else.
#[test]
fn the_database_among_the_records_is_never_read_as_one() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let games = dir.join("games");
    write_games(&games, 3, 2, 41);
    let dir = games.as_path();
    // The database in the tree, by a record's name or taken by a glob, or outside it and
    // reached through a link the walk follows.
    fs::create_dir(tmp.path().join("elsewhere")).unwrap();
    let linked = tmp.path().join("elsewhere/k.sqlite");
    std::os::unix::fs::symlink(&linked, dir.join("archive.kif")).unwrap();
    for (name, extra) in [
        ("archive.kifu", &[][..]),
        ("archive.sqlite", &["--include", "*"][..]),
        ("../elsewhere/k.sqlite", &["--follow-links"][..]),
    ] {
        let db = dir.join(name);
        for run in 0..2 {
            let out = command()
                .arg("index")
                .arg(dir)
                .arg("--db")
                .arg(&db)
                .args(extra)
                .args(["--json", "--quiet"])
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(0), "{name} run {run}: {}", stderr(&out));
            let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(summary["files_rejected"], 0, "{name} run {run}: {summary}");
            assert_eq!(summary["files_seen"], 3, "{name} run {run}: {summary}");
            assert_eq!(summary["files_skipped"], 0, "{name} run {run}: {summary}");
            let rejects = read_with(&["export", "rejects"], &db);
            let listed = String::from_utf8_lossy(&rejects.stdout);
            assert_eq!(listed.lines().count(), 1, "{name} run {run}: only the header\n{listed}");
        }
        assert_eq!(export_games(&db).lines().count(), 1 + 6, "{name}: the six games, once each");
        fs::remove_file(&db).unwrap();
    }
}

/// An alias added again as it is is not written again: on a database the user cannot write,
/// it was refused ("cannot write"). The alias commands say nothing of an unfinished index
/// run, which is about answers, not aliases.
#[test]
fn an_alias_added_again_writes_nothing_and_alias_commands_do_not_warn_of_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("db");
    fs::create_dir(&dir).unwrap();
    let db = dir.join("k.sqlite");
    write_games(&tmp.path().join("records"), 2, 1, 43);
    assert!(index(&tmp.path().join("records"), &db).status.success());
    let add = || {
        let mut cmd = command();
        cmd.args(["alias", "add", "Habu", "羽生善治", "--db"]).arg(&db);
        cmd
    };
    assert!(add().output().unwrap().status.success());
    // The mark a killed run leaves: the id of a process that is gone.
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute("INSERT INTO meta(key, value) VALUES ('run_unfinished', '4194305')", []).unwrap();
    drop(conn);
    assert!(stderr(&read_with(&["games"], &db)).contains("did not finish"), "the mark is seen");
    let before = hash(&db);
    fs::set_permissions(&db, fs::Permissions::from_mode(0o444)).unwrap();
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o555)).unwrap();
    let out = unprivileged(&mut add()).output().unwrap();
    let said = stderr(&out);
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert_eq!(said, "kifudex: alias Habu → 羽生善治 (already there)\n");
    assert_eq!(hash(&db), before);
    for args in [&["alias", "list"][..], &["alias", "remove", "Nobody"]] {
        let said = stderr(&read_with(args, &db));
        assert!(!said.contains("warning"), "{args:?}: {said}");
    }
}

/// A copy put in the place of a database that a killed run left in WAL mode (restored from a
/// backup, say) lies beside the run's log, which holds another file's pages: SQLite would read
/// them over the copy's own. Every command says so and changes neither file; with the log moved
/// away, the copy reads as itself.
#[test]
fn a_copy_put_beside_a_killed_run_s_log_is_not_read_with_it() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    write_games(&games, 3, 1, 23);
    let db = tmp.path().join("k.sqlite");
    assert!(index(&games, &db).status.success());
    let before = export_games(&db);
    let backup = tmp.path().join("backup.sqlite");
    fs::copy(&db, &backup).unwrap();
    // What a run killed while writing leaves: the file in WAL mode, and a log holding pages.
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true).unwrap();
        conn.execute_batch("PRAGMA journal_mode = WAL; DELETE FROM games WHERE id > 1;").unwrap();
    }
    let log = fs::canonicalize(&db).unwrap().with_file_name("k.sqlite-wal");
    assert!(fs::metadata(&log).unwrap().len() > 32);
    // The backup put in its place, as `cp backup.sqlite new && mv new k.sqlite` does.
    let new = tmp.path().join("new.sqlite");
    fs::copy(&backup, &new).unwrap();
    fs::rename(&new, &db).unwrap();
    let message = format!(
        "cannot read {}: the write-ahead log beside it, {}, is not its own (the file's header says it was \
         not being written in WAL mode): it was left by the database that was at this path before this one \
         was put in its place, and reading it with that log would mix the two; move the log away (with the \
         -shm file beside it), and keep it with the database it belongs to",
        db.display(),
        log.display()
    );
    assert_every_read_refused(&db, &message);
    let (file, logged) = (hash(&db), hash(&log));
    let out = index(&games, &db);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(stderr(&out), format!("kifudex: {message}\n"));
    assert_eq!((hash(&db), hash(&log)), (file, logged));
    fs::rename(&log, tmp.path().join("killed.sqlite-wal")).unwrap();
    let _ = fs::remove_file(fs::canonicalize(&db).unwrap().with_file_name("k.sqlite-shm"));
    assert_eq!(export_games(&db), before);
}
