//! The index: incremental runs, duplicates, rejects, determinism, exact position answers,
//! crash recovery, and the `index` and `export` commands.
//!
//! Generated games are written as CSA records ([`crate::util::games`]) and indexed through
//! the library's pipeline, or by the command where what it prints is checked (rejects, exit
//! codes, exports).

use std::{
    collections::{BTreeMap, BTreeSet, HashMap},
    fs,
    path::Path,
    process::Command,
    sync::OnceLock,
};

use kifudex::{
    db::{GameFilter, GameId, GameResult, Reader},
    export,
    ingest::{self, Options, Quiet, Summary},
    shogi::Handicap,
};

use crate::util::{
    Rng,
    games::{Spec, generate, truth, write_games},
    kifudex,
};

/// The games most tests share.
fn corpus() -> &'static [Spec] {
    static CORPUS: OnceLock<Vec<Spec>> = OnceLock::new();
    CORPUS.get_or_init(|| generate(400, 7))
}

pub fn options(dir: &Path, db: &Path, jobs: usize) -> Options {
    Options { jobs, ..Options::new(vec![dir.to_path_buf()], db.to_path_buf()) }
}

pub fn index_with(options: &Options) -> Summary {
    ingest::run(options, &Quiet).expect("the index run succeeds")
}

fn index(dir: &Path, db: &Path, jobs: usize) -> Summary {
    index_with(&options(dir, db, jobs))
}

pub fn export_games(db: &Path) -> String {
    let mut reader = Reader::open(db).unwrap();
    let snapshot = reader.snapshot().unwrap();
    let mut out = Vec::new();
    export::games(&snapshot, &GameFilter::default(), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn export_rejects(db: &Path) -> String {
    let mut reader = Reader::open(db).unwrap();
    let snapshot = reader.snapshot().unwrap();
    let mut out = Vec::new();
    export::rejects(&snapshot, &mut out, |_| true).unwrap();
    String::from_utf8(out).unwrap()
}

/// The games export as records keyed by column name.
fn game_rows(db: &Path) -> Vec<HashMap<String, String>> {
    let text = export_games(db);
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let headers = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| headers.iter().zip(r.unwrap().iter()).map(|(h, v)| (h.to_string(), v.to_string())).collect())
        .collect()
}

#[test]
fn a_second_run_parses_nothing_and_changes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, db) = (tmp.path().join("games"), tmp.path().join("k.sqlite"));
    write_games(&dir, &corpus()[..120]);
    let first = index(&dir, &db, 2);
    assert_eq!((first.files_seen, first.files_indexed, first.games_added), (120, 120, 120));
    let plies: u64 = corpus()[..120].iter().map(|s| s.moves.len() as u64 + 1).sum();
    assert_eq!(first.positions, plies);
    let before = export_games(&db);
    let second = index(&dir, &db, 2);
    assert_eq!((second.files_unchanged, second.files_indexed, second.games_added), (120, 0, 0));
    assert_eq!(second.positions, 0);
    assert_eq!(export_games(&db), before);
    // A newer modification time with the same content is noticed and costs no parse.
    let f = dir.join("d00/g0003.csa");
    let text = fs::read(&f).unwrap();
    fs::write(&f, text).unwrap();
    let third = index(&dir, &db, 2);
    assert_eq!((third.files_unchanged, third.files_indexed), (120, 0));
    assert_eq!(export_games(&db), before);
}

/// A file rewritten with its size and modification time kept (`cp -p`, `touch -d`, a coarse
/// clock) is read again: its status change time shows it. A file whose status alone changed
/// (`chmod`) is read and hashed, and found the same.
#[test]
fn a_file_rewritten_with_its_size_and_time_kept_is_read_again() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, db) = (tmp.path().join("games"), tmp.path().join("k.sqlite"));
    fs::create_dir_all(&dir).unwrap();
    let f = dir.join("m.usi");
    fs::write(&f, "position startpos moves 7g7f\n").unwrap();
    index(&dir, &db, 2);
    let kept = fs::metadata(&f).unwrap().modified().unwrap();
    // The same size, another move, the old time.
    fs::write(&f, "position startpos moves 2g2f\n").unwrap();
    fs::File::options().write(true).open(&f).unwrap().set_modified(kept).unwrap();
    assert_eq!(fs::metadata(&f).unwrap().modified().unwrap(), kept);
    let s = index(&dir, &db, 2);
    assert_eq!((s.files_indexed, s.files_unchanged, s.games_added), (1, 0, 1));
    let moves = String::from_utf8(kifudex(["export", "moves"]).db(&db).output().stdout).unwrap();
    assert!(moves.contains("2g2f") && !moves.contains("7g7f"), "{moves}");
    // Its status alone: read, found the same, and not read again after that.
    let mut perms = fs::metadata(&f).unwrap().permissions();
    perms.set_readonly(true);
    fs::set_permissions(&f, perms).unwrap();
    let s = index(&dir, &db, 2);
    assert_eq!((s.files_indexed, s.files_unchanged, s.games_added), (0, 1, 0));
    let s = index(&dir, &db, 2);
    assert_eq!((s.files_indexed, s.files_unchanged, s.games_added), (0, 1, 0));
}

/// `--reread` reads every file again, changed or not, as a migration marks files whose reading
/// changed: the games are the same, with the same ids, and the answers the same; a run after
/// it reads nothing again. A database of schema 27, whose files were read by a version that
/// read past bookmarks, is told by every run how many of them no run has read since: a
/// `--reread` of one file leaves the others.
#[test]
fn reread_reads_every_file_again_and_keeps_every_game() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, db) = (tmp.path().join("games"), tmp.path().join("k.sqlite"));
    write_games(&dir, &corpus()[..40]);
    fs::write(dir.join("b.kif"), "手数----指手--\n&しおり\n   1 ７六歩(77)\n&読み込み時表示\n   2 投了\n")
        .unwrap();
    let run = |extra: &[&str]| -> serde_json::Value {
        let mut args = vec!["index", dir.to_str().unwrap(), "--json"];
        args.extend_from_slice(extra);
        let out = kifudex(args).db(&db).output();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let note = String::from_utf8_lossy(&out.stderr).contains("were indexed by an earlier version");
        let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(note, summary["files_to_read_again"].as_u64() > Some(0), "{summary}");
        summary
    };
    let counts = |s: &serde_json::Value| {
        ["files_indexed", "files_unchanged", "games_added", "games_removed", "files_to_read_again"]
            .map(|k| s[k].as_u64().unwrap())
    };
    assert_eq!(counts(&run(&[]))[..3], [41, 0, 41]);
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.pragma_update(None, "user_version", 27).unwrap();
    drop(conn);
    assert_eq!(counts(&run(&[])), [0, 41, 0, 0, 41]);
    let one = dir.join("b.kif");
    let out = kifudex(["index", one.to_str().unwrap(), "--reread", "--json"]).db(&db).output();
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(counts(&summary), [1, 0, 0, 0, 40]);
    assert_eq!(counts(&run(&[])), [0, 41, 0, 0, 40]);
    let before = export_games(&db);
    let start = |db: &Path| {
        String::from_utf8(kifudex(["query", "--sfen", "startpos"]).db(db).output().stdout).unwrap()
    };
    let answer = start(&db);
    assert!(answer.starts_with("Position: ") && answer.contains(" games reach it ("), "{answer}");
    assert_eq!(counts(&run(&["--reread"])), [41, 0, 0, 0, 0]);
    assert_eq!(export_games(&db), before);
    assert_eq!(start(&db), answer);
    assert_eq!(counts(&run(&[])), [0, 41, 0, 0, 0]);
    // The bookmarks, read as comments of the positions they follow, are shown where they were.
    let id =
        game_rows(&db).into_iter().find(|r| r["source_path"].ends_with("b.kif")).unwrap()["game_id"].clone();
    let shown = String::from_utf8(kifudex(["show", &id, "--to", "kif"]).db(&db).output().stdout).unwrap();
    assert!(shown.contains("&しおり\n   1 ７六歩(77)\n&読み込み時表示\n"), "{shown}");
}

/// The id of each game of `db` by its file's name and its place there.
fn ids_by_place(db: &Path) -> BTreeMap<(String, String), String> {
    game_rows(db)
        .into_iter()
        .map(|r| {
            let name = Path::new(&r["source_path"]).file_name().unwrap().to_string_lossy().into_owned();
            ((name, r["game_index"].clone()), r["game_id"].clone())
        })
        .collect()
}

/// A changed file keeps the ids of the games it still holds, as the README says: a game
/// whose moves are read again with the same ending (and, when they stop early, the same
/// players and day) is the same game, whatever else its headers say now. A game the file no
/// longer holds goes; one whose ending changed is another game.
#[test]
fn a_changed_file_keeps_the_ids_of_the_games_it_still_holds() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, db) = (tmp.path().join("games"), tmp.path().join("k.sqlite"));
    fs::create_dir_all(&dir).unwrap();
    let spec = |i: usize| corpus()[i].clone();
    // A game that stops early: an illegal move before its ending.
    let stopped = |s: &Spec| s.csa().replacen("\n%", "\n+9999XX\n%", 1);
    let place = |file: &str, i: usize| (file.to_string(), i.to_string());
    let write = |games: &[String]| fs::write(dir.join("a.csa"), games.join("/\n")).unwrap();
    write(&[spec(0).csa(), stopped(&spec(1)), spec(2).csa()]);
    fs::write(dir.join("b.csa"), spec(3).csa()).unwrap();
    index(&dir, &db, 2);
    let first = ids_by_place(&db);
    assert_eq!(first.len(), 4, "{first:?}");

    // Other events and dates for the first two games, the third gone, a new one after them.
    let mut edited = [spec(0), spec(1)];
    for s in &mut edited {
        s.event = format!("{} (corrected)", s.event);
        s.date = "2001/02/03".into();
    }
    // (The stopped game keeps its day: its day is part of what tells it apart.)
    edited[1].date = spec(1).date;
    write(&[edited[0].csa(), stopped(&edited[1]), spec(4).csa()]);
    let s = index(&dir, &db, 2);
    assert_eq!(
        (s.files_indexed, s.games_added, s.games_kept, s.games_duplicate, s.games_removed),
        (1, 1, 2, 0, 1),
        "{s:?}"
    );
    let second = ids_by_place(&db);
    assert_eq!(second[&place("a.csa", 0)], first[&place("a.csa", 0)]);
    assert_eq!(second[&place("a.csa", 1)], first[&place("a.csa", 1)]);
    assert_eq!(second[&place("b.csa", 0)], first[&place("b.csa", 0)]);
    // The new game is a new id (ids are never reused): the highest yet.
    assert_eq!(second[&place("a.csa", 2)], "5");
    let rows = game_rows(&db);
    assert!(rows.iter().all(|r| r["game_id"] != first[&place("a.csa", 2)]), "the game gone is gone");
    let event = |rows: &[HashMap<String, String>], id: &str| {
        rows.iter().find(|r| r["game_id"] == id).map(|r| r["event"].clone()).unwrap()
    };
    assert_eq!(event(&rows, &second[&place("a.csa", 0)]), edited[0].event);
    // The answers count the four games once each.
    let out = kifudex(["query", "--format", "json"]).db(&db).output();
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["position"]["games"], 4, "{answer}");
    let mine = kifudex(["games", "--event", "(corrected)", "--format", "csv"]).db(&db).output();
    assert_eq!(String::from_utf8(mine.stdout).unwrap().lines().count(), 3, "two games and the header");

    // Another ending for the first game, another player for the stopped one: other games.
    let mut drawn = edited[0].clone();
    drawn.result = if drawn.result == GameResult::Draw { GameResult::BlackWin } else { GameResult::Draw };
    edited[1].black = format!("{} 2", edited[1].black);
    write(&[drawn.csa(), stopped(&edited[1]), spec(4).csa()]);
    let s = index(&dir, &db, 2);
    assert_eq!((s.games_added, s.games_kept, s.games_removed), (2, 1, 2), "{s:?}");
    let third = ids_by_place(&db);
    assert_eq!(
        [place("a.csa", 0), place("a.csa", 1), place("a.csa", 2), place("b.csa", 0)]
            .map(|p| third[&p].clone()),
        ["6", "7", "5", "4"].map(String::from),
    );

    // A game moved to a file read after its own: it keeps its id.
    write(&[drawn.csa(), stopped(&edited[1])]);
    fs::write(dir.join("z.csa"), spec(4).csa()).unwrap();
    let s = index(&dir, &db, 2);
    assert_eq!((s.games_added, s.games_kept, s.games_duplicate, s.games_removed), (0, 3, 0, 0), "{s:?}");
    let ids = |files: &[(&str, usize)]| {
        let now = ids_by_place(&db);
        files.iter().map(|&(f, i)| now[&place(f, i)].clone()).collect::<Vec<_>>()
    };
    assert_eq!(ids(&[("a.csa", 0), ("a.csa", 1), ("b.csa", 0), ("z.csa", 0)]), ["6", "7", "4", "5"]);

    // Two files swapped: their games keep their ids. (The game of b.csa is still b.csa's when
    // a.csa, read first, finds it: its record counts as a duplicate.)
    write(&[spec(3).csa()]);
    fs::write(dir.join("b.csa"), [drawn.csa(), stopped(&edited[1])].join("/\n")).unwrap();
    let s = index(&dir, &db, 2);
    assert_eq!((s.games_added, s.games_kept, s.games_duplicate, s.games_removed), (0, 2, 1, 0), "{s:?}");
    assert_eq!(ids(&[("a.csa", 0), ("b.csa", 0), ("b.csa", 1), ("z.csa", 0)]), ["4", "6", "7", "5"]);

    // The game of a.csa ends otherwise now, and c.csa, new, holds it as it was: the moves are
    // one game, which ends as its first record says (a.csa's), under a new id; c.csa's record
    // says another ending, with a warning. Game 4 is no file's any more.
    let mut ended = spec(3);
    ended.result = if ended.result == GameResult::Draw { GameResult::BlackWin } else { GameResult::Draw };
    write(&[ended.csa()]);
    fs::write(dir.join("c.csa"), spec(3).csa()).unwrap();
    let s = index(&dir, &db, 2);
    assert_eq!(
        (s.games_added, s.games_kept, s.games_duplicate, s.games_removed, s.warnings),
        (1, 0, 1, 1, 1),
        "{s:?}"
    );
    assert_eq!(ids(&[("a.csa", 0), ("c.csa", 0)]), ["8", "8"]);

    // a.csa's ending back as c.csa says it: the game's first record that says an ending now
    // says c.csa's, and the game is stored again under a new id.
    write(&[spec(3).csa()]);
    let s = index(&dir, &db, 2);
    assert_eq!((s.games_added, s.games_renumbered, s.games_removed, s.warnings), (0, 1, 0, 0), "{s:?}");
    assert_eq!(ids(&[("a.csa", 0), ("c.csa", 0)]), ["9", "9"]);

    // A file gone, with --prune: its two games go, and the summary says so.
    fs::remove_file(dir.join("b.csa")).unwrap();
    let s = index_with(&Options { prune: true, ..options(&dir, &db, 2) });
    assert_eq!((s.files_pruned, s.games_removed, s.games_added, s.games_kept), (1, 2, 0, 0), "{s:?}");
    let left: BTreeSet<String> = ids_by_place(&db).into_values().collect();
    assert_eq!(left, BTreeSet::from(["5", "9"].map(String::from)));
}

/// The ending of a game that several files hold is that of its first record that says one:
/// records that come and go in one run change the game's id only when that ending changes in
/// the end, whatever order the run meets them in.
#[test]
fn a_game_s_id_changes_with_its_ending_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, db) = (tmp.path().join("games"), tmp.path().join("k.sqlite"));
    fs::create_dir_all(&dir).unwrap();
    let resigned = corpus().iter().find(|s| s.result != GameResult::Draw).unwrap().clone();
    let drawn = Spec { result: GameResult::Draw, ..resigned.clone() };
    let id_of = |name: &str| ids_by_place(&db)[&(name.to_string(), "0".to_string())].clone();

    // c.csa says resigned, x.csa a draw: the game ends as c.csa says. An edit of c.csa's
    // headers takes its record away and brings it back: the game is as it was.
    fs::write(dir.join("c.csa"), resigned.csa()).unwrap();
    fs::write(dir.join("x.csa"), drawn.csa()).unwrap();
    let s = index(&dir, &db, 2);
    assert_eq!((s.games_added, s.games_duplicate, s.warnings), (1, 1, 1), "{s:?}");
    let id = id_of("c.csa");
    let mut edited = resigned.clone();
    edited.event = format!("{} (corrected)", edited.event);
    fs::write(dir.join("c.csa"), edited.csa()).unwrap();
    let s = index(&dir, &db, 2);
    assert_eq!((s.games_kept, s.games_renumbered, s.games_added, s.games_removed), (1, 0, 0, 0), "{s:?}");
    assert_eq!((id_of("c.csa"), id_of("x.csa")), (id.clone(), id.clone()));

    // a.csa and z.csa say a draw, k.csa (between them) resigned: the game is drawn. a.csa
    // turns into another game and k.csa goes: z.csa's record is first, and says a draw still.
    fs::remove_file(dir.join("c.csa")).unwrap();
    fs::remove_file(dir.join("x.csa")).unwrap();
    fs::write(dir.join("a.csa"), drawn.csa()).unwrap();
    fs::write(dir.join("k.csa"), resigned.csa()).unwrap();
    fs::write(dir.join("z.csa"), drawn.csa()).unwrap();
    index_with(&Options { prune: true, ..options(&dir, &db, 2) });
    let id = id_of("z.csa");
    assert_eq!(id_of("a.csa"), id);
    let other = corpus().iter().find(|s| s.moves != resigned.moves).unwrap();
    fs::write(dir.join("a.csa"), other.csa()).unwrap();
    fs::remove_file(dir.join("k.csa")).unwrap();
    let s = index_with(&Options { prune: true, ..options(&dir, &db, 2) });
    assert_eq!((s.games_added, s.games_renumbered, s.games_removed, s.files_pruned), (1, 0, 0, 1), "{s:?}");
    assert_eq!(id_of("z.csa"), id);
    let row = game_rows(&db).into_iter().find(|r| r["game_id"] == id).unwrap();
    assert_eq!(row["result"], "draw");
    // What a database built afresh from the same files says, but for the ids.
    let fresh = tmp.path().join("fresh.sqlite");
    index(&dir, &fresh, 2);
    let without_ids = |db: &Path| {
        let mut rows: Vec<String> = game_rows(db)
            .into_iter()
            .map(|r| format!("{} {} {} {}", r["source_path"], r["result"], r["termination"], r["plies"]))
            .collect();
        rows.sort();
        rows
    };
    assert_eq!(without_ids(&db), without_ids(&fresh));
}

/// Stops the run once it has written a file.
struct StopAfterAFile(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl ingest::Observer for StopAfterAFile {
    fn progress(&self, _done: u64, summary: &Summary) {
        if summary.files_indexed > 0 {
            self.0.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    }
}

/// A run stopped between the file a game left and the file it went to keeps the game: what
/// it wrote is rolled back, and the next run reads both files.
#[test]
fn a_run_stopped_between_the_two_files_of_a_game_moved_keeps_its_id() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, db) = (tmp.path().join("games"), tmp.path().join("k.sqlite"));
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("a.csa"), [corpus()[20].csa(), corpus()[21].csa()].join("/\n")).unwrap();
    fs::write(dir.join("b.csa"), corpus()[22].csa()).unwrap();
    index(&dir, &db, 1);
    let before = ids_by_place(&db);
    // The second game of a.csa goes to z.csa, read after it.
    fs::write(dir.join("a.csa"), corpus()[20].csa()).unwrap();
    fs::write(dir.join("z.csa"), corpus()[21].csa()).unwrap();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stopped = Options { stop: Some(stop.clone()), ..options(&dir, &db, 1) };
    let s = ingest::run(&stopped, &StopAfterAFile(stop)).unwrap();
    assert!(s.interrupted, "{s:?}");
    assert_eq!((s.files_indexed, s.games_removed), (0, 0), "{s:?}");
    assert_eq!(ids_by_place(&db), before, "as the last run left it");
    let s = index(&dir, &db, 1);
    assert_eq!((s.games_kept, s.games_added, s.games_removed), (2, 0, 0), "{s:?}");
    let after = ids_by_place(&db);
    let place = |f: &str, i: usize| (f.to_string(), i.to_string());
    assert_eq!(after[&place("z.csa", 0)], before[&place("a.csa", 1)]);
    assert_eq!(after[&place("a.csa", 0)], before[&place("a.csa", 0)]);
}

#[test]
fn a_changed_file_is_replaced_and_prune_removes_vanished_files() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, db) = (tmp.path().join("games"), tmp.path().join("k.sqlite"));
    let paths = write_games(&dir, &corpus()[..60]);
    index(&dir, &db, 2);
    // g0005 now holds game 70 instead of game 5.
    fs::write(&paths[5], corpus()[70].csa()).unwrap();
    let s = index(&dir, &db, 2);
    assert_eq!((s.files_indexed, s.files_unchanged, s.games_added), (1, 59, 1));
    let rows = game_rows(&db);
    let row = rows.iter().find(|r| r["source_path"].ends_with("g0005.csa")).unwrap();
    assert_eq!(row["plies"], corpus()[70].moves.len().to_string());
    assert_eq!(row["game_id"], "61", "a replaced game gets a new id");
    assert!(!rows.iter().any(|r| r["game_id"] == "6"), "the old game is gone");
    // Without --prune a vanished file keeps its games; with it they go.
    // The run says the file is gone, and that its games are still there.
    fs::remove_file(&paths[7]).unwrap();
    let s = index(&dir, &db, 2);
    assert_eq!((s.files_pruned, s.files_gone), (0, 1), "{s:?}");
    assert_eq!(game_rows(&db).len(), 60);
    let s = index_with(&Options { prune: true, ..options(&dir, &db, 2) });
    assert_eq!((s.files_pruned, s.files_gone), (1, 0), "{s:?}");
    assert_eq!(index(&dir, &db, 2).files_gone, 0);
    let rows = game_rows(&db);
    assert_eq!(rows.len(), 59);
    assert!(!rows.iter().any(|r| r["source_path"].ends_with("g0007.csa")));
    // The pruned game's positions are gone from the answers too.
    let mut reader = Reader::open(&db).unwrap();
    let snap = reader.snapshot().unwrap();
    let end = corpus()[7].setups().pop().unwrap();
    let gone = snap.exact_occurrences(&end, None).unwrap();
    assert!(gone.is_empty(), "{gone:?}");
    drop(snap);
    drop(reader);
    // A directory or a pipe in a record file's place: the file is gone all the same.
    fs::remove_file(&paths[8]).unwrap();
    fs::create_dir(&paths[8]).unwrap();
    fs::remove_file(&paths[9]).unwrap();
    rustix::fs::mknodat(rustix::fs::CWD, &paths[9], rustix::fs::FileType::Fifo, 0o644.into(), 0).unwrap();
    let (code, _, err) = kifudex(["index", dir.to_str().unwrap()]).db(&db).run();
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(
            "kifudex: 2 files recorded under the paths given are gone, and their games are still in every \
             answer: the same command with --prune forgets them"
        ),
        "{err}"
    );
    let s = index_with(&Options { prune: true, ..options(&dir, &db, 2) });
    assert_eq!((s.files_pruned, s.files_unwalked), (2, 0), "{s:?}");
    assert_eq!(game_rows(&db).len(), 57);
}

/// Counts the files it is told will be looked at, which makes the run count them first.
struct Counting;

impl ingest::Observer for Counting {
    fn wants_total(&self) -> bool {
        true
    }
}

#[test]
fn a_run_stopped_before_it_reads_a_file_says_so_and_prunes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, db) = (tmp.path().join("games"), tmp.path().join("k.sqlite"));
    let paths = write_games(&dir, &corpus()[..40]);
    index(&dir, &db, 2);
    fs::remove_file(&paths[3]).unwrap();
    fs::write(&paths[4], corpus()[90].csa()).unwrap();
    // The stop comes before the walk (Ctrl-C as the run starts): with the files counted
    // first for a progress bar, and without.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let stopped = Options { prune: true, stop: Some(stop), ..options(&dir, &db, 2) };
    for observer in [&Quiet as &dyn ingest::Observer, &Counting] {
        let s = ingest::run(&stopped, observer).unwrap();
        assert!(s.interrupted, "a stopped run says so: {s:?}");
        assert_eq!((s.files_indexed, s.files_pruned, s.games_added), (0, 0, 0), "{s:?}");
        assert_eq!(game_rows(&db).len(), 40, "nothing pruned, nothing replaced");
    }
    let s = index_with(&Options { prune: true, ..options(&dir, &db, 2) });
    assert!(!s.interrupted);
    assert_eq!((s.files_indexed, s.files_pruned, s.games_added), (1, 1, 1), "{s:?}");
}

#[test]
fn prune_removes_every_vanished_file_under_the_roots_indexed_and_no_other() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b, db) = (tmp.path().join("a"), tmp.path().join("b"), tmp.path().join("k.sqlite"));
    let in_a = write_games(&a, &corpus()[..360]);
    let in_b = write_games(&b, &corpus()[360..]);
    index_with(&Options::new(vec![a.clone(), b.clone()], db.clone()));
    assert_eq!(game_rows(&db).len(), 400);
    // 270 files of `a` go (more than one batch of paths), and one of `b`.
    for (i, path) in in_a.iter().enumerate() {
        if i % 4 != 0 {
            fs::remove_file(path).unwrap();
        }
    }
    fs::remove_file(&in_b[0]).unwrap();
    let s = index_with(&Options { prune: true, ..options(&a, &db, 2) });
    assert_eq!((s.files_pruned, s.files_unchanged), (270, 90));
    let mut left: Vec<String> = game_rows(&db).into_iter().map(|r| r["source_path"].clone()).collect();
    left.sort();
    let mut want: Vec<String> =
        in_a.iter().step_by(4).chain(&in_b).map(|p| p.to_string_lossy().into_owned()).collect();
    want.sort();
    assert_eq!(left, want, "the files of `a` that remain, and all of `b`'s, which was not walked");
}

#[test]
fn the_same_game_from_two_files_is_stored_once() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, db) = (tmp.path().join("games"), tmp.path().join("k.sqlite"));
    let spec = &corpus()[11];
    fs::create_dir_all(dir.join("b")).unwrap();
    // The same game written differently: in another format, without headers, the start as
    // an SFEN, in a file of several games after another game.
    fs::write(dir.join("a.csa"), spec.csa()).unwrap();
    let other = corpus()[12].usi_line() + &spec.usi_line();
    fs::write(dir.join("b/c.usi"), other).unwrap();
    fs::copy(dir.join("a.csa"), dir.join("b/renamed copy.csa")).unwrap();
    let s = index(&dir, &db, 2);
    assert_eq!((s.games_added, s.games_duplicate), (2, 2));
    let rows = game_rows(&db);
    let at = |name: &str, idx: &str| {
        rows.iter().find(|r| r["source_path"].ends_with(name) && r["game_index"] == idx).unwrap().clone()
    };
    let (a, c1, copy) = (at("/a.csa", "0"), at("b/c.usi", "1"), at("renamed copy.csa", "0"));
    assert_eq!(a["duplicate_of"], "");
    assert_eq!(c1["game_id"], a["game_id"]);
    assert_eq!(c1["duplicate_of"], a["game_id"]);
    assert_eq!(copy["duplicate_of"], a["game_id"]);
    assert_eq!(at("b/c.usi", "0")["duplicate_of"], "");
    // The game's positions count it once.
    let mut reader = Reader::open(&db).unwrap();
    let snap = reader.snapshot().unwrap();
    let end = spec.setups().pop().unwrap();
    assert_eq!(snap.position_stats(&end, None).unwrap().games.games, 1);
    // A run waits for readers' transactions to end before it starts.
    drop(snap);
    drop(reader);
    // Removing the first file keeps the game for the others.
    fs::remove_file(dir.join("a.csa")).unwrap();
    index_with(&Options { prune: true, ..options(&dir, &db, 1) });
    let rows = game_rows(&db);
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().any(|r| r["game_id"] == a["game_id"] && r["duplicate_of"].is_empty()));
}

#[test]
fn a_game_that_stops_is_stored_up_to_the_stop_and_rejected() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, db) = (tmp.path().join("games"), tmp.path().join("k.sqlite"));
    fs::create_dir_all(&dir).unwrap();
    // Ply 5 (3c3d again, from a square now empty) is illegal; a token that is no USI move
    // (`bad_move_text`) stops the next game at ply 3.
    fs::write(dir.join("bad.usi"), "position startpos moves 7g7f 3c3d 2g2f 8c8d 3c3d 6c6d\n").unwrap();
    fs::write(dir.join("worse.usi"), "# event: x\n\nposition startpos moves 7g7f 3c3d zz 8c8d\n").unwrap();
    fs::write(dir.join("empty.usi"), "").unwrap();
    fs::write(dir.join("prose.usi"), "not a record\n").unwrap();
    fs::write(dir.join("notes.md"), "skipped: not a record extension\n").unwrap();
    let s = index(&dir, &db, 2);
    assert_eq!(
        (s.files_seen, s.files_rejected, s.files_skipped, s.games_added, s.games_rejected),
        (5, 2, 1, 2, 2)
    );
    let rows = game_rows(&db);
    assert_eq!(rows.len(), 2);
    let bad = rows.iter().find(|r| r["source_path"].ends_with("bad.usi")).unwrap();
    assert_eq!((bad["plies"].as_str(), bad["status"].as_str()), ("4", "no_such_move"));
    let worse = rows.iter().find(|r| r["source_path"].ends_with("worse.usi")).unwrap();
    assert_eq!((worse["plies"].as_str(), worse["status"].as_str()), ("2", "bad_move_text"));
    let rejects = export_rejects(&db);
    let lines: Vec<&str> = rejects.lines().collect();
    assert_eq!(lines[0], "path,game_index,line,ply,code,message");
    assert_eq!(lines.len(), 5, "{rejects}");
    assert!(lines[1].contains("bad.usi,0,1,5,no_such_move,"), "{rejects}");
    assert!(lines[2].contains("empty.usi,,,,empty,"), "{rejects}");
    assert!(lines[3].contains("prose.usi,,,,unknown_format,"), "{rejects}");
    assert!(lines[4].contains("worse.usi,0,3,3,bad_move_text,"), "{rejects}");
    // A re-run parses nothing and rejects nothing; the rejects recorded stay.
    let again = index(&dir, &db, 2);
    assert_eq!((again.files_unchanged, again.files_rejected, again.games_rejected), (4, 0, 0));
    assert!(!again.has_rejects());
    assert_eq!(export_rejects(&db), rejects);
    // Fixing a file clears its rejects.
    fs::write(dir.join("bad.usi"), "position startpos moves 7g7f 3c3d\n").unwrap();
    let fixed = index(&dir, &db, 2);
    assert_eq!((fixed.files_indexed, fixed.games_rejected), (1, 0));
    assert!(!export_rejects(&db).contains("bad.usi"));
}

#[test]
fn one_and_two_workers_give_identical_databases() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("games");
    write_games(&dir, &corpus()[..200]);
    fs::write(dir.join("d00/zz-broken.usi"), "position startpos moves 7g7f 7g7f\n").unwrap();
    let (one, two) = (tmp.path().join("one.sqlite"), tmp.path().join("two.sqlite"));
    index_with(&Options { run_postings: 1_000, ..options(&dir, &one, 1) });
    index_with(&Options { run_postings: 1_000, ..options(&dir, &two, 2) });
    assert_eq!(export_games(&one), export_games(&two));
    assert_eq!(export_rejects(&one), export_rejects(&two));
    let start = Handicap::Even.setup();
    let stats =
        |db: &Path| Reader::open(db).unwrap().snapshot().unwrap().position_stats(&start, None).unwrap();
    assert_eq!(stats(&one), stats(&two));
}

/// The id of the game each of `paths` holds (one game a file).
fn game_ids(db: &Path, paths: &[std::path::PathBuf]) -> Vec<GameId> {
    let id_of: HashMap<String, GameId> = game_rows(db)
        .into_iter()
        .map(|r| (r["source_path"].clone(), GameId(r["game_id"].parse().unwrap())))
        .collect();
    paths.iter().map(|p| id_of[&fs::canonicalize(p).unwrap().to_string_lossy().to_string()]).collect()
}

#[test]
fn position_answers_match_an_independent_replay() {
    let specs = corpus();
    let tmp = tempfile::tempdir().unwrap();
    let (dir, db) = (tmp.path().join("games"), tmp.path().join("k.sqlite"));
    let paths = write_games(&dir, specs);
    // Small runs, so that answers come from several runs and merged ones (the end of a run
    // merges them).
    let first = index_with(&Options { run_postings: 1_000, ..options(&dir, &db, 2) });
    assert!(first.runs_merged > 0, "{first:?}");
    // Replace ten games, so that dead postings are in the runs too.
    for i in 0..10 {
        fs::write(&paths[i * 7], specs[200 + i].csa()).unwrap();
    }
    index_with(&Options { run_postings: 1_000, ..options(&dir, &db, 2) });
    let current: Vec<Spec> = (0..specs.len())
        .map(|i| if i % 7 == 0 && i / 7 < 10 { specs[200 + i / 7].clone() } else { specs[i].clone() })
        .collect();
    // The merges and replacements left no free pages behind.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let free: i64 = conn.query_row("PRAGMA freelist_count", [], |r| r.get(0)).unwrap();
    let runs: i64 = conn.query_row("SELECT count(*) FROM runs", [], |r| r.get(0)).unwrap();
    assert_eq!(free, 0);
    assert!(runs < 16, "{runs} runs are left unmerged");
    drop(conn);
    let ids = game_ids(&db, &paths);
    let (occ, setups) = truth(&current);

    // Positions to ask: those reached by several games (transpositions among them), handicap
    // starts, and late positions of single games.
    let mut asked: BTreeSet<String> =
        occ.iter().filter(|(_, o)| o.len() > 1).map(|(t, _)| t.clone()).take(120).collect();
    for spec in current.iter().step_by(9) {
        let s = spec.setups();
        asked.insert(s[0].position_text());
        asked.insert(s[s.len() / 2].position_text());
        asked.insert(s[s.len() - 1].position_text());
    }
    assert!(asked.len() >= 150, "{}", asked.len());
    let transposed = asked
        .iter()
        .filter(|t| {
            let o = &occ[*t];
            o.iter().any(|a| o.iter().any(|b| current[a.0].moves[..a.1] != current[b.0].moves[..b.1]))
        })
        .count();
    assert!(transposed >= 5, "{transposed}");

    let mut reader = Reader::open(&db).unwrap();
    let snap = reader.snapshot().unwrap();
    let blacks = snap
        .filter_games(&GameFilter { result: Some(GameResult::BlackWin), ..GameFilter::default() })
        .unwrap();
    let blacks = blacks.unwrap();
    for text in &asked {
        let setup = &setups[text];
        for filter in [None, Some(&blacks)] {
            let keep = |g: usize| filter.is_none_or(|f| f.contains(&ids[g]));
            let o: Vec<_> = occ[text].iter().filter(|o| keep(o.0)).collect();
            let games: BTreeSet<GameId> = o.iter().map(|o| ids[o.0]).collect();
            let mut played: BTreeMap<u16, BTreeSet<GameId>> = BTreeMap::new();
            for &&(g, _, next) in &o {
                if let Some(mv) = next {
                    played.entry(mv.code()).or_default().insert(ids[g]);
                }
            }
            let stats = snap.position_stats(setup, filter).unwrap();
            assert_eq!(stats.games.games, games.len() as u64, "{text}");
            let got_ids: BTreeSet<GameId> =
                snap.exact_occurrences(setup, filter).unwrap().iter().map(|o| o.game).collect();
            assert_eq!(got_ids, games, "{text}");
            let winners: BTreeSet<GameId> =
                o.iter().filter(|o| current[o.0].result == GameResult::BlackWin).map(|o| ids[o.0]).collect();
            let wins = winners.len() as u64;
            assert_eq!(stats.games.black_wins, wins, "{text}");
            assert_eq!(stats.moves.len(), played.len(), "{text}");
            for m in &stats.moves {
                assert_eq!(m.played.games, played[&m.mv.code()].len() as u64, "{text} {}", m.mv);
                let mut child = setup.clone();
                child.play_legal(m.mv);
                let reached: BTreeSet<GameId> = occ[&child.position_text()]
                    .iter()
                    .map(|o| o.0)
                    .filter(|&g| keep(g))
                    .map(|g| ids[g])
                    .collect();
                assert_eq!(m.reached, reached.len() as u64, "{text} {}", m.mv);
            }
        }
    }
}

#[test]
fn games_committed_without_their_positions_are_flagged_and_completed_by_the_next_run() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, db) = (tmp.path().join("games"), tmp.path().join("k.sqlite"));
    write_games(&dir, &corpus()[..30]);
    {
        let mut writer = kifudex::db::Writer::open(&db).unwrap();
        let mut batch = writer.batch().unwrap();
        for (i, spec) in corpus()[..30].iter().enumerate() {
            let parsed = kifudex::kifu::read_file(Some(Path::new("g.csa")), spec.csa().as_bytes()).unwrap();
            let game = &parsed.games[0];
            let new = kifudex::store::new_game(game, kifudex::replay::replay(game), 0);
            let file = kifudex::db::FileRecord {
                path: format!("/nowhere/{i}.csa"),
                size: 1,
                mtime_ns: 1,
                ctime_ns: None,
                device: None,
                hash: [0; 16],
                format: Some("csa"),
                encoding: Some("utf-8"),
                error: None,
            };
            batch.write_file(&file, std::slice::from_ref(&new), &[]).unwrap();
        }
        batch.commit().unwrap();
    }
    let start = Handicap::Even.setup();
    let even = corpus()[..30].iter().filter(|s| s.start == Handicap::Even).count() as u64;
    let at_start = |db: &Path| {
        let mut reader = Reader::open(db).unwrap();
        let snapshot = reader.snapshot().unwrap();
        (snapshot.position_stats(&start, None).unwrap().games.games, snapshot.unindexed_games().unwrap())
    };
    // A commit writes the games' positions with them.
    assert_eq!(at_start(&db), (even, 0));
    // What a killed run of an older kifudex, which kept positions in memory (and no counts of
    // hot positions), left behind.
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(
        "DELETE FROM pblocks; DELETE FROM runs; DELETE FROM hot; DELETE FROM hot_lists;
         UPDATE meta SET value = '0' WHERE key = 'indexed_through'",
    )
    .unwrap();
    drop(conn);
    assert_eq!(at_start(&db), (0, 30));
    let out = kifudex(["query", "--db", db.to_str().unwrap()]).dir(tmp.path()).output();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let said = "answers by position leave out 30 stored games that are not in the position index yet";
    assert!(stderr(&out).contains(said), "{}", stderr(&out));
    // The server says it too, where the page shows it.
    {
        let server = crate::serve::Server::start(&db, &[]);
        let status: serde_json::Value = crate::serve::http::get(server.addr, "/api/status").json();
        assert!(status["warning"].as_str().is_some_and(|w| w.contains(said)), "{status}");
    }
    // The next writer rebuilds them; a run that completes says the database is whole again.
    let mut writer = kifudex::db::Writer::open(&db).unwrap();
    writer.set_complete(true);
    writer.finish().unwrap();
    assert_eq!(at_start(&db), (even, 0));
    let out = kifudex(["query", "--db", db.to_str().unwrap()]).dir(tmp.path()).output();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    let server = crate::serve::Server::start(&db, &[]);
    let status: serde_json::Value = crate::serve::http::get(server.addr, "/api/status").json();
    assert_eq!(status, serde_json::json!({ "warning": null }));
}

/// The child side of the kill test: an index run, when the parent asks for one.
#[test]
#[ignore = "started as a child process by a_killed_run_leaves_a_sound_database"]
fn child_index_process() {
    let (Some(dir), Some(db)) = (std::env::var_os("KIFUDEX_TEST_DIR"), std::env::var_os("KIFUDEX_TEST_DB"))
    else {
        return;
    };
    index_with(&Options { run_postings: 30_000, ..options(Path::new(&dir), Path::new(&db), 2) });
}

/// What must hold whenever no writer is running: SQLite's own check, and no partial game.
fn assert_sound(db: &Path) {
    let conn = rusqlite::Connection::open(db).unwrap();
    let check: String = conn.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
    assert_eq!(check, "ok");
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    if version == 0 {
        return; // killed before the schema was created: an empty database
    }
    let partial: i64 = conn
        .query_row(
            "SELECT (SELECT count(*) FROM games g WHERE length(g.moves) != 2 * g.plies
                       OR NOT EXISTS (SELECT 1 FROM sources s WHERE s.game = g.id))
                  + (SELECT count(*) FROM files f WHERE f.games != (SELECT count(*) FROM sources s WHERE s.file = f.id))
                  + (SELECT count(*) FROM sources s WHERE NOT EXISTS (SELECT 1 FROM games g WHERE g.id = s.game))",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(partial, 0, "a game or file was written in part");
}

/// Starts an index run of `dir` into `db` in a child process.
fn spawn_index(dir: &Path, db: &Path) -> std::process::Child {
    Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "index::child_index_process", "--ignored", "--test-threads=1"])
        .env("KIFUDEX_TEST_DIR", dir)
        .env("KIFUDEX_TEST_DB", db)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap()
}

/// Lets the child run for `ms` milliseconds, querying the database meanwhile, then kills
/// it (SIGKILL). Returns whether it was still running.
fn kill_after(mut child: std::process::Child, db: &Path, ms: u64) -> bool {
    let start = Handicap::Even.setup();
    let deadline = std::time::Instant::now() + std::time::Duration::from_millis(ms);
    while std::time::Instant::now() < deadline {
        // Queries work while the run writes.
        if let Ok(mut reader) = Reader::open(db) {
            let snap = reader.snapshot().expect("a snapshot while the writer runs");
            snap.game_count().expect("a count while the writer runs");
            snap.position_stats(&start, None).expect("a lookup while the writer runs");
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    child.wait().unwrap();
    running
}

#[test]
fn a_killed_run_leaves_a_sound_database_and_a_rerun_completes_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("games");
    let mut specs = corpus().to_vec();
    specs.extend(generate(2_600, 99));
    write_games(&dir, &specs);
    let reference = tmp.path().join("reference.sqlite");
    let started = std::time::Instant::now();
    assert!(spawn_index(&dir, &reference).wait().unwrap().success());
    let full = started.elapsed().as_millis() as u64;
    let expected = export_games(&reference);
    let start = Handicap::Even.setup();
    let stats =
        |db: &Path| Reader::open(db).unwrap().snapshot().unwrap().position_stats(&start, None).unwrap();
    let late = specs[3].setups()[30].clone();
    let occ =
        |db: &Path| Reader::open(db).unwrap().snapshot().unwrap().exact_occurrences(&late, None).unwrap();

    let mut killed_mid_run = 0;
    for (i, percent) in [5, 15, 30, 50, 75].into_iter().enumerate() {
        let db = tmp.path().join(format!("killed{i}.sqlite"));
        // A kill, then a kill of the run that resumes, then a run to the end.
        for ms in [full * percent / 100, full * percent / 200] {
            killed_mid_run += usize::from(kill_after(spawn_index(&dir, &db), &db, ms));
            if db.exists() {
                assert_sound(&db);
            }
        }
        index_with(&Options { run_postings: 30_000, ..options(&dir, &db, 1) });
        assert_sound(&db);
        assert_eq!(export_games(&db), expected, "killed at {percent}%");
        assert_eq!(stats(&db), stats(&reference));
        assert_eq!(occ(&db), occ(&reference));
    }
    // Timing varies with the machine's load; most kills land during a run, some must.
    assert!(killed_mid_run >= 3, "only {killed_mid_run} of 10 kills landed during a run");
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn index_needs_a_path_or_samples_and_existing_paths() {
    let tmp = tempfile::tempdir().unwrap();
    let out = kifudex(["index"]).dir(tmp.path()).output();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("samples/"), "{}", stderr(&out));
    let out = kifudex(["index", "no/such/dir"]).dir(tmp.path()).output();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no/such/dir"), "{}", stderr(&out));
    // An empty samples/ directory indexes nothing, successfully, into ./kifudex.sqlite.
    fs::create_dir(tmp.path().join("samples")).unwrap();
    let out = kifudex(["index", "--json"]).dir(tmp.path()).output();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(tmp.path().join("kifudex.sqlite").exists());
    let out = kifudex(["index", "--jobs", "0"]).dir(tmp.path()).output();
    assert_eq!(out.status.code(), Some(2));
}

/// `--jobs` above the CPUs is lowered to them, and a note says so (not with --quiet); up to
/// the CPUs nothing is noted.
#[test]
fn jobs_above_the_cpus_are_lowered_with_a_note() {
    let tmp = tempfile::tempdir().unwrap();
    fs::create_dir(tmp.path().join("samples")).unwrap();
    let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
    let (code, _, err) = kifudex(["index", "--jobs", "65535"]).dir(tmp.path()).run();
    assert_eq!(code, 0, "{err}");
    let note = format!("kifudex: note: --jobs 65535 is more than the {cpus} CPU");
    assert!(err.lines().next().is_some_and(|l| l.starts_with(&note)), "{err}");
    assert!(err.contains(&format!("so {cpus} worker")), "{err}");
    let (code, _, err) = kifudex(["index", "--jobs", "65535", "--quiet"]).dir(tmp.path()).run();
    assert_eq!((code, err.as_str()), (0, ""));
    for jobs in ["1", &cpus.to_string()] {
        let (code, _, err) = kifudex(["index", "--jobs", jobs]).dir(tmp.path()).run();
        assert_eq!(code, 0, "{err}");
        assert!(!err.contains("note"), "--jobs {jobs}: {err}");
    }
}

#[test]
fn bad_inputs_are_rejected_and_others_ignored() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    fs::create_dir_all(dir.join("loop")).unwrap();
    fs::write(dir.join("empty.kif"), "").unwrap();
    fs::write(dir.join("blank.csa"), "\n  \n").unwrap();
    let mut rng = Rng::new(5);
    let junk: Vec<u8> = (0..50 << 20).map(|_| rng.next() as u8).collect();
    fs::write(dir.join("junk.kif"), junk).unwrap();
    fs::write(dir.join("notes.md"), "# not a record").unwrap();
    fs::write(dir.join("image.png"), [0x89, b'P', b'N', b'G']).unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(dir.join("loop"), dir.join("loop/back")).unwrap();
        std::os::unix::fs::symlink(dir.join("nowhere.kif"), dir.join("dangling.kif")).unwrap();
    }
    // An unreadable file; root reads anything, so the check is skipped there.
    let locked = dir.join("locked.kif");
    fs::write(&locked, "x").unwrap();
    #[cfg(unix)]
    let can_lock = {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).unwrap();
        fs::read(&locked).is_err()
    };
    #[cfg(not(unix))]
    let can_lock = true;
    if !can_lock {
        eprintln!("running as root: a file without permissions is still readable, so it is skipped");
        fs::remove_file(&locked).unwrap();
    }
    let db = tmp.path().join("k.sqlite");
    let rejects = tmp.path().join("rejects.csv");
    let dir_s = dir.to_str().unwrap();
    let out = kifudex([
        "index",
        dir_s,
        "--db",
        db.to_str().unwrap(),
        "--json",
        "--follow-links",
        "--rejects",
        "rejects.csv",
    ])
    .dir(tmp.path())
    .output();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for field in [
        "files_seen",
        "files_indexed",
        "files_unchanged",
        "files_rejected",
        "files_skipped",
        "games_added",
        "games_duplicate",
        "games_rejected",
        "positions",
        "seconds",
    ] {
        assert!(summary.get(field).is_some(), "{field} missing from {summary}");
    }
    // A dangling link leads nowhere: it is a broken link, not a reject; a link back to the
    // directory that holds it is not followed, and no reject either.
    let expected_rejects = 3 + u64::from(can_lock); // empty, blank, junk
    assert_eq!(summary["links_broken"], u64::from(cfg!(unix)), "{summary}");
    assert_eq!(summary["files_rejected"], expected_rejects, "{summary}");
    assert_eq!(summary["files_skipped"], 2, "notes.md and image.png: {summary}");
    assert_eq!(summary["games_added"], 0);
    let csv = fs::read_to_string(&rejects).unwrap();
    let codes: BTreeSet<&str> = csv.lines().skip(1).filter_map(|l| l.split(',').nth(4)).collect();
    assert!(codes.contains("empty") && !codes.contains("symlink_loop"), "{csv}");
    assert_eq!(codes.contains("unreadable"), can_lock, "{csv}");
    assert!(csv.contains("junk.kif") && !csv.contains("notes.md") && !csv.contains("image.png"), "{csv}");
    assert!(stderr(&out).contains("rejected"), "{}", stderr(&out));
    // Without following links there is no loop to report, and nothing hangs.
    let db2 = tmp.path().join("k2.sqlite");
    let out = kifudex(["index", dir_s, "--db", db2.to_str().unwrap(), "--quiet"]).dir(tmp.path()).output();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stderr.is_empty(), "--quiet prints nothing: {}", stderr(&out));
    // A re-run reads no file again: the files' rejects stay recorded, and the run rejects only
    // the entries it still cannot read (the locked file).
    let out = kifudex(["index", dir_s, "--db", db.to_str().unwrap(), "--json", "--follow-links"])
        .dir(tmp.path())
        .output();
    assert_eq!(out.status.code(), Some(i32::from(can_lock)));
    let again: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(again["files_rejected"], u64::from(can_lock), "{again}");
    assert_eq!(again["files_indexed"], 0, "{again}");
    assert_eq!(again["files_unchanged"], 3, "{again}");
}

/// Links under a directory given are not followed without `--follow-links`, and the run says
/// how many it left, broken ones among them; with the flag they are followed as files and
/// directories are.
#[cfg(unix)]
#[test]
fn links_not_followed_are_counted_and_named() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().unwrap();
    let (real, top) = (tmp.path().join("real"), tmp.path().join("top"));
    fs::create_dir_all(&real).unwrap();
    fs::create_dir_all(&top).unwrap();
    fs::write(real.join("a.usi"), "position startpos moves 7g7f 3c3d\n").unwrap();
    fs::write(real.join("b.usi"), "position startpos moves 2g2f 8c8d\n").unwrap();
    fs::write(top.join("own.usi"), "position startpos moves 5g5f 5c5d\n").unwrap();
    symlink(real.join("a.usi"), top.join("file-link.usi")).unwrap();
    symlink(&real, top.join("dir-link")).unwrap();
    symlink(tmp.path().join("nowhere.kif"), top.join("broken.kif")).unwrap();
    let run = |db: &str, more: &[&str]| {
        let db = tmp.path().join(db);
        let out = kifudex(["index", top.to_str().unwrap(), "--json"]).args(more).db(&db).output();
        let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        (out.status.code(), summary, stderr(&out))
    };
    let count = |summary: &serde_json::Value, key: &str| summary[key].as_u64();

    // Only own.usi is a file of the walk; the three links are counted apart.
    let (code, summary, messages) = run("plain.sqlite", &[]);
    assert_eq!(code, Some(0), "{messages}");
    let keys = ["files_seen", "games_added", "links_not_followed", "links_broken"];
    let counts = keys.map(|k| count(&summary, k));
    assert_eq!(counts, [Some(1), Some(1), Some(3), Some(1)], "{summary}");
    assert!(
        messages.contains("1 files (1 indexed, 0 unchanged, 0 rejected, 0 skipped), 3 symbolic links not followed, 1 games added"),
        "{messages}"
    );
    let note = messages.lines().filter(|l| l.contains("--follow-links")).collect::<Vec<_>>();
    assert_eq!(note.len(), 1, "{messages}");
    assert!(note[0].contains("3 symbolic links were not followed (1 of them broken"), "{messages}");

    // Followed: the two files behind the link to a directory are read; the link to a file
    // leads to one of them, a.usi, which is read once, under the first of its names
    // (dir-link/a.usi), its path without links being outside the walk. The broken link leads
    // nowhere, and is counted as a link not followed and broken, not as a file that cannot
    // be read.
    let (code, summary, messages) = run("followed.sqlite", &["--follow-links"]);
    assert_eq!(code, Some(0), "{messages}");
    let keys = [
        "files_seen",
        "files_rejected",
        "games_added",
        "games_duplicate",
        "links_not_followed",
        "links_broken",
        "other_names",
    ];
    let counts = keys.map(|k| count(&summary, k));
    assert_eq!(counts, [Some(3), Some(0), Some(3), Some(0), Some(1), Some(1), Some(1)], "{summary}");
    assert!(!messages.contains("not followed"), "{messages}");
    assert!(
        messages
            .contains(", 1 symbolic links leading nowhere, 1 other names of the same files, 3 games added"),
        "{messages}"
    );
    assert!(
        messages.contains("kifudex: 1 symbolic links lead nowhere: what they name does not exist"),
        "{messages}"
    );

    // --quiet says nothing, and the summary still counts them.
    let (code, summary, messages) = run("quiet.sqlite", &["--quiet"]);
    assert_eq!((code, count(&summary, "links_not_followed")), (Some(0), Some(3)), "{summary}");
    assert_eq!(messages, "");
}

/// A record read through a link whose target is then deleted is gone: `--prune` removes its
/// game, whether the run follows links or not, as it removes a deleted file's; a link whose
/// target is still there keeps its game when the run does not follow it.
#[cfg(unix)]
#[test]
fn prune_removes_a_record_whose_link_leads_nowhere_now() {
    use std::os::unix::fs::symlink;
    for follow in [true, false] {
        let tmp = tempfile::tempdir().unwrap();
        let (elsewhere, top) = (tmp.path().join("elsewhere"), tmp.path().join("kifu"));
        fs::create_dir_all(&elsewhere).unwrap();
        fs::create_dir_all(&top).unwrap();
        fs::write(elsewhere.join("a.usi"), "position startpos moves 7g7f 3c3d\n").unwrap();
        fs::write(elsewhere.join("b.usi"), "position startpos moves 2g2f 8c8d\n").unwrap();
        fs::write(top.join("own.usi"), "position startpos moves 5g5f 5c5d\n").unwrap();
        // One link names its target relatively, through a second link.
        symlink(elsewhere.join("a.usi"), top.join("a.usi")).unwrap();
        symlink("a.usi", top.join("again.usi")).unwrap();
        symlink(elsewhere.join("b.usi"), top.join("b.usi")).unwrap();
        let db = tmp.path().join("k.sqlite");
        let run = |more: &[&str]| {
            let out = kifudex(["index", top.to_str().unwrap(), "--json"]).args(more).db(&db).output();
            let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
            (out.status.code(), summary, stderr(&out))
        };
        let (code, summary, messages) = run(&["--follow-links"]);
        assert_eq!((code, summary["games_added"].as_u64()), (Some(0), Some(3)), "{messages}");
        fs::remove_file(elsewhere.join("a.usi")).unwrap();
        let flags: &[&str] = if follow { &["--follow-links", "--prune"] } else { &["--prune"] };
        let (code, summary, messages) = run(flags);
        assert_eq!(code, Some(0), "follow {follow}: {messages}");
        let count = |key: &str| summary[key].as_u64().unwrap();
        // a.usi and again.usi are one file, stored under a.usi (again.usi comes after it): it
        // goes, with its game.
        assert_eq!((count("files_pruned"), count("games_removed")), (1, 1), "follow {follow}: {summary}");
        // b.usi is still there: read through its link, or kept behind a link not followed.
        let unwalked = if follow { 0 } else { 1 };
        assert_eq!(count("files_unwalked"), unwalked, "follow {follow}: {summary}");
        assert_eq!(count("files_unmounted"), 0, "follow {follow}: {summary}");
        let games = kifudex(["games", "--format", "csv"]).db(&db).output();
        let listed = String::from_utf8_lossy(&games.stdout).lines().count() - 1;
        assert_eq!(listed, 2, "follow {follow}: own.usi and b.usi are left");
    }
}

/// `kifudex index ROOT --json MORE... --db DB`: its status, summary and messages.
fn index_json(root: &Path, db: &Path, more: &[&str]) -> (Option<i32>, serde_json::Value, String) {
    let out = kifudex(["index", root.to_str().unwrap(), "--json"]).args(more).db(db).output();
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    (out.status.code(), summary, stderr(&out))
}

/// A directory `top` (absolute, without links) that holds one game in `real/g.usi`.
fn top_with_a_game(tmp: &Path) -> std::path::PathBuf {
    let top = fs::canonicalize(tmp).unwrap().join("top");
    fs::create_dir_all(top.join("real")).unwrap();
    fs::write(top.join("real/g.usi"), "position startpos moves 7g7f 3c3d\n").unwrap();
    top
}

/// With `--follow-links`, a link to the directory that holds it, or to one above, is not
/// followed and is no reject: what is under it is walked already, and an unchanged tree
/// indexed again exits with 0. Two links that lead to each other lead nowhere, and are
/// counted as the links that lead nowhere are. A `symlink_loop` reject that an earlier version
/// recorded for such a link goes with the next run.
#[cfg(unix)]
#[test]
fn a_link_back_to_a_directory_above_is_counted_not_rejected() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().unwrap();
    let dir = fs::canonicalize(tmp.path()).unwrap().join("in");
    fs::create_dir_all(dir.join("a")).unwrap();
    fs::write(dir.join("a/g.usi"), "position startpos moves 7g7f 3c3d\n").unwrap();
    symlink("..", dir.join("a/up")).unwrap();
    symlink("y.kif", dir.join("x.kif")).unwrap();
    symlink("x.kif", dir.join("y.kif")).unwrap();
    let db = tmp.path().join("k.sqlite");
    let run = |more: &[&str]| index_json(&dir, &db, more);
    let keys = [
        "files_seen",
        "files_indexed",
        "files_unchanged",
        "files_rejected",
        "games_added",
        "links_to_ancestors",
        "links_not_followed",
        "links_broken",
    ];
    for (run_no, indexed, unchanged) in [(1, 1, 0), (2, 0, 1)] {
        if run_no == 2 {
            // What an earlier version recorded for these links.
            let conn = rusqlite::Connection::open(&db).unwrap();
            for path in [dir.join("a/up"), dir.join("x.kif")] {
                conn.execute(
                    "INSERT INTO rejects(path, file, code, message) VALUES (?1, NULL, 'symlink_loop', 'loop')",
                    [path.to_str().unwrap()],
                )
                .unwrap();
            }
        }
        let (code, summary, messages) = run(&["--follow-links"]);
        assert_eq!(code, Some(0), "run {run_no}: {messages}");
        let counts = keys.map(|k| summary[k].as_u64());
        let want = [1, indexed, unchanged, 0, indexed, 1, 2, 2].map(Some);
        assert_eq!(counts, want, "run {run_no}: {summary}");
        let line = format!(
            "1 files ({indexed} indexed, {unchanged} unchanged, 0 rejected, 0 skipped), 2 symbolic links \
             leading nowhere, 1 symbolic links back to a directory above, {indexed} games added"
        );
        assert!(messages.contains(&line), "run {run_no}: {messages}");
        let said = |text: &str| messages.lines().filter(|l| l.contains(text)).count();
        assert_eq!(said("1 symbolic links lead back to a directory that holds them"), 1, "{messages}");
        assert_eq!(said("2 symbolic links lead nowhere"), 1, "{messages}");
        assert_eq!(said("rejected"), 1, "only the summary's '0 rejected': {messages}");
        assert!(!messages.contains("loop back"), "{messages}");
    }
    assert_eq!(export_rejects(&db).lines().count(), 1, "no reject is left: {}", export_rejects(&db));
    // Not followed, the three are links not followed, the two that lead to each other broken.
    let (code, summary, messages) = run(&[]);
    assert_eq!(code, Some(0), "{messages}");
    let counts = keys.map(|k| summary[k].as_u64());
    assert_eq!(counts, [1, 0, 1, 0, 0, 0, 3, 2].map(Some), "{summary}");
}

/// A file reached by several names (a link to its directory, a link to it, a hard link) is
/// read once, under one path: its path without links when the run reaches it, else the first
/// of its names; the other names are counted apart, neither read nor stored. A file indexed
/// before the links were made keeps its path, its game and its id; nothing is pruned, and an
/// unchanged run is all unchanged. A fresh database gets the same games.
#[cfg(unix)]
#[test]
fn a_file_reached_by_several_names_is_indexed_once_under_its_own() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().unwrap();
    let top = top_with_a_game(tmp.path());
    fs::create_dir_all(top.join("b")).unwrap();
    fs::write(top.join("b/h.usi"), "position startpos moves 2g2f 8c8d\n").unwrap();
    let run = |db: &Path, more: &[&str]| index_json(&top, db, more);
    let keys = [
        "files_seen",
        "files_indexed",
        "files_unchanged",
        "files_pruned",
        "games_added",
        "games_duplicate",
        "games_removed",
        "other_names",
    ];
    let counts = |summary: &serde_json::Value| keys.map(|k| summary[k].as_u64().unwrap_or(u64::MAX));
    let db = tmp.path().join("k.sqlite");
    let (code, summary, messages) = run(&db, &["--follow-links"]);
    assert_eq!((code, counts(&summary)), (Some(0), [2, 2, 0, 0, 2, 0, 0, 0]), "{messages}");
    let before = export_games(&db);

    // In path order: a/g.usi (real/g.usi through a), b/h.usi, b/hard.usi (h.usi's hard link),
    // f.usi (real/g.usi), real/g.usi.
    symlink("real", top.join("a")).unwrap();
    symlink("real/g.usi", top.join("f.usi")).unwrap();
    fs::hard_link(top.join("b/h.usi"), top.join("b/hard.usi")).unwrap();
    for run_no in [1, 2] {
        let (code, summary, messages) = run(&db, &["--follow-links", "--prune"]);
        assert_eq!((code, counts(&summary)), (Some(0), [2, 0, 2, 0, 0, 0, 0, 3]), "run {run_no}: {messages}");
        assert!(
            messages.contains("(0 indexed, 2 unchanged, 0 rejected, 0 skipped, 0 pruned), 3 other names of the same files, 0 games added"),
            "{messages}"
        );
        assert_eq!(export_games(&db), before, "run {run_no}");
    }
    let paths: BTreeSet<String> = game_rows(&db).into_iter().map(|r| r["source_path"].clone()).collect();
    let want: BTreeSet<String> =
        ["b/h.usi", "real/g.usi"].iter().map(|p| top.join(p).to_str().unwrap().to_string()).collect();
    assert_eq!(paths, want);
    // Without following links, the hard link is still another name, and the links are not
    // followed.
    let (code, summary, messages) = run(&db, &["--prune"]);
    assert_eq!((code, counts(&summary)), (Some(0), [2, 0, 2, 0, 0, 0, 0, 1]), "{messages}");
    assert_eq!(summary["links_not_followed"].as_u64(), Some(2), "{summary}");

    // Into a fresh database: the same two files, two games, and the same export.
    let fresh = tmp.path().join("fresh.sqlite");
    let (code, summary, messages) = run(&fresh, &["--follow-links"]);
    assert_eq!((code, counts(&summary)), (Some(0), [2, 2, 0, 0, 2, 0, 0, 3]), "{messages}");
    assert_eq!(export_games(&fresh), before);
}

/// A hard link or a link whose name the run skips (a backup's, a bare name) never takes the
/// file from its record's name, whatever comes first in path order: a game indexed before
/// such a link is made stays, unchanged, and a fresh database gets it too.
#[cfg(unix)]
#[test]
fn a_link_whose_name_is_skipped_leaves_the_game_to_its_record_s_name() {
    let tmp = tempfile::tempdir().unwrap();
    let top = top_with_a_game(tmp.path());
    let keys =
        ["files_indexed", "files_unchanged", "files_skipped", "games_added", "games_removed", "other_names"];
    let counts = |summary: &serde_json::Value| keys.map(|k| summary[k].as_u64().unwrap_or(u64::MAX));
    let db = tmp.path().join("k.sqlite");
    let (code, summary, messages) = index_json(&top, &db, &[]);
    assert_eq!((code, counts(&summary)), (Some(0), [1, 0, 0, 1, 0, 0]), "{messages}");
    let before = export_games(&db);

    // Both sort before `real/g.usi`; the walk reads neither name.
    fs::hard_link(top.join("real/g.usi"), top.join("0backup")).unwrap();
    fs::hard_link(top.join("real/g.usi"), top.join("real/a.usi.bak")).unwrap();
    std::os::unix::fs::symlink("real/g.usi", top.join("README")).unwrap();
    // Followed, the link is a third name skipped.
    for (more, skipped) in [(&[][..], 2), (&["--follow-links", "--prune"], 3)] {
        let (code, summary, messages) = index_json(&top, &db, more);
        assert_eq!((code, counts(&summary)), (Some(0), [0, 1, skipped, 0, 0, 0]), "{more:?}: {messages}");
        assert_eq!(export_games(&db), before, "{more:?}");
    }
    let fresh = tmp.path().join("fresh.sqlite");
    let (code, summary, messages) = index_json(&top, &fresh, &["--follow-links"]);
    assert_eq!((code, counts(&summary)), (Some(0), [1, 0, 3, 1, 0, 0]), "{messages}");
    assert_eq!(export_games(&fresh), before);
}

/// A file that an earlier run stored under a name through a link (the directory given held
/// only the link) is stored under its path without links once a run reaches that path: the
/// row of the link's name goes, and the game keeps its id.
#[cfg(unix)]
#[test]
fn a_name_through_a_link_stored_before_gives_way_to_the_path_without_links() {
    let tmp = tempfile::tempdir().unwrap();
    let top = top_with_a_game(tmp.path());
    fs::create_dir_all(top.join("links")).unwrap();
    std::os::unix::fs::symlink("../real", top.join("links/r")).unwrap();
    let db = tmp.path().join("k.sqlite");
    let run = |root: &Path| index_json(root, &db, &["--follow-links", "--prune"]);
    let (code, summary, messages) = run(&top.join("links"));
    assert_eq!((code, summary["games_added"].as_u64()), (Some(0), Some(1)), "{messages}");
    let rows = game_rows(&db);
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["source_path"], top.join("links/r/g.usi").to_str().unwrap());
    let id = rows[0]["game_id"].clone();
    // The file is read under its own path (its game found again, a duplicate of the one
    // stored), and the row of links/r/g.usi goes: no game is removed.
    let (code, summary, messages) = run(&top);
    let keys =
        ["files_seen", "files_indexed", "games_added", "games_duplicate", "games_removed", "other_names"];
    let counts = keys.map(|k| summary[k].as_u64());
    assert_eq!((code, counts), (Some(0), [1, 1, 0, 1, 0, 1].map(Some)), "{messages}");
    let rows = game_rows(&db);
    assert_eq!(rows.len(), 1);
    assert_eq!(
        (rows[0]["game_id"].as_str(), rows[0]["source_path"].as_str()),
        (id.as_str(), top.join("real/g.usi").to_str().unwrap())
    );
    // And the next run finds it unchanged.
    let (code, summary, messages) = run(&top);
    assert_eq!(
        (code, summary["files_unchanged"].as_u64(), summary["files_pruned"].as_u64()),
        (Some(0), Some(1), Some(0)),
        "{messages}"
    );
}

/// A date header that gives no date to store (a day the calendar does not have, day and
/// month that read both ways, text that is no date) leaves the game without a date and is a
/// warning naming the header and its text, which the stored headers keep; a day/month/year
/// date that reads one way only is stored. A time of day no clock shows is a warning too, and
/// its day is stored.
#[test]
fn dates_that_cannot_be_stored_are_warnings_and_the_headers_keep_them() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("games");
    fs::create_dir(&dir).unwrap();
    let dir = fs::canonicalize(&dir).unwrap();
    let kif = |date: &str, second: &str| {
        format!(
            "開始日時：{date}\n先手：A\n後手：B\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 {second}\n"
        )
    };
    fs::write(dir.join("a.kifu"), kif("2020/02/30 10:00", "３四歩(33)")).unwrap();
    fs::write(dir.join("b.csa"), "V2.2\nN+A\nN-B\n$START_TIME:1/2/2020\nPI\n+\n+7776FU\n-8384FU\n").unwrap();
    fs::write(dir.join("c.kifu"), kif("30/12/2018", "４四歩(43)")).unwrap();
    fs::write(dir.join("d.kifu"), kif("昭和の終わり", "１四歩(13)")).unwrap();
    fs::write(dir.join("e.kifu"), kif("2019/06/30 25:61", "９四歩(93)")).unwrap();
    let db = tmp.path().join("k.sqlite");
    let out = kifudex(["index", dir.to_str().unwrap(), "--json", "--quiet"]).db(&db).output();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let counts = ["games_added", "games_rejected", "warnings"].map(|k| summary[k].as_u64());
    assert_eq!(counts, [Some(5), Some(0), Some(4)], "{summary}");

    let out = kifudex(["export", "warnings"]).db(&db).output();
    let got: Vec<(String, String, String, String)> = crate::query::csv_rows(&out.stdout)
        .into_iter()
        .map(|w| {
            let name = Path::new(&w["path"]).file_name().unwrap().to_str().unwrap().to_string();
            (name, w["line"].clone(), w["code"].clone(), w["message"].clone())
        })
        .collect();
    let want = [
        (
            "a.kifu",
            "date_impossible",
            "the date '2020/02/30 10:00' of the header 開始日時 was not stored: no such day in the calendar",
        ),
        (
            "b.csa",
            "date_ambiguous",
            "the date '1/2/2020' of the header $START_TIME was not stored: a date both as day/month/year and as month/day/year, and the record does not say which",
        ),
        (
            "d.kifu",
            "date_unreadable",
            "the date '昭和の終わり' of the header 開始日時 was not stored: no date in a form records write",
        ),
        (
            "e.kifu",
            "time_impossible",
            "the time of day in '2019/06/30 25:61' of the header 開始日時 was not stored: no clock shows it (the day was stored)",
        ),
    ];
    let want: Vec<_> = want
        .iter()
        .map(|&(p, c, m)| (p.to_string(), "1".to_string(), c.to_string(), m.to_string()))
        .collect();
    assert_eq!(got, want);

    let out = kifudex(["export", "games"]).db(&db).output();
    let games = crate::query::csv_rows(&out.stdout);
    let row = |name: &str| games.iter().find(|g| g["source_path"].ends_with(name)).unwrap();
    for (name, date, raw) in [
        ("a.kifu", "", "2020/02/30 10:00"),
        ("b.csa", "", "1/2/2020"),
        ("c.kifu", "2018-12-30", "30/12/2018"),
        ("d.kifu", "", "昭和の終わり"),
        ("e.kifu", "2019-06-30", "2019/06/30 25:61"),
    ] {
        assert_eq!(row(name)["date"], date, "{name}");
        assert!(row(name)["headers"].contains(raw), "{name}: {}", row(name)["headers"]);
    }
}

#[test]
fn a_header_too_long_to_be_a_field_is_a_warning_and_the_headers_keep_it() {
    // 1,001 characters (3,003 bytes): one past the limit; 1,000 is within it. A broken file
    // whose one line is a header of many megabytes once made each name and its keys as long.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("games");
    fs::create_dir(&dir).unwrap();
    let (long, longest) = ("歩".repeat(1_001), "と".repeat(1_000));
    let kif = format!("先手：{long}\n後手：{longest}\n手数----指手---------消費時間--\n   1 ７六歩(77)\n");
    fs::write(dir.join("a.kif"), kif).unwrap();
    let db = tmp.path().join("k.sqlite");
    let out = kifudex(["index", dir.to_str().unwrap(), "--json", "--quiet"]).db(&db).output();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["warnings"], 1, "{summary}");
    let out = kifudex(["export", "warnings"]).db(&db).output();
    let warnings = crate::query::csv_rows(&out.stdout);
    assert_eq!(warnings.len(), 1);
    assert_eq!((warnings[0]["line"].as_str(), warnings[0]["code"].as_str()), ("1", "value_too_long"));
    assert_eq!(
        warnings[0]["message"],
        format!(
            "the header 先手 was not stored as a field: its value ('{}…') is 1001 characters long, and at \
             most 1000 are",
            "歩".repeat(20)
        )
    );
    let out = kifudex(["export", "games"]).db(&db).output();
    let games = crate::query::csv_rows(&out.stdout);
    assert_eq!((games[0]["black"].as_str(), games[0]["white"].as_str()), ("", longest.as_str()));
    assert!(games[0]["headers"].contains(&long));
}

#[test]
fn exports_stream_csv_and_a_closed_pipe_is_not_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, db) = (tmp.path().join("games"), tmp.path().join("k.sqlite"));
    write_games(&dir, corpus());
    fs::write(dir.join("zz.usi"), "position startpos moves 7g7f 7g7f\n").unwrap();
    index(&dir, &db, 2);
    let db_s = db.to_str().unwrap();
    let out = kifudex(["export", "games", "--db", db_s, "--out", "games.csv"]).dir(tmp.path()).output();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let written = fs::read_to_string(tmp.path().join("games.csv")).unwrap();
    assert_eq!(written, export_games(&db));
    assert_eq!(written.lines().next().unwrap(), kifudex::export::GAME_COLUMNS.join(","));
    assert_eq!(written.lines().count(), corpus().len() + 2);
    // KIFUDEX_DB names the database when --db does not.
    let out = crate::util::command()
        .args(["export", "rejects"])
        .current_dir(tmp.path())
        .env("KIFUDEX_DB", &db)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), export_rejects(&db));
    // A reader that stops early.
    let mut child = crate::util::command()
        .args(["export", "games", "--db", db_s])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    std::io::Read::read_exact(&mut stdout, &mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
}

#[test]
fn a_broken_or_missing_database_is_fatal_and_left_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    fs::create_dir(&dir).unwrap();
    let junk = tmp.path().join("junk.sqlite");
    fs::write(&junk, vec![7u8; 10_000]).unwrap();
    let out = kifudex(["index", "in", "--db", junk.to_str().unwrap()]).dir(tmp.path()).output();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("junk.sqlite"), "{}", stderr(&out));
    assert_eq!(fs::read(&junk).unwrap(), vec![7u8; 10_000]);
    let out = kifudex(["index", "in", "--db", "no/such/dir/k.sqlite"]).dir(tmp.path()).output();
    assert_eq!(out.status.code(), Some(2));
    let out = kifudex(["export", "games", "--db", "absent.sqlite"]).dir(tmp.path()).output();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no database"), "{}", stderr(&out));
    assert!(!tmp.path().join("absent.sqlite").exists());
    let out = kifudex(["export", "everything"]).dir(tmp.path()).output();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_same_game_in_kif_and_csa_is_stored_once() {
    // A generated KIF game (CP932) and the same moves written as CSA by another program.
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/index");
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("k.sqlite");
    let out = kifudex(["index", data.to_str().unwrap(), "--db", db.to_str().unwrap(), "--json"])
        .dir(tmp.path())
        .output();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((summary["games_added"].as_u64(), summary["games_duplicate"].as_u64()), (Some(1), Some(1)));
    let rows = game_rows(&db);
    assert_eq!(rows.len(), 2);
    assert_eq!((rows[0]["format"].as_str(), rows[1]["format"].as_str()), ("kif", "csa"));
    assert_eq!(rows[0]["plies"], "125");
    assert_eq!(rows[0]["duplicate_of"], "");
    assert_eq!(rows[1]["duplicate_of"], rows[0]["game_id"]);
}

/// The bundled samples, indexed as the set-up command does: every export and `show` of every
/// game in every format exits 0.
#[test]
fn the_samples_read_back_through_every_export_and_show() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("samples.sqlite");
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let out = crate::util::command()
        .arg("index")
        .arg(&samples)
        .arg("--db")
        .arg(&db)
        .arg("--quiet")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(crate::util::assert_every_read_works(&db, "samples", usize::MAX), 13);
}

/// A database checked to the 16 plies kifudex checked to before is checked to 24 by the next
/// index run: the positions of plies 17 to 24 are then stored for their keys, an occurrence
/// that differs from the stored position is listed as a collision, and answers stay those of
/// a replay before and after.
#[test]
fn a_database_checked_to_16_plies_is_checked_to_24_by_the_next_index_run() {
    use std::collections::HashSet;

    use kifudex::{db::index::packed::pack_position, shogi::PositionKey};

    let tmp = tempfile::tempdir().unwrap();
    let (dir, db) = (tmp.path().join("games"), tmp.path().join("k.sqlite"));
    // Two games that share their first 21 moves with another, so that late positions are
    // reached by several games.
    let mut specs = corpus()[..80].to_vec();
    let long = specs.iter().find(|s| s.moves.len() >= 30).unwrap().clone();
    for n in [21, 23] {
        specs.push(Spec { moves: long.moves[..n].to_vec(), ..long.clone() });
    }
    let specs = &specs;
    write_games(&dir, specs);
    index(&dir, &db, 2);

    // By replay: the keys of plies up to 16, and those first reached at plies 17 to 24.
    let setups: Vec<Vec<kifudex::shogi::Setup>> = specs.iter().map(Spec::setups).collect();
    let key_at = |s: &kifudex::shogi::Setup| PositionKey::of(s).to_i64();
    let early: HashSet<i64> = setups.iter().flat_map(|g| g.iter().take(17).map(key_at)).collect();
    let late: HashSet<i64> = setups
        .iter()
        .flat_map(|g| g.iter().take(25).skip(17).map(key_at))
        .filter(|k| !early.contains(k))
        .collect();
    assert!(late.len() > 500, "{} keys first reached at plies 17 to 24", late.len());
    let conn = rusqlite::Connection::open(&db).unwrap();
    let stored = |conn: &rusqlite::Connection| -> HashSet<i64> {
        let mut stmt = conn.prepare("SELECT key FROM keypos").unwrap();
        stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    };
    let depth = |conn: &rusqlite::Connection| -> String {
        conn.query_row("SELECT value FROM meta WHERE key = 'keypos_max_ply'", [], |r| r.get(0)).unwrap()
    };
    assert_eq!(depth(&conn), "24");
    assert_eq!(stored(&conn), &early | &late, "a new database stores the positions of 24 plies");

    // As a database of the earlier depth: nothing stored past ply 16, and for one late
    // position reached by two games or more, another position stored under its key, as if the
    // two positions shared it.
    let (game, ply) = (0..setups.len())
        .flat_map(|g| (17..setups[g].len().min(25)).map(move |p| (g, p)))
        .find(|&(g, p)| {
            let k = key_at(&setups[g][p]);
            late.contains(&k)
                && setups.iter().filter(|o| o.iter().take(25).any(|s| key_at(s) == k)).count() >= 2
        })
        .expect("a late position that two games reach");
    let target = setups[game][ply].clone();
    let forged = key_at(&target);
    let mut other = Vec::new();
    pack_position(&setups[0][0], &mut other);
    conn.execute_batch("UPDATE meta SET value = '16' WHERE key = 'keypos_max_ply'").unwrap();
    for k in &late {
        conn.execute("DELETE FROM keypos WHERE key = ?1", [k]).unwrap();
    }
    conn.execute("INSERT INTO keypos(key, position) VALUES (?1, ?2)", rusqlite::params![forged, other])
        .unwrap();
    drop(conn);

    // The answer of a replay: the games that reach the position, at any ply.
    let reaching =
        setups.iter().filter(|g| g.iter().any(|s| s.position_text() == target.position_text())).count();
    let sfen = target.to_string();
    let games_of = |what: &str| {
        let (answer, _) = crate::query::query_json(&["--sfen", &sfen], &db);
        assert_eq!(answer["position"]["games"].as_u64(), Some(reaching as u64), "{what}: {answer}");
    };
    games_of("read at 16 plies");

    index(&dir, &db, 2);
    let conn = rusqlite::Connection::open(&db).unwrap();
    assert_eq!(depth(&conn), "24");
    assert_eq!(stored(&conn), &early | &late, "the positions of plies 17 to 24 are stored again");
    // Every occurrence of the forged key up to ply 24 differs from what is stored for it.
    let occurrences = setups
        .iter()
        .flat_map(|g| g.iter().take(25).enumerate().skip(17).filter(|(_, s)| key_at(s) == forged))
        .count();
    let collisions: usize = conn
        .query_row("SELECT count(*) FROM collisions WHERE key = ?1", [forged], |r| r.get::<_, i64>(0))
        .unwrap() as usize;
    assert_eq!(collisions, occurrences);
    drop(conn);
    games_of("checked to 24 plies");
}

/// A row of `keypos` names the first occurrence of its key (by game id, then ply) as
/// `game * 32 + ply` (migration 0012), or holds its position packed when the key is hot. A
/// game about to be deleted, by a changed file or a prune, leaves its positions packed in the
/// rows that named it, so no row names a game that is gone and the answers about early
/// positions stay those of a replay.
#[test]
fn keypos_rows_name_first_occurrences_and_deleted_games_leave_their_positions() {
    use std::collections::HashSet;

    use kifudex::{db::index::packed::pack_position, shogi::PositionKey};
    use rusqlite::types::Value;

    let specs = &corpus()[..40];
    let tmp = tempfile::tempdir().unwrap();
    let (dir, db) = (tmp.path().join("games"), tmp.path().join("k.sqlite"));
    let paths = write_games(&dir, specs);
    // Positions that 3 games reach are hot, so that some are.
    let with = |prune: bool| index_with(&Options { hot_games: 3, prune, ..options(&dir, &db, 2) });
    with(false);
    let ids = game_ids(&db, &paths);

    // By replay: the first occurrence of each key of plies up to 24, and its position.
    let first_seen = |games: &[(GameId, &Spec)]| {
        let mut first: HashMap<i64, (i64, usize, Vec<u8>)> = HashMap::new();
        for &(id, spec) in games {
            for (ply, setup) in spec.setups().iter().take(25).enumerate() {
                let key = PositionKey::of(setup).to_i64();
                let mut packed = Vec::new();
                pack_position(setup, &mut packed);
                let e = first.entry(key).or_insert((id.0, ply, packed.clone()));
                if (id.0, ply) < (e.0, e.1) {
                    *e = (id.0, ply, packed);
                }
            }
        }
        first
    };
    let rows = |db: &Path| -> HashMap<i64, Value> {
        let conn = rusqlite::Connection::open(db).unwrap();
        let mut stmt = conn.prepare("SELECT key, position FROM keypos").unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect()
    };
    // Hot keys keep their positions packed.
    let hot = |db: &Path| -> HashSet<i64> {
        let conn = rusqlite::Connection::open(db).unwrap();
        let mut stmt = conn.prepare("SELECT key FROM hot WHERE move = 0").unwrap();
        stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
    };
    let all: Vec<(GameId, &Spec)> = ids.iter().copied().zip(specs).collect();
    let before = first_seen(&all);
    let stored = rows(&db);
    assert_eq!(stored.len(), before.len(), "one row per key of the first 24 plies");
    let hot_keys = hot(&db);
    assert!(!hot_keys.is_empty());
    for (key, (game, ply, position)) in &before {
        let want = if hot_keys.contains(key) {
            Value::Blob(position.clone())
        } else {
            Value::Integer(game * 32 + *ply as i64)
        };
        assert_eq!(stored[key], want, "key {key}");
    }

    // Game 0 (which named the start position among others) is replaced, game 1 is pruned.
    fs::write(&paths[0], corpus()[300].csa()).unwrap();
    fs::remove_file(&paths[1]).unwrap();
    let s = with(true);
    assert_eq!((s.files_pruned, s.games_added), (1, 1));
    let gone = [ids[0].0, ids[1].0];
    let new_id = *game_ids(&db, &paths[..1]).first().unwrap();
    let mut live: Vec<(GameId, &Spec)> = all[2..].to_vec();
    live.push((new_id, &corpus()[300]));

    let stored = rows(&db);
    let hot_keys = hot(&db);
    let deleted = first_seen(&all[..2]);
    let after = first_seen(&live);
    let mut kept = 0;
    for (key, value) in &stored {
        match value {
            Value::Integer(code) => {
                assert!(!gone.contains(&(code >> 5)), "key {key} names a deleted game");
                let (game, ply, _) = &after[key];
                assert_eq!(*code, game * 32 + *ply as i64, "key {key}");
            }
            Value::Blob(packed) if hot_keys.contains(key) => assert_eq!(*packed, before[key].2, "key {key}"),
            Value::Blob(packed) => {
                // Named a deleted game: holds the position it named, whether or not other
                // games still reach it.
                let (game, _, position) = &deleted[key];
                assert!(gone.contains(game) && before[key].0 == *game, "key {key}");
                assert_eq!(packed, position, "key {key}");
                kept += 1;
            }
            other => panic!("key {key}: {other:?}"),
        }
    }
    assert!(kept >= 30, "{kept} rows keep a deleted game's position");
    assert!(stored.contains_key(&PositionKey::of(&specs[0].setups()[0]).to_i64()));
    for key in after.keys() {
        assert!(stored.contains_key(key), "every early key of a stored game has a row");
    }

    // The answers about the early positions of every game, stored or deleted, are a replay's.
    let current: Vec<Spec> = live.iter().map(|(_, s)| (*s).clone()).collect();
    let (occ, _) = truth(&current);
    let mut reader = Reader::open(&db).unwrap();
    let snap = reader.snapshot().unwrap();
    for spec in specs.iter().chain([&corpus()[300]]) {
        for setup in spec.setups().iter().take(25) {
            let games: BTreeSet<usize> =
                occ.get(&setup.position_text()).into_iter().flatten().map(|o| o.0).collect();
            let stats = snap.position_stats(setup, None).unwrap();
            assert_eq!(stats.games.games, games.len() as u64, "{}", setup.position_text());
        }
    }
}

/// On a terminal, every frame of the progress bar reads whole: the first ones say that the
/// files are being counted, and none shows an empty count of games (`files, , ETA`).
#[test]
fn every_frame_of_the_progress_bar_reads_whole() {
    // `script` (util-linux) runs the command on a pseudo-terminal of its own.
    if Command::new("script").arg("--version").output().is_err() {
        assert!(std::env::var_os("CI").is_none(), "CI has util-linux's `script`");
        eprintln!("skipped: no `script` to give kifudex a terminal");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("games");
    write_games(&dir, &corpus()[..40]);
    let db = tmp.path().join("k.sqlite");
    let line = format!(
        "'{}' index '{}' --db '{}' --jobs 1",
        crate::util::exe().display(),
        dir.display(),
        db.display()
    );
    let out = crate::util::wrapper("script")
        .args(["-qec", &line, "/dev/null"])
        .env("COLUMNS", "120")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let frames: Vec<&str> = text
        .split(['\r', '\n'])
        .map(|f| f.trim_start_matches("\x1b[2K").trim())
        .filter(|f| !f.is_empty() && !f.starts_with("kifudex:"))
        .collect();
    assert!(frames.first().is_some_and(|f| f.ends_with("counting the files to index")), "{frames:?}");
    assert!(frames.iter().any(|f| f.contains("/40 files, ")), "{frames:?}");
    for frame in &frames {
        assert!(!frame.contains(", ,") && !frame.contains("files, ETA"), "{frame:?} in {frames:?}");
        assert!(frame.contains("counting the files") || frame.contains(" games/s, ETA"), "{frame:?}");
    }
}
