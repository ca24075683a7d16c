//! Inputs built to break things: binary files with record extensions, a 100 MB line, a game
//! of a million plies, a record with 10,000 variations, directories 200 deep, file names that
//! are not UTF-8, NUL bytes. Each must be read (or refused) with no panic, in time linear in
//! its size, and leave a sound database. The large inputs are made at test time.

use std::{
    ffi::OsString,
    fs,
    os::unix::ffi::OsStringExt,
    path::{Path, PathBuf},
};

use kifudex::{
    kifu::{self, Format},
    replay::replay,
};

use super::harness::{assert_sound, export_games, stderr, usi_line};
use crate::util::{Rng, assert_every_read_works, command};

/// The status, the summary `kifudex index --json` prints, and the messages (no progress bar:
/// stderr is not a terminal).
fn index_json(dir: &Path, db: &Path) -> (Option<i32>, serde_json::Value, String) {
    let out = command().arg("index").arg(dir).arg("--db").arg(db).arg("--json").output().unwrap();
    let summary = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    (out.status.code(), summary, stderr(&out))
}

const EXTENSIONS: [&str; 10] = ["kif", "kifu", "ki2", "ki2u", "csa", "jkf", "usi", "sfen", "psn", "usen"];

/// Random bytes, and a few headers of real binary formats, under every record extension: each
/// file is a rejected file with a message, none yields a game, the run exits 1. Under `.json`
/// and `.txt`, which other files use too, they are skipped.
#[test]
fn binary_files_with_record_extensions_are_rejected() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    fs::create_dir(&dir).unwrap();
    let mut rng = Rng::new(21);
    let mut contents: Vec<Vec<u8>> =
        (0..8).map(|i| (0..64 << i).map(|_| rng.next() as u8).collect()).collect();
    contents.push(b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0".repeat(50));
    contents.push(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".repeat(50));
    contents.push(b"PK\x03\x04\x14\0\0\0\x08\0".repeat(50));
    contents.push(vec![0u8; 4096]);
    contents.push(vec![0xFFu8; 4096]);
    let mut n = 0;
    for ext in EXTENSIONS {
        for (i, bytes) in contents.iter().enumerate() {
            fs::write(dir.join(format!("bin{i:02}.{ext}")), bytes).unwrap();
            n += 1;
        }
    }
    for ext in ["json", "txt"] {
        for (i, bytes) in contents.iter().enumerate() {
            fs::write(dir.join(format!("maybe{i:02}.{ext}")), bytes).unwrap();
        }
    }
    let db = tmp.path().join("k.sqlite");
    let (code, summary, messages) = index_json(&dir, &db);
    assert_eq!(code, Some(1), "{messages}");
    assert_eq!(summary["files_seen"], n + 2 * contents.len());
    assert_eq!(summary["files_rejected"], n, "{summary}");
    assert_eq!(summary["files_skipped"], 2 * contents.len(), "{summary}");
    assert!(!messages.contains("maybe"), "{messages}");
    assert_eq!(summary["games_added"], 0, "{summary}");
    // One message a file, each naming the file and why.
    for ext in EXTENSIONS {
        assert!(messages.contains(&format!("bin00.{ext}")), "{messages}");
    }
    assert!(messages.lines().count() >= n, "{messages}");
    assert_sound(&db);
    assert_every_read_works(&db, "bad input", 400);
}

/// `text` read as every format and as a file of unknown format, every game replayed.
fn read_every_way(text: &str) -> usize {
    let mut games = 0;
    for format in Format::ALL {
        for game in kifu::read(format, text) {
            replay(&game);
            games += 1;
        }
    }
    if let Ok(file) = kifu::read_file(None, text.as_bytes()) {
        games += file.games.len();
    }
    games
}

/// One line of 100 MB, in the shapes the readers might take it for. Ignored by default (it
/// reads 800 MB in all, about 25 s): `cargo test --test tests -- --ignored hundred_megabyte`.
#[test]
#[ignore = "reads 800 MB: cargo test --test tests -- --ignored hundred_megabyte"]
fn a_hundred_megabyte_line_is_read_in_linear_time() {
    const SIZE: usize = 100 << 20;
    let shapes = ["７六歩", "P-7f ", "+7776FU,", "7g7f ", "{\"a\":", "x"];
    for shape in shapes {
        let line = shape.repeat(SIZE / shape.len());
        read_every_way(&line);
    }
    // And as a file the command indexes.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    fs::create_dir(&dir).unwrap();
    // A KIF header line of 100 MB: a game with a long name for Black and no moves.
    fs::write(dir.join("huge.kif"), "先手：".to_string() + &"歩".repeat(SIZE / 3)).unwrap();
    fs::write(dir.join("huge.usi"), "position startpos moves ".to_string() + &"x".repeat(SIZE)).unwrap();
    let db = tmp.path().join("k.sqlite");
    let (code, summary, messages) = index_json(&dir, &db);
    assert_eq!(code, Some(1), "{messages}");
    assert_eq!(summary["games_added"], 1, "{summary}");
    assert_eq!(summary["files_rejected"], 1, "{summary}");
    assert!(messages.contains("huge.usi [unknown_format]"), "{messages}");
    assert_sound(&db);
    assert_every_read_works(&db, "bad input", 400);
}

/// A move of a megabyte that is no move, in every format a move is read in: the game stops
/// there, and the message, the recorded reject and the summary quote the move in part.
#[test]
fn a_huge_bad_move_is_quoted_in_part() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    fs::create_dir(&dir).unwrap();
    let bad = "３".repeat(1 << 18);
    fs::write(dir.join("g.kif"), format!("手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 {bad}\n"))
        .unwrap();
    fs::write(dir.join("g.csa"), format!("PI\n+\n+7776FU\n-{}\n", "3".repeat(1 << 20))).unwrap();
    fs::write(dir.join("g.usi"), format!("position startpos moves 7g7f {}\n", "3c3d".repeat(1 << 18)))
        .unwrap();
    let db = tmp.path().join("k.sqlite");
    let (code, summary, messages) = index_json(&dir, &db);
    assert_eq!(code, Some(1), "{messages}");
    // Each is the game 7g7f, stopped at move 2: one game, two duplicates, three rejects.
    let counts = ["games_added", "games_duplicate", "games_rejected"].map(|k| summary[k].as_u64());
    assert_eq!(counts, [Some(1), Some(2), Some(3)], "{summary}");
    for line in messages.lines() {
        assert!(line.len() < 400, "{}…", &line[..400]);
    }
    let rejects = command().args(["export", "rejects", "--db"]).arg(&db).output().unwrap();
    let rejects = String::from_utf8(rejects.stdout).unwrap();
    assert_eq!(rejects.lines().count(), 4, "{rejects}");
    for line in rejects.lines() {
        assert!(line.len() < 400, "{}…", &line[..400]);
    }
}

/// The same shapes at 4 MB, in the default run.
#[test]
fn a_four_megabyte_line_is_read() {
    for shape in ["７六歩", "P-7f ", "+7776FU,", "7g7f ", "{\"a\":", "x", "|v香", "変化："] {
        read_every_way(&shape.repeat((4 << 20) / shape.len()));
    }
}

/// A legal game of `plies` plies in which no position ever comes back, so no 千日手 ends it.
///
/// Black's ten tokins each step between two squares of their rank and count in a binary Gray
/// code (a cycle of 2^10 states, one tokin moving per step); White's four golds and two
/// promoted silvers each go round three squares (sideways, diagonally forward, straight back)
/// and count in a ternary Gray code (3^6 states). Black's `t`-th move makes its state `t` mod
/// 1024, White's makes its own `t` mod 729; as 1024 and 729 share no factor, the pair of
/// states, and so the position, does not repeat for 2 × 1024 × 729 plies. The kings stand
/// apart and nothing ever gives check (ranks e stays empty between the two sides).
fn no_repetition(plies: usize) -> String {
    // Black: (square in state 0, square in state 1) for each bit.
    let black: Vec<[String; 2]> = ["i", "h", "g"]
        .iter()
        .flat_map(|r| [(9, 8), (6, 5), (3, 2)].map(|(a, b)| [format!("{a}{r}"), format!("{b}{r}")]))
        .chain([["9f".to_string(), "8f".to_string()]])
        .collect();
    // White: the three squares each piece goes round, for each digit.
    let white: Vec<[String; 3]> = [("a", "b"), ("c", "d")]
        .iter()
        .flat_map(|(r, next)| {
            [9, 6, 3].map(|f| [format!("{f}{r}"), format!("{}{r}", f - 1), format!("{f}{next}")])
        })
        .collect();
    let mut board: Vec<Vec<&str>> = vec![vec!["."; 9]; 9];
    let mut put = |sq: &str, piece: &'static str| {
        let file = (sq.as_bytes()[0] - b'0') as usize;
        let rank = (sq.as_bytes()[1] - b'a') as usize;
        board[rank][9 - file] = piece;
    };
    for pair in &black {
        put(&pair[0], "+P");
    }
    for (i, round) in white.iter().enumerate() {
        put(&round[0], if i < 4 { "g" } else { "+s" });
    }
    put("1i", "K");
    put("1a", "k");
    let rows: Vec<String> = board
        .iter()
        .map(|row| {
            let mut out = String::new();
            let mut empty = 0;
            for cell in row {
                if *cell == "." {
                    empty += 1;
                } else {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push_str(cell);
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        })
        .collect();
    let (mut bits, mut digits) = (0u32, [0usize; 6]);
    let mut words = Vec::with_capacity(plies);
    for ply in 0..plies {
        let t = ply / 2;
        if ply % 2 == 0 {
            // Gray code: from t to t + 1 the bit that changes is the lowest set bit of t + 1,
            // and from the last state back to the first, the highest.
            let next = (t + 1) % 1024;
            let bit = if next == 0 { 9 } else { next.trailing_zeros() as usize };
            let from = (bits >> bit) & 1;
            words.push(format!("{}{}", black[bit][from as usize], black[bit][1 - from as usize]));
            bits ^= 1 << bit;
        } else {
            // Modular ternary Gray code: the digit that moves on is the count of trailing 2s
            // of t in base 3 (the highest digit from the last state back to the first).
            let (mut n, mut digit) = (t % 729, 0);
            while n % 3 == 2 && digit < 5 {
                n /= 3;
                digit += 1;
            }
            let at = digits[digit];
            words.push(format!("{}{}", white[digit][at], white[digit][(at + 1) % 3]));
            digits[digit] = (at + 1) % 3;
        }
    }
    format!("position sfen {} b - 1 moves {}\n", rows.join("/"), words.join(" "))
}

/// A USI game of a million plies is read, replayed to its end, and indexed.
#[test]
fn a_game_of_a_million_plies_is_read_and_indexed() {
    let text = no_repetition(1_000_000);
    let games = kifu::read(Format::Usi, &text);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].moves.len(), 1_000_000);
    let replayed = replay(&games[0]);
    assert!(replayed.status.is_complete(), "{}", replayed.status);
    assert_eq!(replayed.plies(), 1_000_000);
    assert_eq!(replayed.warnings, []);

    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    fs::create_dir(&dir).unwrap();
    fs::write(dir.join("long.usi"), &text).unwrap();
    let db = tmp.path().join("k.sqlite");
    let (code, summary, messages) = index_json(&dir, &db);
    assert_eq!(code, Some(0), "{messages}");
    assert_eq!(summary["games_added"], 1, "{summary}");
    let csv = export_games(&db);
    assert!(csv.lines().nth(1).unwrap().contains(",1000000,"), "{csv}");
    assert_sound(&db);
    assert_every_read_works(&db, "bad input", 400);
}

/// A USI game one ply past a million is read up to its millionth move and no further: the
/// game is stored with 1,000,000 plies and rejected as `too_many_moves`, while the game on the
/// next line is read as usual.
#[test]
fn a_game_past_a_million_plies_is_stored_up_to_them_and_rejected() {
    let text = no_repetition(1_000_001) + "position startpos moves 7g7f 3c3d 2g2f 8c8d\n";
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    fs::create_dir(&dir).unwrap();
    let path = dir.join("endless.usi");
    fs::write(&path, &text).unwrap();
    let db = tmp.path().join("k.sqlite");
    let (code, summary, messages) = index_json(&dir, &db);
    assert_eq!(code, Some(1), "{messages}");
    assert_eq!(summary["games_added"], 2, "{summary}");
    assert_eq!(summary["games_rejected"], 1, "{summary}");
    let csv = export_games(&db);
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{csv}");
    assert!(rows[0].contains(",1000000,") && rows[0].contains(",too_many_moves,"), "{csv}");
    assert!(rows[1].contains(",4,") && !rows[1].contains("too_many_moves"), "{csv}");
    let out = command().args(["export", "rejects", "--db"]).arg(&db).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let rejects = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = rejects.lines().skip(1).collect();
    assert_eq!(rows.len(), 1, "{rejects}");
    let reject = format!("{},0,1,1000001,too_many_moves,", path.display());
    assert!(rows[0].starts_with(&reject), "{rejects}");
    assert!(rows[0].contains("the game holds more than 1000000 moves"), "{rejects}");
    assert_sound(&db);
}

/// A KIF record whose first move has 10,000 alternatives (every legal first move, over and
/// over), each one move long.
fn ten_thousand_variations() -> String {
    let pos = kifudex::shogi::Position::startpos();
    let firsts: Vec<String> =
        pos.legal_moves().into_iter().map(|mv| kifudex::write::kif::move_text(&pos, mv)).collect();
    let mut text =
        String::from("手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n");
    for i in 0..10_000 {
        text.push_str(&format!("\n変化：1手\n   1 {}\n", firsts[i % firsts.len()]));
    }
    text
}

#[test]
fn a_record_with_ten_thousand_variations_is_read_written_and_indexed() {
    let text = ten_thousand_variations();
    let games = kifu::read(Format::Kif, &text);
    assert_eq!(games.len(), 1);
    let game = &games[0];
    assert_eq!(game.problem, None);
    assert_eq!(game.variations.len(), 10_000);
    let replayed = replay(game);
    assert_eq!(replayed.variations.len(), 10_000);
    assert!(replayed.variations.iter().all(|v| v.stopped.is_none() && v.moves.len() == 1));
    // Written and read back, every variation is still there.
    for format in [Format::Kif, Format::Ki2, Format::Jkf, Format::Western] {
        let written = kifudex::write::write(format, game, &replayed);
        let again = kifu::read(format, &written);
        assert_eq!(again.len(), 1, "{format}");
        assert_eq!(again[0].variations.len(), 10_000, "{format}");
    }

    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    fs::create_dir(&dir).unwrap();
    fs::write(dir.join("branches.kif"), &text).unwrap();
    let db = tmp.path().join("k.sqlite");
    let (code, summary, messages) = index_json(&dir, &db);
    assert_eq!(code, Some(0), "{messages}");
    assert_eq!(summary["games_added"], 1, "{summary}");
    assert_sound(&db);
    assert_every_read_works(&db, "bad input", 400);
}

/// Directories 200 deep: the game at the bottom is found and indexed, with its whole path.
#[test]
fn directories_nested_two_hundred_deep_are_walked() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("in");
    let mut deep = root.clone();
    for i in 0..200 {
        deep.push(format!("d{i}"));
    }
    fs::create_dir_all(&deep).unwrap();
    fs::write(deep.join("bottom.usi"), usi_line(&mut Rng::new(3))).unwrap();
    fs::write(root.join("top.usi"), usi_line(&mut Rng::new(4))).unwrap();
    let db = tmp.path().join("k.sqlite");
    let (code, summary, messages) = index_json(&root, &db);
    assert_eq!(code, Some(0), "{messages}");
    assert_eq!(summary["games_added"], 2, "{summary}");
    assert!(export_games(&db).contains("/d198/d199/bottom.usi"));
    assert_sound(&db);
    assert_every_read_works(&db, "bad input", 400);
}

/// A file name as CP932 bytes (not UTF-8), in the directory `dir`.
fn cp932_name(dir: &Path, name: &str) -> PathBuf {
    let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode(name);
    dir.join(OsString::from_vec(bytes.into_owned()))
}

/// Files whose names are CP932 bytes: each is indexed as its own file (names that only
/// differ in bytes that are not UTF-8 stay apart), and a second run finds each unchanged.
#[test]
fn file_names_in_cp932_bytes_are_indexed_apart() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    fs::create_dir(&dir).unwrap();
    let names = ["棋譜.usi", "将棋.usi", "羽生.usi", "藤井.usi"];
    let mut rng = Rng::new(5);
    for name in names {
        fs::write(cp932_name(&dir, name), usi_line(&mut rng)).unwrap();
    }
    let db = tmp.path().join("k.sqlite");
    let (code, summary, messages) = index_json(&dir, &db);
    assert_eq!(code, Some(0), "{messages}");
    assert_eq!(summary["games_added"], 4, "{summary}");
    let rows = export_games(&db).lines().count() - 1;
    assert_eq!(rows, 4, "{}", export_games(&db));
    let (code, summary, messages) = index_json(&dir, &db);
    assert_eq!(code, Some(0), "{messages}");
    assert_eq!(summary["files_unchanged"], 4, "{summary}");
    // Removing one and pruning removes that one only.
    fs::remove_file(cp932_name(&dir, names[0])).unwrap();
    let out =
        command().arg("index").arg(&dir).arg("--db").arg(&db).args(["--quiet", "--prune"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(export_games(&db).lines().count() - 1, 3);
    assert_sound(&db);
    assert_every_read_works(&db, "bad input", 400);
}

/// NUL bytes in a header, in move lines, and a file of nothing else: no panic, each game is
/// read as far as it is good or its file refused with a message, and a header with a NUL is
/// stored and exported as it was.
#[test]
fn nul_bytes_are_read_or_refused_and_kept_verbatim() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    fs::create_dir(&dir).unwrap();
    fs::write(dir.join("header.kif"), "棋戦：名人\0戦\n手数----指手---------消費時間--\n   1 ７六歩(77)\n")
        .unwrap();
    fs::write(dir.join("moves.kif"), "手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四\0歩(33)\n")
        .unwrap();
    fs::write(dir.join("line.usi"), "position startpos moves 7g7f\x003c3d 2g2f\n").unwrap();
    fs::write(dir.join("nothing.csa"), [0u8; 100]).unwrap();
    for text in ["\0", "\0\n\0", "+7776FU\0", "[Event \"\0\"]\n1. P-7f"] {
        read_every_way(text);
    }
    let db = tmp.path().join("k.sqlite");
    let (code, summary, messages) = index_json(&dir, &db);
    assert_eq!(code, Some(1), "{messages}");
    // The file of NULs is no record; nor is the USI line, whose first move is not one.
    assert_eq!(summary["files_rejected"], 2, "{summary}");
    assert!(messages.contains("nothing.csa [unknown_format]"), "{messages}");
    assert!(messages.contains("line.usi [unknown_format]"), "{messages}");
    // The KIF move with a NUL stops its game after move 1, which the header file also holds;
    // a move row that holds no Japanese move is `bad_move_text`. A record stopped early is
    // not one game with a whole one for the moves it kept: two games.
    assert_eq!(summary["games_rejected"], 1, "{summary}");
    assert!(messages.contains("moves.kif game 0 ply 2 [bad_move_text]"), "{messages}");
    assert!(
        messages.lines().any(|l| l.contains("moves.kif game 0 ply 2 [bad_move_text]")
            && l.ends_with("; the game is kept up to ply 1")),
        "{messages}"
    );
    assert_eq!((&summary["games_added"], &summary["games_duplicate"]), (&2.into(), &0.into()), "{summary}");
    let csv = export_games(&db);
    assert!(csv.contains("名人\0戦"), "{csv}");
    assert_sound(&db);
    assert_every_read_works(&db, "bad input", 400);
}
