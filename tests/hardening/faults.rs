//! Fault injection: a full disk, a read-only database, files removed or changed while a run
//! reads them, and runs killed at random moments. Each ends with a sound database (SQLite's
//! integrity check, no game or file written in part), and, where the process lives to say
//! it, a message that names the problem and a nonzero exit; a later run completes the work.

use std::{
    fs,
    os::unix::fs::{FileTypeExt, PermissionsExt},
    path::PathBuf,
    time::{Duration, Instant},
};

use kifudex::{
    db::Reader,
    ingest::{self, NewReject, Observer, Options},
};

use super::harness::{
    assert_answers_cover_the_stored_games, assert_sound, export_games, index, is_root, listed_games, stderr,
    unprivileged, write_games, write_games_of,
};
use crate::util::{Rng, assert_every_read_works, command};

/// Whether this machine lets the tests make a mount namespace with a small tmpfs in it.
fn can_mount_tmpfs() -> bool {
    crate::util::wrapper("unshare")
        .args(["-rm", "sh", "-c", "d=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs \"$d\""])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A disk that fills up during the run: the database lives on a tmpfs of `size`, mounted in
/// a mount namespace of its own (so the test needs no privileges beyond user namespaces).
/// The run must stop with status 2 and say the disk is full; the database it leaves (copied
/// out before the namespace goes) must be sound and, given room, complete.
#[test]
fn a_full_disk_stops_the_run_with_a_sound_database() {
    if !can_mount_tmpfs() {
        // The file-size limit test below fills the disk's stand-in on every machine.
        eprintln!(
            "skipped: no mount namespace with a tmpfs here (unshare -rm); see the file-size limit test"
        );
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    write_games(&games, 300, 4, 7);
    let reference = tmp.path().join("reference.sqlite");
    assert!(index(&games, &reference).status.success());
    let expected = export_games(&reference);

    for size in ["200k", "600k", "1200k"] {
        let (mnt, out_dir) = (tmp.path().join("mnt"), tmp.path().join(format!("out-{size}")));
        fs::create_dir_all(&mnt).unwrap();
        fs::create_dir_all(&out_dir).unwrap();
        // Inside the namespace: mount, index onto the tmpfs, copy the database out, exit with
        // the index run's status.
        let script = "mount -t tmpfs -o size=$1 tmpfs \"$2\" || exit 99
            \"$3\" index \"$4\" --db \"$2/k.sqlite\" --quiet; code=$?
            cp \"$2\"/k.sqlite* \"$5\"/ 2>/dev/null; exit $code";
        let out = crate::util::wrapper("unshare")
            .args(["-rm", "sh", "-c", script, "sh", size])
            .arg(&mnt)
            .arg(crate::util::exe())
            .arg(&games)
            .arg(&out_dir)
            .output()
            .unwrap();
        let message = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "tmpfs of {size}: {message}");
        assert!(message.contains("the disk is full"), "tmpfs of {size}: {message}");
        // It says what was kept and what to do.
        assert!(message.contains("run the same command again"), "tmpfs of {size}: {message}");
        assert!(message.lines().count() <= 3, "tmpfs of {size}: one clear message, not {message}");
        let db = out_dir.join("k.sqlite");
        // A new database whose schema did not fit is not left half made (the two smaller
        // disks, which its empty tables and indexes of 16 KiB pages outgrow): the next run
        // makes it. The largest holds the schema and fills with games.
        assert!(db.exists() || size != "1200k", "tmpfs of {size}: no database was left");
        if db.exists() {
            assert_sound(&db);
        }
        // With room, a second run completes the first.
        let out = index(&games, &db);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_sound(&db);
        assert_eq!(export_games(&db), expected, "tmpfs of {size}, completed");
        assert_every_read_works(&db, &format!("tmpfs of {size}, completed"), 50);
    }
}

/// A run that finds no room at all: on a disk already full, and on one with no inode left
/// (for its log). Either way it says the disk is full, and the database reads afterwards as
/// it did before, where it lies (no `-wal` beside it, which would make readers need to write
/// there); a new database the run could not make is not left behind half made.
#[test]
fn a_run_that_finds_no_room_leaves_the_database_as_readable_as_it_was() {
    if !can_mount_tmpfs() {
        eprintln!("skipped: no mount namespace with a tmpfs here (unshare -rm)");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (games, more) = (tmp.path().join("games"), tmp.path().join("more"));
    write_games(&games, 40, 4, 9);
    write_games(&more, 40, 4, 10);
    let reference = tmp.path().join("reference.sqlite");
    assert!(index(&games, &reference).status.success());
    let expected = export_games(&reference);
    // Inside the namespace: a tmpfs holding a copy of the database, filled up (or with no
    // inode left but the lock's), an index run onto it, then a reader while the disk is
    // still full (so it can make nothing beside the file); out come the run's and the
    // reader's output, and what lies beside the file.
    let script = "mount -t tmpfs -o \"$1\" tmpfs \"$2\" || exit 99
        cp \"$3\" \"$2/k.sqlite\"
        [ \"$7\" = fill ] && { dd if=/dev/zero of=\"$2/fill\" bs=4k 2>/dev/null; true; }
        \"$4\" index \"$5\" --db \"$2/k.sqlite\" --quiet 2>\"$6/index.err\"; echo $? >\"$6/index.code\"
        \"$4\" export games --db \"$2/k.sqlite\" >\"$6/games.csv\" 2>\"$6/read.err\"; echo $? >\"$6/read.code\"
        ls \"$2\" >\"$6/beside\"";
    for (options, fill) in [("size=4m", "fill"), ("size=40m,nr_inodes=3", "-")] {
        let (mnt, out) = (tmp.path().join("mnt"), tmp.path().join(format!("out-{fill}")));
        fs::create_dir_all(&mnt).unwrap();
        fs::create_dir_all(&out).unwrap();
        let run = crate::util::wrapper("unshare")
            .args(["-rm", "sh", "-c", script, "sh", options])
            .arg(&mnt)
            .arg(&reference)
            .arg(crate::util::exe())
            .arg(&more)
            .arg(&out)
            .arg(fill)
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(0), "{options}: {}", stderr(&run));
        let read = |name: &str| fs::read_to_string(out.join(name)).unwrap();
        assert_eq!(read("index.code").trim(), "2", "{options}: {}", read("index.err"));
        assert!(read("index.err").contains("the disk is full"), "{options}: {}", read("index.err"));
        assert_eq!(read("read.code").trim(), "0", "{options}: {}", read("read.err"));
        assert_eq!(read("games.csv"), expected, "{options}");
        assert!(!read("beside").contains("k.sqlite-wal"), "{options}: {}", read("beside"));
    }
    // A new database on a disk too small for its first pages: nothing is left but the
    // message.
    let out = tmp.path().join("out-new");
    fs::create_dir_all(&out).unwrap();
    let script = "mount -t tmpfs -o size=16k tmpfs \"$1\" || exit 99
        \"$2\" index \"$3\" --db \"$1/new.sqlite\" --quiet 2>\"$4/index.err\"; echo $? >\"$4/index.code\"
        ls \"$1\" >\"$4/beside\"";
    let mnt = tmp.path().join("mnt");
    let run = crate::util::wrapper("unshare")
        .args(["-rm", "sh", "-c", script, "sh"])
        .arg(&mnt)
        .arg(crate::util::exe())
        .arg(&games)
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let read = |name: &str| fs::read_to_string(out.join(name)).unwrap();
    assert_eq!(read("index.code").trim(), "2", "{}", read("index.err"));
    assert!(read("index.err").contains("the disk is full"), "{}", read("index.err"));
    assert_eq!(read("beside"), "", "a new database half made was left");
}

/// The same without a mount: a limit on the size of files the process may write
/// (`ulimit -f`), which the database reaches part-way through the run.
#[test]
fn a_file_size_limit_stops_the_run_with_a_sound_database() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    write_games(&games, 300, 4, 8);
    let reference = tmp.path().join("reference.sqlite");
    assert!(index(&games, &reference).status.success());
    let expected = export_games(&reference);
    for blocks in [200, 600, 1200] {
        // 1 KiB blocks. A write past the limit raises SIGXFSZ, whose default ends the process
        // with no word: kifudex catches it, so that the write fails (EFBIG) and is said.
        let db = tmp.path().join(format!("limited-{blocks}.sqlite"));
        let out = crate::util::wrapper("sh")
            .args(["-c", "ulimit -f $1; exec \"$2\" index \"$3\" --db \"$4\" --quiet", "sh"])
            .arg(blocks.to_string())
            .arg(crate::util::exe())
            .arg(&games)
            .arg(&db)
            .output()
            .unwrap();
        let message = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "limit {blocks} KiB: {message}");
        assert!(message.contains("k.sqlite") || message.contains(".sqlite"), "limit {blocks} KiB: {message}");
        assert_sound(&db);
        // (A run stopped before its schema was made leaves no kifudex database yet.)
        if listed_games(&db).is_some() {
            assert_every_read_works(&db, &format!("limit {blocks} KiB, stopped"), 20);
        }
        let out = index(&games, &db);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(export_games(&db), expected, "limit {blocks} KiB, completed");
    }
}

/// An export that cannot be written whole (the file-size limit stands in for a full disk):
/// status 2 and a message, and no cut file under the name asked for: the file that was there
/// stays byte for byte, and nothing else is left beside it. With room, the same export
/// replaces it whole.
#[test]
fn an_export_cut_short_leaves_the_file_that_was_there() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    write_games(&games, 300, 4, 9);
    let db = tmp.path().join("k.sqlite");
    assert!(index(&games, &db).status.success());
    let expected = export_games(&db);
    assert!(expected.len() > 64 << 10, "the export outgrows the limit");
    let out_dir = tmp.path().join("out");
    for (format, name) in [("csv", "games.csv"), ("parquet", "games.parquet")] {
        fs::create_dir_all(&out_dir).unwrap();
        let target = out_dir.join(name);
        fs::write(&target, "the file that was there\n").unwrap();
        // A limit far below the export (SIGXFSZ left at its default, as above).
        let script = "ulimit -f 64; exec \"$1\" export games --db \"$2\" --format \"$3\" --out \"$4\"";
        let out = crate::util::wrapper("sh")
            .args(["-c", script, "sh"])
            .arg(crate::util::exe())
            .arg(&db)
            .arg(format)
            .arg(&target)
            .output()
            .unwrap();
        let message = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{format}: {message}");
        assert!(message.contains("cannot write"), "{format}: {message}");
        assert_eq!(fs::read_to_string(&target).unwrap(), "the file that was there\n", "{format}");
        let left: Vec<_> = fs::read_dir(&out_dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left, [std::ffi::OsString::from(name)], "{format}: nothing but the file");
        let out = command()
            .args(["export", "games", "--format", format, "--out"])
            .arg(&target)
            .arg("--db")
            .arg(&db)
            .output()
            .unwrap();
        assert!(out.status.success(), "{format}: {}", stderr(&out));
        assert!(fs::metadata(&target).unwrap().len() > 64 << 10, "{format}: replaced whole");
        fs::remove_dir_all(&out_dir).unwrap();
    }
    // The CSV written with room is the export itself.
    let target = out_dir.join("games.csv");
    fs::create_dir_all(&out_dir).unwrap();
    let out =
        command().args(["export", "games", "--out"]).arg(&target).arg("--db").arg(&db).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&target).unwrap(), expected);
}

/// An output file its user may not write, in a directory anyone may: refused as writing it
/// would be (status 2), never replaced behind its permissions.
#[test]
fn a_read_only_output_file_is_refused_not_replaced() {
    let tmp = tempfile::tempdir().unwrap();
    fs::set_permissions(tmp.path(), fs::Permissions::from_mode(0o777)).unwrap();
    let games = tmp.path().join("games");
    write_games(&games, 20, 2, 11);
    let db = tmp.path().join("k.sqlite");
    assert!(index(&games, &db).status.success());
    let out_dir = tmp.path().join("out");
    fs::create_dir_all(&out_dir).unwrap();
    let target = out_dir.join("games.csv");
    fs::write(&target, "kept\n").unwrap();
    for entry in walkdir::WalkDir::new(tmp.path()) {
        let entry = entry.unwrap();
        let mode = if entry.file_type().is_dir() { 0o777 } else { 0o444 };
        fs::set_permissions(entry.path(), fs::Permissions::from_mode(mode)).unwrap();
    }
    let mut cmd = command();
    cmd.args(["export", "games", "--out"]).arg(&target).arg("--db").arg(&db);
    let out = unprivileged(&mut cmd).output().unwrap();
    let message = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{message}");
    assert!(message.contains("cannot create") && message.contains("games.csv"), "{message}");
    assert_eq!(fs::read_to_string(&target).unwrap(), "kept\n");
    let left: Vec<_> = fs::read_dir(&out_dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, [std::ffi::OsString::from("games.csv")], "nothing but the file");
    assert_eq!(fs::metadata(&target).unwrap().permissions().mode() & 0o777, 0o444);
}

/// An output file root replaces keeps its owner and group, besides its mode: a file of
/// another user's stayed root's, which that user could no longer read.
#[test]
fn a_replaced_output_file_keeps_its_owner() {
    if !is_root() {
        eprintln!("skipped: only root may give a file to another user");
        return;
    }
    use std::os::unix::fs::MetadataExt;
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    write_games(&games, 20, 2, 13);
    let db = tmp.path().join("k.sqlite");
    assert!(index(&games, &db).status.success());
    let target = tmp.path().join("games.csv");
    fs::write(&target, "theirs\n").unwrap();
    std::os::unix::fs::chown(&target, Some(65534), Some(65534)).unwrap();
    fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).unwrap();
    let out =
        command().args(["export", "games", "--out"]).arg(&target).arg("--db").arg(&db).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let meta = fs::metadata(&target).unwrap();
    assert_eq!((meta.uid(), meta.gid(), meta.mode() & 0o7777), (65534, 65534, 0o640));
    assert!(fs::read_to_string(&target).unwrap().starts_with("game_id,"), "the export replaced it");
}

/// `--out` a named pipe: written directly, as it is read (the checks that keep outputs off
/// databases and off the record read never open it to look, which would wait for a writer),
/// by `export`, `show` and `convert`.
#[test]
fn an_export_to_a_named_pipe_streams_into_it() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    write_games(&games, 20, 2, 12);
    let db = tmp.path().join("k.sqlite");
    assert!(index(&games, &db).status.success());
    let pipe = tmp.path().join("pipe");
    assert!(std::process::Command::new("mkfifo").arg(&pipe).status().unwrap().success());
    // What `args` writes with `--out` the pipe, as a reader at its other end gets it.
    let through_pipe = |args: &[&std::ffi::OsStr]| {
        let reader = {
            let pipe = pipe.clone();
            std::thread::spawn(move || fs::read_to_string(pipe).unwrap())
        };
        let mut child = command().args(args).arg("--out").arg(&pipe).spawn().unwrap();
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > Duration::from_secs(30) {
                child.kill().unwrap();
                // Let the reader end, then fail.
                let _ = fs::write(&pipe, "");
                panic!("{args:?} into a named pipe did not end");
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        assert!(status.success(), "{args:?}");
        reader.join().unwrap()
    };
    let os = |s: &'static str| std::ffi::OsStr::new(s);
    assert_eq!(through_pipe(&[os("export"), os("games"), os("--db"), db.as_os_str()]), export_games(&db));
    let stdout =
        |args: &[&std::ffi::OsStr]| String::from_utf8(command().args(args).output().unwrap().stdout).unwrap();
    let show = [os("show"), os("1"), os("--to"), os("csa"), os("--db"), db.as_os_str()];
    assert_eq!(through_pipe(&show), stdout(&show));
    let record = walkdir::WalkDir::new(&games)
        .sort_by_file_name()
        .into_iter()
        .map(Result::unwrap)
        .find(|e| e.file_type().is_file())
        .unwrap()
        .into_path();
    let convert = [os("convert"), record.as_os_str(), os("--to"), os("csa")];
    assert!(stdout(&convert).contains("\nV2.2\n"), "{}", stdout(&convert));
    assert_eq!(through_pipe(&convert), stdout(&convert));
    assert!(fs::metadata(&pipe).unwrap().file_type().is_fifo(), "the pipe is still a pipe");
}

/// Ctrl-C (SIGINT) or SIGTERM during an export to a file: the status the signal gives (130,
/// 143), the file that was there byte for byte, and no hidden file left beside it.
#[test]
fn an_export_stopped_by_a_signal_leaves_the_file_that_was_there() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    write_games(&games, 300, 4, 10);
    let db = tmp.path().join("k.sqlite");
    assert!(index(&games, &db).status.success());
    let out_dir = tmp.path().join("out");
    fs::create_dir_all(&out_dir).unwrap();
    let target = out_dir.join("moves.csv");
    for (signal, status) in [("-INT", 130), ("-TERM", 143)] {
        let mut landed = false;
        // An export that ends before the signal reaches it is tried again.
        for _ in 0..20 {
            fs::write(&target, "the file that was there\n").unwrap();
            let mut export = command()
                .args(["export", "moves", "--out"])
                .arg(&target)
                .arg("--db")
                .arg(&db)
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap();
            // Once the hidden file is there, the signal.
            let started = Instant::now();
            let writing = loop {
                let hidden = fs::read_dir(&out_dir).unwrap().count() > 1;
                if hidden
                    || export.try_wait().unwrap().is_some()
                    || started.elapsed() > Duration::from_secs(20)
                {
                    break hidden;
                }
                std::thread::sleep(Duration::from_micros(200));
            };
            if writing {
                let pid = export.id().to_string();
                assert!(std::process::Command::new("kill").args([signal, &pid]).status().unwrap().success());
            }
            let code = export.wait().unwrap().code();
            if code == Some(0) {
                continue;
            }
            assert_eq!(code, Some(status), "{signal}");
            assert_eq!(fs::read_to_string(&target).unwrap(), "the file that was there\n", "{signal}");
            let left: Vec<_> = fs::read_dir(&out_dir).unwrap().map(|e| e.unwrap().file_name()).collect();
            assert_eq!(left, [std::ffi::OsString::from("moves.csv")], "{signal}: nothing but the file");
            landed = true;
            break;
        }
        assert!(landed, "{signal}: every export ended before the signal reached it");
    }
}

/// A database file the run may not write: status 2, a message naming the file, and the file
/// byte for byte as it was.
#[test]
fn a_read_only_database_is_refused_and_left_alone() {
    let tmp = tempfile::tempdir().unwrap();
    fs::set_permissions(tmp.path(), fs::Permissions::from_mode(0o777)).unwrap();
    let games = tmp.path().join("games");
    let files = write_games(&games, 20, 2, 9);
    let db = tmp.path().join("ro.sqlite");
    assert!(index(&games, &db).status.success());
    assert!(!PathBuf::from(format!("{}-wal", db.display())).exists(), "a finished run leaves no WAL");
    let before = fs::read(&db).unwrap();
    // A new game to index, and everything readable to the unprivileged run.
    fs::write(&files[0], format!("{}position startpos moves 7g7f\n", fs::read_to_string(&files[0]).unwrap()))
        .unwrap();
    for entry in walkdir::WalkDir::new(tmp.path()) {
        let entry = entry.unwrap();
        let mode = if entry.file_type().is_dir() { 0o777 } else { 0o444 };
        fs::set_permissions(entry.path(), fs::Permissions::from_mode(mode)).unwrap();
    }
    let mut cmd = command();
    cmd.arg("index").arg(&games).arg("--db").arg(&db).arg("--quiet");
    let out = unprivileged(&mut cmd).output().unwrap();
    let message = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{message}");
    assert!(message.contains("ro.sqlite") && message.contains("read"), "{message}");
    assert_eq!(fs::read(&db).unwrap(), before, "the database changed");
    fs::set_permissions(&db, fs::Permissions::from_mode(0o644)).unwrap();
    assert_sound(&db);
}

/// An observer that, once the files have been counted for the progress bar and before the
/// run reaches them, removes one file and rewrites another: what a user editing the directory
/// during a run does. (A file that changes between the moment the run's walk sees it and the
/// moment it is read is a `vanished` or `changed` reject: `src/ingest/prepare.rs` tests that
/// window directly, since a test cannot reach into it from outside.)
struct Meddler {
    remove: PathBuf,
    change: PathBuf,
    rejects: std::sync::Mutex<Vec<(String, String)>>,
}

impl Observer for Meddler {
    fn wants_total(&self) -> bool {
        true
    }

    fn start(&self, _files: u64) {
        fs::remove_file(&self.remove).unwrap();
        let mut text = fs::read_to_string(&self.change).unwrap();
        text.push_str("position startpos moves 2g2f 8c8d\n");
        fs::write(&self.change, text).unwrap();
    }

    fn reject(&self, path: &str, reject: &NewReject) {
        self.rejects.lock().unwrap().push((path.to_string(), format!("{}: {}", reject.code, reject.message)));
    }
}

#[test]
fn files_removed_or_changed_during_the_run_leave_a_sound_database_that_the_next_run_completes() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let files = write_games(&games, 40, 3, 10);
    let db = tmp.path().join("k.sqlite");
    let options = Options { jobs: 2, ..Options::new(vec![games.clone()], db.clone()) };
    // A first run indexes everything; during the second, one file goes and another grows.
    ingest::run(&options, &ingest::Quiet).unwrap();
    let meddler =
        Meddler { remove: files[5].clone(), change: files[17].clone(), rejects: Default::default() };
    let summary = ingest::run(&options, &meddler).unwrap();
    assert_eq!(summary.files_rejected, 0, "{summary:?}");
    // The changed file's three games keep their ids; the line added is a game added.
    assert_eq!(
        (summary.files_seen, summary.files_indexed, summary.games_added, summary.games_kept),
        (39, 1, 1, 3),
        "{summary:?}"
    );
    assert!(meddler.rejects.into_inner().unwrap().is_empty());
    assert_sound(&db);

    // The next run with --prune forgets the removed file.
    let out = command()
        .arg("index")
        .arg(&games)
        .arg("--db")
        .arg(&db)
        .arg("--prune")
        .arg("--quiet")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_sound(&db);
    assert_every_read_works(&db, "files removed and changed, pruned", 400);
    let mut reader = Reader::open(&db).unwrap();
    assert_eq!(reader.snapshot().unwrap().game_count().unwrap(), 39 * 3 + 1);
}

/// Twenty runs of the command, each on a new database, killed (SIGKILL) at a random moment:
/// before its first commit, soon after it, or later, up to after its end. Every
/// kill leaves a sound database whose position answers cover exactly the games it lists:
/// `query` of the start position finds the games `export games` lists, and `export tree`
/// counts them. A killed run leaves its write-ahead log beside the database: another user
/// reads it from a read-only directory all the same. A run after the kill completes the
/// database to what one uninterrupted run makes (checked after every fourth kill, to keep the
/// test short).
#[test]
fn twenty_runs_killed_at_random_moments_leave_sound_databases_whose_answers_cover_their_games() {
    let tmp = tempfile::tempdir().unwrap();
    fs::set_permissions(tmp.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let games = tmp.path().join("games");
    // Short games, many of them: a run commits at 10,000 games at the latest, half-way.
    write_games_of(&games, 2_500, 8, 6..14, 11);
    // A whole run, watched: how long it takes, and when its first games are committed.
    let reference = tmp.path().join("reference.sqlite");
    let started = Instant::now();
    let mut child =
        command().arg("index").arg(&games).arg("--db").arg(&reference).arg("--quiet").spawn().unwrap();
    let mut first_commit = None;
    while child.try_wait().unwrap().is_none() {
        let games = Reader::open(&reference).and_then(|mut r| r.snapshot()?.game_count()).unwrap_or(0);
        if first_commit.is_none() && games > 0 {
            first_commit = Some(started.elapsed());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(child.wait().unwrap().success());
    let whole = started.elapsed();
    let first_commit = first_commit.unwrap_or(whole).min(whole);
    let expected = export_games(&reference);

    // A third of the kills early in a run (before or about its first commit), a third soon
    // after its first commit, a third later (its last commit, merges, the switch back to
    // rollback mode), or after its end.
    let mut rng = Rng::new(12);
    let (mut landed, mut with_games) = (0, 0);
    for run in 0..20 {
        let dir = tmp.path().join(format!("killed{run}"));
        fs::create_dir(&dir).unwrap();
        let db = dir.join("k.sqlite");
        let started = Instant::now();
        let mut child =
            command().arg("index").arg(&games).arg("--db").arg(&db).arg("--quiet").spawn().unwrap();
        let millis = |rng: &mut Rng, from: usize, to: usize| {
            Duration::from_millis((from + rng.below(to - from)) as u64)
        };
        if run % 3 == 0 {
            std::thread::sleep(first_commit.mul_f64((100 + rng.below(1_000)) as f64 / 1000.0));
        } else {
            // The time after the first commit is the part of a run that a machine's load
            // stretches least predictably: wait for the commit, then kill soon after it.
            while child.try_wait().unwrap().is_none()
                && Reader::open(&db).and_then(|mut r| r.snapshot()?.game_count()).unwrap_or(0) == 0
            {
                std::thread::sleep(Duration::from_millis(2));
            }
            std::thread::sleep(if run % 3 == 1 {
                millis(&mut rng, 0, 250)
            } else {
                millis(&mut rng, 200, 800)
            });
        }
        let at = started.elapsed();
        child.kill().unwrap();
        let status = child.wait().unwrap();
        // Killed, or done before the kill came (and then successful).
        match std::os::unix::process::ExitStatusExt::signal(&status) {
            Some(signal) => {
                assert_eq!(signal, 9);
                landed += 1;
            }
            None => assert!(status.success(), "{status}"),
        }
        let context = format!("run {run}, killed after {at:?}");
        let stored = assert_answers_cover_the_stored_games(&db, &context);
        with_games += usize::from(stored > 0 && stored < 20_000);
        if stored > 0 {
            // What the owner reads, another user reads from a read-only directory, with the
            // log the killed run left beside the database. (Killed in the instant between
            // removing its log and marking the file as in rollback mode, a run leaves no log
            // to read with, and the reader says so: the one case where it needs the right
            // to write the directory.)
            fs::set_permissions(&dir, fs::Permissions::from_mode(0o555)).unwrap();
            let mut cmd = command();
            cmd.args(["export", "games", "--db"]).arg(&db);
            let out = unprivileged(&mut cmd).output().unwrap();
            fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).unwrap();
            let no_log = !dir.join("k.sqlite-wal").exists() && stderr(&out).contains("WAL mode");
            if !no_log {
                assert_eq!(out.status.code(), Some(0), "{context}: {}", stderr(&out));
                assert_eq!(String::from_utf8(out.stdout).unwrap(), export_games(&db), "{context}");
            }
        }
        // Last: the check's own connection writes (it copies the log into the file).
        if db.exists() {
            assert_sound(&db);
            if listed_games(&db).is_some() {
                assert_every_read_works(&db, &context, 10);
            }
        }
        if run % 4 == 3 {
            let out = index(&games, &db);
            assert!(out.status.success(), "{}", stderr(&out));
            assert_sound(&db);
            assert_eq!(export_games(&db), expected, "{context}, completed");
            assert_every_read_works(&db, &format!("{context}, completed"), 100);
        }
    }
    // Timing depends on the machine's load: most kills land during a run, and many must,
    // some of them between the first commit and the last.
    eprintln!(
        "{landed} of 20 kills landed during a run, {with_games} left some of the games (whole run \
         {whole:?}, first commit after {first_commit:?})"
    );
    assert!(landed >= 8, "only {landed} of 20 kills landed during a run");
    assert!(with_games >= 4, "only {with_games} of 20 kills left some of the games");
}

/// `kifudex index DIR --db DB --prune --json ARGS` as `nobody` when the tests run as root:
/// its exit code, the files it pruned and kept, and its messages.
fn prune_run(dir: &std::path::Path, db: &std::path::Path, args: &[&str]) -> (i32, u64, u64, String) {
    let mut cmd = command();
    cmd.arg("index").arg(dir).arg("--db").arg(db).args(["--prune", "--json"]).args(args);
    let out = unprivileged(&mut cmd).output().unwrap();
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    let count = |key: &str| summary[key].as_u64().unwrap_or(u64::MAX);
    (out.status.code().unwrap(), count("files_pruned"), count("files_unwalked"), stderr(&out))
}

#[test]
fn prune_removes_only_files_that_are_gone_not_those_the_run_did_not_reach() {
    let tmp = tempfile::tempdir().unwrap();
    // Everything the runs write belongs to the user they run as.
    fs::set_permissions(tmp.path(), fs::Permissions::from_mode(0o777)).unwrap();
    let games = tmp.path().join("games");
    let (a, b) = (games.join("a"), games.join("b"));
    let in_a = write_games(&a, 4, 2, 31);
    write_games(&b, 3, 2, 32);
    for dir in [&games, &a, &b] {
        fs::set_permissions(dir, fs::Permissions::from_mode(0o777)).unwrap();
    }
    let db = tmp.path().join("k.sqlite");
    let all = (0, 0, 0, String::new());
    assert_eq!(prune_run(&games, &db, &["--quiet"]), all);
    let listed = || listed_games(&db).unwrap().len();
    assert_eq!(listed(), 14);
    // Left out by a glob: kept, and said so.
    let (code, pruned, kept, messages) = prune_run(&games, &db, &["--exclude", "b"]);
    assert_eq!((code, pruned, kept, listed()), (0, 0, 3, 14), "{messages}");
    assert!(messages.contains(", 0 pruned)"), "{messages}");
    assert!(messages.contains("--prune kept 3 files"), "{messages}");
    let (code, pruned, kept, _) = prune_run(&games, &db, &["--include", "a/**"]);
    assert_eq!((code, pruned, kept, listed()), (0, 0, 3, 14));
    // Reached only through a link the run does not follow: kept.
    let linked = tmp.path().join("linked");
    fs::create_dir(&linked).unwrap();
    fs::set_permissions(&linked, fs::Permissions::from_mode(0o777)).unwrap();
    std::os::unix::fs::symlink(&a, linked.join("a")).unwrap();
    let db_linked = tmp.path().join("linked.sqlite");
    let (code, ..) = prune_run(&linked, &db_linked, &["--follow-links", "--quiet"]);
    assert_eq!(code, 0);
    assert_eq!(prune_run(&linked, &db_linked, &["--quiet"]), (0, 0, 4, String::new()));
    assert_eq!(listed_games(&db_linked).unwrap().len(), 8);
    // In a directory the run cannot read (a walk reject): kept, as an unreadable file is.
    fs::set_permissions(&b, fs::Permissions::from_mode(0o000)).unwrap();
    let (code, pruned, kept, messages) = prune_run(&games, &db, &[]);
    fs::set_permissions(&b, fs::Permissions::from_mode(0o777)).unwrap();
    assert_eq!((code, pruned, kept, listed()), (1, 0, 3, 14), "{messages}");
    // A file that is gone is pruned, and only it.
    fs::remove_file(&in_a[0]).unwrap();
    let (code, pruned, kept, _) = prune_run(&games, &db, &["--quiet"]);
    assert_eq!((code, pruned, kept, listed()), (0, 1, 0, 12));
}

/// `--prune` when a disk is not mounted: a directory of the archive is a mount point (a bind
/// mount of a directory on a tmpfs, in a mount namespace of its own). With the disk taken
/// away, its files are kept, whether the path given holds the mount point or is it, and the
/// run names the directory; mounted again, nothing changed. Files removed on purpose are
/// pruned, a directory they leave empty included, and so are the disk's files once its mount
/// point is removed.
#[test]
fn prune_keeps_the_files_of_a_disk_not_mounted_and_prunes_files_removed_on_purpose() {
    if !can_mount_tmpfs() {
        eprintln!("skipped: no mount namespace with a tmpfs here (unshare -rm)");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (games, stage, disk, out) =
        (tmp.path().join("games"), tmp.path().join("stage"), tmp.path().join("disk"), tmp.path().join("out"));
    // The disk's 4 files (part0 and part1, 8 games), and 2 files beside it (4 games).
    write_games(&stage, 4, 2, 71);
    let local = write_games(&games.join("local"), 2, 2, 72);
    let club = games.join("club");
    for dir in [&club, &disk, &out] {
        fs::create_dir_all(dir).unwrap();
    }
    let db = tmp.path().join("k.sqlite");
    // Each run's summary goes to out/N.json, and its messages to out/N.err.
    let script = r#"set -u; k=$1 g=$2 disk=$3 stage=$4 db=$5 out=$6
        run() { n=$1; shift; "$k" index "$@" --db "$db" --json >"$out/$n.json" 2>"$out/$n.err"; }
        plain() { n=$1; shift; "$k" index "$@" --db "$db" >/dev/null 2>"$out/$n.err"; }
        mount -t tmpfs tmpfs "$disk" || exit 99
        cp -r "$stage/." "$disk/" && mount --bind "$disk" "$g/club" || exit 98
        run 1 "$g"
        umount "$g/club"
        run 2 "$g" --prune
        plain 3 "$g/club" --prune
        mount --bind "$disk" "$g/club"
        run 4 "$g" --prune
        rm "$g/club/part1/"* "$g/local/part0/"*
        run 5 "$g" --prune
        umount "$g/club" && rmdir "$g/club"
        run 6 "$g" --prune"#;
    in_mount_namespace(script, &[&games, &disk, &stage, &db, &out]);
    let summary = |n: u32| run_summary(&out, n);
    let counts = |n: u32| {
        let s = summary(n);
        let count = |key: &str| s[key].as_u64().unwrap();
        (count("files_unchanged"), count("files_pruned"), count("files_unmounted"), count("files_unwalked"))
    };
    let club_text = club.to_str().unwrap();
    assert_eq!(summary(1)["games_added"], 12);
    // The disk not mounted: its 4 files are kept, the others found unchanged.
    assert_eq!(counts(2), (2, 0, 4, 0));
    assert_eq!(summary(2)["unmounted_dirs"], serde_json::json!([club_text]));
    let messages = fs::read_to_string(out.join("3.err")).unwrap();
    assert!(messages.contains(&format!("--prune kept 4 files recorded under {club_text}:")), "{messages}");
    assert!(messages.contains("remove it too (rmdir)"), "{messages}");
    // Mounted again: nothing changed.
    assert_eq!(counts(4), (6, 0, 0, 0));
    // Removed on purpose: 2 files of the disk (their directory left empty) and 1 beside it.
    assert_eq!(counts(5), (3, 3, 0, 0));
    assert!(!local[0].exists());
    // The mount point removed: the disk's last 2 files are forgotten.
    assert_eq!(counts(6), (1, 2, 0, 0));
    let games_left = listed_games(&db).unwrap().len();
    assert_eq!(games_left, 2, "the games of the one file left");
}

/// Runs `script` as root of a mount namespace of its own, with kifudex and `paths` as its
/// arguments, and checks that it ran to its end.
fn in_mount_namespace(script: &str, paths: &[&std::path::PathBuf]) {
    let status = crate::util::wrapper("unshare")
        .args(["-rm", "sh", "-c", script, "sh"])
        .arg(crate::util::exe())
        .args(paths)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(0));
}

/// The summary of run `n` of a mount script, which wrote it to `out/N.json`.
fn run_summary(out: &std::path::Path, n: u32) -> serde_json::Value {
    let text = fs::read_to_string(out.join(format!("{n}.json"))).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("run {n}: {e}: {text}"))
}

/// Records read through links to a disk mounted elsewhere: with the disk away, the links lead
/// nowhere, and their files are kept as those of a disk not mounted (the mount point named),
/// whether the run follows links or not; mounted again, nothing changed; a target removed on
/// purpose is pruned.
#[test]
fn prune_keeps_the_files_of_links_to_a_disk_not_mounted() {
    if !can_mount_tmpfs() {
        eprintln!("skipped: no mount namespace with a tmpfs here (unshare -rm)");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (games, stage, mnt, out) =
        (tmp.path().join("games"), tmp.path().join("stage"), tmp.path().join("mnt"), tmp.path().join("out"));
    // The disk's 2 files (4 games), linked from games/, and 1 file in games/ (2 games).
    write_games(&stage, 2, 2, 73);
    write_games(&games.join("local"), 1, 2, 74);
    for dir in [&mnt, &out] {
        fs::create_dir_all(dir).unwrap();
    }
    let db = tmp.path().join("k.sqlite");
    let script = r#"set -u; k=$1 g=$2 mnt=$3 stage=$4 db=$5 out=$6
        run() { n=$1; shift; "$k" index "$@" --db "$db" --json >"$out/$n.json" 2>"$out/$n.err"; }
        mount -t tmpfs tmpfs "$mnt" || exit 99
        cp -r "$stage/." "$mnt/" || exit 98
        mkdir "$g/linked"
        for f in "$mnt"/*/*; do ln -s "$f" "$g/linked/$(basename "$f")"; done
        run 1 "$g" --follow-links
        umount "$mnt"
        run 2 "$g" --follow-links --prune
        run 3 "$g" --prune
        mount -t tmpfs tmpfs "$mnt" && cp -r "$stage/." "$mnt/" || exit 97
        run 4 "$g" --follow-links --prune
        rm "$mnt/part0/"*
        run 5 "$g" --follow-links --prune"#;
    in_mount_namespace(script, &[&games, &mnt, &stage, &db, &out]);
    let summary = |n: u32| run_summary(&out, n);
    let counts = |n: u32| {
        let s = summary(n);
        let count = |key: &str| s[key].as_u64().unwrap();
        (count("files_unchanged"), count("files_pruned"), count("files_unmounted"), count("links_broken"))
    };
    assert_eq!(summary(1)["games_added"], 6);
    // The disk away: both links lead nowhere, and their files are kept, the mount point named.
    let mnt_text = mnt.to_str().unwrap();
    for n in [2, 3] {
        assert_eq!(counts(n), (1, 0, 2, 2), "run {n}");
        assert_eq!(summary(n)["unmounted_dirs"], serde_json::json!([mnt_text]), "run {n}");
    }
    // Mounted again (a new tmpfs, so the files are read again): nothing pruned.
    assert_eq!(counts(4).1, 0);
    // A target removed on purpose: its directory on the disk is left, on the disk's own
    // filesystem, so its file is pruned.
    assert_eq!(counts(5), (2, 1, 0, 1));
    assert_eq!(listed_games(&db).unwrap().len(), 4, "the games of the two files left");
}
