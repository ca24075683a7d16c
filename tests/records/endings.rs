//! The time and comments a record gives its ending: read in every format that has them, kept
//! through every writer that holds them, stored in the database and given back by `show` and
//! the page. Every expected value is read off the records here by hand.

use std::fs;

use kifudex::kifu::{self, Format, Game};
use serde_json::Value;

use crate::{
    serve::Server,
    util::{indexed, kifudex},
};

/// A KIF game that Black resigns after thinking 30 seconds (35 in all), with a comment after
/// each move and two after the ending: one between its row and the `まで` line, one after it.
const KIF: &str = "\
先手：甲
後手：乙
手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:05/00:00:05)
*first move
   2 ３四歩(33)   ( 0:07/00:00:07)
*second move
   3 投了         ( 0:30/00:00:35)
*resigned at once
まで2手で後手の勝ち
*a short game
";

fn one(format: Format, text: &str) -> Game {
    let games = kifu::read_as(format, text, None);
    assert_eq!(games.len(), 1, "{text}");
    games.into_iter().next().unwrap()
}

/// A time and comments: a move's or an ending's.
type Notes = (Option<u32>, Vec<String>);

/// The moves' times and comments, and the ending's.
fn notes(game: &Game) -> (Vec<Notes>, Option<u32>, Vec<String>) {
    let moves = game.moves.iter().map(|m| (m.seconds, m.comments.clone())).collect();
    let ending = game.ending.as_ref().expect("the game has an ending");
    (moves, ending.seconds, ending.comments.clone())
}

fn strings(texts: &[&str]) -> Vec<String> {
    texts.iter().map(|s| s.to_string()).collect()
}

#[test]
fn kif_keeps_the_ending_rows_time_and_the_comments_after_it_apart_from_the_last_move() {
    let game = one(Format::Kif, KIF);
    let (moves, seconds, comments) = notes(&game);
    assert_eq!(moves, vec![(Some(5), strings(&["first move"])), (Some(7), strings(&["second move"]))]);
    assert_eq!(seconds, Some(30));
    assert_eq!(comments, strings(&["resigned at once", "a short game"]));
}

#[test]
fn a_comment_after_the_summary_line_of_a_game_with_no_ending_row_is_the_endings() {
    let text = "手数----指手--\n   1 ７六歩(77)\n*move\nまで1手で先手の勝ち\n*after\n";
    let (moves, seconds, comments) = notes(&one(Format::Kif, text));
    assert_eq!(moves, vec![(None, strings(&["move"]))]);
    assert_eq!((seconds, comments), (None, strings(&["after"])));
    let ki2 = "▲７六歩\n*move\nまで1手で先手の勝ち\n*after\n";
    let (moves, seconds, comments) = notes(&one(Format::Ki2, ki2));
    assert_eq!(moves, vec![(None, strings(&["move"]))]);
    assert_eq!((seconds, comments), (None, strings(&["after"])));
}

#[test]
fn a_comment_after_the_last_move_of_a_game_with_no_ending_stays_the_moves() {
    let text = "手数----指手--\n   1 ７六歩(77)\n*move\n";
    let game = one(Format::Kif, text);
    assert_eq!(game.ending, None);
    assert_eq!(game.moves[0].comments, strings(&["move"]));
}

/// The end of a game of the 32nd World Computer Shogi Championship, as its server wrote it:
/// the last move took 7 seconds, the resignation 16.
#[test]
fn csa_gives_the_time_and_comments_after_the_percent_word_to_the_ending() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/kifu/csa/WCSC32_F7_NBS_DLS.csa");
    let text = fs::read_to_string(path).unwrap();
    let game = one(Format::Csa, &text);
    let last = game.moves.last().unwrap();
    assert_eq!((last.seconds, last.comments.clone()), (Some(7), strings(&["** -4774 +0082GI -7182KI"])));
    let ending = game.ending.as_ref().unwrap();
    assert_eq!((ending.text.as_str(), ending.seconds), ("%TORYO", Some(16)));
    let text = "PI\n+\n+7776FU\nT3\n'move\n%TORYO\nT12\n'+ win\n";
    let (moves, seconds, comments) = notes(&one(Format::Csa, text));
    assert_eq!(moves, vec![(Some(3), strings(&["move"]))]);
    assert_eq!((seconds, comments), (Some(12), strings(&["+ win"])));
}

#[test]
fn jkf_gives_a_special_moves_time_and_comments_to_the_ending() {
    let text = r#"{"header": {}, "moves": [{}, {"move": {"from": {"x": 7, "y": 7}, "to": {"x": 7, "y": 6},
        "piece": "FU", "color": 0}, "time": {"now": {"m": 0, "s": 4}, "total": {"h": 0, "m": 0, "s": 4}},
        "comments": ["move"]}, {"special": "TORYO", "time": {"now": {"m": 1, "s": 5},
        "total": {"h": 0, "m": 1, "s": 5}}, "comments": ["over"]}]}"#;
    let (moves, seconds, comments) = notes(&one(Format::Jkf, text));
    assert_eq!(moves, vec![(Some(4), strings(&["move"]))]);
    assert_eq!((seconds, comments), (Some(65), strings(&["over"])));
}

#[test]
fn western_gives_a_comment_after_the_result_to_the_ending() {
    let text = "[Sente \"A\"]\n[Gote \"B\"]\n\n1. P-7f {move} 1-0 {after the result}\n";
    let (moves, seconds, comments) = notes(&one(Format::Western, text));
    assert_eq!(moves, vec![(None, strings(&["move"]))]);
    assert_eq!((seconds, comments), (None, strings(&["after the result"])));
}

fn convert(input: &std::path::Path, to: &str) -> String {
    let out = kifudex(["convert", input.to_str().unwrap(), "--to", to]).output();
    assert!(out.status.code().is_some_and(|c| c <= 1), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Through CSA and JKF and back to KIF, the ending row keeps its time (30 seconds, Black's
/// total 5 + 30) and its comments.
#[test]
fn the_endings_time_and_comments_survive_kif_to_csa_and_jkf_and_back() {
    let tmp = tempfile::tempdir().unwrap();
    let kif = tmp.path().join("a.kifu");
    fs::write(&kif, KIF).unwrap();
    let csa = convert(&kif, "csa");
    assert!(
        csa.ends_with("-3334FU\nT7\n'second move\n%TORYO\nT30\n'resigned at once\n'a short game\n"),
        "{csa}"
    );
    for (name, text) in [("b.csa", csa), ("b.jkf", convert(&kif, "jkf"))] {
        let path = tmp.path().join(name);
        fs::write(&path, text).unwrap();
        let back = convert(&path, "kif");
        let tail = "   2 ３四歩(33)   ( 0:07/00:00:07)\n*second move\n   3 投了         ( 0:30/00:00:35)\n\
                    *resigned at once\n*a short game\nまで2手で後手の勝ち\n";
        assert!(back.ends_with(tail), "{name}:\n{back}");
    }
}

/// Indexed, the game keeps the ending's time and comments: `show` writes them back, and the
/// page's JSON gives them apart from the last move's.
#[test]
fn the_database_keeps_the_endings_time_and_comments_for_show_and_the_page() {
    let (_tmp, _, db) = indexed(&[("a.kifu", KIF)]);
    let out = kifudex(["show", "1", "--to", "kif"]).db(&db).output();
    let shown = String::from_utf8(out.stdout).unwrap();
    let tail = "   2 ３四歩(33)   ( 0:07/00:00:07)\n*second move\n   3 投了         ( 0:30/00:00:35)\n\
                *resigned at once\n*a short game\nまで2手で後手の勝ち\n";
    assert!(shown.ends_with(tail), "{shown}");
    let server = Server::start(&db, &[]);
    let game: Value = crate::serve::http::get(server.addr, "/api/game/1").json();
    assert_eq!(game["plies"][1]["comment"], "second move");
    assert_eq!(game["plies"][1]["time"], 7);
    assert_eq!(game["ending_time"], 30);
    assert_eq!(game["ending_comment"], "resigned at once\na short game");
}

/// `export games` gives each file's comments before the first move and its ending's time and
/// comments, which no row of `export moves` holds: two files of one game, each with its own.
#[test]
fn export_games_gives_each_records_opening_comments_and_its_endings_time_and_comments() {
    let other = KIF
        .replace("消費時間--\n", "消費時間--\n*before the first move\n*and a second line\n")
        .replace("( 0:30/00:00:35)\n*resigned at once\n", "( 0:12/00:00:24)\n")
        .replace("*a short game\n", "");
    let (_tmp, dir, db) = indexed(&[("a.kifu", KIF), ("b.kifu", &other)]);

    let out = kifudex(["export", "games"]).db(&db).output();
    let rows = crate::query::csv_rows(&out.stdout);
    let got: Vec<[&str; 5]> = rows
        .iter()
        .map(|r| {
            let cell = |name: &str| r.get(name).unwrap_or_else(|| panic!("no column {name}")).as_str();
            [
                cell("source_path"),
                cell("game_id"),
                cell("comment"),
                cell("ending_time_seconds"),
                cell("ending_comment"),
            ]
        })
        .collect();
    let a = dir.join("a.kifu").to_str().unwrap().to_string();
    let b = dir.join("b.kifu").to_str().unwrap().to_string();
    assert_eq!(
        got,
        vec![
            [a.as_str(), "1", "", "30", "resigned at once\na short game"],
            [b.as_str(), "1", "before the first move\nand a second line", "12", ""],
        ]
    );

    // JSON Lines: the time a number, what a record does not give null.
    let out = kifudex(["export", "games", "--format", "jsonl"]).db(&db).output();
    let lines: Vec<Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[0]["ending_time_seconds"], 30);
    assert_eq!(lines[0]["comment"], Value::Null);
    assert_eq!(lines[1]["ending_comment"], Value::Null);

    // The moves export keeps the last move's comment apart from the ending's.
    let out = kifudex(["export", "moves"]).db(&db).output();
    let moves = crate::query::csv_rows(&out.stdout);
    let last: Vec<(&str, &str)> =
        moves.iter().map(|r| (r["comment"].as_str(), r["time_seconds"].as_str())).collect();
    assert_eq!(last, vec![("first move", "5"), ("second move", "7")]);
}

/// A KIF game that Black loses by a second pawn on the 2nd file, written as its ninth move,
/// with a time and a comment on that move and on the ending.
const FOUL: &str = "\
手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:01/00:00:01)
   2 ３四歩(33)   ( 0:02/00:00:02)
   3 ７五歩(76)   ( 0:01/00:00:02)
   4 ３五歩(34)   ( 0:02/00:00:04)
   5 ７四歩(75)   ( 0:01/00:00:03)
   6 ３六歩(35)   ( 0:02/00:00:06)
   7 ７三歩成(74) ( 0:01/00:00:04)
   8 ３七歩成(36) ( 0:02/00:00:08)
   9 ２五歩打     ( 0:33/00:00:37)
*a second pawn
  10 反則勝ち     ( 0:44/00:00:52)
*after the ending
まで9手で後手の反則勝ち
";

/// Indexed, a foul written as the last move is kept with its time and comment, and so are the
/// ending's: `show` writes them back, `export games` and the page's JSON give them.
#[test]
fn the_database_keeps_a_foul_written_as_a_move_and_the_ending_after_it() {
    let (_tmp, _, db) = indexed(&[("a.kifu", FOUL)]);
    let shown = String::from_utf8(kifudex(["show", "1", "--to", "kif"]).db(&db).output().stdout).unwrap();
    let tail = "   8 ３七歩成(36) ( 0:02/00:00:08)\n   9 ２五歩打     ( 0:33/00:00:37)\n*a second pawn\n\
                \x20 10 反則勝ち     ( 0:44/00:00:52)\n*after the ending\n";
    assert!(shown.contains(tail), "{shown}");
    let shown = String::from_utf8(kifudex(["show", "1", "--to", "csa"]).db(&db).output().stdout).unwrap();
    let tail = "-3637TO\nT2\n'illegal move: ２五歩打 (33 s)\n'a second pawn\n%ILLEGAL_MOVE\nT44\n'after the ending\n";
    assert!(shown.ends_with(tail), "{shown}");

    let rows = crate::query::csv_rows(&kifudex(["export", "games"]).db(&db).output().stdout);
    let cells: Vec<&str> = ["plies", "result", "foul", "ending_time_seconds", "ending_comment"]
        .iter()
        .map(|c| rows[0][*c].as_str())
        .collect();
    assert_eq!(cells, ["8", "white", "２五歩打", "44", "after the ending"]);

    let server = Server::start(&db, &[]);
    let game: Value = crate::serve::http::get(server.addr, "/api/game/1").json();
    assert_eq!(game["plies"].as_array().map(Vec::len), Some(8));
    assert_eq!(
        (&game["foul"], &game["foul_time"], &game["foul_comment"]),
        (&"２五歩打".into(), &33.into(), &"a second pawn".into())
    );
    assert_eq!((&game["ending_time"], &game["ending_comment"]), (&44.into(), &"after the ending".into()));
}

/// Converted to a format with no move for an illegal one, the foul that ended a game is
/// written as a comment, and that is said: the record read back names no foul move.
#[test]
fn a_foul_written_as_a_comment_is_said() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("a.kifu");
    fs::write(&input, FOUL).unwrap();
    for (to, code) in [("csa", 1), ("jkf", 1), ("western", 1), ("kif", 0), ("ki2", 0)] {
        let out = kifudex(["convert", input.to_str().unwrap(), "--to", to]).output();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{to}: {stderr}");
        let said = stderr
            .contains("its last move (２五歩打), the illegal one that ended it, is written as a comment");
        assert_eq!(said, code == 1, "{to}: {stderr}");
    }
}

/// KI2 writes a foul without its origin, and `７五歩(74)` without it is `７五歩`, which the pawn
/// on 7f may play: written as a move, it would read back as that legal move, a move never
/// played. So it is written as a comment, and that is said; read back, the game has Black's
/// two moves and Black's loss by a foul.
#[test]
fn a_ki2_foul_that_would_read_back_as_a_legal_move_is_written_as_a_comment() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("a.kifu");
    let foul = "手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７五歩(74)   ( 0:12/)\n   4 反則勝ち\n";
    fs::write(&input, foul).unwrap();
    let ki2 = tmp.path().join("a.ki2u");
    let out = kifudex(["convert", input.to_str().unwrap(), "--out", ki2.to_str().unwrap()]).output();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("its last move (７五歩(74)), the illegal one that ended it, is written as a comment")
    );
    let written = fs::read_to_string(&ki2).unwrap();
    assert!(written.contains("\n*illegal move: ７五歩(74) (12 s)\n"), "{written}");

    let out = kifudex(["convert", ki2.to_str().unwrap(), "--to", "usi"]).output();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "position startpos moves 7g7f 3c3d\n");
    assert!(String::from_utf8_lossy(&out.stderr).contains("its ending (illegal_move, a win for White)"));
}

/// A record that stops at move 5 (a move that cannot be read) and then says White won after
/// move 6, without how: KIF and KI2 have no way to say that after the four moves kept, where
/// a `まで` line naming the winner would read back as Black resigning after move 4. They leave
/// the ending out and say why.
#[test]
fn kif_and_ki2_leave_out_a_bare_result_after_a_record_stops() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("a.kifu");
    let record = "手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 ８四歩(83)\n   5 ??\nまで6手で後手の勝ち\n";
    fs::write(&input, record).unwrap();
    for to in ["kif", "ki2"] {
        let out = kifudex(["convert", input.to_str().unwrap(), "--to", to]).output();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.status.code(), Some(1), "{to}: {stderr}");
        assert!(
            stderr.contains("its ending (unknown, a win for White) is left out: the record stops before it")
        );
        assert!(!stdout.contains("まで") && !stdout.contains("投了"), "{to}: {stdout}");
        let back = tmp.path().join(format!("b.{to}u"));
        fs::write(&back, stdout.as_bytes()).unwrap();
        let usi = kifudex(["convert", back.to_str().unwrap(), "--to", "usi"]).output();
        assert_eq!(
            String::from_utf8_lossy(&usi.stdout),
            "position startpos moves 7g7f 3c3d 2g2f 8c8d\n",
            "{to}"
        );
    }
}

/// A draw names no side: where a record stops early, its row falls on the other side's turn,
/// and is written with no side before it (not `後手 千日手`, `まで2手で後手の千日手`).
#[test]
fn a_draw_after_a_record_stops_is_written_without_a_side() {
    let tmp = tempfile::tempdir().unwrap();
    let head = "手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ９九玉(11)\n";
    for (word, draw) in [("千日手", "repetition"), ("持将棋", "impasse"), ("引き分け", "draw")] {
        let input = tmp.path().join("a.kifu");
        fs::write(&input, format!("{head}   4 {word}\n")).unwrap();
        let out = kifudex(["convert", input.to_str().unwrap(), "--to", "kif"]).output();
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.status.code(), Some(1), "{word}: {stderr}");
        assert!(stdout.ends_with(&format!("   3 {word}\nまで2手で{word}\n")), "{word}: {stdout}");
        let back = tmp.path().join("b.kifu");
        fs::write(&back, stdout.as_bytes()).unwrap();
        let usi = kifudex(["convert", back.to_str().unwrap(), "--to", "usi"]).output();
        // The two moves, then a draw (USI's word for how the game ended).
        let usi = String::from_utf8_lossy(&usi.stdout);
        assert_eq!(usi, "position startpos moves 7g7f 3c3d draw\n", "{draw}");
    }
}

/// An ending a format has no word for is left out with its time and comments, and the warning
/// says they go with it.
#[test]
fn an_ending_left_out_is_said_to_take_its_time_and_comments_with_it() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("a.kifu");
    let sealed = "手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:05/00:00:05)\n   2 封じ手       ( 25:00/00:25:00)\n*sealed for the night\n";
    fs::write(&input, sealed).unwrap();
    for to in ["csa", "jkf"] {
        let out = kifudex(["convert", input.to_str().unwrap(), "--to", to]).output();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{to}: {stderr}");
        let said = "its ending (sealed, no result) is left out, with its time (1500 s) and comment:";
        assert!(stderr.contains(said), "{to}: {stderr}");
    }
}

/// A variation's ending names its winner as the main line's does: the side to move resigns,
/// runs out of time or declares; `+ILLEGAL_ACTION` is Black's foul, `-ILLEGAL_ACTION` White's.
/// Read from KIF and from JKF forks, written in KIF and KI2, and read back the same.
#[test]
fn a_variation_s_ending_names_its_winner() {
    let tmp = tempfile::tempdir().unwrap();
    let kif = tmp.path().join("a.kifu");
    let head = "手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n";
    fs::write(&kif, format!("{head}\n変化：2手\n   2 ８四歩(83)\n   3 投了\n")).unwrap();
    // Each fork replaces White's 3c3d, so Black is to move after it.
    let fork = |file: u32, special: &str| {
        format!(
            r#"[{{"move":{{"color":1,"from":{{"x":{file},"y":3}},"to":{{"x":{file},"y":4}},"piece":"FU"}}}},{{"special":"{special}"}}]"#
        )
    };
    let forks = [(8, "TIME_UP"), (6, "+ILLEGAL_ACTION"), (4, "-ILLEGAL_ACTION"), (1, "KACHI"), (9, "TORYO")]
        .map(|(file, special)| fork(file, special))
        .join(",");
    let jkf = tmp.path().join("b.jkf");
    fs::write(
        &jkf,
        format!(
            r#"{{"header":{{}},"initial":{{"preset":"HIRATE"}},"moves":[{{}},
            {{"move":{{"color":0,"from":{{"x":7,"y":7}},"to":{{"x":7,"y":6}},"piece":"FU"}}}},
            {{"move":{{"color":1,"from":{{"x":3,"y":3}},"to":{{"x":3,"y":4}},"piece":"FU"}},"forks":[{forks}]}},
            {{"special":"TORYO"}}]}}"#
        ),
    )
    .unwrap();
    let cases = [
        (&kif, vec!["まで2手で後手の勝ち", "まで2手で後手の勝ち"]),
        (
            &jkf,
            vec![
                "まで2手で後手の勝ち",
                "まで2手で時間切れにより後手の勝ち",
                "まで2手で先手の反則負け",
                "まで2手で後手の反則負け",
                "まで2手で先手の入玉勝ち",
                "まで2手で後手の勝ち",
            ],
        ),
    ];
    for (input, expected) in cases {
        for to in ["kif", "ki2"] {
            let out = kifudex(["convert", input.to_str().unwrap(), "--to", to]).output();
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert_eq!(out.status.code(), Some(0), "{to}: {}", String::from_utf8_lossy(&out.stderr));
            let mut lines: Vec<&str> = stdout.lines().filter(|l| l.starts_with("まで")).collect();
            lines.sort_unstable();
            let mut expected = expected.clone();
            expected.sort_unstable();
            assert_eq!(lines, expected, "{} to {to}:\n{stdout}", input.display());
            // Read back, every line ends as it did.
            let back = tmp.path().join(format!("back.{to}"));
            fs::write(&back, stdout.as_bytes()).unwrap();
            let again = kifudex(["convert", back.to_str().unwrap(), "--to", to]).output();
            assert_eq!(String::from_utf8_lossy(&again.stdout), stdout, "{to} read back");
        }
    }
}
