//! A game whose move N cannot be read or played keeps its first N-1 moves, and its status
//! names the line, the move and the reason; a game that ended by a foul keeps the final
//! illegal move as its ending, not as a failure. The same game in every format that can
//! write it: ７六歩 ３四歩, then Black's king two squares forward (５七玉, illegal) or a move
//! that cannot be read, then ８四歩.

use std::path::Path;

use kifudex::{
    kifu::{self, Outcome, Termination},
    replay::{ReplayedGame, Status, StopReason, replay},
    shogi::Color,
};

/// The position after ７六歩 ３四歩.
const AFTER_TWO: &str = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b -";

/// A JKF move from (x, y) to (x, y).
fn jkf_move(from: (u8, u8), to: (u8, u8), piece: &str, color: u8) -> String {
    format!(
        "{{\"move\": {{\"from\": {{\"x\": {}, \"y\": {}}}, \"to\": {{\"x\": {}, \"y\": {}}}, \"piece\": \"{piece}\", \"color\": {color}}}}}",
        from.0, from.1, to.0, to.1
    )
}

/// A JKF record, one move a line (line 3 holds move 1), then `last`.
fn jkf(third: &str, last: &str) -> String {
    format!(
        "{{\"header\": {{}},\n\"moves\": [{{}},\n{},\n{},\n{third},\n{last}\n]}}\n",
        jkf_move((7, 7), (7, 6), "FU", 0),
        jkf_move((3, 3), (3, 4), "FU", 1),
    )
}

/// The records, each as (file name, text, line of move 3): move 3 illegal, then move 3
/// unreadable (a malformed move: `bad_move_text` in every format).
fn records() -> Vec<(&'static str, String, String, u32)> {
    let kif = |third: &str| {
        format!("手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 {third}\n   4 ８四歩(83)\n")
    };
    let csa = |third: &str| format!("V2.2\nPI\n+\n+7776FU\n-3334FU\n{third}\n-8384FU\n");
    vec![
        ("game.kif", kif("５七玉(59)"), kif("５七Ｘ(59)"), 4),
        (
            "game.ki2",
            "▲７六歩 △３四歩\n▲５七玉 △８四歩\n".into(),
            "▲７六歩 △３四歩\n▲５七Ｘ △８四歩\n".into(),
            2,
        ),
        ("game.csa", csa("+5957OU"), csa("+59X7OU"), 6),
        (
            "game.jkf",
            jkf(&jkf_move((5, 9), (5, 7), "OU", 0), &jkf_move((8, 3), (8, 4), "FU", 1)),
            jkf(
                "{\"move\": {\"to\": {\"x\": 5, \"y\": 7}, \"piece\": \"XX\"}}",
                &jkf_move((8, 3), (8, 4), "FU", 1),
            ),
            5,
        ),
        (
            "game.usi",
            "position startpos moves 7g7f 3c3d 5i5g 8c8d\n".into(),
            "position startpos moves 7g7f 3c3d 5i5x 8c8d\n".into(),
            1,
        ),
        ("game.psn", "1. P-7f P-3d\n2. K-5g P-8d\n".into(), "1. P-7f P-3d\n2. K-5% P-8d\n".into(), 2),
    ]
}

fn only(file: &str, text: &str) -> (kifu::Game, ReplayedGame) {
    let parsed =
        kifu::read_file(Some(Path::new(file)), text.as_bytes()).unwrap_or_else(|e| panic!("{file}: {e}"));
    assert_eq!(parsed.games.len(), 1, "{file}");
    let game = parsed.games.into_iter().next().expect("one game");
    let r = replay(&game);
    (game, r)
}

#[test]
fn a_move_that_cannot_be_played_keeps_the_moves_before_it_in_every_format() {
    for (file, illegal, _, line) in records() {
        let (_, r) = only(file, &illegal);
        assert_eq!((r.plies(), r.end.position_text().as_str()), (2, AFTER_TWO), "{file}");
        assert_eq!(r.stopped_at(), Some(3), "{file}");
        let Status::Stopped(reason @ StopReason::Move { ply, line: at, .. }) = &r.status else {
            panic!("{file}: {}", r.status)
        };
        assert_eq!((*ply, *at, reason.code()), (3, line, "no_such_move"), "{file}: {reason}");
        let text = reason.to_string();
        assert!(text.starts_with(&format!("line {line}: move 3 (")), "{file}: {text}");
        // Why, as the move is written: the rules' reason for a move named by its origin (５七
        // holds Black's own pawn), the legal moves of the piece to the square for one named by
        // its destination alone (there are none).
        let why = match file {
            "game.ki2" => "no such move: no legal 玉 to ５七",
            "game.psn" => "no such move: no legal K to 5g",
            _ => "no such move: the destination holds one of the mover's own pieces",
        };
        assert!(text.ends_with(&format!("): {why}")), "{file}: {text}");
    }
}

/// A move that fits two legal moves names both, as its own notation writes them: at the
/// start both golds can step to ５八, from the right (４九, 右) and from the left (６九, 左).
#[test]
fn an_ambiguous_move_names_the_moves_it_could_be_as_its_notation_writes_them() {
    let records = [
        ("game.ki2", "▲５八金 △３四歩\n", "▲５八金右 (4i5h) or ▲５八金左 (6i5h)"),
        ("game.psn", "1. G-5h P-3d\n", "G4i-5h (4i5h) or G6i-5h (6i5h)"),
    ];
    for (file, text, could_be) in records {
        let (_, r) = only(file, text);
        let Status::Stopped(reason) = &r.status else { panic!("{file}: {}", r.status) };
        assert_eq!(r.plies(), 0, "{file}");
        assert_eq!(reason.code(), "ambiguous", "{file}: {reason}");
        assert!(
            reason.to_string().ends_with(&format!("): ambiguous: it could be {could_be}")),
            "{file}: {reason}"
        );
    }
}

#[test]
fn a_move_that_cannot_be_read_keeps_the_moves_before_it_in_every_format() {
    for (file, _, unreadable, line) in records() {
        let (game, r) = only(file, &unreadable);
        assert_eq!(game.moves.len(), 2, "{file}");
        assert_eq!((r.plies(), r.end.position_text().as_str()), (2, AFTER_TWO), "{file}");
        assert_eq!(r.stopped_at(), Some(3), "{file}");
        let Status::Stopped(reason @ StopReason::Read(problem)) = &r.status else {
            panic!("{file}: {}", r.status)
        };
        assert_eq!(
            (problem.line, reason.line(), reason.code()),
            (line, line, "bad_move_text"),
            "{file}: {reason}"
        );
        assert!(!problem.kind.to_string().is_empty(), "{file}");
    }
}

#[test]
fn a_game_ended_by_a_foul_keeps_the_illegal_move_as_its_ending() {
    // After Black's illegal ５七玉 White is to move and wins; each format says so its own way.
    let kif = "手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ５七玉(59)\n   4 反則勝ち\n";
    let records = [
        ("game.kif", kif.to_string()),
        ("game.ki2", "▲７六歩 △３四歩\n▲５七玉\nまで3手で後手の反則勝ち\n".to_string()),
        ("game.csa", "V2.2\nPI\n+\n+7776FU\n-3334FU\n+5957OU\n%ILLEGAL_MOVE\n".to_string()),
        ("game.jkf", jkf(&jkf_move((5, 9), (5, 7), "OU", 0), "{\"special\": \"ILLEGAL_MOVE\"}")),
    ];
    for (file, text) in records {
        let (_, r) = only(file, &text);
        assert_eq!(r.status, Status::Complete, "{file}");
        assert_eq!((r.plies(), r.end.position_text().as_str()), (2, AFTER_TWO), "{file}");
        assert_eq!(
            (r.termination, r.outcome),
            (Some(Termination::IllegalMove), Some(Outcome::Win(Color::White))),
            "{file}"
        );
        assert!(r.illegal_ending.is_some(), "{file}");
    }
}
