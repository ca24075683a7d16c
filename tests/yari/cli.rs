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
    fail(
        &["moves", "P-8f", "--variant", "yari"],
        "move 1 (P-8f, black to move): a square off the 7×9 yari shogi board (files 1 to 7, ranks a to i)",
    );
    fail(
        &["moves", "YB6i-5h", "--variant", "standard"],
        "move 1 (YB6i-5h, black to move): YN, YB and YR are yari shogi pieces, not shogi's",
    );
    fail(
        &["moves", "P-7f", "--variant", "yari", "--to", "japanese"],
        "yari shogi moves are written in Western notation (--to western or hosking) or the USI-like form (--to usi)",
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
    let (code, _, err) = kifudex(["convert", file, "--to", "kif"]).run();
    assert_eq!((code, err.contains("a KIF file cannot hold yari shogi games")), (2, true), "{err}");
    // A record of pawn moves only is yari shogi's when asked.
    let pawns = dir.path().join("pawns.psn");
    fs::write(&pawns, "1. P-7f P-3d\n").expect("write the record");
    let pawns = pawns.to_str().expect("a UTF-8 path");
    let (_, shogi, _) = kifudex(["convert", pawns, "--to", "usi"]).run();
    assert_eq!(shogi, "position startpos moves 7g7f 3c3d\n");
    let (_, yari, _) = kifudex(["convert", pawns, "--to", "usi", "--variant", "yari"]).run();
    assert_eq!(yari, "position sfen rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1 moves 7g7f 3c3d\n");
}
