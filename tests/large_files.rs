//! Large files of many games (a server's CSA archive in one file, engine self-play as USI
//! lines) are read in parts: their games are read on every thread and never all held at once.
//! The database they make is the one reading them whole makes (the path every other file
//! takes, checked against replay throughout these tests), and a run stopped in the middle of
//! one leaves none of it.

use std::{
    fs,
    path::Path,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
};

use kifudex::{
    ingest::{self, Observer, Options, Quiet, Summary},
    kifu::Format,
};

use crate::{
    index::options,
    util::{games::generate, kifudex},
};

/// A CSA file of `n` generated games and a file of as many USI lines, with what a large
/// archive holds besides: games again (duplicates), a game with an illegal move (stopped, a
/// reject with its line and ply), a line no CSA statement (read past, a warning), a comment
/// between games, and an empty game between two separators.
fn write_large_files(dir: &Path, n: usize) {
    let specs = generate(n, 31);
    let mut csa = String::new();
    let mut usi = String::new();
    for (i, spec) in specs.iter().enumerate() {
        let mut game = spec.csa();
        match i % 97 {
            5 => game = game.replacen("\n%", "\n+9999XX\n%", 1),
            6 => game.insert_str(0, "this line is no statement\n"),
            7 => game.push_str("/\n"),
            _ => {}
        }
        csa.push_str(&game);
        csa.push_str(if i % 50 == 0 { "/\n' the next game\n" } else { "/\n" });
        usi.push_str(&spec.usi_line());
        if i % 89 == 0 {
            csa.push_str(&specs[i / 2].csa());
            csa.push_str("/\n");
            usi.push_str(&specs[i / 3].usi_line());
        }
    }
    // A file just large enough to be read in parts, which on three threads makes a single
    // part (five pieces, six read at a time).
    let mut one_part = String::new();
    for line in usi.lines().rev() {
        one_part.push_str(line);
        one_part.push('\n');
        if one_part.len() > ingest::LARGE_FILE_BYTES + 50_000 {
            break;
        }
    }
    // The CSA games written as KIF and KI2 files put one after the other, with what such
    // files hold between games: a comment line, a footer, a header among moves.
    let (mut kif, mut ki2) = (String::new(), String::new());
    for (i, game) in kifudex::kifu::read(Format::Csa, &csa).iter().enumerate() {
        let replayed = kifudex::replay::replay(game);
        kif.push_str(&kifudex::write::write(Format::Kif, game, &replayed));
        ki2.push_str(&kifudex::write::write(Format::Ki2, game, &replayed));
        match i % 61 {
            3 => kif.push_str("*a comment after the game\n"),
            4 => kif.push_str("終了日時：2020/01/02 10:00:00\n"),
            5 => ki2.push_str("棋戦：an event after the moves\n"),
            _ => {}
        }
    }
    fs::create_dir_all(dir).unwrap();
    // The KIF games again in Shift_JIS, as KIF files mostly are: a text decoded, not read
    // in place.
    let (sjis, _, unmapped) = encoding_rs::SHIFT_JIS.encode(&kif);
    assert!(!unmapped);
    fs::write(dir.join("archive-sjis.kif"), sjis).unwrap();
    fs::write(dir.join("archive.kif"), kif).unwrap();
    fs::write(dir.join("archive.ki2"), ki2).unwrap();
    fs::write(dir.join("archive.csa"), csa).unwrap();
    fs::write(dir.join("one_part.usi"), one_part).unwrap();
    fs::write(dir.join("selfplay.usi"), usi).unwrap();
}

/// Leaves `archive.csa` alone of the files [`write_large_files`] writes.
fn keep_only_the_csa(dir: &Path) {
    for name in ["selfplay.usi", "one_part.usi", "archive.kif", "archive-sjis.kif", "archive.ki2"] {
        fs::remove_file(dir.join(name)).unwrap();
    }
}

/// What a run left in `db`: every game, reject and warning, and the opening tree.
fn contents(db: &Path) -> Vec<String> {
    let export = |what: &str, extra: &[&str]| {
        let (code, out, err) = kifudex(["export", what]).args(extra).db(db).run();
        assert_eq!(code, 0, "export {what}: {err}");
        out
    };
    vec![
        export("games", &[]),
        export("rejects", &[]),
        export("warnings", &[]),
        export("tree", &["--max-ply", "8"]),
    ]
}

/// A run's counts, without its time.
fn counts(s: &Summary) -> Summary {
    Summary { seconds: 0.0, ..s.clone() }
}

fn whole(dir: &Path, db: &Path) -> Options {
    Options { large_file_bytes: usize::MAX, ..options(dir, db, 2) }
}

#[test]
fn a_large_file_is_read_in_parts_into_what_reading_it_whole_gives() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("kifu");
    write_large_files(&dir, 7_000);
    let size = |name| fs::metadata(dir.join(name)).unwrap().len() as usize;
    // Large enough for several parts of several pieces each, on two threads.
    assert!(size("archive.csa") > 3 * ingest::LARGE_FILE_BYTES, "{}", size("archive.csa"));
    assert!(size("selfplay.usi") > 2 * ingest::LARGE_FILE_BYTES, "{}", size("selfplay.usi"));
    assert!(size("archive.kif") > 3 * ingest::LARGE_FILE_BYTES, "{}", size("archive.kif"));
    let sjis = size("archive-sjis.kif");
    assert!(sjis > 2 * ingest::LARGE_FILE_BYTES && sjis < size("archive.kif"), "{sjis}");
    assert!(size("archive.ki2") > 2 * ingest::LARGE_FILE_BYTES, "{}", size("archive.ki2"));
    // KIF and KI2 are cut where their games start, as CSA is, and every byte is in a piece.
    for (name, format) in [("archive.kif", Format::Kif), ("archive.ki2", Format::Ki2)] {
        let text = fs::read_to_string(dir.join(name)).unwrap();
        let pieces = kifudex::kifu::pieces(format, &text, 256 << 10);
        assert!(pieces.len() > 2, "{name}: {} pieces", pieces.len());
        assert_eq!(pieces.iter().map(|p| p.text).collect::<String>(), text, "{name}");
    }
    assert!((ingest::LARGE_FILE_BYTES..6 * (256 << 10)).contains(&size("one_part.usi")));

    let (a, b) = (tmp.path().join("whole.sqlite"), tmp.path().join("parts.sqlite"));
    let read_whole = ingest::run(&whole(&dir, &a), &Quiet).unwrap();
    let in_parts = ingest::run(&options(&dir, &b, 2), &Quiet).unwrap();
    assert_eq!(counts(&in_parts), counts(&read_whole));
    let every = |k| (0..7_000).filter(|i| i % 97 == k).count() as u64;
    assert_eq!((in_parts.files_indexed, in_parts.games_rejected), (6, every(5)), "{in_parts:?}");
    assert!(in_parts.warnings >= every(6), "{in_parts:?}");
    let expected = contents(&a);
    assert_eq!(contents(&b), expected);

    // Files read in parts with every piece its own part, on one thread, and again with
    // three threads: the same.
    for jobs in [1, 3] {
        let db = tmp.path().join(format!("jobs{jobs}.sqlite"));
        let summary =
            ingest::run(&Options { large_file_bytes: 1, ..options(&dir, &db, jobs) }, &Quiet).unwrap();
        assert_eq!(counts(&summary), counts(&read_whole));
        assert_eq!(contents(&db), expected, "{jobs} jobs");
    }

    // A changed file read in parts replaces its games, as a changed file read whole does.
    let usi = fs::read_to_string(dir.join("selfplay.usi")).unwrap();
    let kept: String = usi.lines().take(5_000).map(|l| format!("{l}\n")).collect();
    fs::write(dir.join("selfplay.usi"), kept).unwrap();
    let (again_whole, again_parts) =
        (ingest::run(&whole(&dir, &a), &Quiet).unwrap(), ingest::run(&options(&dir, &b, 2), &Quiet).unwrap());
    assert_eq!(counts(&again_parts), counts(&again_whole));
    assert_eq!((again_whole.files_indexed, again_whole.files_unchanged), (1, 5));
    assert_eq!(contents(&b), contents(&a));
}

/// Sets the stop flag once the first part of a file is written.
struct StopAfterFirst(Arc<AtomicBool>);

impl Observer for StopAfterFirst {
    fn progress(&self, _done: u64, summary: &Summary) {
        if summary.games_added + summary.games_kept > 0 {
            self.0.store(true, Ordering::SeqCst);
        }
    }
}

#[test]
fn a_run_stopped_inside_a_large_file_leaves_none_of_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("kifu");
    write_large_files(&dir, 7_000);
    keep_only_the_csa(&dir);
    let (a, b) = (tmp.path().join("whole.sqlite"), tmp.path().join("stopped.sqlite"));
    let stop = Arc::new(AtomicBool::new(false));
    let stopped = Options { stop: Some(stop.clone()), ..options(&dir, &b, 2) };
    let summary = ingest::run(&stopped, &StopAfterFirst(stop)).unwrap();
    assert!(summary.interrupted, "{summary:?}");
    assert_eq!((summary.files_indexed, summary.games_added, summary.positions), (0, 0, 0), "{summary:?}");
    let (code, out, err) = kifudex(["export", "games"]).db(&b).run();
    assert_eq!((code, out.lines().count()), (0, 1), "only the header: {err}");

    // The next run reads the file again, as new (not as a file it has seen), and to its end.
    let resumed = ingest::run(&options(&dir, &b, 2), &Quiet).unwrap();
    assert_eq!((resumed.files_indexed, resumed.files_unchanged), (1, 0), "{resumed:?}");
    let read_whole = ingest::run(&whole(&dir, &a), &Quiet).unwrap();
    assert_eq!(counts(&resumed), counts(&read_whole));
    // The same games, ids included (the stopped run left no trace, not even ids used),
    // rejects, warnings and tree.
    assert_eq!(contents(&b), contents(&a));
}

/// The progress an index run reports: each call, as files done and parts of the next read.
#[derive(Default)]
struct Progress(std::sync::Mutex<Vec<(u64, usize, usize)>>);

impl Observer for Progress {
    fn progress(&self, done: u64, _: &Summary) {
        self.0.lock().unwrap().push((done, 0, 0));
    }

    fn within_file(&self, done: u64, read: usize, parts: usize, _: &Summary) {
        self.0.lock().unwrap().push((done, read, parts));
    }
}

/// A large file tells its progress part by part, not only once it is whole: a run over one
/// such file would otherwise stand at nothing done until its end.
#[test]
fn a_large_file_tells_its_progress_part_by_part() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("kifu");
    write_large_files(&dir, 7_000);
    keep_only_the_csa(&dir);
    let progress = Progress::default();
    let summary = ingest::run(&options(&dir, &tmp.path().join("k.sqlite"), 2), &progress).unwrap();
    assert_eq!(summary.files_indexed, 1);
    let told = progress.0.into_inner().unwrap();
    // No file done, a part more read each time, then the file done.
    let parts = told[0].2;
    assert!(
        parts >= 3,
        "a file of {} bytes in {parts} parts",
        fs::metadata(dir.join("archive.csa")).unwrap().len()
    );
    let mut want: Vec<(u64, usize, usize)> = (1..parts).map(|read| (0, read, parts)).collect();
    want.push((1, 0, 0));
    assert_eq!(told, want);
}

/// The game ids of a database, by file and place in it.
fn ids(db: &Path) -> Vec<(String, String, String)> {
    let (code, out, err) = kifudex(["export", "games"]).db(db).run();
    assert_eq!(code, 0, "{err}");
    let mut reader = csv::Reader::from_reader(out.as_bytes());
    let headers = reader.headers().unwrap().clone();
    let at = |name| headers.iter().position(|h| h == name).unwrap();
    let (path, index, id) = (at("source_path"), at("game_index"), at("game_id"));
    reader.records().map(|r| r.unwrap()).map(|r| (r[path].into(), r[index].into(), r[id].into())).collect()
}

/// A run stopped while it reads a changed large file again leaves the file's earlier
/// version as it was, game ids included; the next run keeps every id.
#[test]
fn a_run_stopped_inside_a_changed_large_file_leaves_its_earlier_version() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("kifu");
    write_large_files(&dir, 7_000);
    keep_only_the_csa(&dir);
    let db = tmp.path().join("k.sqlite");
    ingest::run(&options(&dir, &db, 2), &Quiet).unwrap();
    let before = contents(&db);
    let ids_before = ids(&db);
    // The event of its first game corrected.
    let path = dir.join("archive.csa");
    let text = fs::read_to_string(&path).unwrap();
    let corrected = text.replacen("$EVENT:", "$EVENT:corrected ", 1);
    assert_ne!(corrected, text);
    fs::write(&path, corrected).unwrap();

    let stop = Arc::new(AtomicBool::new(false));
    let stopped = Options { stop: Some(stop.clone()), ..options(&dir, &db, 2) };
    let summary = ingest::run(&stopped, &StopAfterFirst(stop)).unwrap();
    assert!(summary.interrupted, "{summary:?}");
    assert_eq!((summary.files_indexed, summary.games_kept, summary.games_removed), (0, 0, 0), "{summary:?}");
    assert_eq!(contents(&db), before, "the file's earlier version, as it was");

    let again = ingest::run(&options(&dir, &db, 2), &Quiet).unwrap();
    assert_eq!((again.files_indexed, again.games_added, again.games_removed), (1, 0, 0), "{again:?}");
    assert_eq!(ids(&db), ids_before, "every game keeps its id");
    assert!(contents(&db)[0].contains("corrected "));
}

/// A legal game of `plies` moves in which no position comes back: Black's ten tokins and
/// promoted lance step by a 10-bit Gray code (each step one piece a rank forward or back),
/// White's six tokins each around a triangle of three squares by a 6-digit ternary count
/// (each step one digit, one piece); the pair of counts repeats after lcm(1,024, 729) moves
/// of each side, far past any game here.
fn long_game(plies: usize) -> String {
    let square = |file: u32, rank: u32| format!("{file}{}", char::from(b'a' + rank as u8 - 1));
    let gray = |t: u32| (t % 1024) ^ ((t % 1024) >> 1);
    let ternary = |t: u32| -> [u32; 6] {
        let mut digits = [0; 7];
        let mut t = t % 729;
        for d in digits.iter_mut().take(6) {
            *d = t % 3;
            t /= 3;
        }
        std::array::from_fn(|i| (digits[i] + 3 - digits[i + 1]) % 3)
    };
    let white_homes = [(1, 1), (4, 1), (7, 1), (1, 3), (4, 3), (7, 3)];
    let white_square = |piece: usize, state: u32| {
        let (x, y) = white_homes[piece];
        [(x, y), (x + 1, y), (x, y + 1)][state as usize]
    };
    let mut moves = Vec::with_capacity(plies);
    for t in 0.. {
        let changed = gray(t) ^ gray(t + 1);
        let bit = changed.trailing_zeros();
        let (file, home) = (bit % 5 + 1, if bit < 5 { 9 } else { 7 });
        moves.push(if gray(t) & changed != 0 {
            square(file, home - 1) + &square(file, home)
        } else {
            square(file, home) + &square(file, home - 1)
        });
        let (a, b) = (ternary(t), ternary(t + 1));
        let piece = (0..6).find(|&i| a[i] != b[i]).unwrap();
        let ((fx, fy), (tx, ty)) = (white_square(piece, a[piece]), white_square(piece, b[piece]));
        moves.push(square(fx, fy) + &square(tx, ty));
        if moves.len() >= plies {
            break;
        }
    }
    moves.truncate(plies);
    format!("sfen k1+p2+p2+p/9/2+p2+p2+p/9/9/9/4+P+P+P+P+P/9/K3+P+P+P+P+L b - 1 moves {}\n", moves.join(" "))
}

/// A posting's ply has 16 bits: a game of more moves than that (no game played has them)
/// is stored whole, and its positions past ply 65,535 are said not to be indexed, where
/// queries used to miss them with no word.
#[test]
fn positions_past_the_index_s_last_ply_are_said_not_to_be_indexed() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("long.usi");
    fs::write(&file, long_game(70_000)).unwrap();
    let db = tmp.path().join("k.sqlite");
    let (code, _, stderr) = kifudex(["index", file.to_str().unwrap(), "--quiet"]).db(&db).run();
    assert_eq!(code, 0, "{stderr}");
    let (_, games, _) = kifudex(["export", "games"]).db(&db).run();
    assert!(games.lines().nth(1).is_some_and(|l| l.contains(",70000,")), "the game is stored whole: {games}");
    let (_, warnings, _) = kifudex(["export", "warnings"]).db(&db).run();
    let rows: Vec<&str> = warnings.lines().skip(1).collect();
    assert_eq!(rows.len(), 1, "{warnings}");
    assert!(rows[0].contains(",65536,positions_not_indexed,"), "{warnings}");
    // The last indexed position is found; its game plays on from it.
    let (code, out, stderr) =
        kifudex(["query", "--position", &format!("{}:65535", file.display()), "--format", "json"])
            .db(&db)
            .run();
    assert_eq!(code, 0, "{stderr}");
    assert!(out.contains("\"games\":1"), "{out}");
}
