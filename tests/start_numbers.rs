//! A start position's move number (an SFEN's last field: the number of the next move; KIF's
//! `手数＝N` under a diagram: the number of moves played before it) through every route: each
//! format that has a place for it, read back; a note from those that have none; the database
//! and what `show` and `export` print from it. The expected texts are worked out by hand.

use std::path::Path;

use kifudex::{kifu, replay};

use crate::util::kifudex;

/// The even start, Black to move, as the 31st move: a game shown from its middle.
const EVEN_31: &str =
    "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 31 moves 7g7f 3c3d\n";
/// The lance handicap start, White to move, as the 2nd move.
const LANCE_2: &str =
    "position sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 2 moves 3c3d 7g7f\n";
/// The even start after 7g7f, White to move, as the 32nd move.
const AFTER_7F_32: &str =
    "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 32 moves 3c3d 2g2f\n";

/// The start SFEN of a USI line.
fn start_of(usi: &str) -> &str {
    usi.trim_start_matches("position sfen ").split(" moves").next().unwrap()
}

/// The start SFEN (with its move number) of the one game in `text`, read as a `name` file and
/// replayed.
fn start_read_back(name: &str, text: &[u8]) -> String {
    let parsed = kifu::read_file(Some(Path::new(name)), text).expect("readable");
    assert_eq!(parsed.games.len(), 1, "{name}");
    replay::replay(&parsed.games[0]).start.to_string()
}

fn convert(file: &Path, to: &str) -> (String, String) {
    let out = kifudex(["convert"]).args([file.to_str().unwrap(), "--to", to]).output();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{to}: {stderr}");
    (String::from_utf8(out.stdout).unwrap(), stderr)
}

/// USI, KIF, KI2 and Western text each carry the start's move number and read it back: the
/// even start as the 31st move was written `position startpos`, the lance handicap as the
/// 2nd move `手合割：香落ち` with moves from 1.
#[test]
fn a_start_move_number_goes_through_every_format_with_a_place_for_it() {
    let tmp = tempfile::tempdir().unwrap();
    // (line, KIF's diagram tail and first move rows, Western's first moves)
    let cases = [
        (
            EVEN_31,
            "手数＝30\n先手番\n手数----指手---------消費時間--\n  31 ７六歩(77)\n  32 ３四歩(33)\n",
            "16. P-7f P-3d",
        ),
        (
            LANCE_2,
            "手数＝1\n後手番\n手数----指手---------消費時間--\n   2 ３四歩(33)\n   3 ７六歩(77)\n",
            "1... P-3d 2. P-7f",
        ),
        (
            AFTER_7F_32,
            "手数＝31\n後手番\n手数----指手---------消費時間--\n  32 ３四歩(33)\n  33 ２六歩(27)\n",
            "16... P-3d 17. P-2f",
        ),
    ];
    for (line, kif_tail, western_moves) in cases {
        let file = tmp.path().join("g.usi");
        std::fs::write(&file, line).unwrap();
        let start = start_of(line);

        let (usi, stderr) = convert(&file, "usi");
        assert_eq!((usi.as_str(), stderr.as_str()), (line, ""));

        let (kif, _) = convert(&file, "kif");
        assert!(kif.contains(kif_tail), "{line}{kif}");
        assert!(!kif.contains("手合割"), "{line}{kif}");
        let (ki2, _) = convert(&file, "ki2");
        let diagram_tail = kif_tail.split("手数----").next().unwrap();
        assert!(ki2.contains(diagram_tail), "{line}{ki2}");
        let (western, _) = convert(&file, "western");
        assert!(western.contains(&format!("[SFEN \"{start}\"]")), "{line}{western}");
        assert!(western.contains(western_moves), "{line}{western}");

        for (name, text) in [("g.usi", &usi), ("g.kif", &kif), ("g.ki2", &ki2), ("g.psn", &western)] {
            assert_eq!(start_read_back(name, text.as_bytes()), start, "{name}:\n{text}");
        }
    }
}

/// CSA and JKF have no place for a start's move number: the converter says it leaves it out,
/// in a note that leaves the exit status alone, and only when there is one to leave.
#[test]
fn csa_and_jkf_name_the_start_move_number_they_leave_out() {
    let tmp = tempfile::tempdir().unwrap();
    let note = "g.usi: note: the start move numbers are left out";
    for (line, noted) in [
        (EVEN_31, true),
        (LANCE_2, true),
        ("position startpos moves 7g7f\n", false),
        ("position sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d\n", false),
    ] {
        let file = tmp.path().join("g.usi");
        std::fs::write(&file, line).unwrap();
        for to in ["csa", "jkf"] {
            let (text, stderr) = convert(&file, to);
            assert_eq!(stderr.contains(note), noted, "{to} {line}: {stderr}");
            assert_eq!(stderr.lines().count(), usize::from(noted), "{to} {line}: {stderr}");
            // The position and the moves are kept; the number is 1 read back.
            let back = start_read_back(&format!("g.{to}"), text.as_bytes());
            let start = start_of(line);
            let start = if start == "position startpos" {
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
            } else {
                start
            };
            assert_eq!(back.rsplit_once(' ').unwrap().0, start.rsplit_once(' ').unwrap().0, "{to}");
            assert!(back.ends_with(" 1"), "{to}: {back}");
        }
    }
}

/// Indexed, a game keeps its start's move number: `show` writes it in every format that has
/// a place for it, and `export` gives it in the start and each position's SFEN.
#[test]
fn an_indexed_game_keeps_its_start_move_number_in_show_and_export() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("kifu");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.usi"), EVEN_31).unwrap();
    std::fs::write(dir.join("b.usi"), LANCE_2).unwrap();
    let db = tmp.path().join("k.sqlite");
    let (code, _, stderr) = kifudex(["index", dir.to_str().unwrap(), "--quiet"]).db(&db).run();
    assert_eq!(code, 0, "{stderr}");
    let show = |id: &str, to: &str| {
        let (code, stdout, stderr) = kifudex(["show", id, "--to", to]).db(&db).run();
        assert_eq!(code, 0, "{stderr}");
        stdout
    };
    for (id, line, number) in [("1", EVEN_31, "手数＝30\n"), ("2", LANCE_2, "手数＝1\n")] {
        assert_eq!(show(id, "usi"), line);
        let start = start_of(line);
        for (to, name) in [("kif", "g.kif"), ("ki2", "g.ki2"), ("western", "g.psn"), ("usi", "g.usi")] {
            let text = show(id, to);
            if matches!(to, "kif" | "ki2") {
                assert!(text.contains(number), "{to}:\n{text}");
            }
            assert_eq!(start_read_back(name, text.as_bytes()), start, "{to}:\n{text}");
        }
    }

    let (code, games, stderr) = kifudex(["export", "games"]).db(&db).run();
    assert_eq!(code, 0, "{stderr}");
    assert!(games.contains(&format!(",{},", start_of(EVEN_31))), "{games}");
    assert!(games.contains(&format!(",{},", start_of(LANCE_2))), "{games}");
    let (code, moves, stderr) = kifudex(["export", "moves"]).db(&db).run();
    assert_eq!(code, 0, "{stderr}");
    // ply, usi, sfen_before: the ply counts from the start, the SFEN numbers the move.
    let rows: Vec<(&str, &str, &str)> = moves
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[1], f[2], f[5].rsplit(' ').next().unwrap())
        })
        .collect();
    assert_eq!(rows, [("1", "7g7f", "31"), ("2", "3c3d", "32"), ("1", "3c3d", "2"), ("2", "7g7f", "3")]);
}

/// A title written onto the name (`渡辺明竜王`, `羽生善治(九段)`) is shown as it was written,
/// as `convert` writes it: no space put before it.
#[test]
fn show_writes_a_player_s_title_as_the_record_wrote_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("kifu");
    std::fs::create_dir_all(&dir).unwrap();
    let kif = "先手：渡辺明竜王\n後手：羽生善治(九段)\n手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n";
    let file = dir.join("t.kif");
    std::fs::write(&file, kif).unwrap();
    let db = tmp.path().join("k.sqlite");
    let (code, _, stderr) = kifudex(["index", dir.to_str().unwrap(), "--quiet"]).db(&db).run();
    assert_eq!(code, 0, "{stderr}");
    for (to, black, white) in [
        ("csa", "N+渡辺明竜王\n", "N-羽生善治(九段)\n"),
        ("jkf", "\"先手\": \"渡辺明竜王\"", "\"後手\": \"羽生善治(九段)\""),
        ("western", "[Sente \"渡辺明竜王\"]", "[Gote \"羽生善治(九段)\"]"),
        ("kif", "先手：渡辺明竜王\n", "後手：羽生善治(九段)\n"),
    ] {
        let (code, shown, stderr) = kifudex(["show", "1", "--to", to]).db(&db).run();
        assert_eq!(code, 0, "{stderr}");
        assert!(shown.contains(black) && shown.contains(white), "{to}:\n{shown}");
        let (converted, _) = convert(&file, to);
        assert!(converted.contains(black) && converted.contains(white), "{to}:\n{converted}");
    }
}
