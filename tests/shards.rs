//! Shards: an archive generated here indexed as four databases with `index --shard I/4`, their
//! positions exported as one dataset partitioned by shard (`export --out-dir`), and the
//! opening tree aggregated from that dataset by `scripts/tree_duckdb.sql` (DuckDB's Python
//! package) and `scripts/tree_spark.py` (PySpark), against `kifudex export tree` over one
//! database of the whole archive, row for row.
//!
//! Which shard takes a file is worked out here, from the documented hash (64-bit FNV-1a of
//! the path under the directory given, the high bits choosing), by a second implementation.
//!
//! The DuckDB test is skipped, saying so, when `python3 -c "import duckdb"` fails, unless
//! `CI=true`, which makes it required. The Spark test is ignored by default (a Java virtual
//! machine takes long to start); `.ci/run` runs it when it can install PySpark and a Java
//! runtime, and says so when it cannot.

use std::{
    collections::{BTreeMap, BTreeSet, HashMap},
    fs,
    path::{Path, PathBuf},
    process::{Command, Output},
    sync::OnceLock,
};

use kifudex::shogi::{Handicap, Move, Position};
use serde_json::Value;

use crate::{
    query::csv_rows,
    util::{Rng, games::generate, kifudex, random_playout},
};

const SHARDS: u64 = 4;

/// The shard (from 1) of a file whose path under the directory given is `rel`, as the
/// documentation defines it.
fn shard_of(rel: &str, n: u64) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in rel.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    ((u128::from(h) * u128::from(n)) >> 64) as u64 + 1
}

/// The archive, its databases and the exports.
struct Sharded {
    _dir: tempfile::TempDir,
    root: PathBuf,
    /// The database of every file.
    whole: PathBuf,
    /// The database of each shard, 1 to 4.
    shards: Vec<PathBuf>,
    /// The positions exports of the shards: `shard=I/positions-I-of-4.parquet`.
    positions: PathBuf,
    /// Each record file's path under the root, with the games in it (as USI lines).
    files: BTreeMap<String, Vec<String>>,
    /// The `--json` summary of each shard's run.
    summaries: Vec<Value>,
}

/// A game as a USI line, with an ending word that sets its result: `resign` (the side to
/// move loses), `draw`, or none (no result).
fn usi_line(start: Handicap, moves: &[Move], ending: usize) -> String {
    let start = match start {
        Handicap::Even => "startpos".to_string(),
        h => format!("sfen {}", h.sfen()),
    };
    let moves: Vec<String> = moves.iter().map(Move::to_string).collect();
    let end = ["resign", "draw", "", "resign"][ending % 4];
    format!("position {start} moves {} {end}", moves.join(" ")).trim_end().to_string()
}

/// Games that go back and forth, so a position of the tree occurs twice in one game and the
/// same move is played from it twice (the game counts once for it), then go on at random.
fn back_and_forth(n: usize, rng: &mut Rng) -> Vec<Vec<Move>> {
    (0..n)
        .map(|_| {
            let mut pos = Position::handicap(Handicap::Even);
            let mut moves = Vec::new();
            for m in "7g7f 3c3d 2h3h 8b7b 3h2h 7b8b 2h3h 8b7b 3h2h 7b8b".split_whitespace() {
                let mv: Move = m.parse().unwrap();
                pos.play(mv).unwrap();
                moves.push(mv);
            }
            let plies = 10 + rng.below(20);
            random_playout(&mut pos, rng, plies, |_, mv| moves.push(mv));
            moves
        })
        .collect()
}

/// Writes the archive: generated games (transposing openings, handicaps, random endings),
/// most one to a file, some three to a file, one in eight also copied into a second file
/// elsewhere in the tree, one in eight of those resigned copied without its ending; and files
/// that hold no record.
fn write_archive(root: &Path) -> BTreeMap<String, Vec<String>> {
    let mut rng = Rng::new(2024);
    let mut lines: Vec<String> =
        generate(480, 15).iter().enumerate().map(|(i, spec)| usi_line(spec.start, &spec.moves, i)).collect();
    for (i, moves) in back_and_forth(20, &mut rng).iter().enumerate() {
        lines.push(usi_line(Handicap::Even, moves, i));
    }
    let mut files: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut i = 0;
    while i < lines.len() {
        let take = if i % 50 == 7 { 3 } else { 1 };
        let games: Vec<String> = lines[i..(i + take).min(lines.len())].to_vec();
        let name = format!("{}/{:02}/g{i:04}.usi", ["pro", "club", "engine"][i % 3], i % 17);
        if i % 8 == 3 {
            files.insert(format!("copies/{i:04}.usi"), games.clone());
        }
        // A copy that says no result (a bare move list) of a game another record says was
        // resigned: the game keeps the result the other states, in one database or in shards.
        if i % 8 == 4 && games.iter().all(|g| g.ends_with(" resign")) {
            let bare = games.iter().map(|g| g.trim_end_matches(" resign").to_string()).collect();
            files.insert(format!("copies/bare{i:04}.usi"), bare);
        }
        files.insert(name, games);
        i += take;
    }
    for (name, games) in &files {
        let path = root.join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, games.join("\n") + "\n").unwrap();
    }
    fs::write(root.join("README.md"), "not a record\n").unwrap();
    fs::write(root.join("pro/notes.txt"), "nothing here either\n").unwrap();
    files
}

/// Runs `kifudex index ARGS --json`, checks its status, and returns the summary.
fn index(args: &[&str], db: &Path, status: i32) -> Value {
    let mut all = vec!["index", "--json"];
    all.extend_from_slice(args);
    let out = kifudex(&all).db(db).output();
    assert_eq!(out.status.code(), Some(status), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn ok(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn sharded() -> &'static Sharded {
    static SHARDED: OnceLock<Sharded> = OnceLock::new();
    SHARDED.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("archive");
        let files = write_archive(&root);
        let root = fs::canonicalize(&root).unwrap();
        let whole = dir.path().join("whole.sqlite");
        index(&[root.to_str().unwrap()], &whole, 0);
        let positions = dir.path().join("exports/positions");
        let (mut shards, mut summaries) = (Vec::new(), Vec::new());
        for i in 1..=SHARDS {
            let db = dir.path().join(format!("shard{i}.sqlite"));
            summaries.push(index(&[root.to_str().unwrap(), "--shard", &format!("{i}/{SHARDS}")], &db, 0));
            let args =
                ["export", "positions", "--format", "parquet", "--out-dir", positions.to_str().unwrap()];
            ok(&kifudex(args).db(&db).output());
            shards.push(db);
        }
        Sharded { _dir: dir, root, whole, shards, positions, files, summaries }
    })
}

/// The source paths (under the root) of the games a database holds.
fn paths(db: &Path, root: &Path) -> BTreeSet<String> {
    csv_rows(ok(&kifudex(["export", "games"]).db(db).output()).as_bytes())
        .into_iter()
        .map(|r| Path::new(&r["source_path"]).strip_prefix(root).unwrap().to_str().unwrap().to_string())
        .collect()
}

#[test]
fn four_shards_take_every_file_once_each_the_files_its_hash_picks() {
    let s = sharded();
    let mut seen = BTreeSet::new();
    for (i, db) in s.shards.iter().enumerate() {
        let mine = paths(db, &s.root);
        for p in &mine {
            assert_eq!(shard_of(p, SHARDS), i as u64 + 1, "{p}");
            assert!(seen.insert(p.clone()), "{p} is in two shards");
        }
        // Every file of the shard is there.
        let want: BTreeSet<String> =
            s.files.keys().filter(|p| shard_of(p, SHARDS) == i as u64 + 1).cloned().collect();
        assert_eq!(mine, want, "shard {}", i + 1);
        assert!(!mine.is_empty());
    }
    assert_eq!(seen, paths(&s.whole, &s.root));
    assert_eq!(seen.len(), s.files.len());
    // Some game is held by files of two shards, so the aggregation has a copy to count once.
    let mut shards_of_game: HashMap<&String, BTreeSet<u64>> = HashMap::new();
    for (p, games) in &s.files {
        for g in games {
            shards_of_game.entry(g).or_default().insert(shard_of(p, SHARDS));
        }
    }
    assert!(shards_of_game.values().filter(|s| s.len() > 1).count() >= 5);
    // Each part of the dataset is where the layout says.
    for i in 1..=SHARDS {
        let part = s.positions.join(format!("shard={i}/positions-{i}-of-{SHARDS}.parquet"));
        assert!(part.is_file(), "{}", part.display());
    }
}

/// `game_id` → `game_key` of a database's games export.
fn game_keys(db: &Path) -> BTreeMap<String, String> {
    csv_rows(ok(&kifudex(["export", "games"]).db(db).output()).as_bytes())
        .into_iter()
        .map(|r| (r["game_id"].clone(), r["game_key"].clone()))
        .collect()
}

#[test]
fn the_games_of_the_shards_are_told_apart_by_their_key_not_their_id() {
    let s = sharded();
    let whole = game_keys(&s.whole);
    // The key of the games export is the positions export's.
    let positions = ok(&kifudex(["export", "positions"]).db(&s.whole).output());
    for r in csv_rows(positions.as_bytes()) {
        assert_eq!(whole[&r["game_id"]], r["game_key"], "game {}", r["game_id"]);
    }
    let shards: Vec<BTreeMap<String, String>> = s.shards.iter().map(|db| game_keys(db)).collect();
    // Ids are each database's own: the same id names other games in other shards …
    let first = &shards[0];
    assert!(
        shards[1..].iter().any(|other| other.iter().any(|(id, key)| first.get(id).is_some_and(|k| k != key)))
    );
    // … and the keys of the shards' games are the whole database's games, one key each.
    let keys: BTreeSet<&String> = shards.iter().flat_map(|m| m.values()).collect();
    assert_eq!(keys, whole.values().collect::<BTreeSet<_>>());
    assert_eq!(keys.len(), whole.len());
}

#[test]
fn a_run_counts_the_other_shards_files_apart() {
    let s = sharded();
    let all = s.files.len() as u64 + 2; // the records, and the two files that hold none
    let mut seen = 0;
    for j in &s.summaries {
        assert_eq!(j["files_seen"].as_u64().unwrap() + j["files_other_shards"].as_u64().unwrap(), all);
        seen += j["files_seen"].as_u64().unwrap();
    }
    assert_eq!(seen, all);
}

/// Copies the archive to `to`, made absolute.
fn copy_archive(to: &Path) -> PathBuf {
    let s = sharded();
    for entry in walkdir::WalkDir::new(&s.root).into_iter().map(Result::unwrap) {
        let target = to.join(entry.path().strip_prefix(&s.root).unwrap());
        if entry.file_type().is_dir() {
            fs::create_dir_all(&target).unwrap();
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
    fs::canonicalize(to).unwrap()
}

#[test]
fn a_shard_database_refuses_another_share_and_prune_spares_the_other_shards_files() {
    let tmp = tempfile::tempdir().unwrap();
    let root = copy_archive(&tmp.path().join("archive"));
    let r = root.to_str().unwrap();
    let db = tmp.path().join("s1.sqlite");
    index(&[r, "--shard", "1/4"], &db, 0);
    let before = paths(&db, &root);
    let bytes = fs::read(&db).unwrap();
    for (args, message) in [
        (
            vec![r, "--shard", "2/4"],
            "it holds shard 1/4 of the files, not 2/4: each shard needs a database of its own",
        ),
        (vec![r, "--shard", "1/8"], "it holds shard 1/4 of the files, not 1/8"),
        (vec![r], "it holds shard 1/4 of the files: index it with --shard 1/4"),
    ] {
        let out = kifudex([&["index"], args.as_slice()].concat()).db(&db).output();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(message) && err.contains("s1.sqlite"), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        // Not a byte of the file: it was refused before it was opened to write (the switch to
        // WAL mode and back wrote the header's change counter).
        assert!(fs::read(&db).unwrap() == bytes, "{args:?}: the file is as it was");
    }
    assert_eq!(paths(&db, &root), before, "a refused run changes nothing");
    // Nor does it leave the mark of a run that did not finish: the database is as complete as
    // before, and its answers say nothing of a missing share.
    let out = kifudex(["query", "--limit", "0"]).db(&db).output();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && err.is_empty(), "{err}");
    // A database of every file takes no shard.
    let whole = tmp.path().join("whole.sqlite");
    index(&[r], &whole, 0);
    let whole_bytes = fs::read(&whole).unwrap();
    let out = kifudex(["index", r, "--shard", "1/4"]).db(&whole).output();
    assert_eq!(out.status.code(), Some(2));
    assert!(fs::read(&whole).unwrap() == whole_bytes, "the file is as it was");
    assert!(String::from_utf8_lossy(&out.stderr).contains("it holds files indexed without --shard"));

    // Remove a file of shard 1 and one of shard 2: the prune of shard 1 removes its own only.
    let of =
        |i: u64| before.iter().chain(&paths(&whole, &root)).find(|p| shard_of(p, 4) == i).unwrap().clone();
    let (mine, theirs) = (of(1), of(2));
    fs::remove_file(root.join(&mine)).unwrap();
    fs::remove_file(root.join(&theirs)).unwrap();
    let j = index(&[r, "--shard", "1/4", "--prune"], &db, 0);
    assert_eq!(j["files_pruned"], 1);
    let mut want = before.clone();
    want.remove(&mine);
    assert_eq!(paths(&db, &root), want);

    // Given a directory inside the archive, the paths hash otherwise: files of the database
    // that another shard now takes exist, and are not pruned.
    let pro = root.join("pro");
    let j = index(&[pro.to_str().unwrap(), "--shard", "1/4", "--prune"], &db, 0);
    assert_eq!(j["files_pruned"], 0);
    assert!(j["files_other_shards"].as_u64().unwrap() > 0);
    let after = paths(&db, &root);
    assert!(want.is_subset(&after), "nothing pruned: {:?}", want.difference(&after).collect::<Vec<_>>());
    assert!(want.iter().any(|p| p.starts_with("pro/") && shard_of(p.strip_prefix("pro/").unwrap(), 4) != 1));
}

#[test]
fn bad_shards_are_usage_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("never.sqlite");
    for (bad, message) in [
        ("0/4", "'0/4' is no shard of 4: I counts from 1 to 4"),
        ("5/4", "'5/4' is no shard of 4: I counts from 1 to 4"),
        ("1/0", "'1/0' has no shard: N must be at least 1"),
        ("junk", "'junk' is not a shard: write I/N"),
        ("2", "'2' is not a shard: write I/N"),
    ] {
        let out = kifudex(["index", tmp.path().to_str().unwrap(), "--shard", bad]).db(&db).output();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains("--shard") && err.contains(message), "{bad}: {err}");
    }
    assert!(!db.exists(), "no database made");
}

#[test]
fn a_database_of_every_file_exports_as_shard_1_of_1_and_parts_appear_whole() {
    let s = sharded();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("new/out");
    for (i, (format, ext)) in
        [("parquet", "parquet"), ("csv", "csv"), ("jsonl", "jsonl")].into_iter().enumerate()
    {
        let out = kifudex(["export", "games", "--format", format, "--out-dir", dir.to_str().unwrap()])
            .db(&s.whole)
            .output();
        ok(&out);
        assert!(dir.join(format!("shard=1/games-1-of-1.{ext}")).is_file());
        // The directories made are named once, so that a mistyped one is seen.
        let stderr = String::from_utf8_lossy(&out.stderr);
        let created = format!("--out-dir: created {}", dir.display());
        assert_eq!(stderr.contains(&created), i == 0, "{stderr}");
    }
    let csv = fs::read_to_string(dir.join("shard=1/games-1-of-1.csv")).unwrap();
    assert_eq!(csv, ok(&kifudex(["export", "games"]).db(&s.whole).output()));
    let names: Vec<String> = fs::read_dir(dir.join("shard=1"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), 3, "no hidden part left: {names:?}");
    let out = kifudex(["export", "games", "--out", "x.csv", "--out-dir", dir.to_str().unwrap()])
        .db(&s.whole)
        .output();
    assert_eq!(out.status.code(), Some(2));
    // A shard's part beside the whole one would be read as one table with it: refused, and
    // nothing written; another table, or the same split again, is written.
    let out = kifudex(["export", "games", "--format", "csv", "--out-dir", dir.to_str().unwrap()])
        .db(&s.shards[0])
        .output();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("games-1-of-1.") && stderr.contains("another number of shards"), "{stderr}");
    assert!(!dir.join(format!("shard=1/games-1-of-{SHARDS}.csv")).exists());
    // So is one of another split anywhere a reader's glob (`DIR/**/*.csv`) reaches, and a copy
    // of the same split outside its shard's folder, which a reader would count twice.
    for (stray, message) in [
        ("shard=1/old/games-2-of-3.csv", "another number of shards"),
        ("games-1-of-3.csv", "another number of shards"),
        ("old/games-1-of-1.csv", "outside its shard's folder"),
    ] {
        let path = dir.join(stray);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, "game_id\n").unwrap();
        let out = kifudex(["export", "games", "--format", "csv", "--out-dir", dir.to_str().unwrap()])
            .db(&s.whole)
            .output();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stray}: {stderr}");
        assert!(stderr.contains(stray) && stderr.contains(message), "{stray}: {stderr}");
        fs::remove_file(&path).unwrap();
    }
    ok(&kifudex(["export", "moves", "--format", "csv", "--out-dir", dir.to_str().unwrap()])
        .db(&s.shards[0])
        .output());
    ok(&kifudex(["export", "games", "--format", "csv", "--out-dir", dir.to_str().unwrap()])
        .db(&s.whole)
        .output());
    // A filtered part stands for the selection, not the shard: said.
    let out = kifudex([
        "export",
        "games",
        "--format",
        "csv",
        "--out-dir",
        dir.to_str().unwrap(),
        "--since",
        "2000",
    ])
    .db(&s.whole)
    .output();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("holds only the games the filters keep"), "{stderr}");
}

/// `kifudex export tree` of the whole database, without the notations a script cannot write.
fn whole_tree(max_ply: u32) -> Vec<HashMap<String, String>> {
    let s = sharded();
    let out = ok(&kifudex(["export", "tree", "--max-ply", &max_ply.to_string()]).db(&s.whole).output());
    let mut rows = csv_rows(out.as_bytes());
    for r in &mut rows {
        r.remove("japanese");
        r.remove("western");
    }
    rows
}

/// Checks the rows a script wrote (CSV) against the whole database's tree: the same rows,
/// and the positions in the same order.
fn same_tree(script: &str, csv: &[u8], max_ply: u32) {
    let got = csv_rows(csv);
    let want = whole_tree(max_ply);
    assert!(want.len() > 100, "a tree worth the name: {} rows", want.len());
    let keys = |rows: &[HashMap<String, String>]| {
        let mut k: Vec<String> = rows.iter().map(|r| r["key"].clone()).collect();
        k.dedup();
        k
    };
    assert_eq!(keys(&got), keys(&want), "{script}: the positions in kifudex's order");
    let sorted = |rows: &[HashMap<String, String>]| {
        let mut v: Vec<BTreeMap<String, String>> =
            rows.iter().map(|r| r.iter().map(|(k, v)| (k.clone(), v.clone())).collect()).collect();
        v.sort();
        v
    };
    let (got, want) = (sorted(&got), sorted(&want));
    assert_eq!(got.len(), want.len(), "{script}: rows");
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(g, w, "{script}, max ply {max_ply}");
    }
}

/// Whether `python3 -c "import MODULE"` works.
fn python_has(module: &str) -> bool {
    Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts").join(name)
}

/// Whether DuckDB's Python package is there; without it, a test says that it skips `what`,
/// unless `CI=true`, which requires it.
fn duckdb_present(what: &str) -> bool {
    if python_has("duckdb") {
        return true;
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "CI=true but DuckDB's Python package is missing (pip install duckdb)"
    );
    eprintln!("skipping {what}: python3 cannot import duckdb (pip install duckdb)");
    false
}

const DUCKDB: &str = r#"
import duckdb, sys
con = duckdb.connect()
con.execute("SET VARIABLE positions = ?", [sys.argv[1]])
con.execute("SET VARIABLE max_ply = ?", [int(sys.argv[2])])
con.sql(open(sys.argv[3], encoding="utf-8").read()).write_csv(sys.argv[4])
"#;

#[test]
fn duckdb_aggregates_the_shards_exports_into_the_tree_of_one_database() {
    if !duckdb_present("the shards' DuckDB test") {
        return;
    }
    let s = sharded();
    let tmp = tempfile::tempdir().unwrap();
    let glob = format!("{}/**/*.parquet", s.positions.display());
    for max_ply in [10, 3] {
        let out = tmp.path().join(format!("tree{max_ply}.csv"));
        let run = Command::new("python3")
            .args(["-c", DUCKDB, &glob, &max_ply.to_string()])
            .arg(script("tree_duckdb.sql"))
            .arg(&out)
            .output()
            .unwrap();
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        same_tree("tree_duckdb.sql", &fs::read(&out).unwrap(), max_ply);
    }
}

/// Two records of one start numbered as move 9 and as move 100: the tree's `sfen` has the
/// smallest number, 9, where the text's order ("100" before "9") gave 100.
#[test]
fn duckdb_gives_a_start_numbered_two_ways_its_smallest_move_number() {
    if !duckdb_present("the DuckDB move number test") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    fs::create_dir_all(&games).unwrap();
    let start = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b -";
    fs::write(games.join("a.usi"), format!("position sfen {start} 100 moves 2g2f 4c4d\n")).unwrap();
    fs::write(games.join("b.usi"), format!("position sfen {start} 9 moves 2g2f 8c8d\n")).unwrap();
    let db = tmp.path().join("k.sqlite");
    index(&[games.to_str().unwrap()], &db, 0);
    let dir = tmp.path().join("positions");
    ok(&kifudex(["export", "positions", "--format", "parquet", "--out-dir", dir.to_str().unwrap()])
        .db(&db)
        .output());
    let out = tmp.path().join("tree.csv");
    let run = Command::new("python3")
        .args(["-c", DUCKDB, &format!("{}/**/*.parquet", dir.display()), "10"])
        .arg(script("tree_duckdb.sql"))
        .arg(&out)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let tree = fs::read_to_string(&out).unwrap();
    let numbers: Vec<&str> =
        tree.lines().skip(1).map(|row| row.split(',').next().unwrap().rsplit(' ').next().unwrap()).collect();
    assert_eq!(numbers, ["9", "10", "10"], "{tree}");
}

#[test]
#[ignore = "starts Spark in a Java virtual machine: .ci/run runs it when PySpark and Java install"]
fn spark_aggregates_the_shards_exports_into_the_tree_of_one_database() {
    let java = Command::new("java").arg("-version").output().is_ok_and(|o| o.status.success());
    if !python_has("pyspark") || !java {
        eprintln!("skipping the shards' Spark test: it needs python3's pyspark and a Java runtime");
        return;
    }
    let s = sharded();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("tree.csv");
    let run = Command::new("python3")
        .arg(script("tree_spark.py"))
        .arg(&s.positions)
        .arg("--out")
        .arg(&out)
        .args(["--max-ply", "10"])
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    same_tree("tree_spark.py", &fs::read(&out).unwrap(), 10);
}

#[test]
fn an_out_dir_that_is_no_directory_is_named_in_the_message() {
    let s = sharded();
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("afile");
    fs::write(&file, "").unwrap();
    let dangling = tmp.path().join("dangling");
    std::os::unix::fs::symlink(tmp.path().join("nowhere"), &dangling).unwrap();
    let taken = tmp.path().join("taken");
    fs::create_dir(&taken).unwrap();
    fs::write(taken.join("shard=1"), "").unwrap();
    for (dir, message) in [
        (file.clone(), format!("{} is a file, not a directory", file.display())),
        (dangling.clone(), format!("{} is a symbolic link to nothing", dangling.display())),
        (taken.clone(), format!("{} is a file, not a directory", taken.join("shard=1").display())),
    ] {
        let out = kifudex(["export", "games", "--out-dir", dir.to_str().unwrap()]).db(&s.whole).output();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(&message), "{err}");
    }
}

/// A part of the dataset stands for its whole shard where the parts are gathered: a database
/// whose last index run did not finish writes none.
#[test]
fn a_database_whose_last_run_did_not_finish_writes_no_part() {
    let s = sharded();
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("cut.sqlite");
    fs::copy(&s.shards[0], &db).unwrap();
    // As a run killed on the way leaves it.
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute("INSERT INTO meta(key, value) VALUES ('run_unfinished', '0')", [])
        .unwrap();
    let dir = tmp.path().join("exports");
    let out = kifudex(["export", "positions", "--format", "parquet", "--out-dir", dir.to_str().unwrap()])
        .db(&db)
        .output();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("did not finish"), "{err}");
    assert!(!dir.join("shard=1").join("positions-1-of-4.parquet").exists());
    // A file that is no part is still written, with the warning.
    let file = tmp.path().join("positions.csv");
    let out = kifudex(["export", "positions", "--out", file.to_str().unwrap()]).db(&db).output();
    assert!(out.status.success() && file.is_file(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Records whose moves tell their game from no other (no move, or stopped early) are one game
/// only with those that say the same of it, so their key says it too: the shards' keys are the
/// one database's games, one key each, and the gathered tree counts them as it does. Expected
/// by hand: four games, the stopped record and its copy, the whole one with the same four
/// moves, the forfeit and its copy, and the other players' forfeit.
#[test]
fn games_their_moves_do_not_tell_apart_have_keys_of_their_own() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("archive");
    let stopped = "position startpos moves 7g7f 3c3d 2g2f 8c8d P*5e\n";
    let forfeit = |black: &str, white: &str| {
        format!("先手：{black}\n後手：{white}\n手数----指手---------消費時間--\n   1 投了\n")
    };
    let files = [
        ("stopped.usi", stopped.to_string()),
        ("copies/stopped.usi", stopped.to_string()),
        ("whole.usi", "position startpos moves 7g7f 3c3d 2g2f 8c8d\n".to_string()),
        ("forfeit1.kif", forfeit("甲", "乙")),
        ("y/forfeit1.kif", forfeit("甲", "乙")),
        ("forfeit2.kif", forfeit("丙", "丁")),
    ];
    for (name, text) in &files {
        let path = root.join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    // Each copy is in the other shard than its first record.
    let shard = |name: &str| shard_of(name, 2);
    assert_ne!(shard("stopped.usi"), shard("copies/stopped.usi"));
    assert_ne!(shard("forfeit1.kif"), shard("y/forfeit1.kif"));
    let root = fs::canonicalize(&root).unwrap();
    let r = root.to_str().unwrap();
    let whole = tmp.path().join("whole.sqlite");
    index(&[r], &whole, 1);
    let keys = game_keys(&whole);
    assert_eq!(keys.len(), 4);
    assert_eq!(keys.values().collect::<BTreeSet<_>>().len(), 4, "{keys:?}");
    let positions = tmp.path().join("positions");
    let mut shard_keys = BTreeSet::new();
    for i in 1..=2 {
        let db = tmp.path().join(format!("shard{i}.sqlite"));
        index(&[r, "--shard", &format!("{i}/2")], &db, 1);
        shard_keys.extend(game_keys(&db).into_values());
        let args = ["export", "positions", "--format", "parquet", "--out-dir", positions.to_str().unwrap()];
        ok(&kifudex(args).db(&db).output());
    }
    assert_eq!(shard_keys, keys.values().cloned().collect());
    if !duckdb_present("the DuckDB part") {
        return;
    }
    let out = tmp.path().join("tree.csv");
    let glob = format!("{}/**/*.parquet", positions.display());
    let run = Command::new("python3")
        .args(["-c", DUCKDB, &glob, "3"])
        .arg(script("tree_duckdb.sql"))
        .arg(&out)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let mut want =
        csv_rows(ok(&kifudex(["export", "tree", "--max-ply", "3"]).db(&whole).output()).as_bytes());
    for row in &mut want {
        row.remove("japanese");
        row.remove("western");
    }
    let sorted = |rows: Vec<HashMap<String, String>>| {
        let mut v: Vec<BTreeMap<String, String>> =
            rows.into_iter().map(|r| r.into_iter().collect()).collect();
        v.sort();
        v
    };
    let (got, want) = (sorted(csv_rows(&fs::read(&out).unwrap())), sorted(want));
    // The start is reached by all four games, and 7g7f played in two of them.
    let first = want.iter().find(|r| r["ply"] == "0").unwrap();
    assert_eq!(
        (first["games"].as_str(), first["usi"].as_str(), first["played"].as_str()),
        ("4", "7g7f", "2")
    );
    assert_eq!(got, want);
}
