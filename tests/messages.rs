//! What the command says when it cannot do what it was asked, and what it takes: every error
//! says each thing once, dates are dates of the calendar, and USI position commands (as
//! engines and `show --to usi` write them) are read wherever moves or an SFEN are.

use std::{error::Error, fs, path::Path};

use crate::util::kifudex;

/// The parts of a message (`a: b: c`), without the `kifudex: ` prefix.
fn parts(line: &str) -> Vec<&str> {
    line.trim_start_matches("kifudex: ").split(": ").map(str::trim).collect()
}

/// Fails when a part of the message says again what another part says, or when one of
/// `names` (paths, texts the user gave) appears twice.
fn assert_once(message: &str, names: &[&str], what: &str) {
    for line in message.lines() {
        let parts = parts(line);
        for (i, a) in parts.iter().enumerate() {
            for b in &parts[i + 1..] {
                let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
                assert!(
                    short.len() < 8 || !long.contains(short),
                    "{what}: '{short}' is said twice in\n{line}"
                );
            }
        }
        for name in names.iter().filter(|n| !n.is_empty()) {
            assert!(line.matches(name).count() <= 1, "{what}: '{name}' is said twice in\n{line}");
        }
    }
}

/// Every way of failing the command line offers that this test could think of, each run on
/// the binary: each exits 2 with one message on stderr that says each thing once.
#[test]
fn every_error_says_each_thing_once() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let db = dir.join("k.sqlite");
    let games = dir.join("games");
    fs::create_dir(&games).unwrap();
    fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/duplicates/kif/habu.kifu"),
        games.join("habu.kifu"),
    )
    .unwrap();
    assert_eq!(kifudex(["index", games.to_str().unwrap()]).db(&db).output().status.code(), Some(0));
    let junk = dir.join("junk.sqlite");
    fs::write(&junk, "x".repeat(5000)).unwrap();
    let notes = dir.join("notes.txt");
    fs::write(&notes, "no record here\n").unwrap();
    let bod = dir.join("bad.bod");
    fs::write(&bod, "後手の持駒：なし\n  ９ ８ ７\n|v香v桂|一\n").unwrap();
    let kif = games.join("habu.kifu");
    let absent = dir.join("absent.sqlite");
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let two_kings = "lnsgkgsnl/1r5b1/ppppppppp/9/4K4/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    let cases: Vec<(Vec<String>, Option<&Path>)> = vec![
        (vec!["query".into(), "--sfen".into(), "lnsgkgsnl b - 1".into()], Some(&db)),
        (vec!["query".into(), "--sfen".into(), two_kings.into()], Some(&db)),
        (vec!["query".into(), "--sfen".into(), "sfen lnsgkgsnl b - 1 moves 7g7f".into()], Some(&db)),
        (vec!["query".into()], Some(&junk)),
        (vec!["index".into(), s(&games)], Some(&junk)),
        (vec!["index".into(), s(&games)], Some(dir)),
        (vec!["query".into(), "--moves".into(), "7g7f 7g7f".into()], Some(&db)),
        (vec!["query".into(), "--moves".into(), "position startpos moves 7g7f 3c3x".into()], Some(&db)),
        (vec!["query".into(), "--since".into(), "2019-13".into()], Some(&db)),
        (vec!["export".into(), "games".into(), "--until".into(), "2019-02-30".into()], Some(&db)),
        (vec!["show".into(), "1".into(), "--since".into(), "2019-1".into()], Some(&db)),
        (vec!["moves".into(), "P-76 P-34 2.P-26 G-52".into()], None),
        (vec!["moves".into(), "▲７六歩 △３四歩 ▲５八金引".into()], None),
        (vec!["moves".into(), "--start".into(), "xyz".into(), "7g7f".into()], None),
        (vec!["moves".into(), "--start".into(), "香落ち".into(), "startpos moves 7g7f".into()], None),
        (vec!["convert".into(), s(&dir.join("nosuch.kif"))], None),
        (vec!["convert".into(), s(&notes)], None),
        (vec!["show".into(), "999".into()], Some(&db)),
        (vec!["export".into(), "games".into()], Some(&absent)),
        (vec!["export".into(), "rejects".into(), "--player".into(), "x".into()], Some(&db)),
        (vec!["index".into(), s(&dir.join("missing1")), s(&dir.join("missing2"))], Some(&db)),
        (vec!["index".into(), s(&games), "--include".into(), "a[".into()], Some(&db)),
        (vec!["query".into(), "--position".into(), s(&dir.join("nosuch.kif:3"))], Some(&db)),
        (vec!["query".into(), "--position".into(), format!("{}:999", s(&kif))], Some(&db)),
        (vec!["query".into(), "--position".into(), s(&notes)], Some(&db)),
        (vec!["query".into(), "--bod".into(), s(&bod)], Some(&db)),
        (
            vec![
                "query".into(),
                "--start".into(),
                "sfen lnsgkgsnl b - 1".into(),
                "--moves".into(),
                "7g7f".into(),
            ],
            Some(&db),
        ),
    ];
    for (args, db) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = match db {
            Some(db) => kifudex(&args).db(db).output(),
            None => kifudex(&args).output(),
        };
        let message = String::from_utf8_lossy(&out.stderr).into_owned();
        let what = format!("{args:?}");
        assert_eq!(out.status.code(), Some(2), "{what}: {message}");
        assert_eq!(message.lines().count(), 1, "{what}: {message}");
        assert!(message.starts_with("kifudex: "), "{what}: {message}");
        let mut names: Vec<&str> =
            args.iter().copied().filter(|a| a.len() >= 6 && !a.starts_with("--")).collect();
        names.extend(db.and_then(|db| db.to_str()));
        assert_once(&message, &names, &what);
    }
}

/// A file that is not text says so once, naming the encodings it was read in: only the one its
/// byte order mark declares, when it has one.
#[test]
fn a_file_that_is_not_text_names_the_encodings_it_was_read_in() {
    let tmp = tempfile::tempdir().unwrap();
    let cases: [(&str, &[u8], &str); 3] = [
        // UTF-16 cut after an odd byte, the line break.
        (
            "odd.kif",
            b"\xFF\xFE,b\n",
            "byte 0x0A is not text in UTF-16 (little-endian), which the byte order mark at its start declares",
        ),
        // Bytes of no encoding after a UTF-8 mark, on every line.
        (
            "mark.kif",
            b"\xEF\xBB\xBF\xFF\n\xFF\n",
            "byte 0xFF is not text in UTF-8, which the byte order mark at its start declares",
        ),
        ("junk.kif", b"\xFF\xFF\xFF\n", "byte 0xFF is not text in UTF-8, CP932 (Shift_JIS) or EUC-JP"),
    ];
    for (name, bytes, says) in cases {
        let path = tmp.path().join(name);
        fs::write(&path, bytes).unwrap();
        let out = kifudex(["convert", path.to_str().unwrap()]).output();
        let message = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(2), "{name}: {message}");
        assert!(message.trim_end().ends_with(says), "{name}: {message}");
        assert_eq!(message.matches("not text").count(), 2, "{name}: {message}");
        assert_eq!(message.matches("UTF-8").count(), usize::from(name != "odd.kif"), "{name}: {message}");
    }
}

/// The text of an error as the command prints it (`{:#}`: the error, then each cause).
fn printed<E: Error + Send + Sync + 'static>(e: E) -> String {
    format!("{:#}", anyhow::Error::new(e).context("the command failed"))
}

/// Every error type of the library that wraps another, built around an inner error: its
/// message holds the inner one's once, whether it is printed alone or with its causes.
#[test]
fn no_error_repeats_the_error_it_wraps() {
    use kifudex::{db, export, ingest, query::Target};
    let sqlite = || {
        rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_NOTADB),
            Some("file is not a database".into()),
        )
    };
    let io = || std::io::Error::new(std::io::ErrorKind::PermissionDenied, "permission denied");
    let printed: Vec<String> = vec![
        printed(db::Error::Sql(sqlite())),
        printed(db::Error::Open { path: "k.sqlite".into(), error: sqlite() }),
        printed(db::Error::Migration { name: "0001_init", error: sqlite() }),
        printed(db::Error::from(rusqlite::types::FromSqlError::InvalidType)),
        printed(export::Error::from(io())),
        printed(export::Error::from(db::Error::Sql(sqlite()))),
        printed(ingest::Error::Path { path: "a/b".into(), error: io() }),
        printed(ingest::Error::Thread { error: io() }),
        printed(ingest::Error::Db(db::Error::Sql(sqlite()))),
        printed(Target::from_sfen("lnsgkgsnl b - 1").unwrap_err()),
        printed(
            Target::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/4K4/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
                .unwrap_err(),
        ),
        printed(Target::from_moves(&kifudex::shogi::Position::startpos(), "7g7f 7g7f").unwrap_err()),
    ];
    for text in &printed {
        assert_once(text, &[], text);
    }
    assert!(printed[0].ends_with(": file is not a database"), "{}", printed[0]);
    assert!(printed[9].contains("not an SFEN: the board has 1 ranks"), "{}", printed[9]);
    // The readers' messages, kept with each reject, are whole on their own.
    for (text, format) in [
        ("position sfen lnsgkgsnl b - 1 moves 7g7f\n", kifudex::kifu::Format::Usi),
        ("[SFEN \"lnsgkgsnl b - 1\"]\n1. P-7f\n", kifudex::kifu::Format::Western),
    ] {
        let games = kifudex::kifu::read(format, text);
        let problem = games[0].problem.as_ref().expect("the bad SFEN stops the game");
        let message = problem.kind.to_string();
        assert!(message.contains("the board has 1 ranks"), "{message}");
        assert_once(&message, &[], &message);
        assert_eq!(problem.code(), "bad_board", "{message}");
    }
}

/// A database of the records of `tests/data/duplicates`, in a temporary directory (kept while
/// the first value lives).
fn indexed_duplicates() -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("k.sqlite");
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/duplicates");
    assert_eq!(kifudex(["index", games.to_str().unwrap()]).db(&db).output().status.code(), Some(0));
    (tmp, db)
}

#[test]
fn dates_are_checked_as_dates() {
    let (_tmp, db) = indexed_duplicates();
    for (date, why) in [
        ("2019-13", "there is no month 13"),
        ("2019-02-30", "2019-02 has 28 days"),
        ("2019-2", "YYYY-MM"),
        ("2019/02/01", "YYYY-MM"),
    ] {
        for (command, option) in [("query", "--since"), ("query", "--until"), ("export", "--since")] {
            let args: Vec<&str> = if command == "export" {
                vec!["export", "games", option, date]
            } else {
                vec![command, option, date]
            };
            let out = kifudex(&args).db(&db).output();
            let message = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {message}");
            assert!(
                message.contains(&format!("{option} '{date}' is not a date: ")) && message.contains(why),
                "{message}"
            );
        }
    }
    // Partial dates stay valid: 2006 and 2006-12 keep the games of 2006-12-15 and 16, and a
    // leap day is a day.
    for (since, until, games) in [
        ("2006", "2006", 1),
        ("2006-12", "2006-12", 1),
        ("2006-12-17", "2007", 1),
        ("2008-02-29", "2024-02-29", 0),
    ] {
        let out =
            kifudex(["query", "--since", since, "--until", until, "--moves", "7g7f", "--format", "json"])
                .db(&db)
                .output();
        assert_eq!(out.status.code(), Some(if games == 0 { 1 } else { 0 }), "{since} {until}");
        let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(answer["position"]["games"], games, "{since} {until}");
    }
}

/// A negative number given where a count goes (`--limit -1`) is refused as a count below 0,
/// naming the flag, not taken for another flag; a negative date or game id is told apart in
/// the same way and refused for what it is.
#[test]
fn negative_numbers_are_refused_as_values_not_taken_for_flags() {
    let (_tmp, db) = indexed_duplicates();
    for (args, words) in [
        (&["query", "--limit", "-1"][..], "'-1' for '--limit <N>': below 0: give 0 or more"),
        (&["query", "--offset", "-5"], "'-5' for '--offset <N>': below 0: give 0 or more"),
        (&["query", "--limit=-1"], "'-1' for '--limit <N>': below 0: give 0 or more"),
        (&["query", "--limit", "ten"], "'ten' for '--limit <N>': not a number"),
        // `games` lists at least one game, or all of them.
        (&["games", "--limit", "-3"], "'-3' for '--limit <N>': below 1: give 1 or more, or --all"),
        (&["games", "--offset", "-3"], "'-3' for '--offset <N>': below 0: give 0 or more"),
        (&["export", "tree", "--max-ply", "-1"], "'-1' for '--max-ply <PLY>': below 0: give 0 or more"),
        (&["query", "--since", "-2020"], "--since '-2020' is not a date"),
        (&["show", "-1"], "there is no game -1"),
        (&["show", "9223372036854775808"], "there is no game 9223372036854775808: game ids go from 1 to"),
        (&["show", "one"], "'one' for '<GAME_ID>': not a game id: give a number"),
        (&["serve", "--idle-timeout", "-1"], "'-1' for '--idle-timeout <SECONDS>': -1 is not in 1..=3600"),
    ] {
        let out = kifudex(args).db(&db).output();
        let message = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {message}");
        assert!(message.contains(words), "{args:?}: {message}");
        assert!(!message.contains("unexpected argument"), "{args:?}: {message}");
    }
}

/// A record dated only by its month or year takes in all of it, for `--since` as for
/// `--until`; a range that ends before it starts is refused.
#[test]
fn partial_record_dates_take_in_all_of_them() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, db) = (tmp.path().join("games"), tmp.path().join("k.sqlite"));
    fs::create_dir(&dir).unwrap();
    // Three games (the same moves would make one game of three records).
    let games = [
        ("june", "2019/06", "７六歩(77)"),
        ("year", "2019", "２六歩(27)"),
        ("july", "2019/07/02", "５六歩(57)"),
    ];
    for (name, date, first) in games {
        let kif = format!(
            "開始日時：{date}\n先手：A\n後手：B\n手合割：平手\n手数----指手---------消費時間--\n   1 {first}\n   2 投了\n"
        );
        fs::write(dir.join(format!("{name}.kif")), kif).unwrap();
    }
    assert_eq!(kifudex(["index", dir.to_str().unwrap()]).db(&db).output().status.code(), Some(0));
    // By hand: June 2019 and the year 2019 both hold days from 2019-06-01 to 2019-06-30.
    for (args, games) in [
        (&["--since", "2019-06-01"][..], 3),
        (&["--since", "2019-06"], 3),
        (&["--since", "2019-07-01"], 2),
        (&["--since", "2019-07-03"], 1),
        (&["--since", "2020"], 0),
        (&["--until", "2019-06-30"], 2),
        (&["--since", "2019-06-15", "--until", "2019-06-20"], 2),
        (&["--since", "2019-07", "--until", "2019"], 2),
    ] {
        let mut all = vec!["games", "--format", "json"];
        all.extend_from_slice(args);
        let out = kifudex(&all).db(&db).output();
        let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(answer["total"], games, "{args:?}");
    }
    for (since, until) in [("2020", "2019"), ("2019-07", "2019-06-30"), ("2019-06-02", "2019-06-01")] {
        let out = kifudex(["games", "--since", since, "--until", until]).db(&db).output();
        let message = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{since} {until}: {message}");
        assert!(message.contains(&format!("--since {since} is after --until {until}")), "{message}");
    }
}

/// The moves of the hand-written game of `tests/data/duplicates`, as USI.
const GAME: &str = "7g7f 3c3d 2g2f 4c4d 2f2e 2b3c 3i4h 8b4b 5i6h 5a6b 6h7h 6b7b";

/// The position and list of `query ARGS --format json`.
fn position_of(args: &[&str], db: &Path) -> (String, Vec<i64>) {
    let args: Vec<&str> = ["query", "--format", "json"].into_iter().chain(args.iter().copied()).collect();
    let out = kifudex(&args).db(db).output();
    assert!(matches!(out.status.code(), Some(0 | 1)), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ids = answer["games"].as_array().unwrap().iter().map(|g| g["id"].as_i64().unwrap()).collect();
    (answer["position"]["sfen"].as_str().unwrap().to_string(), ids)
}

#[test]
fn usi_position_commands_are_read_wherever_moves_and_sfens_are() {
    let (_tmp, db) = indexed_duplicates();
    // `show --to usi` writes the record with its ending word (black, to move, resigned) ...
    let out = kifudex(["show", "1", "--to", "usi"]).db(&db).output();
    let line = String::from_utf8(out.stdout).unwrap();
    assert_eq!(line, format!("position startpos moves {GAME} resign\n"));
    // ... and `moves`, `query --moves` and `query --sfen` read it back.
    let moves = crate::util::command().args(["moves", line.trim()]).output().unwrap();
    assert_eq!(String::from_utf8(moves.stdout).unwrap().trim(), GAME);
    let (end, ids) = position_of(&["--moves", GAME], &db);
    assert_eq!(ids, [1]);
    assert_eq!(position_of(&["--moves", &line], &db), (end.clone(), vec![1]));
    assert_eq!(position_of(&["--sfen", &line], &db), (end.clone(), vec![1]));
    // Every form, with and without `position`, names the same position as the moves.
    let after_two = position_of(&["--moves", "7g7f 3c3d"], &db);
    let after_one = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
    for text in [
        "position startpos moves 7g7f 3c3d".to_string(),
        "startpos moves 7g7f 3c3d".to_string(),
        format!("position sfen {after_one} moves 3c3d"),
        format!("sfen {after_one} moves 3c3d"),
    ] {
        assert_eq!(position_of(&["--moves", &text], &db), after_two, "--moves {text}");
        assert_eq!(position_of(&["--sfen", &text], &db), after_two, "--sfen {text}");
        let out = crate::util::command().args(["moves", &text, "--to", "csa"]).output().unwrap();
        let expected = if text.contains("sfen") { "-3334FU" } else { "+7776FU -3334FU" };
        assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), expected, "moves {text}");
    }
    assert_eq!(position_of(&["--sfen", &format!("{after_one} moves 3c3d")], &db), after_two);
    // --exact-sequence takes the moves of the command.
    let (_, exact) = position_of(&["--sfen", "position startpos moves 7g7f 3c3d", "--exact-sequence"], &db);
    assert_eq!(exact, [1]);
    // A command naming a start agrees with a --start naming the same one.
    let out = kifudex(["query", "--start", "startpos", "--moves", "startpos moves 7g7f"]).db(&db).output();
    assert_eq!(out.status.code(), Some(0));
    let out = kifudex(["query", "--start", after_one, "--moves", &format!("sfen {after_one} moves 3c3d")])
        .db(&db)
        .output();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn control_characters_in_a_rejected_file_name_are_shown_not_sent_to_the_terminal() {
    // A name with an escape sequence that clears the screen, and one with a line break.
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    fs::create_dir(&games).unwrap();
    fs::write(games.join("j\u{1b}[2J.kif"), "not a record\n").unwrap();
    fs::write(games.join("two\nlines.kif"), "not a record\n").unwrap();
    let out = crate::util::command()
        .arg("index")
        .arg(&games)
        .arg("--db")
        .arg(tmp.path().join("k.sqlite"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
    assert!(stderr.contains("j\\x1b[2J.kif"), "{stderr}");
    assert!(stderr.contains("two\\x0alines.kif"), "{stderr}");
}

/// `convert`'s notes name the file as its warnings do: a line break in the name is shown, so
/// that the note stays one line.
#[test]
fn a_note_on_a_converted_file_is_one_line_whatever_its_name() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("c\nd.kifu");
    fs::write(&input, "手数----指手---------消費時間--\n*a comment\n   1 ７六歩(77)\n   2 投了\n").unwrap();
    let out = kifudex(["convert", "--to", "usi"]).args([&input]).output();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("c\\x0ad.kifu: note: the comments are left out"), "{stderr}");
}

#[test]
fn an_error_is_one_line_whatever_the_name_it_quotes() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("k.sqlite");
    fs::write(tmp.path().join("g.csa"), "PI\n+\n+7776FU\n%TORYO\n").unwrap();
    assert_eq!(kifudex(["index", tmp.path().to_str().unwrap()]).db(&db).output().status.code(), Some(0));
    // A line break in a file name given is shown as the tables show it, as a tab is.
    for (out, shown) in
        [("no\ndir/x.kif", "no\\x0adir"), ("x\ny.kif", "x\\x0ay.kif"), ("t\tab/x.kif", "t\\x09ab")]
    {
        let given = tmp.path().join(out);
        let result = kifudex(["show", "1", "--to", "usi", "--out"]).args([&given]).db(&db).output();
        let stderr = String::from_utf8(result.stderr).unwrap();
        assert_eq!(result.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(shown), "{stderr}");
    }
}

#[test]
fn control_characters_in_an_alias_or_a_name_given_are_shown_in_notes() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("k.sqlite");
    fs::write(tmp.path().join("g.csa"), "N+Sente\nN-Gote\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n").unwrap();
    let out = kifudex(["index", tmp.path().to_str().unwrap()]).db(&db).output();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // Each note names what was given: a clear-screen sequence and a bell, shown as text.
    for (args, shown) in [
        (["alias", "remove", "q\u{1b}[2Jx"].as_slice(), "q\\x1b[2Jx"),
        (&["alias", "add", "b\u{7}ell", "Sente"], "b\\x07ell"),
        (&["players", "--vs", "z\u{1b}[31mred"], "z\\x1b[31mred"),
    ] {
        let out = kifudex(args).db(&db).output();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(!stderr.contains(['\u{1b}', '\u{7}']), "{args:?}: {stderr:?}");
        assert!(stderr.contains(shown), "{args:?}: {stderr}");
    }
}

#[test]
fn bidirectional_controls_in_names_are_shown_in_tables_and_kept_in_csv() {
    // A right-to-left override turns the rest of a terminal line around: 中田 shown after it
    // would read as 田中, another player.
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    fs::create_dir(&games).unwrap();
    let black = "\u{202e}中田";
    let white = "山田\u{2066}x\u{2069}\u{200f}";
    fs::write(
        games.join("a.kif"),
        format!(
            "開始日時：2020/01/01\n先手：{black}\n後手：{white}\n手合割：平手\n   1 ７六歩(77)\n   2 投了\n"
        ),
    )
    .unwrap();
    let db = tmp.path().join("k.sqlite");
    let (code, _, stderr) = kifudex(["index", "-q"]).args([&games]).db(&db).run();
    assert_eq!(code, 0, "{stderr}");
    let bidi =
        |c: char| matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}');
    for command in [&["games"][..], &["players"], &["query", "--moves", "7g7f"]] {
        let (code, stdout, stderr) = kifudex(command).db(&db).run();
        assert_eq!(code, 0, "{command:?}: {stderr}");
        assert!(!stdout.chars().any(bidi), "{command:?}: {stdout:?}");
        assert!(stdout.contains("<U+202E>中田"), "{command:?}: {stdout}");
    }
    let (_, stdout, _) = kifudex(["games"]).db(&db).run();
    assert!(stdout.contains("山田<U+2066>x<U+2069><U+200F>"), "{stdout}");
    // CSV keeps the names as they were read.
    let (code, csv, stderr) = kifudex(["games", "--format", "csv"]).db(&db).run();
    assert_eq!(code, 0, "{stderr}");
    assert!(csv.contains(black) && csv.contains(white), "{csv:?}");
}

/// Runs `kifudex ARGS --db DB` with a terminal (a pseudo-terminal) as its standard output:
/// the exit code and what the terminal was sent, its line ends as `\n`.
fn on_a_terminal(args: &[&str], db: &Path) -> (i32, String) {
    let mut cmd = crate::util::command();
    cmd.args(args).arg("--db").arg(db);
    terminal_output(cmd)
}

/// Runs `cmd` with a terminal (a pseudo-terminal) as its standard output: the exit code and
/// what the terminal was sent, its line ends as `\n`.
fn terminal_output(mut cmd: std::process::Command) -> (i32, String) {
    use std::{
        io::Read,
        os::fd::{FromRawFd, OwnedFd},
    };
    let (mut master, mut slave) = (-1, -1);
    // SAFETY: openpty writes the two descriptors it opens, and reads no name, settings or size
    // (all null).
    let opened = unsafe {
        libc::openpty(&mut master, &mut slave, std::ptr::null_mut(), std::ptr::null(), std::ptr::null())
    };
    assert_eq!(opened, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both were just opened, and nothing else owns them.
    let (master, slave) = unsafe { (fs::File::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    cmd.stdout(std::process::Stdio::from(slave));
    let mut child = cmd.spawn().unwrap();
    // The terminal's other end closes with the child's: the reader then gets an error (EIO).
    drop(cmd);
    let reader = std::thread::spawn(move || {
        let mut sent = Vec::new();
        let mut master = master;
        let _ = master.read_to_end(&mut sent);
        sent
    });
    let code = child.wait().unwrap().code().expect("an exit code");
    let sent = String::from_utf8(reader.join().unwrap()).unwrap();
    (code, sent.replace("\r\n", "\n"))
}

#[test]
fn line_separators_and_a_record_s_controls_are_shown_on_a_terminal_and_kept_elsewhere() {
    // U+2028 and U+2029 break a terminal's line or show as nothing; an escape sequence in a
    // header acts on the terminal; U+202E turns the rest of the line around.
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    fs::create_dir(&games).unwrap();
    let (black, white, event) = ("\u{202e}太郎", "花子\u{2028}次郎\u{1b}[2J", "名人\u{2029}戦");
    fs::write(
        games.join("a.kif"),
        format!(
            "開始日時：2020/01/01\n棋戦：{event}\n先手：{black}\n後手：{white}\n手合割：平手\n   1 ７六歩(77)\n   2 投了\n"
        ),
    )
    .unwrap();
    let db = tmp.path().join("k.sqlite");
    let (code, _, stderr) = kifudex(["index", "-q"]).args([&games]).db(&db).run();
    assert_eq!(code, 0, "{stderr}");
    let shown = |c: char| matches!(c, '\u{2028}' | '\u{2029}' | '\u{202e}' | '\u{1b}');
    // Tables, piped or not, show them.
    for command in [&["games"][..], &["players"], &["query", "--moves", "7g7f"]] {
        let (code, stdout, stderr) = kifudex(command).db(&db).run();
        assert_eq!(code, 0, "{command:?}: {stderr}");
        assert!(!stdout.chars().any(shown), "{command:?}: {stdout:?}");
        assert!(stdout.contains("花子<U+2028>次郎\\x1b[2J"), "{command:?}: {stdout}");
    }
    let (_, stdout, _) = kifudex(["games"]).db(&db).run();
    assert!(stdout.contains("名人<U+2029>戦"), "{stdout}");
    // CSV and JSON keep the text.
    let (code, csv, stderr) = kifudex(["games", "--format", "csv"]).db(&db).run();
    assert_eq!(code, 0, "{stderr}");
    assert!(csv.contains(white) && csv.contains(event), "{csv:?}");
    let (code, json, stderr) = kifudex(["games", "--format", "json"]).db(&db).run();
    assert_eq!(code, 0, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        (json["games"][0]["white"].as_str(), json["games"][0]["event"].as_str()),
        (Some(white), Some(event))
    );
    // `show` into a pipe writes the record as it is; on a terminal, what would act on the
    // terminal or reorder its line is shown.
    let (code, piped, stderr) = kifudex(["show", "1"]).db(&db).run();
    assert_eq!(code, 0, "{stderr}");
    for header in [format!("先手：{black}\n"), format!("後手：{white}\n"), format!("棋戦：{event}\n")]
    {
        assert!(piped.contains(&header), "{header:?} in {piped:?}");
    }
    let (code, terminal) = on_a_terminal(&["show", "1"], &db);
    assert_eq!(code, 0);
    assert!(!terminal.chars().any(shown), "{terminal:?}");
    for header in ["先手：<U+202E>太郎\n", "後手：花子<U+2028>次郎\\x1b[2J\n", "棋戦：名人<U+2029>戦\n"]
    {
        assert!(terminal.contains(header), "{header:?} in {terminal:?}");
    }
    // Only those: the rest of the record is the piped one, line for line.
    assert_eq!(terminal.lines().count(), piped.lines().count(), "{terminal}");
    assert!(terminal.contains("   1 ７六歩(77)\n   2 投了\n"), "{terminal}");
    // `convert` prints a record the same way.
    let record = games.join("a.kif");
    let (code, piped, stderr) = kifudex(["convert"]).args([&record]).run();
    assert_eq!(code, 0, "{stderr}");
    assert!(piped.contains(&format!("後手：{white}\n")), "{piped:?}");
    let mut cmd = crate::util::command();
    cmd.arg("convert").arg(&record);
    let (code, terminal) = terminal_output(cmd);
    assert_eq!(code, 0);
    assert!(!terminal.chars().any(shown), "{terminal:?}");
    assert!(terminal.contains("後手：花子<U+2028>次郎\\x1b[2J\n"), "{terminal:?}");
    assert_eq!(terminal.lines().count(), piped.lines().count(), "{terminal}");
}

#[test]
fn a_character_shift_jis_cannot_hold_is_named_in_the_error_without_being_sent() {
    // `show --out x.kif` writes Shift_JIS, which has no U+202E: the refusal names it, and
    // does not send it, which would turn the rest of the message around.
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    fs::create_dir(&games).unwrap();
    fs::write(
        games.join("a.kif"),
        "先手：\u{202e}太郎\n後手：花子\n手合割：平手\n   1 ７六歩(77)\n   2 投了\n",
    )
    .unwrap();
    let db = tmp.path().join("k.sqlite");
    let (code, _, stderr) = kifudex(["index", "-q"]).args([&games]).db(&db).run();
    assert_eq!(code, 0, "{stderr}");
    let out = tmp.path().join("x.kif");
    let (code, stdout, stderr) = kifudex(["show", "1", "--out"]).args([&out]).db(&db).run();
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert!(!stderr.contains('\u{202e}'), "{stderr:?}");
    assert!(stderr.contains("line 1: '<U+202E>' (U+202E) cannot be written in CP932"), "{stderr}");
    assert!(!out.exists());
    // UTF-8 holds it: the record as it is.
    let out = tmp.path().join("x.kifu");
    let (code, _, stderr) = kifudex(["show", "1", "--out"]).args([&out]).db(&db).run();
    assert_eq!(code, 0, "{stderr}");
    assert!(fs::read_to_string(&out).unwrap().contains("先手：\u{202e}太郎\n"));
}
