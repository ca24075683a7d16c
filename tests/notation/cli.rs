//! `kifudex moves`: output, exit codes and messages, run on the built binary.

use std::process::Stdio;

use crate::util::kifudex;

/// Runs `kifudex moves` and returns (exit code, stdout, stderr).
fn moves(args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["moves"];
    all.extend_from_slice(args);
    let out = kifudex(&all).output();
    let text = |b: Vec<u8>| String::from_utf8(b).expect("UTF-8 output");
    (out.status.code().expect("an exit code"), text(out.stdout), text(out.stderr))
}

#[test]
fn prints_usi_by_default() {
    assert_eq!(moves(&["1.P-76 P-34 2.P-26"]), (0, "7g7f 3c3d 2g2f\n".into(), String::new()));
    // Several arguments are one sequence.
    assert_eq!(moves(&["7g7f", "△３四歩"]), (0, "7g7f 3c3d\n".into(), String::new()));
}

#[test]
fn a_csa_move_of_white_s_is_a_move_not_a_flag() {
    let expected = (0, "▲７六歩 △３四歩\n".to_string(), String::new());
    assert_eq!(moves(&["+7776FU", "-3334FU", "--to", "japanese"]), expected);
    assert_eq!(moves(&["+7776FU -3334FU", "--to", "japanese"]), expected);
    assert_eq!(moves(&["+7776FU", "-3334FU!", "--to", "japanese"]), expected);
    assert_eq!(moves(&["+7776FU", "-3334FU\u{3000}", "--to", "japanese"]), expected);
    let after_7g7f = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2";
    assert_eq!(moves(&["-3334FU", "--start", after_7g7f]), (0, "3c3d\n".into(), String::new()));
    // And as the value of --moves.
    let out = kifudex(["query", "--moves", "-3334FU", "--db", "no-such.sqlite"]).output();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("move 1 (-3334FU, black to move)"), "{stderr}");
    // Other arguments that start with a hyphen and a digit are taken as written: a name after
    // `--`, a database named so.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("-2024");
    std::fs::create_dir(&dir).unwrap();
    let game = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/pro/2021-06-29_oui-1.kifu");
    std::fs::copy(game, dir.join("g.kifu")).unwrap();
    let out = kifudex(["index", "--db=-1.sqlite", "--", "-2024"]).dir(tmp.path()).output();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(tmp.path().join("-1.sqlite").exists());
}

#[test]
fn prints_every_notation() {
    let text = "7g7f 3c3d 8h2b+ 3a2b B*4e";
    for (to, expected) in [
        ("usi", "7g7f 3c3d 8h2b+ 3a2b B*4e"),
        ("japanese", "▲７六歩 △３四歩 ▲２二角成 △同　銀 ▲４五角"),
        ("western", "P-7f P-3d Bx2b+ Sx2b B*4e"),
        ("hosking", "P76 P34 Bx22+ Sx22 B'45"),
        ("csa", "+7776FU -3334FU +8822UM -3122GI +0045KA"),
    ] {
        assert_eq!(moves(&[text, "--to", to]), (0, format!("{expected}\n"), String::new()), "{to}");
    }
}

#[test]
fn starts_from_a_handicap_or_an_sfen() {
    let expected = (0, "4a3b 7g7f 6a7b\n".to_string(), String::new());
    assert_eq!(moves(&["1...G-32 2.P-76 G-72", "--start", "2-piece"]), expected);
    assert_eq!(moves(&["1...G-32 2.P-76 G-72", "--start", "二枚落ち"]), expected);
    let sfen = "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
    assert_eq!(moves(&["1...G-32 2.P-76 G-72", "--start", sfen]), expected);
    assert_eq!(moves(&["7g7f", "--start", "startpos"]), (0, "7g7f\n".into(), String::new()));
}

#[test]
fn an_illegal_move_exits_2_naming_it() {
    let (code, out, err) = moves(&["7g7f 3c3d G-58"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "kifudex: move 3 (G-58, black to move): ambiguous: it could be G4i-5h (4i5h) or G6i-5h (6i5h)\n"
    );

    let (code, _, err) = moves(&["▲７六歩 △７六歩"]);
    assert_eq!(
        (code, err.as_str()),
        (2, "kifudex: move 2 (△７六歩, white to move): no such move: no legal 歩 to ７六\n")
    );

    // The rules' reason, when the move is named exactly.
    let (code, _, err) = moves(&["7g7f 3c3d 2h2b"]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "kifudex: move 3 (2h2b, black to move): no such move: blocked path: a piece stands on 2g\n"
    );
}

#[test]
fn an_unreadable_move_exits_2_naming_it() {
    let (code, out, err) = moves(&["P-76 P-34 hello"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "kifudex: move 3 (hello, black to move): not a move in USI, CSA, Western or Japanese notation\n"
    );
}

#[test]
fn a_usi_move_with_a_western_no_promotion_mark_is_told_why() {
    let (code, out, err) = moves(&["7g7f 3c3d 8h2b="]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "kifudex: move 3 (8h2b=, black to move): a USI move has no '=': a move that does not promote is written bare\n"
    );
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(moves(&[]).0, 2);
    assert_eq!(moves(&["7g7f", "--to", "klingon"]).0, 2);
    let (code, _, err) = moves(&["7g7f", "--start", "not a position"]);
    assert_eq!(code, 2);
    assert!(err.contains("--start 'not a position'"), "{err}");
    // A position that breaks the rules: two black kings.
    assert_eq!(moves(&["7g7f", "--start", "4k4/9/9/9/9/9/9/9/3KK4 b - 1"]).0, 2);
}

#[test]
fn a_closed_pipe_is_success() {
    // Far more output than a pipe holds, to a reader that has gone away.
    let shuffle = "2h3h 8b7b 3h2h 7b8b ".repeat(2_000);
    let mut child = crate::util::command()
        .args(["moves", &shuffle, "--to", "japanese"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the kifudex binary runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("kifudex ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    // No error: only the note that the rooks' shuffle repeats the start a fourth time at ply 12.
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("kifudex: note: after move 12 "), "{stderr}");
}

/// Moves past a fourth occurrence of a position are moves no game plays: said, with the ply
/// (the start recurs at plies 4, 8 and 12 of the rooks' shuffle) and how many follow it, and
/// nothing when the sequence ends there.
#[test]
fn moves_past_a_fourfold_repetition_are_noted() {
    let shuffle = |plies: usize| {
        "2h3h 8b7b 3h2h 7b8b ".repeat(5).split_whitespace().take(plies).collect::<Vec<_>>().join(" ")
    };
    for (plies, note) in [
        (12, None),
        (
            13,
            Some(
                "after move 12 a position occurs for the fourth time (千日手): by the rules the game ends there, before the 1 move after it",
            ),
        ),
        (
            17,
            Some(
                "after move 12 a position occurs for the fourth time (千日手): by the rules the game ends there, before the 5 moves after it",
            ),
        ),
    ] {
        let out = crate::util::kifudex(["moves", &shuffle(plies)]).output();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{plies}: {stderr}");
        assert_eq!(String::from_utf8_lossy(&out.stdout).split_whitespace().count(), plies);
        match note {
            Some(note) => assert_eq!(stderr, format!("kifudex: note: {note}\n"), "{plies}"),
            None => assert!(stderr.is_empty(), "{plies}: {stderr}"),
        }
    }
}
