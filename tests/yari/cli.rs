//! `kifudex moves` and `kifudex convert` on yari shogi, run on the built binary.

use std::fs;

use crate::util::kifudex;

fn ok(stdout: &str) -> (i32, String, String) {
    (0, format!("{stdout}\n"), String::new())
}

#[test]
fn moves_reads_and_writes_yari_moves() {
    let text = "1. P-7f P-3d 2. P-2f YB2a-3b 3. YB6i-5h";
    assert_eq!(kifudex(["moves", text, "--variant", "yari"]).run(), ok("7g7f 3c3d 2g2f 2a3b 6i5h"));
    assert_eq!(
        kifudex(["moves", text, "--variant", "yari", "--to", "western"]).run(),
        ok("P-7f P-3d P-2f YB2a-3b YB6i-5h")
    );
    assert_eq!(
        kifudex(["moves", text, "--variant", "yari", "--to", "hosking"]).run(),
        ok("P76 P34 P26 YB21-32 YB69-58")
    );
    // The yari pieces say which game it is.
    assert_eq!(kifudex(["moves", text, "--to", "western"]).run(), ok("P-7f P-3d P-2f YB2a-3b YB6i-5h"));
    // So does a seven-file start.
    let start = "1nnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR w - 1";
    assert_eq!(
        kifudex(["moves", "1... P-3d 2. P-7f", "--start", start, "--to", "western"]).run(),
        ok("P-3d P-7f")
    );
    assert_eq!(
        kifudex(["moves", "7g7f N*5e", "--start", "r1nkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b N 1"]).run().0,
        2
    );
    assert_eq!(
        kifudex([
            "moves",
            "N*5e",
            "--start",
            "r1nkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b N 1",
            "--to",
            "western"
        ])
        .run(),
        ok("YN*5e")
    );
}

/// Three yari knights that can reach 2五: the outer two jump, the middle one goes straight
/// ahead. Seed 001's words: 左 and 右 for the outer ones, 直 for the one going straight up;
/// each read back is the move written.
#[test]
fn three_knights_to_one_square_get_three_japanese_moves() {
    let start = "3k3/7/7/6B/1B5/7/+P3NNN/7/3K3 b - 1";
    for (usi, japanese) in [("3g2e", "▲２五桂左"), ("2g2e", "▲２五桂直"), ("1g2e", "▲２五桂右")]
    {
        let written =
            kifudex(["moves", usi, "--start", start, "--variant", "yari", "--to", "japanese"]).run();
        assert_eq!(written, ok(japanese), "{usi}");
        assert_eq!(kifudex(["moves", japanese, "--start", start, "--variant", "yari"]).run(), ok(usi));
    }
}

#[test]
fn moves_refuses_with_the_reason() {
    let fail = |args: &[&str], message: &str| {
        assert_eq!(kifudex(args).run(), (2, String::new(), format!("kifudex: {message}\n")), "{args:?}");
    };
    fail(
        &["moves", "1. P-7f P-3d 2. P-2f YB-3b", "--variant", "yari"],
        "move 4 (YB-3b, white to move): ambiguous: it could be YB2a-3b (2a3b) or YB3a-3b (3a3b)",
    );
    fail(
        &["moves", "S-4h", "--variant", "yari"],
        "move 1 (S-4h, black to move): yari shogi has no silver: its pieces are P, YN, YB, YR and G",
    );
    // A gold (金, KI) from the general's square, whose letter the gold shares: no such piece,
    // not "a G, not a G".
    for (text, gold) in [("▲３八金(49)", "gold"), ("+4938KI", "gold"), ("+4938NG", "promoted silver")] {
        fail(
            &["moves", text, "--variant", "yari"],
            &format!(
                "move 1 ({text}, black to move): yari shogi has no {gold}: its pieces are P, YN, YB, YR and G"
            ),
        );
    }
    fail(
        &["moves", "P-8f", "--variant", "yari"],
        "move 1 (P-8f, black to move): a square off the 7×9 yari shogi board (files 1 to 7, ranks a to i)",
    );
    fail(
        &["moves", "YB6i-5h", "--variant", "standard"],
        "move 1 (YB6i-5h, black to move): YN, YB and YR are yari shogi pieces, not shogi's",
    );
    fail(
        &["moves", "P-7f", "--variant", "yari", "--to", "csa"],
        "CSA has no yari shogi moves: write them in Western notation (--to western or hosking), Japanese or the USI-like form (--to usi)",
    );
    fail(
        &[
            "moves",
            "P-7f",
            "--variant",
            "standard",
            "--start",
            "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1",
        ],
        "--variant standard was given, but the start is a position of yari shogi",
    );
}

#[test]
fn convert_writes_yari_games_in_every_yari_form() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("yari.psn");
    let record = "[Variant \"Yari shogi\"]\n[Black \"Alice\"]\n[White \"Bob\"]\n[Result \"1-0\"]\n\n\
                  1. P-7f P-3d 2. P-2f YB2a-3b 3. YB6i-5h YN-5b 4. P-7e P-3e 5. P-7d Px7d 6. YRx7d P*7c\n\
                  7. YRx7c+ 1-0\n";
    fs::write(&path, record).expect("write the record");
    let file = path.to_str().expect("a UTF-8 path");
    let tags = "[Variant \"Yari shogi\"]\n[Black \"Alice\"]\n[White \"Bob\"]\n[Result \"1-0\"]\n[Termination \"resign\"]\n\n";
    assert_eq!(
        kifudex(["convert", file, "--to", "western"]).run(),
        (
            0,
            format!(
                "{tags}1. P-7f P-3d 2. P-2f YB2a-3b 3. YB6i-5h YN-5b 4. P-7e P-3e 5. P-7d Px7d 6. YRx7d\nP*7c 7. YRx7c+ 1-0\n"
            ),
            String::new()
        )
    );
    assert_eq!(
        kifudex(["convert", file, "--to", "hosking"]).run(),
        (
            0,
            format!(
                "{tags}1. P76 P34 2. P26 YB21-32 3. YB69-58 YN52 4. P75 P35 5. P74 Px74 6. YRx74 P'73\n7. YRx73+ 1-0\n"
            ),
            String::new()
        )
    );
    let usi = "position sfen rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1 moves 7g7f 3c3d 2g2f 2a3b 6i5h \
               5a5b 7f7e 3d3e 7e7d 7c7d 7i7d P*7c 7d7c+ resign\n";
    // The players have no place in a USI line: a note says so, and the status stays 0.
    let note = format!(
        "kifudex: {file}: note: the headers are left out: a USI line holds the start, the moves and a few endings \
         only\n"
    );
    assert_eq!(kifudex(["convert", file, "--to", "usi"]).run(), (0, usi.to_string(), note));
    // KIF and JKF name the game by their 手合割 alone: the Western tag is not carried over.
    for to in ["kif", "jkf"] {
        let (code, text, err) = kifudex(["convert", file, "--to", to]).run();
        assert_eq!(code, 0, "{err}");
        assert_eq!(text.matches("手合割").count(), 1, "{text}");
        assert!(text.contains("槍将棋") && !text.contains("Variant"), "{text}");
    }
    let (code, _, err) = kifudex(["convert", file, "--to", "csa"]).run();
    assert_eq!((code, err.contains("a CSA file cannot hold this yari shogi game")), (2, true), "{err}");
    // The formats named instead are those that hold the game: all but CSA from the yari start,
    // and only the Western and USI forms from another position.
    assert!(err.trim_end().ends_with("write it with --to kif, ki2, usi, jkf, western or hosking"), "{err}");
    let other = dir.path().join("other.psn");
    fs::write(&other, "[SFEN \"3r2k/7/7/7/7/7/7/7/3K3 b - 1\"]\n\n1. G-4h\n").expect("write the record");
    let (code, _, err) = kifudex(["convert", other.to_str().unwrap(), "--to", "kif"]).run();
    assert_eq!(code, 2, "{err}");
    assert!(err.trim_end().ends_with("write it with --to usi, western or hosking"), "{err}");
    // A record of pawn moves only is yari shogi's when asked.
    let pawns = dir.path().join("pawns.psn");
    fs::write(&pawns, "1. P-7f P-3d\n").expect("write the record");
    let pawns = pawns.to_str().expect("a UTF-8 path");
    let (_, shogi, _) = kifudex(["convert", pawns, "--to", "usi"]).run();
    assert_eq!(shogi, "position startpos moves 7g7f 3c3d\n");
    let (_, yari, _) = kifudex(["convert", pawns, "--to", "usi", "--variant", "yari"]).run();
    assert_eq!(yari, "position sfen rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1 moves 7g7f 3c3d\n");
}

/// A database of one yari game, 1. P-7f P-3d 2. P-2f, in a temporary folder.
fn one_yari_game() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let record = dir.path().join("yari.psn");
    fs::write(&record, "[Variant \"Yari shogi\"]\n\n1. P-7f P-3d 2. P-2f *\n").expect("write the record");
    let db = dir.path().join("yari.sqlite");
    let (code, _, err) = kifudex(["index", record.to_str().expect("a UTF-8 path")]).db(&db).run();
    assert_eq!(code, 0, "{err}");
    (dir, db)
}

/// `query --bod` reads back the lettered diagram `query` draws for a yari position (yari shogi
/// has no BOD, its pieces having no Japanese names), whole or as a hand-written file.
#[test]
fn query_reads_the_yari_diagram_it_draws() {
    let (dir, db) = one_yari_game();
    let json = |args: &[&str]| -> (i32, serde_json::Value, String) {
        let (code, out, err) = kifudex(args).db(&db).run();
        (code, serde_json::from_str(&out).unwrap_or(serde_json::Value::Null), err)
    };

    // The whole answer of a query, diagram and all, as the position.
    let (_, drawn, _) =
        kifudex(["query", "--variant", "yari", "--moves", "P-7f P-3d", "--limit", "0"]).db(&db).run();
    let whole = dir.path().join("answer.txt");
    fs::write(&whole, &drawn).expect("write the answer");
    let (code, answer, err) =
        json(&["query", "--bod", whole.to_str().expect("a UTF-8 path"), "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(answer["position"]["sfen"], "rnnkbbr/7/pppp1pp/4p2/7/P6/1PPPPPP/7/RBBKNNR b - 1");
    assert_eq!(answer["position"]["games"], 1);
    assert_eq!(answer["moves"][0]["usi"], "2g2f");

    // A diagram written by hand: pieces in hand, a promoted pawn, White to move.
    let hand_drawn = "White in hand: P\n\
                      \x20  7  6  5  4  3  2  1\n\
                      \x20  r  n  .  k  .  b  r  a\n\
                      \x20  .  .  n  .  b  .  .  b\n\
                      \x20  .  p  p  p  .  p  p  c\n\
                      \x20  R  .  .  .  p  .  .  d\n\
                      \x20  .  .  .  .  .  .  .  e\n\
                      \x20  .  .  .  .  . +P  .  f\n\
                      \x20  .  P  P  P  P  .  P  g\n\
                      \x20  .  .  B  .  .  .  .  h\n\
                      \x20  .  .  B  K  N  N  R  i\n\
                      Black in hand: P\n\
                      White to move\n";
    let file = dir.path().join("hand.txt");
    fs::write(&file, hand_drawn).expect("write the diagram");
    let (code, answer, err) =
        json(&["query", "--bod", file.to_str().expect("a UTF-8 path"), "--format", "json"]);
    assert_eq!(code, 1, "no game reaches it: {err}");
    assert_eq!(answer["position"]["sfen"], "rn1k1br/2n1b2/1ppp1pp/R3p2/7/5+P1/1PPPP1P/2B4/2BKNNR w Pp 1");
    // It is yari shogi's: asking for shogi says so.
    let (code, _, err) =
        json(&["query", "--bod", file.to_str().expect("a UTF-8 path"), "--variant", "standard"]);
    assert_eq!(
        (code, err.as_str()),
        (
            2,
            "kifudex: --variant standard was given, but the position asked about is a position of yari shogi\n"
        )
    );

    // A row with a square missing is refused with its line.
    fs::write(&file, hand_drawn.replace("  .  .  n  .  b  .  .  b", "  .  n  .  b  .  .  b"))
        .expect("write the diagram");
    assert_eq!(
        kifudex(["query", "--bod", file.to_str().expect("a UTF-8 path")]).db(&db).run(),
        (
            2,
            String::new(),
            "kifudex: not a board diagram: the row has 6 squares, the column line numbers 7 files (line 4)\n"
                .to_string()
        )
    );
}

#[test]
fn a_handicap_filter_for_yari_games_is_refused() {
    let (_dir, db) = one_yari_game();
    let refusal = |handicap: &str| {
        format!(
            "kifudex: --handicap {handicap} was given, but yari shogi has no handicaps: its games all start from its one start\n"
        )
    };
    // Yari shogi asked for by name, or by the position asked about.
    for (args, handicap) in [
        (&["query", "--variant", "yari", "--handicap", "lance"][..], "香落ち"),
        (&["games", "--variant", "yari", "--handicap", "平手"][..], "平手"),
        (&["query", "--variant", "yari", "--moves", "P-7f", "--handicap", "bishop"][..], "角落ち"),
        (
            &["query", "--start", "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1", "--handicap", "lance"][..],
            "香落ち",
        ),
    ] {
        assert_eq!(kifudex(args).db(&db).run(), (2, String::new(), refusal(handicap)), "{args:?}");
    }
}
