//! Results follow the rules, reading goes on past lines that cannot be moves, and an
//! impossible start never enters the database: the command run on the hand-built records of
//! `tests/data/results/records/`, checked against `tests/data/results/expected.tsv`, which
//! cshogi judged (`tests/data/results/oracle.py` says how, and rebuilds it), and on records
//! written out here by hand.

use std::{
    collections::BTreeMap,
    fs,
    path::{Path, PathBuf},
    process::Output,
};

use kifudex::{
    db::{FileRecord, NewGame, Writer},
    kifu::{self, Format},
    replay::replay,
    store,
};

use crate::util::kifudex;

fn records() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/results/records")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// The rows of a CSV export, as maps from column to value.
fn rows(out: &Output) -> Vec<BTreeMap<String, String>> {
    let mut csv = csv::Reader::from_reader(out.stdout.as_slice());
    let header = csv.headers().unwrap().clone();
    csv.records()
        .map(|r| header.iter().zip(r.unwrap().iter()).map(|(h, v)| (h.into(), v.into())).collect())
        .collect()
}

/// `kifudex export WHAT`, which must succeed.
fn export(what: &str, db: &Path) -> Vec<BTreeMap<String, String>> {
    let out = kifudex(["export", what]).db(db).output();
    assert_eq!(out.status.code(), Some(0), "export {what}: {}", text(&out.stderr));
    rows(&out)
}

fn file_name(path: &str) -> String {
    Path::new(path).file_name().unwrap().to_string_lossy().into_owned()
}

/// A temporary folder with an empty folder `in` for records and the path of a database.
fn workspace() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, db) = (tmp.path().join("in"), tmp.path().join("k.sqlite"));
    fs::create_dir(&dir).unwrap();
    (tmp, dir, db)
}

/// The rejects stored: file name, the column `place` (`game_index` or `line`), ply, code.
fn rejects(db: &Path, place: &str) -> Vec<(String, String, String, String)> {
    export("rejects", db)
        .iter()
        .map(|r| (file_name(&r["path"]), r[place].clone(), r["ply"].clone(), r["code"].clone()))
        .collect()
}

fn owned((a, b, c, d): (&str, &str, &str, &str)) -> (String, String, String, String) {
    (a.into(), b.into(), c.into(), d.into())
}

/// The expected game of each (file, game index).
struct Expected {
    plies: usize,
    final_sfen: String,
    winner: String,
    termination: String,
    status: String,
    warnings: Vec<String>,
    moves: String,
}

fn expected() -> BTreeMap<(String, u32), Expected> {
    let tsv = include_str!("data/results/expected.tsv");
    tsv.lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            let (file, index) = match f[0].split_once('#') {
                Some((file, i)) => (file.to_string(), i.parse().unwrap()),
                None => (f[0].to_string(), 0),
            };
            let warnings = f[6].split('|').filter(|w| !w.is_empty()).map(str::to_string).collect();
            let expected = Expected {
                plies: f[1].parse().unwrap(),
                final_sfen: f[2].to_string(),
                winner: f[3].to_string(),
                termination: f[4].to_string(),
                status: f[5].to_string(),
                warnings,
                moves: f[7].to_string(),
            };
            ((file, index), expected)
        })
        .collect()
}

/// The SFEN without its move number.
fn position(sfen: &str) -> &str {
    sfen.rsplit_once(' ').map_or(sfen, |(p, _)| p)
}

/// The winner as the oracle writes it.
fn winner(result: &str) -> &'static str {
    match result {
        "black" => "b",
        "white" => "w",
        "draw" => "d",
        _ => "-",
    }
}

/// The CSA word a termination is written with, `None` when nothing is written.
fn csa_word(termination: &str) -> Option<&'static str> {
    Some(match termination {
        "resign" => "%TORYO",
        "checkmate" => "%TSUMI",
        "repetition" => "%SENNICHITE",
        "perpetual_check" => "%OUTE_SENNICHITE",
        "impasse" => "%JISHOGI",
        "entering_king" => "%KACHI",
        "timeout" => "%TIME_UP",
        _ => return None,
    })
}

/// Every hand-built record, indexed: the plies, final position, result, termination, status,
/// warnings and moves the rules give (cshogi's verdicts on repetition, perpetual check and
/// mate); the two rejects; and `show`, `export games` and `query` telling the same result.
#[test]
fn hand_built_records_end_as_the_rules_say() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("k.sqlite");
    let want = expected();
    let out = kifudex(["index", records().to_str().unwrap(), "--json", "--quiet"]).db(&db).output();
    assert_eq!(out.status.code(), Some(1), "two games are rejected: {}", text(&out.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let warnings: usize = want.values().map(|e| e.warnings.len()).sum();
    assert_eq!(summary["warnings"], warnings, "{summary}");
    assert_eq!(summary["games_rejected"], 2, "{summary}");
    assert_eq!(summary["games_added"], want.len(), "{summary}");

    let games = export("games", &db);
    assert_eq!(games.len(), want.len());
    let moves = export("moves", &db);
    let mut notes: BTreeMap<(String, u32), Vec<String>> = BTreeMap::new();
    for w in export("warnings", &db) {
        let key = (file_name(&w["path"]), w["game_index"].parse().unwrap());
        notes.entry(key).or_default().push(w["code"].clone());
    }
    for g in &games {
        let key = (file_name(&g["source_path"]), g["game_index"].parse().unwrap());
        let e = want.get(&key).unwrap_or_else(|| panic!("{key:?} is not expected"));
        let got = (
            g["plies"].parse::<usize>().unwrap(),
            position(&g["final_sfen"]),
            winner(&g["result"]),
            if g["termination"].is_empty() { "none" } else { g["termination"].as_str() },
            g["status"].as_str(),
        );
        let wanted =
            (e.plies, e.final_sfen.as_str(), e.winner.as_str(), e.termination.as_str(), e.status.as_str());
        assert_eq!(got, wanted, "{key:?}");
        assert_eq!(notes.remove(&key).unwrap_or_default(), e.warnings, "{key:?}: warnings");
        let played: Vec<&str> =
            moves.iter().filter(|m| m["game_id"] == g["game_id"]).map(|m| m["usi"].as_str()).collect();
        assert_eq!(played.join(" "), e.moves, "{key:?}: moves");

        // `show` writes the result `export games` holds, and so does `query`; a game whose
        // record stopped early is written up to there, which it says (status 1).
        let shown = kifudex(["show", &g["game_id"], "--to", "csa"]).db(&db).output();
        let stopped = g["status"] != "ok";
        assert_eq!(shown.status.code(), Some(i32::from(stopped)), "{key:?}: {}", text(&shown.stderr));
        assert_eq!(text(&shown.stderr).contains("its record stops there"), stopped, "{key:?}");
        let shown = text(&shown.stdout);
        let ending = shown.lines().find(|l| l.starts_with('%'));
        assert_eq!(ending, csa_word(&g["termination"]), "{key:?}: show --to csa\n{shown}");
        let answer = kifudex(["query", "--sfen", &g["start_sfen"], "--format", "json", "--limit", "1000"])
            .db(&db)
            .output();
        assert_eq!(answer.status.code(), Some(0), "{key:?}: {}", text(&answer.stderr));
        let answer: serde_json::Value = serde_json::from_slice(&answer.stdout).unwrap();
        let listed = answer["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|q| q["id"].as_i64() == g["game_id"].parse().ok());
        assert_eq!(listed.map(|q| q["result"].clone()), Some(g["result"].as_str().into()), "{key:?}: query");
    }
    assert!(notes.is_empty(), "warnings for games not expected: {notes:?}");

    assert_eq!(
        rejects(&db, "game_index"),
        [("impossible_start.usi", "0", "0", "bad_start"), ("stops_early.kifu", "0", "3", "no_such_move")]
            .map(owned)
    );
}

/// Two lines, an SFEN with six knights then a good game: the first is a reject and is not
/// stored; every export, `show` in every format and `query` read the database.
#[test]
fn an_impossible_start_never_enters_the_database() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, db) = (tmp.path().join("in"), tmp.path().join("k.sqlite"));
    fs::create_dir(&dir).unwrap();
    fs::copy(records().join("impossible_start.usi"), dir.join("two.usi")).unwrap();
    let out = kifudex(["index", dir.to_str().unwrap()]).db(&db).output();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("[bad_start]: line 1: impossible start position"),
        "{}",
        text(&out.stderr)
    );

    let games = export("games", &db);
    assert_eq!(games.len(), 1, "only the good game is stored: {games:?}");
    assert_eq!((games[0]["game_index"].as_str(), games[0]["plies"].as_str()), ("1", "2"));
    assert_eq!(export("moves", &db).len(), 2);
    assert_eq!(export("positions", &db).len(), 3);
    assert!(!export("tree", &db).is_empty());
    assert!(export("warnings", &db).is_empty());
    let rejects = export("rejects", &db);
    assert_eq!(
        (rejects.len(), rejects[0]["code"].as_str(), rejects[0]["line"].as_str()),
        (1, "bad_start", "1")
    );
    for to in ["kif", "ki2", "csa", "usi", "jkf", "western"] {
        let out = kifudex(["show", &games[0]["game_id"], "--to", to]).db(&db).output();
        assert_eq!(out.status.code(), Some(0), "show --to {to}: {}", text(&out.stderr));
    }
    let out = kifudex(["query", "--moves", "7g7f 3c3d"]).db(&db).output();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("1 game reaches it (1 occurrence)"), "{}", text(&out.stdout));
    // The impossible position itself is no position to ask about.
    let out = kifudex(["query", "--sfen", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNNGKGNNL b - 1"])
        .db(&db)
        .output();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("not a legal position"), "{}", text(&out.stderr));
}

/// The even game's board diagram, drawn by hand, with `row6` as its sixth row (the one after
/// ７六歩 holds a pawn on 7f).
fn diagram(row6: &str) -> String {
    [
        "後手の持駒：なし",
        "  ９ ８ ７ ６ ５ ４ ３ ２ １",
        "+---------------------------+",
        "|v香v桂v銀v金v玉v金v銀v桂v香|一",
        "| ・v飛 ・ ・ ・ ・ ・v角 ・|二",
        "|v歩v歩v歩v歩v歩v歩v歩v歩v歩|三",
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|四",
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五",
        row6,
        "| 歩 歩 ・ 歩 歩 歩 歩 歩 歩|七",
        "| ・ 角 ・ ・ ・ ・ ・ 飛 ・|八",
        "| 香 桂 銀 金 玉 金 銀 桂 香|九",
        "+---------------------------+",
        "先手の持駒：なし",
        "後手番",
        "",
    ]
    .join("\n")
}

/// A record whose start position cannot be read (a diagram with a typo in a piece, a row
/// short of a square) holds no game: `index` stores none and reports it at ply 0, `convert`
/// leaves it out, and the page's jump names the diagram's mistake. Neither the board without
/// the mistyped piece nor the even game, which the record never gave, is taken for its start.
#[test]
fn a_start_that_cannot_be_read_is_no_game() {
    let (_tmp, dir, db) = workspace();
    let moves = "手数----指手---------消費時間--\n   1 ３四歩(33)\n   2 投了\n";
    let good = diagram("| ・ ・ 歩 ・ ・ ・ ・ ・ ・|六");
    // 步 is the simplified form of 歩, no piece in a diagram; the short row lacks 4f.
    let typo = diagram("| ・ ・ 步 ・ ・ ・ ・ ・ ・|六");
    let short = diagram("| ・ ・ 歩 ・ ・ ・ ・ ・|六");
    fs::write(dir.join("good.kif"), format!("{good}{moves}")).unwrap();
    fs::write(dir.join("typo.kif"), format!("{typo}{moves}")).unwrap();
    fs::write(dir.join("short.kif"), format!("{short}{moves}")).unwrap();
    // A USI position command with a bad SFEN (a rank of eight squares) is a record all the same.
    let usi = "position sfen lnsgkgsnl/1r5b1/pppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f\n";
    fs::write(dir.join("bad.usi"), usi).unwrap();
    let out = kifudex(["index", dir.to_str().unwrap()]).db(&db).output();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let games = export("games", &db);
    assert_eq!(games.len(), 1, "{games:?}");
    assert_eq!(
        (file_name(&games[0]["source_path"]), games[0]["start_sfen"].as_str(), games[0]["plies"].as_str()),
        ("good.kif".into(), "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 1", "1")
    );
    assert_eq!(
        rejects(&db, "line"),
        [
            ("bad.usi", "1", "0", "bad_board"),
            ("short.kif", "9", "0", "bad_board"),
            ("typo.kif", "9", "0", "bad_board")
        ]
        .map(owned)
    );
    // Two games in one text would need a format of several; one is enough to see each alone.
    for (name, code) in [("typo.kif", 2), ("good.kif", 0)] {
        let out = kifudex(["convert", dir.join(name).to_str().unwrap(), "--to", "usi"]).output();
        assert_eq!(out.status.code(), Some(code), "{name}: {}", text(&out.stderr));
        if code == 2 {
            assert!(
                text(&out.stderr).contains("game 0: left out: it has no start position"),
                "{}",
                text(&out.stderr)
            );
            assert!(out.stdout.is_empty());
        }
    }
}

/// A 手合割 written with digits (`２枚落ち`) names the handicap its kanji name does: White,
/// without rook and bishop, moves first.
#[test]
fn a_handicap_name_written_with_digits_is_the_handicap() {
    let (_tmp, dir, db) = workspace();
    let kif =
        "手合割：２枚落ち\n手数----指手---------消費時間--\n   1 ６二銀(71)\n   2 ７六歩(77)\n   3 投了\n";
    fs::write(dir.join("two.kif"), kif).unwrap();
    assert_eq!(kifudex(["index", dir.to_str().unwrap()]).db(&db).output().status.code(), Some(0));
    assert!(export("warnings", &db).is_empty());
    let games = export("games", &db);
    assert_eq!((games[0]["handicap"].as_str(), games[0]["plies"].as_str()), ("二枚落ち", "2"));
    // White, to move at ply 3, resigned.
    assert_eq!(games[0]["result"], "black");
    // A database of the version before read the name as no handicap, and warned: its next
    // run reads the file again (the others stay unchanged).
    fs::write(dir.join("other.kif"), "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n").unwrap();
    assert_eq!(kifudex(["index", dir.to_str().unwrap()]).db(&db).output().status.code(), Some(0));
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(
        "INSERT INTO warnings(path, file, game_index, line, ply, code, message)
         SELECT path, id, 0, 1, NULL, 'unknown_handicap', 'no handicap' FROM files WHERE path LIKE '%two.kif';
         ALTER TABLE files DROP COLUMN device;
         ALTER TABLE sources DROP COLUMN foul;
         PRAGMA user_version = 20;",
    )
    .unwrap();
    drop(conn);
    let out = kifudex(["index", dir.to_str().unwrap(), "--json"]).db(&db).output();
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((summary["files_indexed"].as_u64(), summary["files_unchanged"].as_u64()), (Some(1), Some(1)));
    assert!(export("warnings", &db).is_empty());
}

/// A 手合割 that names no handicap is read as the even game, and says so.
#[test]
fn an_unknown_handicap_name_is_a_warning() {
    let (_tmp, dir, db) = workspace();
    let kif = "先手：A\n手合割：謎落ち\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 投了\n";
    fs::write(dir.join("riddle.kif"), kif).unwrap();
    assert_eq!(kifudex(["index", dir.to_str().unwrap()]).db(&db).output().status.code(), Some(0));
    let warnings: Vec<_> =
        export("warnings", &db).iter().map(|w| (w["line"].clone(), w["code"].clone())).collect();
    assert_eq!(warnings, [("2".to_string(), "unknown_handicap".to_string())]);
    let out = kifudex(["convert", dir.join("riddle.kif").to_str().unwrap(), "--to", "usi"]).output();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("手合割 '謎落ち' is no handicap kifudex knows"),
        "{}",
        text(&out.stderr)
    );
}

/// A database an older version filled, which stored a game with an impossible start as a
/// game of no moves: the per-ply exports name it on stderr, leave it out and exit 1; `show`
/// refuses it alone; everything else reads as before.
#[test]
fn a_stored_impossible_start_from_an_older_version_spoils_no_other_game() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("k.sqlite");
    let source = fs::read_to_string(records().join("impossible_start.usi")).unwrap();
    let parsed = kifu::read(Format::Usi, &source);
    // What an older version wrote: both games, the impossible one with its stop reason.
    let games: Vec<NewGame> =
        parsed.iter().enumerate().map(|(i, g)| store::new_game(g, replay(g), i as u32)).collect();
    assert_eq!(games[0].status, Some("bad_start"));
    let mut writer = Writer::open(&db).unwrap();
    writer.set_complete(true);
    let file = FileRecord {
        path: "/old/two.usi".into(),
        size: source.len() as u64,
        mtime_ns: 0,
        ctime_ns: None,
        device: None,
        hash: [0; 16],
        format: Some("usi"),
        encoding: Some("utf-8"),
        error: None,
    };
    let mut batch = writer.batch().unwrap();
    batch.write_file(&file, &games, &[]).unwrap();
    batch.commit().unwrap();
    writer.finish().unwrap();

    for what in ["moves", "positions"] {
        let out = kifudex(["export", what]).db(&db).output();
        assert_eq!(out.status.code(), Some(1), "export {what}");
        let err = text(&out.stderr);
        assert!(err.contains("game 1 is left out: its start is not a legal position"), "{err}");
        let kept = rows(&out);
        assert!(!kept.is_empty() && kept.iter().all(|r| r["game_id"] == "2"), "export {what}: {kept:?}");
    }
    assert_eq!(export("games", &db).len(), 2);
    assert!(!export("tree", &db).is_empty());
    let out = kifudex(["show", "2"]).db(&db).output();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = kifudex(["show", "1"]).db(&db).output();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("game 1 cannot be played back"), "{}", text(&out.stderr));
    let out = kifudex(["query", "--moves", "7g7f"]).db(&db).output();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// A run whose only findings are warnings exits 0 and counts them; `export warnings` lists
/// each with its file, game, line, ply and code.
#[test]
fn warnings_alone_leave_the_exit_status_at_0() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, db) = (tmp.path().join("in"), tmp.path().join("k.sqlite"));
    fs::create_dir(&dir).unwrap();
    fs::copy(records().join("twofold_sennichite.csa"), dir.join("a.csa")).unwrap();
    let out = kifudex(["index", dir.to_str().unwrap(), "--json"]).db(&db).output();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((summary["warnings"].as_u64(), summary["games_rejected"].as_u64()), (Some(1), Some(0)));
    assert!(text(&out.stderr).contains(" 0 rejected, 1 warnings,"), "{}", text(&out.stderr));
    let warnings = export("warnings", &db);
    assert_eq!(warnings.len(), 1);
    let w = &warnings[0];
    let got = (w["game_index"].as_str(), w["line"].as_str(), w["ply"].as_str(), w["code"].as_str());
    // `%SENNICHITE` is line 10; the start has occurred twice, after 0 and 4 plies.
    assert_eq!(got, ("0", "10", "4", "not_fourfold"));
    assert!(w["message"].contains("occurred 2 times"), "{}", w["message"]);
    // Indexing the file again after a change replaces its warnings.
    fs::write(dir.join("a.csa"), "V2.2\nPI\n+\n+7776FU\n%TORYO\n").unwrap();
    let out = kifudex(["index", dir.to_str().unwrap()]).db(&db).output();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(export("warnings", &db).is_empty());
}

/// The line of the report, an engine comment that lost its quote, in the middle of a game:
/// the moves on both sides of it are kept, and the line is a warning.
#[test]
fn a_csa_comment_that_lost_its_quote_is_read_past() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, db) = (tmp.path().join("in"), tmp.path().join("k.sqlite"));
    fs::create_dir(&dir).unwrap();
    let record = "V2.2\nN+a\nN-b\nPI\n+\n+7776FU\nT3\n'** 30 -3334FU\n-3334FU\n** 1248 -7667NG+7867OU\n+2726FU\n%TORYO\n";
    fs::write(dir.join("slip.csa"), record).unwrap();
    // A KIF header section and move section with a stray tag, a line of mojibake and a
    // header among the moves.
    let kif = "<html>\n手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n</div>\n   2 ３四歩(33)\n\
               縺ゅ≠縺\n棋戦：どこか\n   3 ２六歩(27)\n   4 投了\n";
    fs::write(dir.join("stray.kifu"), kif).unwrap();
    let out = kifudex(["index", dir.to_str().unwrap(), "--json"]).db(&db).output();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let games = export("games", &db);
    let got: Vec<(String, &str, &str, &str)> = games
        .iter()
        .map(|g| {
            (
                file_name(&g["source_path"]),
                g["plies"].as_str(),
                g["result"].as_str(),
                g["termination"].as_str(),
            )
        })
        .collect();
    // By hand: three moves each; `%TORYO` with White to move, 投了 as White's fourth move.
    assert_eq!(
        got,
        [("slip.csa".into(), "3", "black", "resign"), ("stray.kifu".into(), "3", "black", "resign")]
    );
    let warnings: Vec<(String, String, String)> = export("warnings", &db)
        .into_iter()
        .map(|w| (file_name(&w["path"]), w["line"].clone(), w["code"].clone()))
        .collect();
    let line = |f: &str, n: &str| (f.to_string(), n.to_string(), "unknown_line".to_string());
    assert_eq!(
        warnings,
        [
            line("slip.csa", "10"),
            line("stray.kifu", "1"),
            line("stray.kifu", "5"),
            line("stray.kifu", "7"),
            line("stray.kifu", "8")
        ]
    );
}

/// A game whose record goes on past a move that cannot be played is stored up to it, with the
/// ending the record states for the side it means: the side to move after the record's last
/// move, not after the last move kept. In each format, Black's 7th move (the rook from 2八 to
/// 5五, which a rook cannot reach) is followed by a resignation, which White, to move after 7
/// moves, made: Black wins (6 moves kept). With White's 8th move the one that cannot be played
/// (the rook from 8二 to 5五), Black, to move after 8, resigned: White wins (7 moves kept). Written to KIF and read back, the
/// stored game keeps that result.
#[test]
fn an_ending_after_a_move_that_cannot_be_played_means_the_side_to_move_after_the_record() {
    const CSA: [&str; 8] =
        ["+2726FU", "-8384FU", "+2625FU", "-8485FU", "+2524FU", "-2324FU", "+7776FU", "-8255HI"];
    const USI: [&str; 8] = ["2g2f", "8c8d", "2f2e", "8d8e", "2e2d", "2c2d", "7g7f", "8b5e"];
    const KIF: [&str; 8] = [
        "２六歩(27)",
        "８四歩(83)",
        "２五歩(26)",
        "８五歩(84)",
        "２四歩(25)",
        "同　歩(23)",
        "７六歩(77)",
        "５五飛(82)",
    ];
    // Black's illegal 7th: the rook from 2八 to 5五, in place of 7g7f.
    let moves = |n: usize, form: &[&'static str; 8], black_illegal: &'static str| -> Vec<&'static str> {
        let mut m = form[..n].to_vec();
        if n == 7 {
            m[6] = black_illegal;
        }
        m
    };
    let jkf_move = |csa: &str| {
        let b = csa.as_bytes();
        let n = |i: usize| u32::from(b[i] - b'0');
        format!(
            r#"{{"move":{{"color":{},"from":{{"x":{},"y":{}}},"to":{{"x":{},"y":{}}},"piece":"{}"}}}}"#,
            u8::from(b[0] == b'-'),
            n(1),
            n(2),
            n(3),
            n(4),
            &csa[5..]
        )
    };
    for (plies, winner) in [(7, "black"), (8, "white")] {
        let csa = moves(plies, &CSA, "+2855HI");
        let usi = moves(plies, &USI, "2h5e");
        let kif = moves(plies, &KIF, "５五飛(28)");
        let files = [
            ("g.csa", format!("V2.2\nPI\n+\n{}\n%TORYO\n", csa.join("\n"))),
            ("g.usi", format!("position startpos moves {} resign\n", usi.join(" "))),
            (
                "g.jkf",
                format!(
                    r#"{{"header":{{}},"initial":{{"preset":"HIRATE"}},"moves":[{{}},{},{{"special":"TORYO"}}]}}"#,
                    csa.iter().map(|m| jkf_move(m)).collect::<Vec<_>>().join(",")
                ),
            ),
            (
                "g.kif",
                format!(
                    "手合割：平手\n手数----指手--\n{}\n{:>4} 投了\n",
                    kif.iter()
                        .enumerate()
                        .map(|(i, m)| format!("{:>4} {m}", i + 1))
                        .collect::<Vec<_>>()
                        .join("\n"),
                    plies + 1
                ),
            ),
        ];
        for (name, body) in files {
            let (_tmp, dir, db) = workspace();
            fs::write(dir.join(name), &body).unwrap();
            let out = kifudex(["index", dir.to_str().unwrap()]).db(&db).output();
            assert_eq!(out.status.code(), Some(1), "{name}: {}", text(&out.stderr));
            let games = export("games", &db);
            let got =
                (games[0]["plies"].as_str(), games[0]["result"].as_str(), games[0]["termination"].as_str());
            let kept = (plies - 1).to_string();
            assert_eq!(got, (kept.as_str(), winner, "resign"), "{name} of {plies} moves:\n{body}");
            let rejected = rejects(&db, "game_index");
            assert_eq!(rejected, [owned((name, "0", &plies.to_string(), "no_such_move"))], "{name}");
            // Written to KIF and read back: the same result, the move that could not be played
            // left out.
            let out = kifudex(["show", "1", "--to", "kif"]).db(&db).output();
            let written = text(&out.stdout);
            let (_tmp, again, db) = workspace();
            fs::write(again.join("back.kif"), &written).unwrap();
            let out = kifudex(["index", again.to_str().unwrap()]).db(&db).output();
            assert_eq!(out.status.code(), Some(0), "{name}: {}\n{written}", text(&out.stderr));
            let games = export("games", &db);
            let got =
                (games[0]["plies"].as_str(), games[0]["result"].as_str(), games[0]["termination"].as_str());
            assert_eq!(got, (kept.as_str(), winner, "resign"), "{name} written as KIF:\n{written}");
        }
    }
}

/// A foul that a Western record states by its result alone (`[Termination "illegal_move"]`)
/// is written to KIF for the side that lost by it: `反則負け` on the loser's turn, `反則勝ち`
/// on the winner's. Read back without its `まで` line, the KIF row alone gives the same winner.
#[test]
fn a_foul_stated_by_a_result_alone_is_written_to_kif_for_the_side_that_lost() {
    // (result, moves, the KIF row's word, the winner): after 2 plies Black is to move, after 1
    // White is.
    let cases = [
        ("0-1", "1. P-7f P-3d", "   3 反則負け", "white"),
        ("1-0", "1. P-7f", "   2 反則負け", "black"),
        ("1-0", "1. P-7f P-3d", "   3 反則勝ち", "black"),
        ("0-1", "1. P-7f", "   2 反則勝ち", "white"),
    ];
    for (result, moves, row, winner) in cases {
        let (_tmp, dir, db) = workspace();
        let psn = dir.join("foul.psn");
        fs::write(
            &psn,
            format!("[Result \"{result}\"]\n[Termination \"illegal_move\"]\n\n{moves} {result}\n"),
        )
        .unwrap();
        let out = kifudex(["convert", psn.to_str().unwrap(), "--to", "kif"]).output();
        let kif = text(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{result} {moves}: {}", text(&out.stderr));
        assert!(kif.lines().any(|l| l == row), "{result} {moves}: {kif}");
        let without_summary: String =
            kif.lines().filter(|l| !l.starts_with("まで")).map(|l| format!("{l}\n")).collect();
        fs::write(psn.with_extension("kif"), &without_summary).unwrap();
        // Each record in a database of its own: the two are one game, whose result is its
        // first record's.
        for ext in ["psn", "kif"] {
            let db = db.with_extension(ext);
            let out = kifudex(["index", dir.join(format!("foul.{ext}")).to_str().unwrap()]).db(&db).output();
            assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
            let games = export("games", &db);
            let got = (games[0]["result"].as_str(), games[0]["termination"].as_str());
            assert_eq!(got, (winner, "illegal_move"), "{ext}: {result} {moves}\n{without_summary}");
        }
    }
}

/// `反則手`, an illegal move, is one of the words that end a game (seed 001, "Game end"): as a
/// KIF row, a KI2 token or a `まで` line, the side that played it loses. By hand: after
/// ▲７六歩 △３四歩, the third move is Black's, so Black's foul is White's win; after one
/// move, White's foul is Black's.
#[test]
fn an_illegal_move_written_as_the_word_ends_the_game_against_its_player() {
    let head = "手合割：平手\n";
    let kif_rows = "手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n";
    let cases = [
        ("row.kif", format!("{head}{kif_rows}   3 反則手\n"), "2", "white"),
        ("row_after_one.kif", format!("{head}手数----指手--\n   1 ７六歩(77)\n   2 反則手\n"), "1", "black"),
        ("token.ki2", format!("{head}▲７六歩 △３四歩 ▲反則手\n"), "2", "white"),
        ("summary.ki2", format!("{head}▲７六歩 △３四歩\nまで2手で反則手\n"), "2", "white"),
        ("named.ki2", format!("{head}▲７六歩\nまで1手で後手の反則手\n"), "1", "black"),
    ];
    for (name, record, plies, winner) in cases {
        let (_tmp, dir, db) = workspace();
        let path = dir.join(name);
        fs::write(&path, &record).unwrap();
        let out = kifudex(["index", path.to_str().unwrap()]).db(&db).output();
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stderr));
        let games = export("games", &db);
        let got = (games[0]["plies"].as_str(), games[0]["result"].as_str(), games[0]["termination"].as_str());
        assert_eq!(got, (plies, winner, "illegal_move"), "{name}:\n{record}");
        assert!(rejects(&db, "line").is_empty(), "{name}");
    }
}

/// A variation that ends `詰み` is judged as the main line is: one whose final position is
/// checkmate says nothing, one whose final position is not gets a `not_mate` warning with
/// the line of its ending. By hand: with White's king on 1a and Black's pawn on 1c, a gold
/// dropped on 1b (protected by the pawn, covering 2a and 2b) mates; one dropped on 3b does
/// not even give check.
#[test]
fn a_variation_that_says_mate_where_there_is_none_is_a_warning() {
    let (_tmp, dir, db) = workspace();
    let empty = "| ・ ・ ・ ・ ・ ・ ・ ・ ・|";
    let kif = [
        "後手の持駒：なし",
        "  ９ ８ ７ ６ ５ ４ ３ ２ １",
        "+---------------------------+",
        "| ・ ・ ・ ・ ・ ・ ・ ・v玉|一",
        &format!("{empty}二"),
        "| ・ ・ ・ ・ ・ ・ ・ ・ 歩|三",
        &format!("{empty}四"),
        &format!("{empty}五"),
        &format!("{empty}六"),
        &format!("{empty}七"),
        &format!("{empty}八"),
        "| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九",
        "+---------------------------+",
        "先手の持駒：金",
        "先手番",
        "手数----指手---------消費時間--",
        "   1 ２二金打",
        "   2 同　玉",
        "   3 中断",
        "",
        "変化：1手",
        "   1 １二金打",
        "   2 詰み",
        "",
        "変化：1手",
        "   1 ３二金打",
        "   2 詰み",
        "",
    ]
    .join("\n");
    // The ending of the second variation: the text's last line.
    let line = kif.lines().count();
    fs::write(dir.join("tsume.kif"), &kif).unwrap();
    let out = kifudex(["index", dir.to_str().unwrap()]).db(&db).output();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let warnings = export("warnings", &db);
    let got: Vec<_> =
        warnings.iter().map(|w| (w["line"].clone(), w["ply"].clone(), w["code"].clone())).collect();
    assert_eq!(got, [(line.to_string(), "1".to_string(), "not_mate".to_string())]);
    assert!(warnings[0]["message"].contains("variation"), "{}", warnings[0]["message"]);
}

/// A game stopped at a move its record writes in no notation keeps the ending the record
/// states after its moves, for the side to move after all of them (the unread ones counted),
/// as a game stopped at an illegal move does. Expected by hand: 2 moves are kept in each (3
/// in the USI lines); the record goes on to move 3, 4 or 5.
#[test]
fn a_move_that_cannot_be_read_keeps_the_records_result() {
    let (_tmp, dir, db) = workspace();
    let files: [(&str, &str, &str); 13] = [
        // USI: resign after 5 moves is White's; after 4, Black's.
        ("e5.usi", "position startpos moves 7g7f 3c3d 2g2f 4c4q 2f2e resign\n", "black"),
        ("e4.usi", "position startpos moves 7g7f 3c3d 2g2f 4c4q resign\n", "white"),
        // CSA: %TORYO after 3 moves is White's resignation; after 4, Black's.
        ("a3.csa", "N+X\nN-Y\nPI\n+\n+7776FU\n-3334FU\n+2726XX\n%TORYO\n", "black"),
        ("a4.csa", "N+X\nN-Y\nPI\n+\n+7776FU\n-3334FU\n+2726XX\n-8384FU\n%TORYO\n", "white"),
        // The same record stopped at an illegal move, for comparison.
        ("illegal.csa", "N+X\nN-Y\nPI\n+\n+7776FU\n-3334FU\n+2724FU\n%TORYO\n", "black"),
        // KIF: the 投了 row's number says who resigned; a まで line says it outright.
        (
            "b4.kifu",
            "先手：X\n後手：Y\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六XX(27)\n   4 ８四歩(83)\n   5 投了\n",
            "white",
        ),
        (
            "b3.kifu",
            "先手：X\n後手：Y\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六XX(27)\n   4 投了\nまで3手で先手の勝ち\n",
            "black",
        ),
        // KI2: the moves after the unreadable one, on its line and the next.
        ("c4.ki2u", "先手：X\n後手：Y\n\n▲７六歩 △３四歩 ▲２六XX △８四歩\n▲投了\n", "white"),
        ("c5.ki2u", "先手：X\n後手：Y\n\n▲７六歩 △３四歩 ▲２六XX\n△８四歩 ▲２五歩 △投了\n", "black"),
        // JKF: a move with no such piece, then the special.
        (
            "d3.jkf",
            r#"{"header":{},"moves":[{},{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"color":0,"piece":"FU"}},{"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"color":1,"piece":"FU"}},{"move":{"from":{"x":2,"y":7},"to":{"x":2,"y":6},"color":0,"piece":"XX"}},{"special":"TORYO"}]}"#,
            "black",
        ),
        (
            "d4.jkf",
            r#"{"header":{},"moves":[{},{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"color":0,"piece":"FU"}},{"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"color":1,"piece":"FU"}},{"move":{"from":{"x":2,"y":7},"to":{"x":2,"y":6},"color":0,"piece":"XX"}},{"move":{"from":{"x":8,"y":3},"to":{"x":8,"y":4},"color":1,"piece":"FU"}},{"special":"TORYO"}]}"#,
            "white",
        ),
        // JKF: a move whose square is a string, not a number, then the special.
        (
            "f3.jkf",
            r#"{"header":{},"moves":[{},{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"color":0,"piece":"FU"}},{"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"color":1,"piece":"FU"}},{"move":{"from":{"x":2,"y":7},"to":{"x":2,"y":"6"},"color":0,"piece":"FU"}},{"special":"TORYO"}]}"#,
            "black",
        ),
        (
            "f4.jkf",
            r#"{"header":{},"moves":[{},{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"color":0,"piece":"FU"}},{"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"color":1,"piece":"FU"}},{"move":{"from":{"x":2,"y":7},"to":{"x":2,"y":"6"},"color":0,"piece":"FU"}},{"move":{"from":{"x":8,"y":3},"to":{"x":8,"y":4},"color":1,"piece":"FU"}},{"special":"TORYO"}]}"#,
            "white",
        ),
    ];
    for (name, text, _) in &files {
        fs::write(dir.join(name), text).unwrap();
    }
    let out = kifudex(["index", dir.to_str().unwrap()]).db(&db).output();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let games = export("games", &db);
    for (name, _, winner) in files {
        let game = games.iter().find(|g| file_name(&g["source_path"]) == name).expect(name);
        let status = if name == "illegal.csa" { "no_such_move" } else { "bad_move_text" };
        let plies = if name.ends_with(".usi") { "3" } else { "2" };
        assert_eq!(
            (
                game["plies"].as_str(),
                game["result"].as_str(),
                game["termination"].as_str(),
                game["status"].as_str()
            ),
            (plies, winner, "resign", status),
            "{name}"
        );
    }
}

/// What a record writes after its game ended is counted in the warning, one move as one, and
/// its ending is named only when it writes one.
#[test]
fn moves_written_after_the_end_are_counted_in_words() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("a.csa");
    let mate = fs::read_to_string(records().join("mate_then_more.csa")).unwrap();
    // Mate at move 1 (G*9b), then two moves; then one; then one and no ending.
    let cases = [
        (vec![], "2 more moves and its ending"),
        (vec!["+9282KI\n"], "1 more move and its ending"),
        (vec!["+9282KI\n", "%TORYO\n"], "1 more move"),
    ];
    for (cuts, said) in cases {
        let cut = cuts.iter().fold(mate.clone(), |text, cut| text.replace(cut, ""));
        fs::write(&path, cut).unwrap();
        let out = kifudex(["convert", path.to_str().unwrap(), "--to", "usi"]).output();
        let stderr = text(&out.stderr);
        assert!(stderr.contains(&format!("(from this line, {said}) is not kept")), "{stderr}");
    }
}
