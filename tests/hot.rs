//! Hot positions: the counts kept per position and move for the positions many games reach.
//! Answers are checked against a replay of the games here (never against the database's own
//! other path), after each kind of change an archive goes through: new games, changed files,
//! duplicates, removed files pruned, and runs killed at any moment. A low threshold makes most shared positions hot, and games that
//! come back to an early position late (after the plies checked when indexed) test the
//! exactness of the counts.

use std::{
    collections::{BTreeSet, HashMap, HashSet},
    fs,
    os::unix::process::ExitStatusExt,
    path::{Path, PathBuf},
    time::Instant,
};

use rusqlite::OptionalExtension;

use kifudex::{
    db::{GameResult, LISTED, RUN_POSTINGS, Reader},
    ingest::Options,
    shogi::{Handicap, Move, Position, PositionKey, Setup},
};

use crate::{
    index::{index_with, options},
    query::{Fixture, check, csv_rows, expected, ids_of, query_json},
    util::{
        Rng, command as kifudex_command,
        games::{Spec, Truth, generate, truth, write_games},
        kifudex,
    },
};

/// Generated games whose result is the one their headers say: none ends in a mate or comes
/// back to a position four times, where the moves decide the result.
fn plain_games(n: usize, seed: u64) -> Vec<Spec> {
    let mut out: Vec<Spec> = generate(n * 2, seed)
        .into_iter()
        .filter(|spec| {
            let all = spec.setups();
            let mut seen: HashMap<String, usize> = HashMap::new();
            let repeated = all.iter().any(|s| {
                let n = seen.entry(s.position_text()).or_default();
                *n += 1;
                *n >= 4
            });
            let mut end = Position::handicap(spec.start);
            for &mv in &spec.moves {
                end.play(mv).unwrap();
            }
            !repeated && end.has_legal_moves()
        })
        .collect();
    assert!(out.len() >= n);
    out.truncate(n);
    out
}

/// Games whose rooks go for a walk along their ranks and come back, so that the position
/// after their first ten moves comes back at ply 26: past the plies checked when indexed (and
/// no position comes four times, which would end the game).
fn returning_games(n: usize) -> Vec<Spec> {
    (0..n)
        .map(|i| {
            let mut text = String::from(if i % 2 == 0 {
                "7g7f 3c3d 6g6f 8c8d 5g5f 8d8e 9g9f 9c9d 1g1f 1c1d"
            } else {
                "2g2f 8c8d 2f2e 8d8e 9g9f 9c9d 1g1f 1c1d 5g5f 5c5d"
            });
            let black = ["2h3h", "3h4h", "4h5h", "5h6h", "6h5h", "5h4h", "4h3h", "3h2h"];
            let white = ["8b7b", "7b6b", "6b5b", "5b4b", "4b5b", "5b6b", "6b7b", "7b8b"];
            for (b, w) in black.iter().zip(white) {
                text.push_str(&format!(" {b} {w}"));
            }
            let tail = ["4g4f", "3g3f", "8g8f", "4i4h", "6i5h", "3i3h"][i / 2 % 6];
            text.push(' ');
            text.push_str(tail);
            let mut pos = Position::handicap(Handicap::Even);
            let moves: Vec<Move> = text
                .split_whitespace()
                .map(|m| {
                    let mv: Move = m.parse().unwrap();
                    pos.play(mv).unwrap();
                    mv
                })
                .collect();
            Spec {
                start: Handicap::Even,
                moves,
                // White, to move after the walk and one more move, resigns, or it is a draw.
                result: if i % 3 == 2 { GameResult::Draw } else { GameResult::BlackWin },
                black: format!("Shuffler {}", i % 4),
                white: "Shuffler".into(),
                event: "Returns".into(),
                date: format!("2021/03/{:02}", 1 + i),
            }
        })
        .collect()
}

/// The index options of these tests: positions hot from two games of a run, small runs.
fn hot_options(games: &Path, db: &Path) -> Options {
    Options { run_postings: 2_000, hot_games: 2, ..options(games, db, 2) }
}

/// The archive as it stands: the game files present, one spec for each distinct stored game.
fn fixture_of(db: &Path, present: &[(PathBuf, Spec)]) -> Fixture {
    // A game's record shown, and the date it is listed by, is its first in path order.
    let mut present = present.to_vec();
    present.sort_by_key(|(p, _)| p.to_string_lossy().into_owned());
    let paths: Vec<PathBuf> = present.iter().map(|(p, _)| p.clone()).collect();
    let ids = ids_of(db, &paths);
    let mut seen = HashSet::new();
    let (mut keep_paths, mut specs, mut keep_ids) = (Vec::new(), Vec::new(), Vec::new());
    for ((path, spec), id) in present.into_iter().zip(ids) {
        if seen.insert(id) {
            keep_paths.push(path);
            specs.push(spec);
            keep_ids.push(id);
        }
    }
    Fixture { dir: None, db: db.to_path_buf(), paths: keep_paths, specs, ids: keep_ids }
}

fn hot_keys(db: &Path) -> i64 {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row("SELECT count(*) FROM hot WHERE move = 0", [], |r| r.get(0)).unwrap()
}

/// Every position reached by two games or more (and those the returning games reach again),
/// asked without a filter, against the replay here.
fn assert_answers(fx: &Fixture, what: &str) -> usize {
    assert_some_answers(fx, what, usize::MAX)
}

/// The same for `most` of those positions at the most: the commonest half of them, and the
/// others picked from the rest in order of their text.
fn assert_some_answers(fx: &Fixture, what: &str, most: usize) -> usize {
    let (occ, setups_by_text) = truth(&fx.specs);
    let mut shared: Vec<&String> = occ.iter().filter(|(_, o)| o.len() > 1).map(|(t, _)| t).collect();
    shared.sort_by_key(|t| (std::cmp::Reverse(occ[*t].len()), *t));
    let (common, rest) = shared.split_at(shared.len().min(most / 2));
    let step = (rest.len() / (most - common.len()).max(1)).max(1);
    let asked: BTreeSet<&String> =
        common.iter().chain(rest.iter().step_by(step)).take(most).copied().collect();
    for text in &asked {
        let sfen = setups_by_text[*text].to_string();
        let want = expected(fx, &occ, text, &|_| true);
        let (answer, _) = query_json(&["--sfen", &sfen], &fx.db);
        check(&answer, &want, &format!("{what}: {sfen}"));
    }
    // The newest games that reach the commonest positions, found by walking the games by
    // date (the way an answer lists them when the position's games are too many to read).
    let mut reader = Reader::open(&fx.db).unwrap();
    let snapshot = reader.snapshot().unwrap();
    let mut common: Vec<&String> = asked.iter().copied().collect();
    common.sort_by_key(|t| std::cmp::Reverse(occ[*t].len()));
    for text in common.into_iter().take(8) {
        let newest = newest_at(fx, &occ, text);
        for (offset, limit) in [(0, 20), (5, 7), (30, 100)] {
            let got: Vec<(i64, usize)> = snapshot
                .newest_reaching(&setups_by_text[text], offset, limit)
                .unwrap()
                .into_iter()
                .map(|(row, ply)| (row.id.0, ply as usize))
                .collect();
            let want: Vec<(i64, usize)> =
                newest.iter().skip(offset).take(limit).map(|&(_, id, ply)| (id, ply)).collect();
            assert_eq!(got, want, "{what}: the newest games at {text}, {offset} {limit}");
        }
        check_list(fx, &newest, &setups_by_text[text], &format!("{what}: {text}"));
        // Pages of the answer, as the command gives them: from the newest games kept for a
        // hot position as far as they reach (LISTED of them), from the postings past that.
        let sfen = setups_by_text[text].to_string();
        for (offset, limit) in [(0, 20), (5, 7), (30, 20), (45, 10), (0, 60)] {
            let want: Vec<(i64, usize)> =
                newest.iter().skip(offset).take(limit).map(|&(_, id, ply)| (id, ply)).collect();
            assert_eq!(page(&fx.db, &sfen, offset, limit), want, "{what}: page {offset} {limit} at {text}");
        }
    }
    // The tree export counts the start position's games as the replay does.
    let start = Handicap::Even.setup().position_text();
    let tree = kifudex(["export", "tree", "--max-ply", "0"]).db(&fx.db).output();
    let rows = csv_rows(&tree.stdout);
    let games: BTreeSet<usize> = occ.get(&start).map_or(BTreeSet::new(), |o| o.iter().map(|o| o.0).collect());
    let sfen = Handicap::Even.setup().to_string();
    let at_start: Vec<_> = rows.iter().filter(|r| r["sfen"] == sfen).collect();
    assert!(!at_start.is_empty(), "{what}: tree");
    assert!(at_start.iter().all(|r| r["games"] == games.len().to_string()), "{what}: tree {at_start:?}");
    asked.len()
}

/// The games that reach the position of `text` in the replay, newest first (then by id,
/// highest first), each with its date and first ply there.
fn newest_at(fx: &Fixture, occ: &Truth, text: &str) -> Vec<(String, i64, usize)> {
    let want = expected(fx, occ, text, &|_| true);
    let mut newest: Vec<(String, i64, usize)> = want
        .games
        .iter()
        .map(|(&id, &ply)| {
            let i = fx.ids.iter().position(|&x| x == id).unwrap();
            (fx.specs[i].date.replace('/', "-"), id, ply)
        })
        .collect();
    newest.sort_by(|a, b| (&b.0, b.1).cmp(&(&a.0, a.1)));
    newest
}

/// The newest games kept for the position of `setup`, when it is hot, against `newest`: the
/// first of them in list order (every one when the list has no cut), enough for a page or two.
fn check_list(fx: &Fixture, newest: &[(String, i64, usize)], setup: &Setup, what: &str) {
    let key = PositionKey::of(setup).to_i64();
    let conn = rusqlite::Connection::open(&fx.db).unwrap();
    let row: Option<(Option<i64>, Vec<u8>)> = conn
        .query_row("SELECT cut_game, games FROM hot_lists WHERE key = ?1", [key], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .optional()
        .unwrap();
    if let Some((cut, blob)) = row {
        let listed = listed_games(&blob);
        // The blob keeps them in list order, each with the date it sorts by.
        let in_order: Vec<(Option<String>, i64, usize)> =
            newest.iter().take(listed.len()).map(|(date, id, ply)| (Some(date.clone()), *id, *ply)).collect();
        let got: Vec<(Option<String>, i64, usize)> =
            listed.iter().map(|(id, ply, date)| (date.clone(), *id, *ply)).collect();
        assert_eq!(got, in_order, "{what}: the list as stored");
        let enough = if cut.is_none() { newest.len() } else { LISTED / 2 };
        assert!(listed.len() >= enough.min(newest.len()), "{what}: {} kept", listed.len());
    }
}

/// The games `query` lists for `sfen` (id and first ply), `limit` of them after `offset`.
fn page(db: &Path, sfen: &str, offset: usize, limit: usize) -> Vec<(i64, usize)> {
    let (offset, limit) = (offset.to_string(), limit.to_string());
    let out = kifudex(["query", "--format", "json", "--sfen", sfen, "--offset", &offset, "--limit", &limit])
        .db(db)
        .output();
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    answer["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["id"].as_i64().unwrap(), g["ply"].as_u64().unwrap() as usize))
        .collect()
}

#[test]
fn hot_counts_match_a_replay_after_new_changed_duplicated_and_pruned_files() {
    let tmp = tempfile::tempdir().unwrap();
    let (games, db) = (tmp.path().join("games"), tmp.path().join("k.sqlite"));
    let mut specs = plain_games(150, 23);
    specs.extend(returning_games(12));
    let paths = write_games(&games, &specs);
    let mut present: Vec<(PathBuf, Spec)> = paths.iter().cloned().zip(specs.iter().cloned()).collect();

    // New games, in several runs of a first index run (merges among them).
    index_with(&hot_options(&games, &db));
    assert!(hot_keys(&db) >= 40, "{} hot keys", hot_keys(&db));
    let asked = assert_answers(&fixture_of(&db, &present), "indexed");
    assert_listed(&db, "indexed");
    assert!(asked >= 60, "{asked} positions asked");
    // The returning games make their early positions come back after the checked plies, and
    // those positions are hot.
    let back = specs[150].setups()[26].position_text();
    // (Past the 24 plies of kifudex::db::KEYPOS_MAX_PLY.)
    assert_eq!(back, specs[150].setups()[10].position_text());

    // More new games than a list keeps, in one run of postings: each hot position they reach
    // is offered them all at once, in no order of date.
    let more = plain_games(3 * LISTED, 61);
    let more_paths = write_games(&games.join("more"), &more);
    present.extend(more_paths.into_iter().zip(more));
    index_with(&Options { run_postings: RUN_POSTINGS, ..hot_options(&games, &db) });
    assert_answers(&fixture_of(&db, &present), "after many new games at once");
    assert_listed(&db, "after many new games at once");

    // Changed files: other games in ten of them, and a returning game turned into another.
    let changed = plain_games(10, 99);
    for (i, spec) in changed.into_iter().enumerate() {
        let at = i * 13 + 5;
        fs::write(&present[at].0, spec.csa()).unwrap();
        present[at].1 = spec;
    }
    index_with(&hot_options(&games, &db));
    assert_answers(&fixture_of(&db, &present), "after changed files");
    assert_listed(&db, "after changed files");

    // Headers alone changed in a dozen files: other players and dates (a game becomes the
    // newest, or falls back). The games are the ones stored: each keeps its id and its
    // counts, and its place in the lists is that of its new date.
    let paths_now: Vec<PathBuf> = present.iter().map(|(p, _)| p.clone()).collect();
    let ids_before = ids_of(&db, &paths_now);
    let mut edited = 0;
    for i in (3..present.len()).step_by(present.len() / 12) {
        let (path, spec) = &mut present[i];
        spec.black = format!("{} 改", spec.black);
        spec.date = if i % 2 == 0 { "2035/05/05".into() } else { format!("1980/01/{:02}", 1 + i % 28) };
        fs::write(path, spec.csa()).unwrap();
        edited += 1;
    }
    let s = index_with(&hot_options(&games, &db));
    assert_eq!(
        (s.files_indexed, s.games_kept, s.games_added, s.games_removed),
        (edited, edited, 0, 0),
        "{s:?}"
    );
    assert_eq!(ids_of(&db, &paths_now), ids_before, "the games keep their ids");
    assert_answers(&fixture_of(&db, &present), "after headers changed");
    assert_listed(&db, "after headers changed");

    // Duplicates: the same games in other files, counted once, with other dates. Those in
    // `c-dups` come first in path order, so their records are the ones shown and their dates
    // the ones the games are listed by: a game becomes the newest, or falls back.
    let dup_dir = games.join("dups");
    let first_dir = games.join("c-dups");
    fs::create_dir_all(&dup_dir).unwrap();
    fs::create_dir_all(&first_dir).unwrap();
    for i in (0..present.len()).step_by(9) {
        let dir = if i % 2 == 0 { &first_dir } else { &dup_dir };
        let copy = dir.join(format!("dup{i:04}.csa"));
        let mut spec = present[i].1.clone();
        spec.date = if i % 4 < 2 {
            format!("2031/01/{:02}", 1 + i % 28)
        } else {
            format!("1990/01/{:02}", 1 + i % 28)
        };
        fs::write(&copy, spec.csa()).unwrap();
        present.push((copy, spec));
    }
    index_with(&hot_options(&games, &db));
    assert_answers(&fixture_of(&db, &present), "after duplicates");
    assert_listed(&db, "after duplicates");

    // Removed files, pruned: some had duplicates (their game stays), some not (it goes).
    let mut removed = 0;
    present.retain(|(path, _)| {
        let go = path.file_stem().unwrap().to_string_lossy().ends_with('0')
            && !path.starts_with(&dup_dir)
            && !path.starts_with(&first_dir);
        if go {
            fs::remove_file(path).unwrap();
            removed += 1;
        }
        !go
    });
    assert!(removed >= 10, "{removed}");
    index_with(&Options { prune: true, ..hot_options(&games, &db) });
    assert_answers(&fixture_of(&db, &present), "after prune");
    assert_listed(&db, "after prune");

    // Most of the rest pruned: a list that loses most of its games is made again.
    let mut i = 0;
    present.retain(|(path, _)| {
        i += 1;
        let go = i % 10 < 7;
        if go {
            fs::remove_file(path).unwrap();
        }
        !go
    });
    index_with(&Options { prune: true, ..hot_options(&games, &db) });
    assert_answers(&fixture_of(&db, &present), "after most files pruned");
    assert_listed(&db, "after most files pruned");

    // Every file gone: no game reaches anything, and the hot rows say so.
    for (path, _) in &present {
        fs::remove_file(path).unwrap();
    }
    index_with(&Options { prune: true, ..hot_options(&games, &db) });
    let (answer, code) = query_json(&[], &db);
    assert_eq!((answer["position"]["games"].as_u64(), code), (Some(0), 1));
    assert!(answer["moves"].as_array().unwrap().is_empty());
}

/// Runs of the command killed (SIGKILL) at random moments, from before their first commit to
/// after their end: what each kill leaves answers as a replay of the games it stored does,
/// and a run after the kill completes the counts to those of all the games.
#[test]
fn runs_killed_at_random_moments_leave_hot_counts_that_match_the_games_stored() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    // Enough games for a run to commit more than once (every 10,000 games or two seconds).
    let specs = plain_games(12_000, 41);
    let paths = write_games(&games, &specs);
    let all: Vec<(PathBuf, Spec)> = paths.into_iter().zip(specs).collect();
    let spawn = |db: &Path| {
        kifudex_command()
            .args(["index", "--quiet", "--hot-games", "3"])
            .arg(&games)
            .arg("--db")
            .arg(db)
            .spawn()
            .unwrap()
    };
    // A whole run, timed.
    let started = Instant::now();
    let whole = spawn(&tmp.path().join("whole.sqlite")).wait().unwrap();
    assert!(whole.success());
    let whole = started.elapsed();
    assert!(hot_keys(&tmp.path().join("whole.sqlite")) >= 100);
    assert_eq!(record_indexes(&tmp.path().join("whole.sqlite")), 3, "a first run makes them at its end");
    let mut rng = Rng::new(5);
    let (mut landed, mut partial) = (0, 0);
    for round in 0..6 {
        let db = tmp.path().join(format!("k{round}.sqlite"));
        let mut child = spawn(&db);
        // From a tenth of a whole run to a tenth past its end.
        std::thread::sleep(whole.mul_f64((100 + rng.below(1_000)) as f64 / 1_000.0));
        child.kill().unwrap();
        landed += usize::from(child.wait().unwrap().signal() == Some(9));
        let present = stored(&db, &all);
        partial += usize::from(!present.is_empty() && present.len() < all.len());
        let what = format!("kill {round}");
        if !present.is_empty() {
            assert_some_answers(&fixture_of(&db, &present), &what, 30);
            assert_player_filter(&db, &present, &what);
        }
        if round % 2 == 1 {
            let out = spawn(&db).wait_with_output().unwrap();
            assert!(out.status.success(), "{what}: {}", String::from_utf8_lossy(&out.stderr));
            assert_eq!(stored(&db, &all).len(), all.len(), "{what}");
            assert_some_answers(&fixture_of(&db, &all), &format!("{what}, completed"), 40);
            assert_listed(&db, &what);
            assert_player_filter(&db, &all, &what);
            assert_eq!(record_indexes(&db), 3, "{what}: the run that completes a killed one makes them");
        }
    }
    eprintln!(
        "{landed} of 6 kills landed during a run, {partial} left part of the games (a whole run {whole:?})"
    );
    // Most kills land during a run (a tenth of them at most after its end): with fewer, the
    // test would check little of what a kill leaves.
    assert!(landed >= 2, "only {landed} of 6 kills landed during a run");
}

/// A first run killed after a commit leaves the records without their indexes by player and
/// event (it makes them at its end): queries filtered by player answer all the same, and the
/// next run makes them, whatever it has to index.
#[test]
fn a_database_left_without_its_record_indexes_answers_filters_and_gets_them_from_its_next_run() {
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    let specs = plain_games(300, 43);
    let all: Vec<(PathBuf, Spec)> = write_games(&games, &specs).into_iter().zip(specs).collect();
    let db = tmp.path().join("db.sqlite");
    let run = || kifudex(["index", "--quiet"]).args([&games]).db(&db).output();
    assert!(run().status.success());
    assert_eq!(record_indexes(&db), 3);
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch("DROP INDEX sources_black; DROP INDEX sources_white; DROP INDEX sources_event;")
        .unwrap();
    assert_player_filter(&db, &all, "without the indexes");
    let out = run();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(record_indexes(&db), 3, "made by a run with nothing new to index");
    assert_player_filter(&db, &all, "with the indexes made again");
}

/// A first run whose runs are all merged at its end, on threads (two jobs, runs of 2,000
/// postings): the positions it makes hot are exactly those that two games or more reach
/// within the plies checked, counted here by replay, whatever range of keys each thread
/// merged.
#[test]
fn the_merge_that_ends_a_first_run_makes_hot_the_positions_two_games_reach_early() {
    let tmp = tempfile::tempdir().unwrap();
    let (games, db) = (tmp.path().join("games"), tmp.path().join("k.sqlite"));
    let specs = plain_games(150, 29);
    write_games(&games, &specs);
    let summary = index_with(&hot_options(&games, &db));
    assert!(summary.runs_merged >= 4, "{} runs merged", summary.runs_merged);
    let mut games_at: HashMap<PositionKey, HashSet<usize>> = HashMap::new();
    for (game, spec) in specs.iter().enumerate() {
        for setup in spec.setups().iter().take(kifudex::db::KEYPOS_MAX_PLY as usize + 1) {
            games_at.entry(PositionKey::of(setup)).or_default().insert(game);
        }
    }
    let want: BTreeSet<i64> =
        games_at.iter().filter(|(_, games)| games.len() >= 2).map(|(key, _)| key.to_i64()).collect();
    let conn = rusqlite::Connection::open(&db).unwrap();
    let mut stmt = conn.prepare("SELECT key FROM hot WHERE move = 0").unwrap();
    let hot: BTreeSet<i64> = stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
    assert!(want.len() >= 40, "{} positions reached by two games", want.len());
    assert_eq!(hot, want);
}

/// The lists of newest games that a first run makes at its end, on a thread for each job when
/// its run made many keys hot: every hot key gets one, and each holds the games the replay
/// here lists first, as one job alone makes it too.
#[test]
fn the_lists_made_on_threads_at_the_end_of_a_first_run_are_those_of_the_replay() {
    let tmp = tempfile::tempdir().unwrap();
    let (games, db) = (tmp.path().join("games"), tmp.path().join("k.sqlite"));
    let specs = plain_games(400, 41);
    let paths = write_games(&games, &specs);
    index_with(&hot_options(&games, &db));
    // Well past the keys that take threads (64).
    assert!(hot_keys(&db) >= 100, "{} hot keys", hot_keys(&db));
    assert_listed(&db, "two jobs");
    let present: Vec<(PathBuf, Spec)> = paths.into_iter().zip(specs).collect();
    let fx = fixture_of(&db, &present);
    let (occ, setups_by_text) = truth(&fx.specs);
    let by_key: HashMap<i64, &String> =
        setups_by_text.iter().map(|(text, setup)| (PositionKey::of(setup).to_i64(), text)).collect();
    let conn = rusqlite::Connection::open(&db).unwrap();
    let mut stmt = conn.prepare("SELECT key FROM hot_lists").unwrap();
    let listed: Vec<i64> = stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
    for key in &listed {
        let text = by_key[key];
        check_list(&fx, &newest_at(&fx, &occ, text), &setups_by_text[text], &format!("two jobs: {text}"));
    }
    let alone = tmp.path().join("alone.sqlite");
    index_with(&Options { jobs: 1, ..hot_options(&games, &alone) });
    let lists = |db: &Path| -> Vec<(i64, Option<i64>, Vec<u8>)> {
        let conn = rusqlite::Connection::open(db).unwrap();
        let mut stmt = conn.prepare("SELECT key, cut_game, games FROM hot_lists ORDER BY key").unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?))).unwrap().map(Result::unwrap).collect()
    };
    assert_eq!(lists(&db), lists(&alone));
}

/// The files of `all` whose games the database holds.
/// A query filtered by player keeps exactly the stored games the player played, whether the
/// indexes of the records by player are there or not (a first run makes them at its end).
fn assert_player_filter(db: &Path, present: &[(PathBuf, Spec)], what: &str) {
    let out = kifudex(["export", "games", "--player", "Player 3"]).db(db).output();
    assert!(out.status.success(), "{what}: {}", String::from_utf8_lossy(&out.stderr));
    let want = present.iter().filter(|(_, s)| s.black == "Player 3" || s.white == "Player 3").count();
    assert!(want > 0);
    assert_eq!(csv_rows(&out.stdout).len(), want, "{what}: the games of Player 3");
}

/// How many of the indexes of the records by black, white and event the database has.
fn record_indexes(db: &Path) -> i64 {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row(
        "SELECT count(*) FROM sqlite_master
         WHERE type = 'index' AND name IN ('sources_black', 'sources_white', 'sources_event')",
        [],
        |r| r.get(0),
    )
    .unwrap()
}

fn stored(db: &Path, all: &[(PathBuf, Spec)]) -> Vec<(PathBuf, Spec)> {
    if !db.exists() {
        return Vec::new();
    }
    let out = kifudex(["export", "games"]).db(db).output();
    if !out.status.success() {
        return Vec::new();
    }
    let paths: HashSet<String> =
        csv_rows(&out.stdout).into_iter().map(|r| r["source_path"].clone()).collect();
    all.iter()
        .filter(|(p, _)| paths.contains(&*fs::canonicalize(p).unwrap().to_string_lossy()))
        .cloned()
        .collect()
}

#[test]
fn a_database_without_hot_counts_gets_them_from_its_next_index_run() {
    let tmp = tempfile::tempdir().unwrap();
    let (games, db) = (tmp.path().join("games"), tmp.path().join("k.sqlite"));
    let specs = plain_games(60, 31);
    let paths = write_games(&games, &specs);
    // A threshold no run reaches: nothing is hot.
    index_with(&Options { hot_games: 1_000, ..hot_options(&games, &db) });
    assert_eq!(hot_keys(&db), 0);
    // As a database made before hot counts existed: the next run counts every run once.
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute("UPDATE meta SET value = 'pending' WHERE key = 'hot_scan'", [])
        .unwrap();
    index_with(&hot_options(&games, &db));
    assert!(hot_keys(&db) >= 20, "{} hot keys", hot_keys(&db));
    let present: Vec<(PathBuf, Spec)> = paths.into_iter().zip(specs).collect();
    assert_answers(&fixture_of(&db, &present), "after the scan");
    assert_eq!(listed_keys(&db), hot_keys(&db));
}

/// A stop that comes once the runs are merged (Ctrl-C as the lists of newest games are made,
/// on one thread or on two) stops the run there: it makes no list and says it stopped, and the
/// answers are still those of the replay; the next run makes the lists.
#[test]
fn a_stop_after_the_merges_leaves_the_lists_to_the_next_run() {
    let tmp = tempfile::tempdir().unwrap();
    let (games, db) = (tmp.path().join("games"), tmp.path().join("k.sqlite"));
    let specs = plain_games(400, 43);
    let paths = write_games(&games, &specs);
    index_with(&hot_options(&games, &db));
    // Past the keys whose lists take threads (64).
    assert!(hot_keys(&db) >= 100, "{} hot keys", hot_keys(&db));
    let present: Vec<(PathBuf, Spec)> = paths.into_iter().zip(specs).collect();
    let fx = fixture_of(&db, &present);
    for threads in [1, 2] {
        // As a run killed before its lists leaves them.
        rusqlite::Connection::open(&db).unwrap().execute("DELETE FROM hot_lists", []).unwrap();
        let mut writer = kifudex::db::Writer::open(&db).unwrap();
        writer.set_merge_threads(threads);
        writer.set_stop(std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true)));
        let finished = writer.finish().unwrap();
        assert_eq!((finished.merged, finished.stopped), (0, true), "{threads} threads");
        assert_eq!(listed_keys(&db), 0, "{threads} threads");
        assert_answers(&fx, &format!("stopped before the lists, {threads} threads"));
    }
    index_with(&hot_options(&games, &db));
    assert_listed(&db, "after the next run");
    assert_answers(&fx, "after the next run");
}

/// Every hot key has its list of newest games, as an index run leaves it.
fn assert_listed(db: &Path, what: &str) {
    assert_eq!(listed_keys(db), hot_keys(db), "{what}: a list for every hot key");
}

fn listed_keys(db: &Path) -> i64 {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.query_row("SELECT count(*) FROM hot_lists", [], |r| r.get(0)).unwrap()
}

/// The games of a list as `hot_lists` stores them (the format its migration gives): each its
/// id, first ply and date, as varints and the date's bytes.
fn listed_games(blob: &[u8]) -> Vec<(i64, usize, Option<String>)> {
    fn varint(blob: &[u8], at: &mut usize) -> u64 {
        let mut v = 0;
        for shift in (0..).step_by(7) {
            let byte = blob[*at];
            *at += 1;
            v |= u64::from(byte & 0x7f) << shift;
            if byte < 0x80 {
                return v;
            }
        }
        unreachable!()
    }
    let (mut games, mut at) = (Vec::new(), 0);
    while at < blob.len() {
        let id = varint(blob, &mut at) as i64;
        let ply = varint(blob, &mut at) as usize;
        let date = match varint(blob, &mut at) as usize {
            0 => None,
            len => {
                let date = String::from_utf8(blob[at..at + len - 1].to_vec()).unwrap();
                at += len - 1;
                Some(date)
            }
        };
        games.push((id, ply, date));
    }
    games
}

#[test]
fn a_database_without_lists_of_newest_games_gets_them_from_its_next_index_run() {
    let tmp = tempfile::tempdir().unwrap();
    let (games, db) = (tmp.path().join("games"), tmp.path().join("k.sqlite"));
    let specs = plain_games(120, 37);
    let paths = write_games(&games, &specs);
    index_with(&hot_options(&games, &db));
    let present: Vec<(PathBuf, Spec)> = paths.into_iter().zip(specs).collect();
    assert!(hot_keys(&db) >= 20, "{} hot keys", hot_keys(&db));
    assert_eq!(listed_keys(&db), hot_keys(&db));
    // As a database made before the lists: answers come from the postings.
    rusqlite::Connection::open(&db).unwrap().execute("DELETE FROM hot_lists", []).unwrap();
    assert_answers(&fixture_of(&db, &present), "without lists");
    // The next run makes them, and the answers are the same.
    index_with(&hot_options(&games, &db));
    assert_eq!(listed_keys(&db), hot_keys(&db));
    assert_answers(&fixture_of(&db, &present), "with the lists made");
}

/// A list that a run empties (every game on it gains a record: copies in another folder) and
/// refills with more than [`LISTED`] games (the copies and new ones) keeps [`LISTED`] of them
/// and is cut there: it claims no more than it holds, so a longer page is read from the
/// postings and lists every game, as a database built afresh does.
#[test]
fn a_list_emptied_and_refilled_with_more_than_it_keeps_is_cut() {
    let tmp = tempfile::tempdir().unwrap();
    let (first, second) = (tmp.path().join("a"), tmp.path().join("b"));
    fs::create_dir_all(&first).unwrap();
    fs::create_dir_all(&second).unwrap();
    // 81 games of two moves, a pawn push each, told apart by their moves, each on its own day.
    let pushes =
        |rank_from: u32, rank_to: u32| (1..=9).map(move |file| format!("{file}{rank_from}{file}{rank_to}FU"));
    let games: Vec<String> = pushes(7, 6)
        .flat_map(|black| pushes(3, 4).map(move |white| (black.clone(), white)))
        .enumerate()
        .map(|(i, (black, white))| {
            let day = format!("2020/{:02}/{:02}", 1 + i / 28, 1 + i % 28);
            format!("N+B{i}\nN-W{i}\n$START_TIME:{day} 10:00:00\nPI\n+\n+{black}\n-{white}\n%TORYO\n")
        })
        .collect();
    let kept = LISTED - 10;
    for (i, game) in games[..kept].iter().enumerate() {
        fs::write(first.join(format!("{i:02}.csa")), game).unwrap();
    }
    let db = tmp.path().join("k.sqlite");
    let index = || {
        let out =
            kifudex(["index", "--quiet", "--hot-games", "3", tmp.path().to_str().unwrap()]).db(&db).output();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    };
    index();
    // Every game of the list gains a record, and as many new games come as make it overflow.
    for (i, game) in games.iter().enumerate() {
        fs::write(second.join(format!("{i:02}.csa")), game).unwrap();
    }
    index();
    let (answer, _) = query_json(&[], &db);
    assert_eq!(answer["position"]["games"], games.len());
    let listed: Vec<i64> =
        answer["games"].as_array().unwrap().iter().map(|g| g["id"].as_i64().unwrap()).collect();
    assert_eq!(listed.len(), games.len(), "every game is listed");
    let fresh = tmp.path().join("fresh.sqlite");
    let out = kifudex(["index", "--quiet", tmp.path().to_str().unwrap()]).db(&fresh).output();
    assert_eq!(out.status.code(), Some(0));
    let dates = |db: &Path| -> Vec<String> {
        query_json(&[], db).0["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["date"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(dates(&db), dates(&fresh));
    // A database of the schema before holds such a list uncut: migration 0030 removes it, and
    // the next run makes it again.
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch(
            "UPDATE hot_lists SET cut_date = NULL, cut_game = NULL; PRAGMA user_version = 29;",
        )
        .unwrap();
    }
    index();
    assert_eq!(dates(&db), dates(&fresh));
    let uncut: i64 = rusqlite::Connection::open(&db)
        .unwrap()
        .query_row("SELECT count(*) FROM hot_lists WHERE cut_date IS NULL AND cut_game IS NULL", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert!(listed_keys(&db) > 0 && uncut < listed_keys(&db), "{uncut} lists uncut");
}
