//! Index runs and what goes on around them: a second run on the same database, readers
//! while a run writes, and Ctrl-C. Each leaves a sound database whose position answers
//! cover exactly the games it lists, and the next run completes it.

use std::{
    fs,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use kifudex::{db::Reader, shogi::Handicap};

use super::harness::{
    assert_answers_cover_the_stored_games, assert_sound, export_games, games_at_start, index, listed_games,
    listed_games_once_made, stderr, tree_games_at_start, write_games, write_games_of,
};
use crate::util::command;

/// Short games, eight a file, many of them: a run of the test build takes a few seconds and
/// commits on the way (every two seconds, or ten thousand games). Returns the games.
fn short_games(dir: &Path, files: usize, seed: u64) -> usize {
    write_games_of(dir, files, 8, 6..14, seed);
    files * 8
}

fn spawn_index(games: &Path, db: &Path) -> Child {
    command()
        .arg("index")
        .arg(games)
        .arg("--db")
        .arg(db)
        .arg("--quiet")
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits (at most 30 s) until `ready` holds, or the child has ended; returns whether it holds.
fn wait_for(child: &mut Child, mut ready: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if ready() {
            return true;
        }
        if child.try_wait().unwrap().is_some() {
            return ready();
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    false
}

fn lock_file(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

#[test]
fn a_second_index_run_on_a_database_being_written_stops_at_once_with_a_clear_message() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    short_games(&games, 1_500, 31);
    let reference = tmp.path().join("reference.sqlite");
    assert!(index(&games, &reference).status.success());
    let expected = export_games(&reference);

    let db = tmp.path().join("k.sqlite");
    let link = tmp.path().join("link.sqlite");
    std::os::unix::fs::symlink(&db, &link).unwrap();
    // On a busy machine the first run may end before the second starts: the second then
    // rightly writes, and the case is tried again on a new database.
    let mut tries = 0;
    let first = loop {
        tries += 1;
        let _ = std::fs::remove_file(&db);
        let mut first = spawn_index(&games, &db);
        assert!(wait_for(&mut first, || lock_file(&db).exists()), "the first run never took its lock");
        // The same database, by its name and by another name.
        let outs: Vec<_> = [&db, &link].into_iter().map(|name| (name, index(&games, name))).collect();
        let raced = outs.iter().any(|(_, out)| out.status.code() == Some(0));
        if raced && first.try_wait().unwrap().is_some() && tries < 5 {
            first.wait().unwrap();
            continue;
        }
        for (name, out) in outs {
            assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
            assert_eq!(
                stderr(&out),
                format!("kifudex: another kifudex index run is writing {}\n", name.display())
            );
        }
        break first;
    };
    let out = first.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_sound(&db);
    assert_eq!(export_games(&db), expected);
    assert!(!lock_file(&db).exists(), "a finished run removes its lock file");

    // A run killed while it holds the lock: the kernel drops the lock, the file stays, and the
    // next run takes it and completes the database.
    let db = tmp.path().join("killed.sqlite");
    let mut first = spawn_index(&games, &db);
    assert!(wait_for(&mut first, || lock_file(&db).exists()));
    first.kill().unwrap();
    first.wait().unwrap();
    let out = index(&games, &db);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(export_games(&db), expected);
    assert!(!lock_file(&db).exists());
}

/// A tree of short games in a temporary directory, and the `export games` of a database of
/// them alone.
fn games_and_their_export(seed: u64) -> (tempfile::TempDir, PathBuf, String) {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    short_games(&games, 1_500, seed);
    let reference = tmp.path().join("reference.sqlite");
    assert!(index(&games, &reference).status.success());
    let expected = export_games(&reference);
    (tmp, games, expected)
}

/// Whether the database's mark says that a run is writing it.
fn marked_as_writing(db: &Path) -> bool {
    matches!(
        Reader::open(db).and_then(|r| r.unfinished_run()),
        Ok(Some(kifudex::db::UnfinishedRun::Writing(_)))
    )
}

/// A run's lock file removed while it writes (taken for one a killed run left): a second
/// run does not write beside it, and says why; the first one finishes its work.
#[test]
fn a_run_whose_lock_file_was_removed_is_not_written_beside() {
    let (tmp, games, expected) = games_and_their_export(33);
    let db = tmp.path().join("k.sqlite");
    // On a busy machine the first run may end before the second starts: tried again then.
    for tries in 1.. {
        let _ = fs::remove_file(&db);
        let mut first = spawn_index(&games, &db);
        assert!(wait_for(&mut first, || marked_as_writing(&db)), "the first run never marked the database");
        fs::remove_file(lock_file(&db)).unwrap();
        let second = index(&games, &db);
        if first.try_wait().unwrap().is_some() && second.status.success() && tries < 5 {
            continue;
        }
        assert_eq!(second.status.code(), Some(2), "{}", stderr(&second));
        assert_eq!(
            stderr(&second),
            format!(
                "kifudex: an index run (process {}) is writing {}, though its lock file {} was removed: one \
                 run writes at a time; wait for it to end, or stop it, and run again\n",
                first.id(),
                db.display(),
                lock_file(&db).display()
            )
        );
        let out = first.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        break;
    }
    assert_sound(&db);
    assert_eq!(export_games(&db), expected);
    // With no run under way, a run that makes the lock file afresh writes.
    let out = index(&games, &db);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!lock_file(&db).exists());
}

/// A first run killed after its first commit, its `-shm` file then lost (the database and its
/// log copied without it): the file still says it is a kifudex database, so readers read the
/// log's commits and the next run completes it.
#[test]
fn a_killed_first_run_without_its_shared_memory_file_is_read_and_completed() {
    let (tmp, games, expected) = games_and_their_export(34);
    let db = tmp.path().join("k.sqlite");
    let mut first = spawn_index(&games, &db);
    assert!(wait_for(&mut first, || marked_as_writing(&db)), "the first run never marked the database");
    first.kill().unwrap();
    first.wait().unwrap();
    let _ = fs::remove_file(tmp.path().join("k.sqlite-shm"));
    let out = command().args(["games", "--limit", "1", "--db"]).arg(&db).output().unwrap();
    assert!(
        out.status.code() == Some(0) || out.status.code() == Some(1),
        "{:?} {}",
        out.status,
        stderr(&out)
    );
    assert!(stderr(&out).contains("did not finish"), "{}", stderr(&out));
    let out = index(&games, &db);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_sound(&db);
    assert_eq!(export_games(&db), expected);
}

/// A killed run's mark stays until a run reads what it was to read: a run over other files
/// says that it did not, and readers still warn; the same files again clear it.
#[test]
fn a_killed_runs_mark_stays_until_a_run_reads_what_it_was_to_read() {
    let tmp = tempfile::tempdir().unwrap();
    // A space in the path: the command said to finish the run quotes it, as a shell takes it.
    let (many, few) = (tmp.path().join("many games"), tmp.path().join("few"));
    short_games(&many, 1_500, 35);
    write_games(&few, 3, 2, 36);
    let reference = tmp.path().join("reference.sqlite");
    assert!(index(&many, &reference).status.success() && index(&few, &reference).status.success());
    let db = tmp.path().join("k.sqlite");
    let mut first = spawn_index(&many, &db);
    assert!(wait_for(&mut first, || marked_as_writing(&db)), "the first run never marked the database");
    first.kill().unwrap();
    first.wait().unwrap();
    let warned = |db: &Path| {
        let out = command().args(["games", "--limit", "1", "--db"]).arg(db).output().unwrap();
        stderr(&out).contains("did not finish")
    };
    assert!(warned(&db));
    // Other files: indexed, and said not to finish the run before.
    let out = index(&few, &db);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let many_text = fs::canonicalize(&many).unwrap();
    assert_eq!(
        stderr(&out),
        format!(
            "kifudex: warning: an earlier index run on {db} did not finish, and this one did not read all it \
             was to read: answers still cover only part of it; `kifudex index '{}' --db {db}` finishes it\n",
            many_text.display(),
            db = db.display()
        )
    );
    assert!(warned(&db), "the mark stays");
    // A file of the same tree alone does not finish it either; the tree again does.
    let one = fs::read_dir(&many).unwrap().next().unwrap().unwrap().path();
    assert!(index(&one, &db).status.success());
    assert!(warned(&db), "the mark stays");
    let out = index(&many, &db);
    assert_eq!((out.status.code(), stderr(&out)), (Some(0), String::new()));
    assert!(!warned(&db));
    assert_eq!(export_games(&db).lines().count(), export_games(&reference).lines().count());
}

#[test]
fn two_index_runs_started_together_never_fail_with_an_internal_error() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    write_games(&games, 30, 3, 32);
    let reference = tmp.path().join("reference.sqlite");
    assert!(index(&games, &reference).status.success());
    let expected = export_games(&reference);
    let mut stopped = 0;
    for round in 0..6 {
        let db = tmp.path().join(format!("k{round}.sqlite"));
        let runs = [spawn_index(&games, &db), spawn_index(&games, &db)];
        let busy = format!("kifudex: another kifudex index run is writing {}\n", db.display());
        let mut succeeded = 0;
        for run in runs {
            let out = run.wait_with_output().unwrap();
            match out.status.code() {
                Some(0) => succeeded += 1,
                Some(2) if stderr(&out) == busy => stopped += 1,
                _ => panic!("round {round}: {:?} {}", out.status, stderr(&out)),
            }
        }
        assert!(succeeded >= 1, "round {round}");
        assert_sound(&db);
        // The database is sound and complete, and the next run finds nothing to do.
        assert_eq!(export_games(&db), expected, "round {round}");
        let out = command().arg("index").arg(&games).arg("--db").arg(&db).arg("--json").output().unwrap();
        let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(summary["files_indexed"], 0, "round {round}");
    }
    eprintln!("{stopped} of 6 rounds had one run stop on the other's lock");
}

#[test]
fn readers_during_a_run_get_answers_that_cover_exactly_the_games_they_list() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    // 48,000 games: a run commits every 10,000, so a read can land between its commits.
    let total = short_games(&games, 6_000, 33);
    let db = tmp.path().join("k.sqlite");
    // Every read is checked. A run whose commits all fall between two reads proves nothing
    // about a run seen part-way (a fast machine writes the games in a few commits, and other
    // tests running beside this one slow the reads more than the run): it is tried again on
    // a new database.
    let mut attempts = 0;
    let (reads, partial) = loop {
        attempts += 1;
        let (reads, partial) = read_during_a_run(&games, &db, total);
        if partial >= 1 || attempts == 8 {
            break (reads, partial);
        }
        fs::remove_file(&db).unwrap();
    };
    eprintln!("{reads} reads during the last of {attempts} runs, {partial} of them with part of the games");
    assert!(partial >= 1, "no read saw a run part-way in {attempts} runs");
}

/// Indexes `games` into a new `db` and reads it while the run writes; returns the reads during
/// the run, and those that saw part of the games.
fn read_during_a_run(games: &Path, db: &Path, total: usize) -> (usize, usize) {
    let mut run = spawn_index(games, db);
    let start = Handicap::Even.setup();
    let (mut partial, mut reads) = (0, 0);
    while run.try_wait().unwrap().is_none() {
        // One snapshot: its games and its answer for the start position are the same ones.
        if let Ok(mut reader) = Reader::open(db) {
            // The run is named as under way once it has stored games, until it has stored all.
            let named = reader.unfinished_run().unwrap();
            let snapshot = reader.snapshot().unwrap();
            let games = snapshot.game_count().unwrap();
            let pid = run.id();
            let ended = run.try_wait().unwrap().is_some();
            let done = games == 0 || games as usize == total || ended;
            assert!(
                named == Some(kifudex::db::UnfinishedRun::Writing(pid)) || done,
                "{named:?}, {games} games"
            );
            assert_eq!(snapshot.position_stats(&start, None).unwrap().games.games, games, "one snapshot");
        }
        // The commands, one after another: the games only grow during a run, so the answers
        // must lie between the lists read before and after them.
        let Some(before) = listed_games(db) else { continue };
        let (found, counted) = (games_at_start(db), tree_games_at_start(db));
        let Some(after) = listed_games(db) else { panic!("the database disappeared") };
        assert!(
            before.is_subset(&found) && found.is_subset(&after),
            "query: {} {} {}",
            before.len(),
            found.len(),
            after.len()
        );
        assert!((before.len() as u64..=after.len() as u64).contains(&counted), "tree: {counted}");
        reads += 1;
        partial += usize::from(!before.is_empty() && after.len() < total);
    }
    let out = run.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(assert_answers_cover_the_stored_games(db, "after the run"), total);
    (reads, partial)
}

#[test]
fn ctrl_c_stops_a_run_which_keeps_what_it_committed_and_the_next_run_finishes() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    // 40,000 games: a run commits at 10,000, and the signal lands while it writes the rest.
    let total = short_games(&games, 5_000, 34);
    let reference = tmp.path().join("reference.sqlite");
    assert!(index(&games, &reference).status.success());
    let db = tmp.path().join("k.sqlite");
    // Once the run has committed some games, Ctrl-C: SIGINT to the process. A run that ends
    // before the signal reaches it, or gets it only once every file is committed (its first
    // commit can come late in a short run on a busy machine), proves nothing: it is tried
    // again on a new database.
    let files_indexed = |message: &str| -> Option<usize> {
        let last = message.lines().last().unwrap_or_default();
        last.strip_prefix("kifudex: interrupted: ")
            .and_then(|rest| rest.strip_suffix(" files indexed; run again to finish"))
            .and_then(|n| n.parse().ok())
    };
    let mut attempts = 0;
    let out = loop {
        attempts += 1;
        let mut run = spawn_index(&games, &db);
        assert!(wait_for(&mut run, || listed_games_once_made(&db).is_some_and(|g| !g.is_empty())));
        let sent = Command::new("kill").args(["-INT", &run.id().to_string()]).status().unwrap();
        assert!(sent.success());
        let out = run.wait_with_output().unwrap();
        let too_late = out.status.code() == Some(0) || files_indexed(&stderr(&out)) == Some(5_000);
        if !too_late || attempts == 8 {
            break out;
        }
        fs::remove_file(&db).unwrap();
    };
    let message = stderr(&out);
    assert_eq!(out.status.code(), Some(130), "{message}");
    let files = files_indexed(&message).unwrap_or_else(|| panic!("{message}"));
    // What it said it indexed is stored, whole, and nothing more; answers cover it.
    let stored = command().args(["export", "games", "--db"]).arg(&db).output().unwrap();
    let mut reader = csv::Reader::from_reader(&stored.stdout[..]);
    let paths: std::collections::BTreeSet<String> =
        reader.records().map(|r| r.unwrap()[1].to_string()).collect();
    assert_eq!(paths.len(), files, "{message}");
    assert!(files > 0 && files < 5_000, "{files} files after {attempts} attempts");
    // Readers say that the answers cover part of the files, until a run finishes.
    let unfinished = "the last index run on";
    assert!(stderr(&stored).contains(unfinished), "{}", stderr(&stored));
    assert_eq!(assert_answers_cover_the_stored_games(&db, "after Ctrl-C"), files * 8);
    // The file is back in rollback mode, with nothing beside it.
    let mut wal = db.as_os_str().to_owned();
    wal.push("-wal");
    assert!(!Path::new(&wal).exists(), "a write-ahead log was left");
    assert_eq!(&fs::read(&db).unwrap()[18..20], [1, 1], "the journal mode of the file's header");
    assert_sound(&db);
    // The next run finishes the work.
    let out = index(&games, &db);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(export_games(&db), export_games(&reference));
    assert_eq!(assert_answers_cover_the_stored_games(&db, "finished"), total);
    let stored = command().args(["games", "--db"]).arg(&db).output().unwrap();
    assert!(!stderr(&stored).contains("warning"), "{}", stderr(&stored));
}

#[test]
fn a_second_ctrl_c_ends_a_run_at_once_and_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let total = short_games(&games, 5_000, 38);
    let db = tmp.path().join("k.sqlite");
    // Two signals, one right after the other, once the run has committed some games: 20 ms
    // apart, since two sent before the process runs again are one pending signal. A run that
    // stops cleanly before the second one reaches it proves nothing: tried again.
    let stopped_at_once = "kifudex: stopped at once by a second signal: the files committed so far stay \
                           indexed, and running the same command again finishes the rest";
    let mut attempts = 0;
    let out = loop {
        attempts += 1;
        let mut run = spawn_index(&games, &db);
        assert!(wait_for(&mut run, || listed_games_once_made(&db).is_some_and(|g| !g.is_empty())));
        let pid = run.id().to_string();
        let sent =
            Command::new("sh").args(["-c", "kill -INT $0; sleep 0.02; kill -INT $0", &pid]).status().unwrap();
        assert!(sent.success());
        let out = run.wait_with_output().unwrap();
        if stderr(&out).contains(stopped_at_once) || attempts == 8 {
            break out;
        }
        fs::remove_file(&db).unwrap();
    };
    let message = stderr(&out);
    assert_eq!(message.trim_end().lines().last(), Some(stopped_at_once), "after {attempts} attempts");
    assert_eq!(out.status.code(), Some(130), "{message}");
    // As after a kill: what it committed reads, and the next run finishes the work.
    let stored = listed_games(&db).expect("a database");
    assert_eq!(assert_answers_cover_the_stored_games(&db, "after a second Ctrl-C"), stored.len());
    let out = index(&games, &db);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(assert_answers_cover_the_stored_games(&db, "finished"), total);
    assert_sound(&db);
}

/// What a run says, first, when other programs' transactions keep it from starting.
const WAITING: &str = "kifudex: other programs are using the database (reading or writing it); waiting up to 60 s \
                       for them to finish (Ctrl-C stops)\n";

#[test]
fn a_run_waiting_for_readers_says_so_and_ctrl_c_stops_it() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    write_games(&games, 6, 2, 36);
    let db = tmp.path().join("k.sqlite");
    assert!(index(&games, &db).status.success());
    let before = export_games(&db);
    fs::write(games.join("new.usi"), "position startpos moves 7g7f 3c3d 2g2f\n").unwrap();
    // Another program reads the database in a transaction, which in rollback mode holds off
    // the run's switch to WAL mode.
    let reader = rusqlite::Connection::open(&db).unwrap();
    reader.execute_batch("BEGIN").unwrap();
    let _: i64 = reader.query_row("SELECT count(*) FROM games", [], |r| r.get(0)).unwrap();
    let mut run =
        command().arg("index").arg(&games).arg("--db").arg(&db).stderr(Stdio::piped()).spawn().unwrap();
    // The run says at once that it waits; Ctrl-C then stops it as any run.
    let mut stderr_pipe = std::io::BufReader::new(run.stderr.take().unwrap());
    let mut first = String::new();
    std::io::BufRead::read_line(&mut stderr_pipe, &mut first).unwrap();
    assert_eq!(first, WAITING);
    let started = Instant::now();
    assert!(Command::new("kill").args(["-INT", &run.id().to_string()]).status().unwrap().success());
    let status = run.wait().unwrap();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr_pipe, &mut rest).unwrap();
    assert!(started.elapsed() < Duration::from_secs(5), "Ctrl-C took {:?}", started.elapsed());
    assert_eq!(status.code(), Some(130), "{rest}");
    assert_eq!(rest.lines().last(), Some("kifudex: interrupted: 0 files indexed; run again to finish"));
    drop(reader);
    assert_eq!(export_games(&db), before);
    assert_sound(&db);
}

#[test]
fn a_run_waiting_for_another_program_s_write_says_so_at_once_and_starts_when_it_ends() {
    // Another program writes the database in a transaction, in either journal mode: in WAL
    // mode it keeps the run from writing, not from starting, and the run once waited at its
    // first write, in silence, and then failed with "database is locked".
    for wal in [false, true] {
        let tmp = tempfile::tempdir().unwrap();
        let games = tmp.path().join("games");
        write_games(&games, 4, 2, 37);
        let db = tmp.path().join("k.sqlite");
        assert!(index(&games, &db).status.success());
        fs::write(games.join("new.usi"), "position startpos moves 7g7f 3c3d 2g2f\n").unwrap();
        let other = rusqlite::Connection::open(&db).unwrap();
        if wal {
            let mode: String = other.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0)).unwrap();
            assert_eq!(mode, "wal");
        }
        other.execute_batch("BEGIN IMMEDIATE").unwrap();
        let mut run =
            command().arg("index").arg(&games).arg("--db").arg(&db).stderr(Stdio::piped()).spawn().unwrap();
        let mut stderr_pipe = std::io::BufReader::new(run.stderr.take().unwrap());
        let mut first = String::new();
        std::io::BufRead::read_line(&mut stderr_pipe, &mut first).unwrap();
        assert_eq!(first, WAITING, "WAL mode: {wal}");
        // The other program commits: the run starts, and adds the new game.
        other.execute_batch("COMMIT").unwrap();
        let status = run.wait().unwrap();
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut stderr_pipe, &mut rest).unwrap();
        assert_eq!(status.code(), Some(0), "WAL mode: {wal}: {rest}");
        drop(other);
        assert_eq!(listed_games(&db).map(|g| g.len()), Some(4 * 2 + 1), "WAL mode: {wal}");
        assert_sound(&db);
    }
}

#[test]
fn a_run_that_ends_while_another_program_has_the_database_open_says_it_stays_in_wal_mode() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    short_games(&games, 600, 35);
    let db = tmp.path().join("k.sqlite");
    let mut run =
        command().arg("index").arg(&games).arg("--db").arg(&db).stderr(Stdio::piped()).spawn().unwrap();
    // Another program reads the database while the run writes, and keeps it open.
    let in_wal = || fs::read(&db).is_ok_and(|h| h.len() >= 20 && h[18..20] == [2, 2]);
    assert!(wait_for(&mut run, in_wal), "the run never switched to WAL mode");
    let other =
        rusqlite::Connection::open_with_flags(&db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
    other.query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get::<_, i64>(0)).unwrap();
    let out = run.wait_with_output().unwrap();
    let message = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{message}");
    assert!(message.contains("stays in WAL mode until the next run"), "{message}");
    assert_eq!(&fs::read(&db).unwrap()[18..20], [2, 2]);
    // Once it is closed, the next run puts the file back in rollback mode.
    drop(other);
    let out = index(&games, &db);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(&fs::read(&db).unwrap()[18..20], [1, 1]);
}

#[test]
fn a_reader_while_a_database_is_made_afresh_finds_it_missing_not_yet_kifudex_s_or_whole() {
    // The files removed and the database made again at their path, over and over, as a
    // script that rebuilds an archive does; a reader (the server's, say) reads all along.
    // Before: about one open in a thousand failed, with "attempt to write a readonly
    // database" (a journal on disk beside the new file) or "unable to open database file".
    let tmp = tempfile::tempdir().unwrap();
    let (empty, db) = (tmp.path().join("empty"), tmp.path().join("k.sqlite"));
    fs::create_dir(&empty).unwrap();
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let reader = {
        let (db, done) = (db.clone(), done.clone());
        std::thread::spawn(move || {
            let (mut answers, mut failures) = (0, Vec::new());
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                match Reader::open(&db).and_then(|mut r| r.snapshot()?.game_count()) {
                    Ok(0) => answers += 1,
                    Ok(n) => failures.push(format!("{n} games")),
                    Err(
                        kifudex::db::Error::Missing(_)
                        | kifudex::db::Error::NotKifudex(_)
                        | kifudex::db::Error::Empty(_),
                    ) => {}
                    Err(e) => failures.push(e.to_string()),
                }
            }
            (answers, failures)
        })
    };
    for _ in 0..300 {
        for suffix in ["", "-wal", "-shm"] {
            let _ = fs::remove_file(format!("{}{suffix}", db.display()));
        }
        let status = command().arg("index").arg(&empty).arg("--db").arg(&db).arg("--quiet").status().unwrap();
        assert!(status.success());
    }
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let (answers, failures) = reader.join().unwrap();
    assert!(answers > 0, "the reader never read the database");
    assert!(
        failures.is_empty(),
        "{} of {} opens failed: {:?}",
        failures.len(),
        answers,
        &failures[..failures.len().min(5)]
    );
}

#[test]
fn a_run_that_counts_the_files_first_is_refused_before_the_count_when_another_writes() {
    use std::sync::atomic::{AtomicBool, Ordering};

    use kifudex::{
        db::{Error, Writer},
        ingest::{self, Observer, Options},
    };

    /// Counts the files first, as a progress bar does, and says whether it got the count.
    struct Counting(AtomicBool);
    impl Observer for Counting {
        fn wants_total(&self) -> bool {
            true
        }
        fn start(&self, _: u64) {
            self.0.store(true, Ordering::Relaxed);
        }
    }

    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    write_games(&games, 3, 2, 33);
    let db = tmp.path().join("k.sqlite");
    let writing = Writer::open(&db).unwrap();
    let counting = Counting(AtomicBool::new(false));
    let run = ingest::run(&Options::new(vec![games.clone()], db.clone()), &counting);
    assert!(matches!(run, Err(ingest::Error::Db(Error::Busy(_)))), "{run:?}");
    assert!(!counting.0.load(Ordering::Relaxed), "the files were counted before the refusal");
    // Once the other writer is done, the run counts and indexes them.
    drop(writing);
    let summary = ingest::run(&Options::new(vec![games], db), &counting).unwrap();
    assert!(counting.0.load(Ordering::Relaxed));
    assert_eq!(summary.files_indexed, 3);
}
