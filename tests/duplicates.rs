//! One game in several files: each file keeps its own record of it (players, event, dates,
//! the other headers, times and comments), every filter finds the game through any of them,
//! and a database of the previous schema, which kept one record per game, is migrated and
//! then given back each file's own.
//!
//! The files of `tests/data/duplicates` were written by hand: one game (twelve moves) as a
//! KIF file naming 羽生善治, as a CSA file naming Habu Yoshiharu, and twice in one CSA file
//! under two more names; and another game, once. Every expected value below is read off
//! those files by eye.

use std::{
    collections::HashMap,
    fs,
    path::{Path, PathBuf},
    process::Output,
};

use serde_json::Value;

use crate::{query::csv_rows, util::kifudex};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/duplicates")
}

/// Copies the hand-written files to `to` (made absolute and free of links, as the database
/// records paths).
fn copy_files(to: &Path) -> PathBuf {
    for entry in walkdir::WalkDir::new(data()).into_iter().map(Result::unwrap) {
        let target = to.join(entry.path().strip_prefix(data()).unwrap());
        if entry.file_type().is_dir() {
            fs::create_dir_all(&target).unwrap();
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
    fs::canonicalize(to).unwrap()
}

fn stdout(out: &Output) -> String {
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The games export with `filters`, each row as (path under `root`, index, event, date,
/// black, white, duplicate_of).
fn occurrences(db: &Path, root: &Path, filters: &[&str]) -> Vec<[String; 7]> {
    let args: Vec<&str> = ["export", "games"].into_iter().chain(filters.iter().copied()).collect();
    csv_rows(stdout(&kifudex(&args).db(db).output()).as_bytes())
        .into_iter()
        .map(|r| {
            let path = r["source_path"].strip_prefix(&format!("{}/", root.display())).unwrap().to_string();
            let field = |k: &str| r[k].clone();
            [
                path,
                field("game_index"),
                field("event"),
                field("date"),
                field("black"),
                field("white"),
                field("duplicate_of"),
            ]
        })
        .collect()
}

fn row(fields: [&str; 7]) -> [String; 7] {
    fields.map(str::to_string)
}

/// Each file's own record of the duplicate game (game 1) and of the other game (game 2),
/// as the export shows them, in path order.
fn own_records() -> Vec<[String; 7]> {
    vec![
        row([
            "csa/habu.csa",
            "0",
            "Meijin-sen A-class league, 65th term",
            "2006-12-16T10:00:00",
            "Habu Yoshiharu",
            "Fujii Takeshi",
            "",
        ]),
        row(["csa/twice.csa", "0", "Junisen A", "2007-01-05", "Habu Y.", "Fujii T.", "1"]),
        row(["csa/twice.csa", "1", "Copy of a copy", "", "Black copyist", "White copyist", "1"]),
        row(["kif/habu.kifu", "0", "第65期順位戦A級", "2006-12-15T10:00:00", "羽生善治", "藤井猛", "1"]),
        row(["kif/other.kifu", "0", "練習将棋", "1980-04-01", "加藤一二三", "米長邦雄", ""]),
    ]
}

/// `query --format json` with `filters`: (games, the listed games as (id, black, event, date)).
fn query(db: &Path, filters: &[&str]) -> (u64, Vec<(i64, String, String, String)>) {
    let args: Vec<&str> = ["query", "--format", "json"].into_iter().chain(filters.iter().copied()).collect();
    let out = kifudex(&args).db(db).output();
    let answer: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let games = answer["position"]["games"].as_u64().unwrap();
    assert_eq!(out.status.code(), Some(if games == 0 { 1 } else { 0 }));
    let text = |v: &Value| v.as_str().unwrap_or("").to_string();
    let list = answer["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["id"].as_i64().unwrap(), text(&g["black"]), text(&g["event"]), text(&g["date"])))
        .collect();
    (games, list)
}

fn index(dir: &Path, db: &Path, extra: &[&str]) -> Value {
    let args: Vec<&str> =
        ["index", dir.to_str().unwrap(), "--json"].into_iter().chain(extra.iter().copied()).collect();
    let out = kifudex(&args).db(db).output();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn each_file_keeps_its_own_record_and_every_filter_finds_the_game_through_any_of_them() {
    let tmp = tempfile::tempdir().unwrap();
    let root = copy_files(&tmp.path().join("in"));
    let db = tmp.path().join("k.sqlite");
    let summary = index(&root, &db, &[]);
    assert_eq!((summary["games_added"].as_u64(), summary["games_duplicate"].as_u64()), (Some(2), Some(3)));
    assert_eq!(occurrences(&db, &root, &[]), own_records());

    // Every filter on what records say finds game 1 through the record that says it, and the
    // game list shows that record (the first in path order among those that match).
    let habu = (
        1,
        "Habu Yoshiharu".to_string(),
        "Meijin-sen A-class league, 65th term".to_string(),
        "2006-12-16T10:00:00".to_string(),
    );
    let kif = (1, "羽生善治".to_string(), "第65期順位戦A級".to_string(), "2006-12-15T10:00:00".to_string());
    let junisen = (1, "Habu Y.".to_string(), "Junisen A".to_string(), "2007-01-05".to_string());
    let copy = (1, "Black copyist".to_string(), "Copy of a copy".to_string(), String::new());
    for (filters, shown) in [
        (&["--player", "羽生"][..], &kif),
        (&["--player", "Habu"], &habu),
        (&["--black", "羽生善治"], &kif),
        (&["--white", "藤井猛"], &kif),
        (&["--white", "Fujii T"], &habu),
        (&["--black", "copyist"], &copy),
        (&["--event", "順位戦"], &kif),
        (&["--event", "Junisen"], &junisen),
        (&["--since", "2007"], &junisen),
        (&["--until", "2006-12-15"], &kif),
        (&["--since", "2006-12-16", "--until", "2006-12"], &habu),
        (&["--player", "Habu Y.", "--since", "2007-01-05"], &junisen),
    ] {
        // Game 2 starts 2g2f: after 7g7f only game 1 is there.
        for moves in ["7g7f", "7g7f 3c3d 2g2f"] {
            let args: Vec<&str> = ["--moves", moves].into_iter().chain(filters.iter().copied()).collect();
            assert_eq!(query(&db, &args), (1, vec![shown.clone()]), "{filters:?} after {moves}");
        }
    }
    // Without filters, the first record in path order.
    assert_eq!(query(&db, &["--moves", "7g7f"]), (1, vec![habu.clone()]));
    assert_eq!(query(&db, &[]).0, 2);
    assert_eq!(query(&db, &["--until", "2006-12-15"]).0, 2, "game 2 is from 1980");
    // All the filters on records must hold in one record: no record of game 1 names 羽生 at
    // the Meijin-sen, or Habu in 2006-12-15.
    for filters in [
        &["--player", "羽生", "--event", "Meijin"][..],
        &["--player", "Habu", "--until", "2006-12-15"],
        &["--player", "nobody"],
        // The filters on the game itself still apply.
        &["--player", "羽生", "--result", "black"],
    ] {
        assert_eq!(query(&db, filters), (0, vec![]), "{filters:?}");
    }
    assert_eq!(query(&db, &["--player", "羽生", "--result", "white"]).0, 1);

    // Exports keep every occurrence of a kept game, each with its own record.
    let game_1: Vec<_> = own_records().into_iter().take(4).collect();
    assert_eq!(occurrences(&db, &root, &["--player", "羽生"]), game_1);
    assert_eq!(occurrences(&db, &root, &["--event", "Copy"]), game_1);
    assert_eq!(occurrences(&db, &root, &["--player", "加藤"]), own_records()[4..].to_vec());
    // Times and comments come from the record shown: the KIF file's or the CSA file's.
    for (filters, seconds, comment) in [
        (&["--player", "羽生"][..], "5", "角道を開ける"),
        (&["--player", "Habu Yoshiharu"], "7", "opens the bishop's diagonal"),
    ] {
        let args: Vec<&str> = ["export", "moves"].into_iter().chain(filters.iter().copied()).collect();
        let moves = csv_rows(stdout(&kifudex(&args).db(&db).output()).as_bytes());
        assert_eq!(moves.len(), 12, "{filters:?}");
        assert_eq!((moves[0]["time_seconds"].as_str(), moves[0]["comment"].as_str()), (seconds, comment));
    }
    for table in ["positions", "tree"] {
        let rows = |filters: &[&str]| {
            let args: Vec<&str> = ["export", table].into_iter().chain(filters.iter().copied()).collect();
            csv_rows(stdout(&kifudex(&args).db(&db).output()).as_bytes()).len()
        };
        assert!(rows(&["--event", "Junisen"]) > 0, "{table}");
        assert_eq!(rows(&["--event", "Junisen"]), rows(&["--player", "羽生"]), "{table}");
        assert_eq!(rows(&["--event", "Junisen", "--player", "羽生"]), 0, "{table}");
    }
    assert_eq!(
        csv_rows(stdout(&kifudex(["export", "positions", "--player", "羽生"]).db(&db).output()).as_bytes())
            .len(),
        13
    );

    // `show` writes the record the filters choose, the first in path order without them.
    let show = |filters: &[&str], to: &str| {
        let args: Vec<&str> = ["show", "1", "--to", to].into_iter().chain(filters.iter().copied()).collect();
        stdout(&kifudex(&args).db(&db).output())
    };
    let csa = show(&[], "csa");
    assert!(csa.contains("N+Habu Yoshiharu\n") && csa.contains("$EVENT:Meijin-sen"), "{csa}");
    let kif = show(&["--player", "羽生"], "kif");
    for line in [
        "先手：羽生善治 名人",
        "後手：藤井猛 九段",
        "棋戦：第65期順位戦A級",
        "場所：東京・将棋会館",
        "持ち時間：各6時間",
        "戦型：四間飛車",
        "記録係：山田太郎",
        "開始日時：2006/12/15",
        "終了日時：2006/12/16",
        "*角道を開ける",
        "*対局前の解説",
    ] {
        assert!(kif.contains(line), "{line} missing from\n{kif}");
    }
    assert!(!kif.contains("Habu") && !kif.contains("bishop"), "{kif}");
    assert!(show(&["--event", "Copy of"], "csa").contains("N+Black copyist\n"));
    let out = kifudex(["show", "1", "--player", "nobody"]).db(&db).output();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no record of game 1"));
}

#[test]
fn a_changed_or_removed_copy_leaves_the_others_records_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let root = copy_files(&tmp.path().join("in"));
    let db = tmp.path().join("k.sqlite");
    index(&root, &db, &[]);
    fs::remove_file(root.join("kif/habu.kifu")).unwrap();
    let csa = fs::read_to_string(root.join("csa/habu.csa")).unwrap();
    fs::write(root.join("csa/habu.csa"), csa.replace("N+Habu Yoshiharu", "N+HABU Yoshiharu")).unwrap();
    let summary = index(&root, &db, &["--prune"]);
    assert_eq!((summary["files_indexed"].as_u64(), summary["files_pruned"].as_u64()), (Some(1), Some(1)));
    let mut expected = own_records();
    expected.remove(3);
    expected[0][4] = "HABU Yoshiharu".to_string();
    assert_eq!(occurrences(&db, &root, &[]), expected);
    assert_eq!(query(&db, &["--player", "羽生"]).0, 0);
    assert_eq!(query(&db, &["--player", "HABU"]).1[0].0, 1, "the game keeps its id");
}

/// Loads the schema-2 database written by an earlier kifudex from these files, with its
/// paths, sizes and times made those of the copies under `root`.
fn version_2_database(db: &Path, root: &Path) {
    let dump = include_str!("data/migration/v2-duplicates.sql");
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.execute_batch(&dump.replace("/tmp/kifudex-v2-fixture", root.to_str().unwrap())).unwrap();
    conn.pragma_update(None, "user_version", 2).unwrap();
    let paths: Vec<String> = conn
        .prepare("SELECT path FROM files")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    for path in paths {
        let meta = fs::metadata(&path).unwrap();
        let mtime = meta.modified().unwrap().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as i64;
        conn.execute(
            "UPDATE files SET size = ?2, mtime_ns = ?3 WHERE path = ?1",
            rusqlite::params![path, meta.len() as i64, mtime],
        )
        .unwrap();
    }
}

#[test]
fn a_version_2_database_migrates_and_the_next_run_gives_each_file_its_own_record() {
    let tmp = tempfile::tempdir().unwrap();
    let root = copy_files(&tmp.path().join("in"));
    let db = tmp.path().join("k.sqlite");
    version_2_database(&db, &root);
    // Version 2 kept the record of the file that brought the game first, for every copy.
    drop(kifudex::db::Writer::open(&db).unwrap());
    let mut first_record = own_records();
    let first = own_records()[0].clone();
    for record in &mut first_record[1..4] {
        record[2..6].clone_from_slice(&first[2..6]);
    }
    assert_eq!(occurrences(&db, &root, &[]), first_record);
    // The next run reads again the files that hold a game found twice, and only those: each
    // of their records is found again, and its game kept.
    let summary = index(&root, &db, &[]);
    let counts = ["files_indexed", "files_unchanged", "games_added", "games_duplicate", "games_kept"]
        .map(|k| summary[k].as_u64());
    assert_eq!(counts, [Some(3), Some(1), Some(0), Some(0), Some(4)], "{summary}");
    assert_eq!(occurrences(&db, &root, &[]), own_records());
    assert_eq!(query(&db, &["--player", "羽生"]).1[0].1, "羽生善治");
    // The same database as a new one built from the files.
    let fresh = tmp.path().join("fresh.sqlite");
    index(&root, &fresh, &[]);
    assert_eq!(
        stdout(&kifudex(["export", "games"]).db(&db).output()),
        stdout(&kifudex(["export", "games"]).db(&fresh).output())
    );
    assert_eq!(
        stdout(&kifudex(["export", "moves"]).db(&db).output()),
        stdout(&kifudex(["export", "moves"]).db(&fresh).output())
    );
    let again = index(&root, &db, &[]);
    assert_eq!(again["files_unchanged"], 4);
}

/// A filter, and the same filter on one copy computed here.
type CopyFilter = (kifudex::db::GameFilter, fn(&Copy) -> bool);

/// One file's copy of a generated game: its names, event and date (`YYYY-MM-DD`, or none).
struct Copy {
    game: usize,
    black: String,
    event: String,
    date: Option<String>,
}

#[test]
fn the_game_list_shows_the_newest_games_each_with_its_first_matching_record() {
    use kifudex::db::{GameFilter, GameId, Reader};

    use crate::util::{
        Rng,
        games::{csa, generate},
    };
    let tmp = tempfile::tempdir().unwrap();
    let (dir, db) = (tmp.path().join("games"), tmp.path().join("k.sqlite"));
    // 300 games, each in one to three files (`c0/`, `c1/`, `c2/`: path order is copy order),
    // every copy with its own names and date, some without a date.
    let specs = generate(300, 21);
    let mut rng = Rng::new(8);
    let mut copies: Vec<(PathBuf, Copy)> = Vec::new();
    for (game, spec) in specs.iter().enumerate() {
        for c in 0..=(game % 3) {
            let date = (rng.below(5) > 0).then(|| {
                format!("20{:02}-{:02}-{:02}", 10 + rng.below(15), 1 + rng.below(12), 1 + rng.below(28))
            });
            let copy = Copy {
                game,
                black: format!("Player {} copy {c}", rng.below(6)),
                event: format!("Cup {}", rng.below(3)),
                date,
            };
            let path = dir.join(format!("c{c}")).join(format!("g{game:04}.csa"));
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            let mut headers = vec![format!("N+{}", copy.black), format!("$EVENT:{}", copy.event)];
            headers.extend(copy.date.as_deref().map(|d| format!("$START_TIME:{}", d.replace('-', "/"))));
            fs::write(&path, csa(&headers, spec.start, &spec.moves, "%CHUDAN")).unwrap();
            copies.push((fs::canonicalize(&path).unwrap(), copy));
        }
    }
    copies.sort_by(|a, b| a.0.cmp(&b.0));
    crate::index::index_with(&crate::index::options(&dir, &db, 2));
    let mut reader = Reader::open(&db).unwrap();
    let snapshot = reader.snapshot().unwrap();
    let ids: HashMap<String, GameId> = csv_rows(crate::index::export_games(&db).as_bytes())
        .into_iter()
        .map(|r| (r["source_path"].clone(), GameId(r["game_id"].parse().unwrap())))
        .collect();
    let id_of =
        |game: usize| ids[&copies.iter().find(|c| c.1.game == game).unwrap().0.to_string_lossy().to_string()];

    let filters: Vec<CopyFilter> = vec![
        (GameFilter::default(), |_| true),
        (GameFilter { black: Some("copy 1".into()), ..GameFilter::default() }, |c| {
            c.black.contains("copy 1")
        }),
        (GameFilter { player: Some("Player 2".into()), ..GameFilter::default() }, |c| {
            c.black.contains("Player 2")
        }),
        (GameFilter { event: Some("Cup 0".into()), ..GameFilter::default() }, |c| c.event == "Cup 0"),
        (
            GameFilter { since: Some("2020".into()), event: Some("Cup 1".into()), ..GameFilter::default() },
            |c| c.event == "Cup 1" && c.date.as_deref().is_some_and(|d| d >= "2020"),
        ),
    ];
    for (filter, matches) in &filters {
        // The shown record of each game the filter keeps: its first matching copy.
        let mut shown: Vec<(Option<String>, GameId, String)> = Vec::new();
        for game in 0..specs.len() {
            if let Some((_, c)) = copies.iter().find(|(_, c)| c.game == game && matches(c)) {
                shown.push((c.date.clone(), id_of(game), c.black.clone()));
            }
        }
        let kept = snapshot.filter_games(filter).unwrap();
        if let Some(kept) = &kept {
            let mut kept: Vec<GameId> = kept.iter().copied().collect();
            kept.sort();
            let mut want: Vec<GameId> = shown.iter().map(|s| s.1).collect();
            want.sort();
            assert_eq!(kept, want, "{filter:?}");
        }
        shown.sort_by(|a, b| (&b.0, b.1).cmp(&(&a.0, a.1)));
        // All the kept games (walked by date for small limits), and a few of them (looked up).
        let mut all: Vec<GameId> = shown.iter().map(|s| s.1).collect();
        all.sort();
        let few: Vec<GameId> = all.iter().step_by(40).copied().collect();
        // Pages too: the first `offset` left out of the same order.
        for ids in [&all, &few] {
            for (offset, limit) in [(0, 1), (0, 3), (0, 20), (0, 1000), (2, 3), (19, 20), (5, 1000)] {
                let got: Vec<(Option<String>, GameId, String)> = snapshot
                    .newest_games(ids, filter, offset, limit)
                    .unwrap()
                    .into_iter()
                    .map(|r| (r.date, r.id, r.black.unwrap_or_default()))
                    .collect();
                let want: Vec<_> =
                    shown.iter().filter(|s| ids.contains(&s.1)).skip(offset).take(limit).cloned().collect();
                assert_eq!(got, want, "{filter:?}, {} ids, offset {offset}, limit {limit}", ids.len());
            }
        }
    }
}

#[test]
fn a_duplicate_whose_record_ends_otherwise_is_a_warning_that_says_what_the_game_keeps() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = new_dir(tmp.path(), "games");
    let record = ending_record;
    // a.kifu and c.kifu end alike (Black, to move at move 3, resigns: White wins), and
    // b.kifu says the game was interrupted.
    fs::write(dir.join("a.kifu"), record("A", "投了")).unwrap();
    fs::write(dir.join("b.kifu"), record("C", "中断")).unwrap();
    fs::write(dir.join("c.kifu"), record("E", "投了")).unwrap();
    let db = tmp.path().join("k.sqlite");
    let summary = index(&dir, &db, &[]);
    assert_eq!((summary["games_added"].as_u64(), summary["games_duplicate"].as_u64()), (Some(1), Some(2)));
    assert_eq!(summary["warnings"].as_u64(), Some(1));
    let out = kifudex(["export", "warnings"]).db(&db).output();
    let warnings = csv_rows(&out.stdout);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let w = &warnings[0];
    assert_eq!(
        (w["path"].as_str(), w["game_index"].as_str(), w["line"].as_str(), w["code"].as_str()),
        (dir.join("b.kifu").to_str().unwrap(), "0", "1", "duplicate_ending_differs")
    );
    assert_eq!(
        w["message"],
        "the same moves as game 1, which its first record ends as white (resign): the game keeps that result, \
         and this record says unknown (interrupted)"
    );
}

/// `show` writes the record it shows as that record ends, not as the game's first record
/// does: a copy that says the game was interrupted, or lost on time, says so in every format.
#[test]
fn show_writes_the_ending_of_the_record_it_shows() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = new_dir(tmp.path(), "games");
    // Black, to move at move 3: resigns (a.kifu), the game is interrupted (b.kifu), Black's
    // time runs out (c.kifu).
    fs::write(dir.join("a.kifu"), ending_record("A", "投了")).unwrap();
    fs::write(dir.join("b.kifu"), ending_record("C", "中断")).unwrap();
    fs::write(dir.join("c.kifu"), ending_record("E", "切れ負け")).unwrap();
    let db = tmp.path().join("k.sqlite");
    let summary = index(&dir, &db, &[]);
    assert_eq!((summary["games_added"].as_u64(), summary["games_duplicate"].as_u64()), (Some(1), Some(2)));
    let shown = |to: &str, filters: &[&str]| {
        let args: Vec<&str> = ["show", "1", "--to", to].into_iter().chain(filters.iter().copied()).collect();
        let out = kifudex(args).db(&db).output();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        stdout(&out)
    };
    let csa_ending = |filters: &[&str]| {
        let text = shown("csa", filters);
        text.lines().filter(|l| l.starts_with('%')).map(str::to_string).collect::<Vec<_>>()
    };
    assert_eq!(csa_ending(&[]), ["%TORYO"]);
    assert_eq!(csa_ending(&["--black", "C"]), ["%CHUDAN"]);
    assert_eq!(csa_ending(&["--black", "E"]), ["%TIME_UP"]);
    let kif = shown("kif", &["--black", "C"]);
    assert!(kif.contains("中断") && !kif.contains("投了") && !kif.contains("勝ち"), "{kif}");
    let kif = shown("kif", &["--black", "E"]);
    assert!(kif.contains("切れ負け") && !kif.contains("投了"), "{kif}");
    let jkf: serde_json::Value = serde_json::from_str(&shown("jkf", &["--black", "C"])).unwrap();
    let last = jkf["moves"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["special"], "CHUDAN", "{jkf}");
}

/// A game's record of three moves naming `black`, whose third move is `ending` (a KIF
/// ending: 投了 means Black, to move, resigns; 中断, interrupted, has no winner).
fn ending_record(black: &str, ending: &str) -> String {
    format!(
        "先手：{black}\n後手：B\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 {ending}\n"
    )
}

/// What the answers of a database are, ids left out: the tree of positions with its counts
/// (hot positions counted with the game's result), the games with their result and
/// termination, and the warnings (the game id in a message, which a database built in
/// another order numbers otherwise, written `#`).
fn answers(db: &Path, root: &Path) -> (String, Vec<[String; 5]>, Vec<[String; 4]>) {
    let name = |path: &str| path.strip_prefix(&format!("{}/", root.display())).unwrap().to_string();
    let tree = stdout(&kifudex(["export", "tree", "--max-ply", "3"]).db(db).output());
    let games = csv_rows(stdout(&kifudex(["export", "games"]).db(db).output()).as_bytes())
        .into_iter()
        .map(|r| {
            let [path, index, black, result, termination] =
                ["source_path", "game_index", "black", "result", "termination"].map(|k| r[k].clone());
            [name(&path), index, black, result, termination]
        })
        .collect();
    let warnings = csv_rows(stdout(&kifudex(["export", "warnings"]).db(db).output()).as_bytes())
        .into_iter()
        .map(|r| {
            let message = hide_game_number(&r["message"]);
            [name(&r["path"]), r["game_index"].clone(), r["code"].clone(), message]
        })
        .collect();
    (tree, games, warnings)
}

/// `message` with its `game N` written `game #`.
fn hide_game_number(message: &str) -> String {
    match message.split_once("game ") {
        Some((before, after)) => {
            let rest = after.trim_start_matches(|c: char| c.is_ascii_digit());
            format!("{before}game #{rest}")
        }
        None => message.to_string(),
    }
}

/// The result and termination of the one game of the database, and its id.
fn the_game(db: &Path) -> (String, String, String) {
    let rows = csv_rows(stdout(&kifudex(["export", "games"]).db(db).output()).as_bytes());
    let r = &rows[0];
    assert!(rows.iter().all(|o| o["game_id"] == r["game_id"]), "one game: {rows:?}");
    (r["result"].clone(), r["termination"].clone(), r["game_id"].clone())
}

/// A new folder `name` in `parent`, made absolute and free of links, as the database records
/// paths.
fn new_dir(parent: &Path, name: &str) -> PathBuf {
    let dir = parent.join(name);
    fs::create_dir(&dir).unwrap();
    fs::canonicalize(&dir).unwrap()
}

/// Indexes `files` (name, text) alone into a new database under `tmp`, as the database an
/// archive of those files would have had from the start. Returns the database and the folder.
fn fresh(tmp: &Path, name: &str, files: &[(&str, &str)], extra: &[&str]) -> (PathBuf, PathBuf) {
    let dir = new_dir(tmp, name);
    for (file, text) in files {
        fs::write(dir.join(file), text).unwrap();
    }
    let db = tmp.join(format!("{name}.sqlite"));
    index(&dir, &db, extra);
    (db, dir)
}

#[test]
fn a_game_ends_as_its_first_record_in_path_order_whatever_the_order_of_runs_and_removals() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = new_dir(tmp.path(), "games");
    let (resigns, interrupted) = (ending_record("A", "投了"), ending_record("C", "中断"));
    // Every position hot from the first game, so that its counts are kept per position.
    let hot = ["--hot-games", "1"];
    let db = tmp.path().join("k.sqlite");

    // b.kifu alone: the game is interrupted.
    fs::write(dir.join("b.kifu"), &interrupted).unwrap();
    index(&dir, &db, &hot);
    let (result, termination, first_id) = the_game(&db);
    assert_eq!((result.as_str(), termination.as_str()), ("unknown", "interrupted"));

    // a.kifu comes before it in path order and says Black resigned: the game is White's win,
    // under a new id, and b.kifu's record has the warning.
    fs::write(dir.join("a.kifu"), &resigns).unwrap();
    let summary = index(&dir, &db, &hot);
    assert_eq!((summary["games_added"].as_u64(), summary["games_duplicate"].as_u64()), (Some(0), Some(1)));
    assert_eq!(summary["warnings"].as_u64(), Some(1));
    let (result, termination, id) = the_game(&db);
    assert_eq!((result.as_str(), termination.as_str()), ("white", "resign"));
    assert_ne!(id, first_id, "the game is stored again");
    let (both, both_dir) = fresh(tmp.path(), "both", &[("a.kifu", &resigns), ("b.kifu", &interrupted)], &hot);
    assert_eq!(the_game(&both).0, "white");
    let (tree, games, warnings) = answers(&db, &dir);
    assert_eq!(
        (&tree, &games, &warnings),
        (&answers(&both, &both_dir).0, &answers(&both, &both_dir).1, &answers(&both, &both_dir).2)
    );
    // The start position (ply 0): one game, won by White.
    let start = |tree: &str| tree.lines().find(|l| l.split(',').nth(2) == Some("0")).unwrap().to_string();
    assert!(start(&tree).ends_with(",0,1,7g7f,▲７六歩,P-7f,1,1,0,1,0"), "{tree}");
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0][0], "b.kifu");

    // a.kifu goes: the game takes b.kifu's ending again, and no warning is left.
    fs::remove_file(dir.join("a.kifu")).unwrap();
    let summary = index(&dir, &db, &[&hot[..], &["--prune"]].concat());
    assert_eq!(summary["files_pruned"].as_u64(), Some(1), "{summary}");
    let (result, termination, _) = the_game(&db);
    assert_eq!((result.as_str(), termination.as_str()), ("unknown", "interrupted"));
    let (only_b, only_b_dir) = fresh(tmp.path(), "only-b", &[("b.kifu", &interrupted)], &hot);
    let (tree, _, warnings) = answers(&db, &dir);
    assert_eq!(tree, answers(&only_b, &only_b_dir).0);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(start(&tree).ends_with(",0,1,7g7f,▲７六歩,P-7f,1,1,0,0,0"), "{tree}");
}

#[test]
fn when_the_first_record_goes_the_next_one_in_path_order_gives_the_ending_and_the_others_are_warned() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = new_dir(tmp.path(), "games");
    let (resigns, interrupted, resigns_too) =
        (ending_record("A", "投了"), ending_record("C", "中断"), ending_record("E", "投了"));
    fs::write(dir.join("a.kifu"), &resigns).unwrap();
    fs::write(dir.join("b.kifu"), &interrupted).unwrap();
    fs::write(dir.join("c.kifu"), &resigns_too).unwrap();
    let db = tmp.path().join("k.sqlite");
    index(&dir, &db, &[]);
    assert_eq!(the_game(&db).0, "white");

    // a.kifu changes to another game (one more move before the resignation): its record of
    // the game goes, b.kifu's is first, and the game is interrupted; c.kifu's record, which
    // says White won, has the warning now.
    let longer = "先手：A\n後手：B\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 投了\n";
    fs::write(dir.join("a.kifu"), longer).unwrap();
    let summary = index(&dir, &db, &[]);
    assert_eq!(
        (summary["games_added"].as_u64(), summary["warnings"].as_u64()),
        (Some(1), Some(0)),
        "{summary}"
    );
    let rows = csv_rows(stdout(&kifudex(["export", "games"]).db(&db).output()).as_bytes());
    let ending = |name: &str| {
        let r = rows.iter().find(|r| r["source_path"].ends_with(name)).unwrap();
        (r["result"].as_str(), r["termination"].as_str(), r["game_id"].clone())
    };
    assert_eq!(ending("a.kifu").0, "black", "Black played the last move, White resigned");
    assert_eq!(ending("b.kifu").0, "unknown");
    assert_eq!(ending("c.kifu").0, "unknown", "the game's, from b.kifu");
    let id = ending("b.kifu").2;
    let warnings = csv_rows(stdout(&kifudex(["export", "warnings"]).db(&db).output()).as_bytes());
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0]["path"], dir.join("c.kifu").to_str().unwrap());
    assert_eq!(
        warnings[0]["message"],
        format!(
            "the same moves as game {id}, which its first record ends as unknown (interrupted): the game keeps \
             that result, and this record says white (resign)"
        )
    );
    let files = [("a.kifu", longer), ("b.kifu", &interrupted), ("c.kifu", &resigns_too)];
    let (fresh, fresh_dir) = fresh(tmp.path(), "fresh", &files, &[]);
    assert_eq!(answers(&db, &dir), answers(&fresh, &fresh_dir));
}

#[test]
fn a_database_that_kept_no_ending_per_record_reads_its_shared_files_again_and_then_follows_the_first() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = new_dir(tmp.path(), "games");
    fs::write(dir.join("a.kifu"), ending_record("A", "投了")).unwrap();
    fs::write(dir.join("b.kifu"), ending_record("C", "中断")).unwrap();
    fs::write(dir.join("other.kifu"), ending_record("E", "投了").replace("３四歩(33)", "８四歩(83)"))
        .unwrap();
    let db = tmp.path().join("k.sqlite");
    index(&dir, &db, &[]);
    // The schema before (version 13), which kept no record's own ending: b.kifu's record
    // says nothing of its own.
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch(
            "ALTER TABLE sources DROP COLUMN own_result; ALTER TABLE sources DROP COLUMN own_termination;",
        )
        .unwrap();
        wind_back(&conn, 13);
    }
    // a.kifu goes. The run reads b.kifu again (it holds a game found twice), and other.kifu
    // not; the game then takes b.kifu's ending.
    fs::remove_file(dir.join("a.kifu")).unwrap();
    let summary = index(&dir, &db, &["--prune"]);
    let counts = ["files_indexed", "files_unchanged", "files_pruned"].map(|k| summary[k].as_u64());
    assert_eq!(counts, [Some(1), Some(1), Some(1)], "{summary}");
    let rows = csv_rows(stdout(&kifudex(["export", "games"]).db(&db).output()).as_bytes());
    let ending = |name: &str| {
        let r = rows.iter().find(|r| r["source_path"].ends_with(name)).unwrap();
        (r["result"].clone(), r["termination"].clone())
    };
    assert_eq!(ending("b.kifu"), ("unknown".to_string(), "interrupted".to_string()));
    assert_eq!(ending("other.kifu"), ("white".to_string(), "resign".to_string()));
}

#[test]
fn a_record_that_says_no_ending_neither_gives_the_game_its_ending_nor_is_warned() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = new_dir(tmp.path(), "games");
    // a.usi, first in path order, is a bare move list: it says nothing of how the game ended.
    fs::write(dir.join("a.usi"), "position startpos moves 7g7f 3c3d\n").unwrap();
    fs::write(dir.join("b.kifu"), ending_record("A", "中断")).unwrap();
    fs::write(dir.join("c.kifu"), ending_record("A", "投了")).unwrap();
    let db = tmp.path().join("k.sqlite");
    let summary = index(&dir, &db, &[]);
    assert_eq!((summary["games_duplicate"].as_u64(), summary["warnings"].as_u64()), (Some(2), Some(1)));
    let ending = |db: &Path| {
        let (result, termination, _) = the_game(db);
        format!("{result} {termination}")
    };
    assert_eq!(ending(&db), "unknown interrupted", "b.kifu's");
    // b.kifu goes: c.kifu is the first that says an ending.
    fs::remove_file(dir.join("b.kifu")).unwrap();
    index(&dir, &db, &["--prune"]);
    assert_eq!(ending(&db), "white resign");
    assert_eq!(csv_rows(stdout(&kifudex(["export", "warnings"]).db(&db).output()).as_bytes()).len(), 0);
    // c.kifu goes too: no record says how the game ended.
    fs::remove_file(dir.join("c.kifu")).unwrap();
    index(&dir, &db, &["--prune"]);
    assert_eq!(ending(&db), "unknown ");
    // And back: the run that brings c.kifu again gives the game its ending, with no warning.
    fs::write(dir.join("c.kifu"), ending_record("A", "投了")).unwrap();
    let summary = index(&dir, &db, &[]);
    assert_eq!(summary["warnings"].as_u64(), Some(0));
    assert_eq!(ending(&db), "white resign");
}

/// A game from a position with White to move, numbered from its first move by one record
/// and from its second by another (the SFEN's last field), and written a third time as CSA,
/// which has no move number: by hand, the same start and the same three moves.
#[test]
fn a_start_s_move_number_does_not_make_another_game() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("kifu");
    fs::create_dir_all(&dir).unwrap();
    let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -";
    fs::write(dir.join("a.usi"), format!("position sfen {sfen} 2 moves 3c3d 2g2f 8c8d\n")).unwrap();
    fs::write(dir.join("b.usi"), format!("position sfen {sfen} 1 moves 3c3d 2g2f 8c8d\n")).unwrap();
    let csa = "V2.2\nPI\n+7776FU\n-\n-3334FU\n+2726FU\n-8384FU\n";
    // PI then a move on the board would not be the start: the position after 7g7f, by lines.
    let csa = csa.replace(
        "PI\n+7776FU\n",
        "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\n\
         P4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  * +FU *  *  *  *  *  * \n\
         P7+FU+FU * +FU+FU+FU+FU+FU+FU\nP8 * +KA *  *  *  *  * +HI * \nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n",
    );
    fs::write(dir.join("c.csa"), csa).unwrap();
    let db = tmp.path().join("k.sqlite");
    let out = kifudex(["index", dir.to_str().unwrap(), "--json", "--quiet"]).db(&db).output();
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (summary["games_added"].as_u64(), summary["games_duplicate"].as_u64()),
        (Some(1), Some(2)),
        "{summary}"
    );

    // A database of the schema before (14) has its files with such a start read again.
    let conn = rusqlite::Connection::open(&db).unwrap();
    wind_back(&conn, 14);
    drop(conn);
    let out = kifudex(["index", dir.to_str().unwrap(), "--json", "--quiet"]).db(&db).output();
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (summary["files_indexed"].as_u64(), summary["files_unchanged"].as_u64()),
        (Some(3), Some(0)),
        "{summary}"
    );
    let conn = rusqlite::Connection::open(&db).unwrap();
    let games: i64 = conn.query_row("SELECT count(*) FROM games", [], |r| r.get(0)).unwrap();
    let records: i64 = conn.query_row("SELECT count(*) FROM sources", [], |r| r.get(0)).unwrap();
    assert_eq!((games, records), (1, 3));
}

/// A database of the schema before (15) has the files read again whose games the readings
/// of this one change: a KIF file of two games put one after the other (of which the second
/// was read as unknown lines), and a record naming a player with a lifetime title (stored as
/// the name 羽生善治永世). The others stay unchanged.
#[test]
fn a_database_of_schema_15_reads_again_the_files_whose_reading_changed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("kifu");
    fs::create_dir_all(&dir).unwrap();
    let game = |black: &str, moves: &str| format!("先手：{black}\n後手：乙\n手数----指手--\n{moves}");
    let two =
        [game("甲", "   1 ７六歩(77)\n   2 投了\n"), game("丙", "   1 ２六歩(27)\n   2 投了\n")].concat();
    fs::write(dir.join("two.kif"), two).unwrap();
    fs::write(dir.join("titled.kif"), game("羽生善治永世七冠", "   1 ５六歩(57)\n   2 投了\n")).unwrap();
    fs::write(dir.join("plain.kif"), game("丁", "   1 １六歩(17)\n   2 投了\n")).unwrap();
    let db = tmp.path().join("k.sqlite");
    let index = || index_summary(&dir, &db);
    let summary = index();
    assert_eq!(summary["games_added"].as_u64(), Some(4), "{summary}");
    let players = || stdout(&kifudex(["players", "--format", "csv"]).db(&db).output());
    assert!(players().contains("\n羽生善治,1,"), "{}", players());

    // What the schema before stored: the second game's lines as unknown lines, and the name
    // with half of its title.
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(
        "DELETE FROM sources WHERE idx = 1;
         UPDATE files SET games = 1 WHERE path LIKE '%two.kif';
         INSERT INTO warnings(path, file, game_index, line, code, message)
             SELECT path, id, 0, 6, 'unknown_line', 'x' FROM files WHERE path LIKE '%two.kif';
         UPDATE players SET name = '羽生善治永世' WHERE name = '羽生善治';",
    )
    .unwrap();
    wind_back(&conn, 15);
    drop(conn);
    let summary = index();
    assert_eq!(
        (summary["files_indexed"].as_u64(), summary["files_unchanged"].as_u64()),
        (Some(2), Some(1)),
        "{summary}"
    );
    let conn = rusqlite::Connection::open(&db).unwrap();
    let records: i64 = conn.query_row("SELECT count(*) FROM sources", [], |r| r.get(0)).unwrap();
    assert_eq!(records, 4);
    assert!(players().contains("\n羽生善治,1,"), "{}", players());
    assert!(!players().contains("永世,"), "{}", players());
}

/// Migration 0017: the Western reader changed (an open `{` or `(`, comments before the first
/// tag), so every Western file is read again by the next run, and the others are not.
#[test]
fn migration_0017_reads_western_files_again() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("kifu");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("a.psn"), "; exported\n[Event \"Real\"]\n1. P-7f P-3d 1-0\n").unwrap();
    fs::write(dir.join("b.kif"), "先手：甲\n後手：乙\n手数----指手--\n   1 ７六歩(77)\n   2 投了\n").unwrap();
    let db = tmp.path().join("k.sqlite");
    let index = || index_summary(&dir, &db);
    assert_eq!(index()["games_added"].as_u64(), Some(2));
    let conn = rusqlite::Connection::open(&db).unwrap();
    wind_back(&conn, 16);
    drop(conn);
    let summary = index();
    assert_eq!(
        (summary["files_indexed"].as_u64(), summary["files_unchanged"].as_u64()),
        (Some(1), Some(1)),
        "{summary}"
    );
    let conn = rusqlite::Connection::open(&db).unwrap();
    let western: i64 = conn
        .query_row(
            "SELECT count(*) FROM sources s JOIN files f ON f.id = s.file WHERE f.format = 'western'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(western, 1);
}

/// Migration 0025: the readers now keep the time and comments a record gives its ending,
/// which a database of schema 24 stored as the last move's comments, and the time not at
/// all: the files whose records hold times or comments are read again, and the others not.
#[test]
fn migration_0025_reads_again_the_files_with_times_or_comments() {
    let timed = "手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:05/00:00:05)\n   2 投了         ( 0:30/00:00:30)\n";
    let files = [("a.kifu", timed), ("b.kifu", "手数----指手--\n   1 ２六歩(27)\n   2 投了\n")];
    let (_tmp, _, summary) = indexed_again(&files, "", 24);
    let counts = (summary["files_indexed"].as_u64(), summary["files_unchanged"].as_u64());
    assert_eq!(counts, (Some(1), Some(1)), "{summary}");
}

/// Migration 0026: a record's foul written as a move (a second pawn on a file, then `反則勝ち`)
/// is now stored, with its time and comments and the ending's, which a database of schema 25
/// did not keep: the files of games that end by a foul are read again, and the others not,
/// and `show` then writes the foul back.
#[test]
fn migration_0026_reads_again_the_files_of_games_that_end_by_a_foul() {
    let foul = "V2.2\nPI\n+\n+7776FU\n-3334FU\n+7675FU\n-3435FU\n+7574FU\n-3536FU\n+7473TO\n-3637TO\n\
                +0025FU\n%ILLEGAL_MOVE\n";
    let files = [("a.csa", foul), ("b.csa", "V2.2\nPI\n+\n+2726FU\n%TORYO\n")];
    let (_tmp, db, summary) = indexed_again(&files, "UPDATE sources SET foul = NULL", 25);
    let counts = (summary["files_indexed"].as_u64(), summary["files_unchanged"].as_u64());
    assert_eq!(counts, (Some(1), Some(1)), "{summary}");
    let shown = stdout(&kifudex(["show", "1", "--to", "csa"]).db(&db).output());
    assert!(shown.ends_with("-3637TO\n'illegal move: +0025FU\n%ILLEGAL_MOVE\n"), "{shown}");
}

/// Migration 0027: a `#` in a CSA, JKF or Western header's value is now part of it, where a
/// database of schema 26 cut the value there: the files of those formats whose records hold
/// a `#` in a header are read again, and the others not (a KIF file's `#` starts a remark).
#[test]
fn migration_0027_reads_again_the_files_with_a_hash_in_a_header() {
    let files = [
        ("a.csa", "V2.2\nN+user#1234\nPI\n+\n+7776FU\n%TORYO\n"),
        ("b.csa", "V2.2\nN+user\nPI\n+\n+2726FU\n%TORYO\n"),
        ("c.kifu", "先手：甲#remark\n手数----指手--\n   1 ５六歩(57)\n"),
    ];
    let (_tmp, db, summary) = indexed_again(&files, "", 26);
    let counts = (summary["files_indexed"].as_u64(), summary["files_unchanged"].as_u64());
    assert_eq!(counts, (Some(1), Some(2)), "{summary}");
    let games = stdout(&kifudex(["games", "--player", "user#1234", "--format", "csv"]).db(&db).output());
    assert_eq!(csv_rows(games.as_bytes()).len(), 1, "{games}");
}

/// Migration 0029: a file that is text in no one encoding is now read a line at a time, where
/// a database of schema 28 holds it as a `decode` reject with no game: such files are read
/// again, and the others not.
#[test]
fn migration_0029_reads_again_the_files_that_were_not_decoded() {
    let files =
        [("a.kif", "手数----指手--\n   1 ７六歩(77)\n"), ("b.kif", "手数----指手--\n   1 ２六歩(27)\n")];
    let rejected = "UPDATE files SET error = 'decode', games = 0, format = NULL, encoding = NULL \
                    WHERE path LIKE '%b.kif'";
    let (_tmp, _, summary) = indexed_again(&files, rejected, 28);
    let counts = (summary["files_indexed"].as_u64(), summary["files_unchanged"].as_u64());
    assert_eq!(counts, (Some(1), Some(1)), "{summary}");
}

/// Migration 0031: the KIF and JKF readers now warn of running totals that are not the sums
/// of the moves' times, which a database of schema 30 did not: its KIF and JKF files are
/// listed as files to read again (not read again unasked), and the others not; a `--reread`
/// then stores the warning.
#[test]
fn migration_0031_lists_the_kif_and_jkf_files_to_read_again() {
    // 0:05 then 0:07 for Black: the second total says 0:20 where they sum to 0:12.
    let kif = "手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:05/00:00:05)\n\
               \x20  2 ３四歩(33)   ( 0:01/00:00:01)\n   3 ２六歩(27)   ( 0:07/00:00:20)\n";
    let jkf = r#"{"header": {}, "moves": [{}, {"move": {"color": 0, "from": {"x": 2, "y": 7}, "to": {"x": 2, "y": 6}, "piece": "FU"}}]}"#;
    let files = [("a.kif", kif), ("b.jkf", jkf), ("c.csa", "V2.2\nPI\n+\n+5756FU\n%TORYO\n")];
    let (_tmp, db, summary) = indexed_again(&files, "DELETE FROM warnings", 30);
    let counts = ["files_indexed", "files_unchanged", "files_to_read_again"].map(|k| summary[k].as_u64());
    assert_eq!(counts, [Some(0), Some(3), Some(2)], "{summary}");
    let dir = db.parent().unwrap().join("kifu");
    let out = kifudex(["index", dir.to_str().unwrap(), "--reread", "--json"]).db(&db).output();
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["files_to_read_again"].as_u64(), Some(0), "{summary}");
    let conn = rusqlite::Connection::open(&db).unwrap();
    let warned: Vec<String> = conn
        .prepare("SELECT code FROM warnings")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    assert_eq!(warned, ["time_totals"]);
}

/// Migration 0032: a foul written as a move in a KI2 record, which a database of schema 31
/// stored with the record's side mark, loses it, as reading now leaves it out; the files are
/// not read again.
#[test]
fn migration_0032_takes_the_side_mark_off_stored_fouls() {
    // Black's rook on 2h cannot reach 2d past its own pawn: a foul, and White won.
    let files = [("a.ki2", "手合割：平手\n▲７六歩 △３四歩 ▲２四飛\nまで3手で後手の反則勝ち\n")];
    let marked = "UPDATE sources SET foul = '▲' || foul";
    let (_tmp, db, summary) = indexed_again(&files, marked, 31);
    assert_eq!(summary["files_unchanged"].as_u64(), Some(1), "{summary}");
    let games = stdout(&kifudex(["export", "games"]).db(&db).output());
    let rows = csv_rows(games.as_bytes());
    assert_eq!(rows.iter().map(|r| r["foul"].as_str()).collect::<Vec<_>>(), ["２四飛"]);
}

/// Migration 0033: a title written in full-width letters or an old form of its kanji is now a
/// title, where a database of schema 32 stored it as part of the name (one player as two): the
/// files of records naming a player whose stored name ends so are read again, and the others
/// not, and the player is then one.
#[test]
fn migration_0033_reads_again_the_files_of_names_with_titles_of_another_width() {
    let files = [
        ("a.csa", "V2.2\nN+大山康晴 王將\nN-升田幸三\nPI\n+\n+7776FU\n%TORYO\n"),
        ("b.csa", "V2.2\nN+大山康晴\nN-升田幸三\nPI\n+\n+2726FU\n%TORYO\n"),
    ];
    // As the schema before stored it: the title part of the name.
    let old = "INSERT INTO players(name, key) VALUES ('大山康晴 王將', '大山康晴王将');
               UPDATE sources SET black = (SELECT id FROM players WHERE name = '大山康晴 王將')
               WHERE file = (SELECT id FROM files WHERE path LIKE '%a.csa')";
    let (_tmp, db, summary) = indexed_again(&files, old, 32);
    let counts = (summary["files_indexed"].as_u64(), summary["files_unchanged"].as_u64());
    assert_eq!(counts, (Some(1), Some(1)), "{summary}");
    let players = stdout(&kifudex(["players", "--format", "csv"]).db(&db).output());
    let rows = csv_rows(players.as_bytes());
    let oyama: Vec<_> = rows.iter().filter(|r| r["name"].starts_with("大山")).collect();
    assert_eq!(oyama.len(), 1, "{players}");
    assert_eq!(oyama[0]["games"], "2", "{players}");
}

/// Migration 0034: a file in ISO-2022-JP, which a database of schema 33 held as UTF-8 with
/// its escapes kept, is read again, and then as what it is; the others are not. The bytes are
/// Python's `'将棋'.encode('iso2022_jp')`.
#[test]
fn migration_0034_reads_again_the_files_read_in_another_encoding() {
    let files = [
        ("a.csa", "V2.2\nN+\x1b$B>-4}\x1b(B\nPI\n+\n+7776FU\n%TORYO\n"),
        ("b.csa", "V2.2\nN+Habu\nPI\n+\n+2726FU\n%TORYO\n"),
    ];
    // As the schema before stored it: read as UTF-8, the escapes kept in the name's header.
    let read_as_utf8 = "UPDATE files SET encoding = 'utf-8' WHERE path LIKE '%a.csa';
                        UPDATE sources SET headers = replace(headers, '将棋',
                                                             char(27) || '$B>-4}' || char(27) || '(B')";
    let (_tmp, db, summary) = indexed_again(&files, read_as_utf8, 33);
    let counts = (summary["files_indexed"].as_u64(), summary["files_unchanged"].as_u64());
    assert_eq!(counts, (Some(1), Some(1)), "{summary}");
    let games = stdout(&kifudex(["games", "--player", "将棋", "--format", "csv"]).db(&db).output());
    assert_eq!(csv_rows(games.as_bytes()).len(), 1, "{games}");
}

/// A file rejected as `decode` by the schema before (34), as a UTF-16 file with one bad unit
/// was, is read again; the others are not.
#[test]
fn migration_0035_reads_again_the_files_rejected_as_undecodable() {
    let files =
        [("a.csa", "V2.2\nN+a\nPI\n+\n+7776FU\n%TORYO\n"), ("b.csa", "V2.2\nN+b\nPI\n+\n+2726FU\n%TORYO\n")];
    let rejected = "UPDATE files SET error = 'decode' WHERE path LIKE '%a.csa'";
    let (_tmp, _db, summary) = indexed_again(&files, rejected, 34);
    let counts = (summary["files_indexed"].as_u64(), summary["files_unchanged"].as_u64());
    assert_eq!(counts, (Some(1), Some(1)), "{summary}");
}

/// A file holding a game longer than the index's last ply, which the schema before (35)
/// indexed with no warning, is read again; the others are not. (The game's length is set by
/// hand: the migration looks at nothing else.)
#[test]
fn migration_0036_reads_again_the_files_of_games_past_the_index_s_last_ply() {
    let files =
        [("a.csa", "V2.2\nN+a\nPI\n+\n+7776FU\n%TORYO\n"), ("b.csa", "V2.2\nN+b\nPI\n+\n+2726FU\n%TORYO\n")];
    let long = "UPDATE games SET plies = 65536 WHERE id IN
                (SELECT game FROM sources JOIN files ON files.id = file WHERE path LIKE '%a.csa')";
    let (_tmp, _db, summary) = indexed_again(&files, long, 35);
    let counts = (summary["files_indexed"].as_u64(), summary["files_unchanged"].as_u64());
    assert_eq!(counts, (Some(1), Some(1)), "{summary}");
}

/// Migration 0037: the keys of names are made again with the old forms of the 人名用漢字 (a
/// schema 36 kept `劍持` apart from `剣持`), and the files of records naming a player with such
/// a character or with a numbered title are read again, and the others not.
#[test]
fn migration_0037_makes_the_keys_again_and_reads_again_the_files_of_such_names() {
    let files = [
        ("a.csa", "V2.2\nN+劍持松二\nN-b\nPI\n+\n+7776FU\n%TORYO\n"),
        ("b.csa", "V2.2\nN+c\nN-升田幸三\nPI\n+\n+2726FU\n%TORYO\n"),
        ("c.csa", "V2.2\nN+d\nN-e\nPI\n+\n+5756FU\n%TORYO\n"),
    ];
    // As the schema before stored them: the name with its old form in the key, and the title
    // part of the name.
    let old = "UPDATE players SET key = name WHERE name = '劍持松二';
               UPDATE players SET name = '升田幸三 実力制第四代名人', key = '升田幸三実力制第四代名人'
               WHERE name = '升田幸三'";
    let (_tmp, db, summary) = indexed_again(&files, old, 36);
    let counts = (summary["files_indexed"].as_u64(), summary["files_unchanged"].as_u64());
    assert_eq!(counts, (Some(2), Some(1)), "{summary}");
    let conn = rusqlite::Connection::open(&db).unwrap();
    let key: String =
        conn.query_row("SELECT key FROM players WHERE name = '劍持松二'", [], |r| r.get(0)).unwrap();
    assert_eq!(key, "剣持松二");
    let games = stdout(&kifudex(["games", "--black", "剣持", "--format", "csv"]).db(&db).output());
    assert_eq!(csv_rows(games.as_bytes()).len(), 1, "{games}");
}

/// Migration 0038: the keys of names are made again with the marks Shift_JIS decoders read
/// two ways as one and `ß` as `ss` (a schema 37 kept `Weiß` apart from `Weiss`), and the files
/// of records naming a player with such a mark are read again, and the others not.
#[test]
fn migration_0038_makes_the_keys_again_and_reads_again_the_files_of_such_names() {
    let files = [
        ("a.csa", "V2.2\nN+Weiß\nN-b\nPI\n+\n+7776FU\n%TORYO\n"),
        ("b.csa", "V2.2\nN+c\nN-カロリーナ・ステチェンスカ\nPI\n+\n+2726FU\n%TORYO\n"),
        ("c.csa", "V2.2\nN+d\nN-e\nPI\n+\n+5756FU\n%TORYO\n"),
    ];
    // As the schema before made them: `ß` and `・` kept in the key.
    let old = "UPDATE players SET key = 'weiß' WHERE name = 'Weiß';
               UPDATE players SET key = 'カロリーナ・ステチェンスカ' WHERE name = 'カロリーナ・ステチェンスカ'";
    let (_tmp, db, summary) = indexed_again(&files, old, 37);
    let counts = (summary["files_indexed"].as_u64(), summary["files_unchanged"].as_u64());
    assert_eq!(counts, (Some(2), Some(1)), "{summary}");
    let conn = rusqlite::Connection::open(&db).unwrap();
    let key: String =
        conn.query_row("SELECT key FROM players WHERE name = 'Weiß'", [], |r| r.get(0)).unwrap();
    assert_eq!(key, "weiss");
    for (side, spelling) in [("--black", "WEISS"), ("--white", "カロリーナ ステチェンスカ")] {
        let games = stdout(&kifudex(["games", side, spelling, "--format", "csv"]).db(&db).output());
        assert_eq!(csv_rows(games.as_bytes()).len(), 1, "{spelling}: {games}");
    }
}

/// Migration 0039: a title in brackets written in Latin letters is no part of a name. A
/// database of schema 38 stored `Yamada Taro (Meijin)` whole; the file of that record is read
/// again, and the others not, and the player is then one with `Yamada_Taro_MEIJIN`.
#[test]
fn migration_0039_reads_again_the_files_of_names_with_a_latin_title_in_brackets() {
    let files = [
        ("a.csa", "V2.2\nN+Yamada Taro (Meijin)\nN-b\nPI\n+\n+7776FU\n%TORYO\n"),
        ("b.csa", "V2.2\nN+c\nN-Yamada_Taro_MEIJIN\nPI\n+\n+2726FU\n%TORYO\n"),
        ("c.csa", "V2.2\nN+d (九段)\nN-e\nPI\n+\n+5756FU\n%TORYO\n"),
    ];
    // As the schema before stored it: the name of a.csa's black whole.
    let old = "INSERT INTO players(name, key) VALUES ('Yamada Taro (Meijin)', 'yamadataro(meijin)');
               UPDATE sources SET black = (SELECT id FROM players WHERE name = 'Yamada Taro (Meijin)'),
                                  black_title = NULL
               WHERE file = (SELECT id FROM files WHERE path LIKE '%a.csa')";
    let (_tmp, db, summary) = indexed_again(&files, old, 38);
    let counts = (summary["files_indexed"].as_u64(), summary["files_unchanged"].as_u64());
    assert_eq!(counts, (Some(1), Some(2)), "{summary}");
    let games = stdout(&kifudex(["games", "--player", "Yamada Taro", "--format", "csv"]).db(&db).output());
    let rows = csv_rows(games.as_bytes());
    assert_eq!(rows.len(), 2, "{games}");
    let a = rows.iter().find(|r| r["path"].ends_with("a.csa")).unwrap();
    assert_eq!(a["black"], "Yamada Taro", "{games}");
}

/// Indexes `files` (name, text, one game each) into a new database, runs `sql` on it, winds it
/// back to schema `version` and indexes the files again: the temporary directory that holds
/// it all, the database and the second run's summary.
fn indexed_again(files: &[(&str, &str)], sql: &str, version: i64) -> (tempfile::TempDir, PathBuf, Value) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("kifu");
    fs::create_dir_all(&dir).unwrap();
    for (name, text) in files {
        fs::write(dir.join(name), text).unwrap();
    }
    let db = tmp.path().join("k.sqlite");
    assert_eq!(index_summary(&dir, &db)["games_added"].as_u64(), Some(files.len() as u64));
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(sql).unwrap();
    wind_back(&conn, version);
    drop(conn);
    let summary = index_summary(&dir, &db);
    (tmp, db, summary)
}

/// A title or women's rank in Latin letters after a CSA name is no part of the name: the
/// records of `Kondo_Osamu_Ryuo`, `Kondo_Osamu` and `Kondo_Osamu_ama` are one player's. A
/// database of the schema before (19), which stored such a name whole (and the name before a
/// rank with its `_`, `Ito_Chihiro_`), has the files of those records read again, and the
/// others not.
#[test]
fn latin_titles_are_no_part_of_a_name_and_a_database_of_schema_19_reads_their_files_again() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("kifu");
    fs::create_dir_all(&dir).unwrap();
    let game =
        |black: &str, white: &str, mv: &str| format!("V2.2\nN+{black}\nN-{white}\nPI\n+\n{mv}\n%TORYO\n");
    fs::write(dir.join("a.csa"), game("Kondo_Osamu_Ryuo", "Goto_Taro", "+7776FU")).unwrap();
    fs::write(dir.join("b.csa"), game("Goto_Taro", "Kondo_Osamu", "+2726FU")).unwrap();
    fs::write(dir.join("c.csa"), game("Ito_Chihiro_W2dan", "Kondo_Osamu_ama", "+5756FU")).unwrap();
    fs::write(dir.join("d.csa"), game("Ito_Chihiro_9dan", "Sato_Jun", "+1716FU")).unwrap();
    let db = tmp.path().join("k.sqlite");
    let index = || index_summary(&dir, &db);
    assert_eq!(index()["games_added"].as_u64(), Some(4));
    let players = || stdout(&kifudex(["players", "--format", "csv"]).db(&db).output());
    // White resigns each: Kondo_Osamu wins a (black) and loses b and c (white);
    // Ito_Chihiro wins c and d (black).
    let rows = players();
    assert!(rows.contains("\nKondo_Osamu,3,1,2,0,1,1,0,0,2,0,2,0,"), "{rows}");
    assert!(rows.contains("\nIto_Chihiro,2,2,0,0,2,2,0,0,0,0,0,0,"), "{rows}");
    assert_eq!(rows.lines().count(), 5, "{rows}");

    // What the schema before stored: the names of a and d whole, or with the `_` before the rank.
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(
        "INSERT INTO players(name, key) VALUES ('Kondo_Osamu_Ryuo', 'kondo_osamu_ryuo'),
                                               ('Ito_Chihiro_', 'ito_chihiro_');
         UPDATE sources SET black = (SELECT id FROM players WHERE name = 'Kondo_Osamu_Ryuo')
             WHERE file = (SELECT id FROM files WHERE path LIKE '%a.csa');
         UPDATE sources SET black = (SELECT id FROM players WHERE name = 'Ito_Chihiro_')
             WHERE file = (SELECT id FROM files WHERE path LIKE '%d.csa');",
    )
    .unwrap();
    wind_back(&conn, 19);
    drop(conn);
    assert!(players().contains("\nKondo_Osamu_Ryuo,1,"), "{}", players());
    let summary = index();
    assert_eq!(
        (summary["files_indexed"].as_u64(), summary["files_unchanged"].as_u64()),
        (Some(2), Some(2)),
        "{summary}"
    );
    assert_eq!(players(), rows);
}

/// Before schema 15, copies of a game were found by a hash of its start's SFEN with the move
/// number (`… w - 1` for a handicap game), and the games stored then keep that hash: a copy of
/// such a game indexed after the upgrade (here a KIF file of the two-piece handicap game first
/// stored from a CSA file, the same three moves by hand) is that game, not a second one.
#[test]
fn a_handicap_game_stored_by_schema_14_is_the_game_its_later_copies_find() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = new_dir(tmp.path(), "kifu");
    let csa = "V2.2\nN+甲\nN-乙\nPI82HI22KA\n-\n-3334FU\n+7776FU\n-8384FU\n%TORYO\n";
    fs::write(dir.join("a.csa"), csa).unwrap();
    let db = tmp.path().join("k.sqlite");
    index(&dir, &db, &[]);
    // The game as schema 14 stored it: hashed with its start's SFEN whole.
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        let (id, start, moves): (i64, String, Vec<u8>) = conn
            .query_row("SELECT id, start, moves FROM games", [], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap();
        assert_eq!(start, "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
        let mut hash = xxhash_rust::xxh3::Xxh3::new();
        hash.update(start.as_bytes());
        hash.update(&[0xff]);
        hash.update(&moves);
        conn.execute("UPDATE games SET movehash = ?2 WHERE id = ?1", (id, hash.digest() as i64)).unwrap();
        wind_back(&conn, 14);
    }
    let kif = "手合割：二枚落ち\n下手：丙\n上手：丁\n手数----指手---------消費時間--\n   1 ３四歩(33)\n   \
               2 ７六歩(77)\n   3 ８四歩(83)\n   4 投了\n";
    fs::write(dir.join("b.kif"), kif).unwrap();
    let summary = index(&dir, &db, &[]);
    assert_eq!(
        (summary["games_added"].as_u64(), summary["games_duplicate"].as_u64()),
        (Some(0), Some(1)),
        "{summary}"
    );
    let rows = csv_rows(stdout(&kifudex(["export", "games"]).db(&db).output()).as_bytes());
    let games: Vec<&str> = rows.iter().map(|r| r["game_id"].as_str()).collect();
    assert_eq!(games.len(), 2, "{rows:?}");
    assert_eq!(games[0], games[1], "{rows:?}");
    let out = kifudex(["query", "--start", "二枚落ち", "--moves", "3c3d 7g7f 8c8d", "--format", "json"])
        .db(&db)
        .output();
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["position"]["games"].as_u64(), Some(1), "{answer}");
}

/// `kifudex index DIR --json` into `db`: the run's summary.
fn index_summary(dir: &Path, db: &Path) -> Value {
    let out = kifudex(["index", dir.to_str().unwrap(), "--json", "--quiet"]).db(db).output();
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Winds a database of this version back to schema `version`, as a database of that version
/// would be: the columns later migrations add are dropped (migrating adds them again), and the
/// version is set.
fn wind_back(conn: &rusqlite::Connection, version: i64) {
    if version < 26 {
        conn.execute_batch("ALTER TABLE sources DROP COLUMN foul").unwrap();
    }
    if version < 23 {
        conn.execute_batch("ALTER TABLE files DROP COLUMN device").unwrap();
    }
    if version < 18 {
        conn.execute_batch("ALTER TABLE files DROP COLUMN ctime_ns").unwrap();
    }
    conn.pragma_update(None, "user_version", version).unwrap();
}

/// A record with no move, or one stopped at a move that cannot be read, has no moves that
/// tell its game from another: it is one game only with the records that say the same of it
/// (players, day, ending). Every value is read off the records by hand.
#[test]
fn records_whose_moves_tell_no_game_apart_join_one_only_when_they_agree() {
    let tmp = tempfile::tempdir().unwrap();
    let kif = |black: &str, white: &str, date: &str, moves: &str| {
        format!("開始日時：{date}\n先手：{black}\n後手：{white}\n手数----指手--\n{moves}")
    };
    let resigned = "   1 投了\n";
    let cut = "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六XX(27)\n";
    let files = [
        // Forfeits with no move: two games, and a copy of the first.
        ("a.kif", kif("甲", "乙", "2020/01/01", resigned)),
        ("b.kif", kif("丙", "丁", "2020/01/02", "   1 中断\n")),
        ("c.kif", kif("甲", "乙", "2020/01/01", resigned)),
        // Stopped at move 3: White resigns after it; Black after a fourth; a copy of the
        // first, and the first without its headers, which is not known to be its game.
        ("p1.kif", kif("戊", "己", "2021/05/05", &format!("{cut}   4 投了\n"))),
        ("p2.kif", kif("庚", "辛", "2021/06/06", &format!("{cut}   4 ８四歩(83)\n   5 投了\n"))),
        ("p3.kif", kif("戊", "己", "2021/05/05", &format!("{cut}   4 投了\n"))),
        ("p4.kif", format!("手数----指手--\n{cut}   4 投了\n")),
    ];
    let dir = new_dir(tmp.path(), "kifu");
    for (name, text) in &files {
        fs::write(dir.join(name), text).unwrap();
    }
    let db = tmp.path().join("k.sqlite");
    let out = kifudex(["index", dir.to_str().unwrap(), "--json"]).db(&db).output();
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (summary["games_added"].as_u64(), summary["games_duplicate"].as_u64()),
        (Some(5), Some(2)),
        "{summary}"
    );
    let rows = csv_rows(stdout(&kifudex(["export", "games"]).db(&db).output()).as_bytes());
    let id_of = |name: &str| {
        let row = rows.iter().find(|r| r["source_path"].ends_with(&format!("/{name}"))).expect(name);
        (row["game_id"].clone(), row["result"].clone(), row["duplicate_of"].clone())
    };
    let (a, b, p1, p2) = (id_of("a.kif"), id_of("b.kif"), id_of("p1.kif"), id_of("p2.kif"));
    assert_eq!(
        (a.1.as_str(), b.1.as_str(), p1.1.as_str(), p2.1.as_str()),
        ("white", "unknown", "black", "white")
    );
    assert!(a.0 != b.0 && p1.0 != p2.0);
    assert_eq!((id_of("c.kif").2, id_of("p3.kif").2), (a.0.clone(), p1.0.clone()));
    assert!(id_of("p4.kif").2.is_empty() && ![a.0, p1.0].contains(&id_of("p4.kif").0));
    // The interrupted game's players lost nothing.
    let players = stdout(&kifudex(["players", "--format", "json"]).db(&db).output());
    let players: Value = serde_json::from_str(&players).unwrap();
    let games_of = |name: &str| {
        let p = players.as_array().unwrap().iter().find(|p| p["name"] == name).expect(name);
        (p["games"].as_u64(), p["wins"].as_u64(), p["losses"].as_u64())
    };
    assert_eq!(games_of("丙"), (Some(1), Some(0), Some(0)));
    assert_eq!(games_of("甲"), (Some(1), Some(0), Some(1)));

    // A database of schema 23 reads again the files with a record stopped at a move that
    // cannot be read, and those with a record that shares such a game: all but b.kif.
    wind_back(&rusqlite::Connection::open(&db).unwrap(), 23);
    let out = kifudex(["index", dir.to_str().unwrap(), "--json"]).db(&db).output();
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (summary["files_indexed"].as_u64(), summary["files_unchanged"].as_u64()),
        (Some(6), Some(1)),
        "{summary}"
    );
    let again = csv_rows(stdout(&kifudex(["export", "games"]).db(&db).output()).as_bytes());
    let results = |rows: &[std::collections::HashMap<String, String>]| {
        let mut r: Vec<(String, String)> =
            rows.iter().map(|r| (r["source_path"].clone(), r["result"].clone())).collect();
        r.sort();
        r
    };
    assert_eq!(results(&again), results(&rows));
}

/// Which records are one game, as sets of file names, and every player's counts: what an
/// incremental run must leave as a run from scratch would.
fn grouping(db: &Path) -> (Vec<Vec<String>>, String) {
    let rows = csv_rows(stdout(&kifudex(["export", "games"]).db(db).output()).as_bytes());
    let mut games: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for r in &rows {
        let name = r["source_path"].rsplit('/').next().unwrap().to_string();
        games.entry(r["game_id"].clone()).or_default().push(name);
    }
    let mut groups: Vec<Vec<String>> = games
        .into_values()
        .map(|mut g| {
            g.sort();
            g
        })
        .collect();
    groups.sort();
    (groups, stdout(&kifudex(["players", "--format", "csv"]).db(db).output()))
}

/// Records with no moves to tell their games apart are grouped as a run from scratch over
/// the same files groups them, whatever came and went before: after a prune, and after a
/// record that sorts first comes.
#[test]
fn records_whose_moves_tell_no_game_apart_group_as_from_scratch() {
    let tmp = tempfile::tempdir().unwrap();
    let forfeit = |date: &str| format!("{date}先手：山田\n後手：佐藤\n手数----指手--\n   1 不戦敗\n");
    let cut =
        |head: &str, end: &str| format!("{head}手数----指手--\n   1 ７六歩(77)\n   2 ５五飛(22)\n{end}");
    // Each case: the files of a first run, then those removed and added before a second.
    type Files<'a> = &'a [(&'a str, String)];
    let steps: [(&str, Files, &[&str], Files); 2] = [
        (
            "prune",
            &[
                ("f0.kif", forfeit("")),
                ("f1.kif", forfeit("開始日時：2020/01/01\n")),
                ("f2.kif", forfeit("開始日時：2020/01/02\n")),
            ],
            &["f1.kif"],
            &[],
        ),
        (
            "first",
            &[("x1.kif", cut("", "   3 投了\n")), ("z.kif", cut("先手：山田\n後手：佐藤\n", ""))],
            &[],
            &[("a0.kif", cut("", "   3 中断\n"))],
        ),
    ];
    for (name, files, removed, added) in steps {
        let dir = new_dir(tmp.path(), name);
        for (file, text) in files {
            fs::write(dir.join(file), text).unwrap();
        }
        let db = tmp.path().join(format!("{name}.sqlite"));
        let run = |db: &Path| kifudex(["index", dir.to_str().unwrap(), "--prune", "--quiet"]).db(db).output();
        run(&db);
        for file in removed {
            fs::remove_file(dir.join(file)).unwrap();
        }
        for (file, text) in added {
            fs::write(dir.join(file), text).unwrap();
        }
        run(&db);
        let scratch = tmp.path().join(format!("{name}-scratch.sqlite"));
        run(&scratch);
        assert_eq!(grouping(&db), grouping(&scratch), "{name}");
    }
}
