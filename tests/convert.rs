//! `kifudex convert`: every input format to every output format, checked by reading the output
//! back and replaying it (a round trip through a second format), plus game selection, encodings
//! and exit codes.

use std::path::Path;

use kifudex::{
    kifu::{self, encoding},
    replay,
};

use crate::util::kifudex;

fn data(rel: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kifu").join(rel)
}

fn convert(args: &[&str]) -> std::process::Output {
    kifudex(["convert"]).args(args).output()
}

/// (start SFEN, moves, end SFEN, outcome) of every game in `bytes`, replayed.
fn replayed_games(path: &Path, bytes: &[u8]) -> Vec<(String, Vec<String>, String, String)> {
    let parsed = kifu::read_file(Some(path), bytes).expect("readable");
    parsed
        .games
        .iter()
        .map(|g| {
            let r = replay::replay(g);
            let moves = r.moves.iter().map(ToString::to_string).collect();
            (r.start.position_text(), moves, r.end.position_text(), format!("{:?}", r.outcome))
        })
        .collect()
}

#[test]
fn every_format_converts_to_every_format_and_reads_back() {
    let inputs = [
        "habu-fujii-2006.kif",
        "20091203.ki2",
        "8mai.kif",
        "csa/2005_YAMADA_GPS.csa",
        "jkf/forks.json",
        "usi/test_resign.usi",
        "western/europe1997_hosking_lamb.psn",
    ];
    for input in inputs {
        let path = data(input);
        let original = replayed_games(&path, &std::fs::read(&path).unwrap());
        assert_eq!(original.len(), 1, "{input}");
        for to in ["kif", "ki2", "csa", "usi", "jkf", "western"] {
            let out = convert(&[path.to_str().unwrap(), "--to", to]);
            // forks.json has three variations, which CSA and USI cannot hold: each says so
            // once, and the exit status is 1.
            let dropped = input == "jkf/forks.json" && matches!(to, "csa" | "usi");
            // 8mai.kif ends 中断, which USI has no word for.
            let ending = input == "8mai.kif" && to == "usi";
            let message = String::from_utf8_lossy(&out.stderr);
            let code = if dropped || ending { 1 } else { 0 };
            assert_eq!(out.status.code(), Some(code), "{input} → {to}: {message}");
            if dropped {
                let said = format!(
                    "kifudex: {} game 0: its 3 variations are left out: a {} file holds none\n",
                    path.display(),
                    to.to_uppercase()
                );
                assert!(message.contains(&said), "{input} → {to}: {message}");
            }
            if ending {
                assert!(message.contains("its ending (interrupted, no result) is left out"), "{message}");
            }
            // Besides those, notes alone.
            let warnings = message.lines().filter(|l| !l.contains(": note: ")).count();
            assert_eq!(warnings, usize::from(dropped) + usize::from(ending), "{input} → {to}: {message}");
            let back = replayed_games(Path::new(&format!("out.{to}")), &out.stdout);
            assert_eq!(back.len(), 1, "{input} → {to}");
            let (start, moves, end, outcome) = &back[0];
            assert_eq!(
                (start, moves, end),
                (&original[0].0, &original[0].1, &original[0].2),
                "{input} → {to}"
            );
            // USI has words for resignation, a win and a draw only; the others keep every
            // outcome these games have.
            if to != "usi" || outcome != "None" {
                assert_eq!(outcome, &original[0].3, "{input} → {to}");
            }
        }
    }
}

#[test]
fn several_games_convert_where_the_format_holds_them() {
    // Three games; the second has a stray line after two moves, which is read past.
    let path = data("csa/multi_game.csa");
    let original = replayed_games(&path, &std::fs::read(&path).unwrap());
    assert_eq!(original.iter().map(|g| g.1.len()).collect::<Vec<_>>(), [6, 3, 7]);
    for to in ["csa", "usi", "western"] {
        let out = convert(&[path.to_str().unwrap(), "--to", to]);
        assert_eq!(out.status.code(), Some(1), "{to}: the stray line is not written");
        let back = replayed_games(Path::new(&format!("out.{to}")), &out.stdout);
        assert_eq!(
            back.iter().map(|g| &g.1).collect::<Vec<_>>(),
            original.iter().map(|g| &g.1).collect::<Vec<_>>()
        );
    }
    // KIF holds one game: the user must choose.
    let out = convert(&[path.to_str().unwrap(), "--to", "kif"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--game"));
    let out = convert(&[path.to_str().unwrap(), "--to", "kif", "--game", "1"]);
    assert_eq!(out.status.code(), Some(1), "game 1 stops early");
    let back = replayed_games(Path::new("out.kif"), &out.stdout);
    assert_eq!(back[0].1, original[1].1);
    let out = convert(&[path.to_str().unwrap(), "--game", "3"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn kif_files_are_written_in_shift_jis() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("game.kif");
    let out = convert(&[data("usi/test_resign.usi").to_str().unwrap(), "--out", target.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    let bytes = std::fs::read(&target).unwrap();
    assert!(std::str::from_utf8(&bytes).is_err(), "not UTF-8");
    assert_eq!(encoding::decode(&bytes).unwrap().encoding.name(), "cp932");
    let utf8 = dir.path().join("game.kifu");
    let out = convert(&[data("usi/test_resign.usi").to_str().unwrap(), "--out", utf8.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert!(std::str::from_utf8(&std::fs::read(&utf8).unwrap()).is_ok());
}

#[test]
fn a_game_that_stops_early_is_written_as_far_as_it_is_good() {
    // Move 5 drops a pawn the mover does not hold.
    let out = convert(&[data("usi/test_drops.usi").to_str().unwrap(), "--to", "usi"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("up to move 4"), "{stderr}");
    let back = replayed_games(Path::new("out.usi"), &out.stdout);
    assert_eq!(back[0].1.len(), 4);
}

/// A word after a USI line's ending stops the reading there, after every move: the warning
/// says the moves and the ending are all written, not that the game is cut short.
#[test]
fn text_after_the_ending_is_said_to_be_all_that_is_left_out() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("d.usi");
    std::fs::write(&input, "startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e resign extra\n").unwrap();
    let out = convert(&[input.to_str().unwrap(), "--to", "usi"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("game 0: its 5 moves and its ending are written, but not what follows them"),
        "{stderr}"
    );
    assert!(!stderr.contains("up to move"), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e resign\n"
    );
}

/// A game that ends before its first move is written with its ending after `moves`, where a
/// USI position command has its moves (`position startpos resign` is no command).
#[test]
fn an_ending_before_any_move_is_written_after_moves() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        (
            "r.kif",
            "手合割：平手\n手数----指手---------消費時間--\n   1 投了\n",
            "position startpos moves resign\n",
        ),
        (
            "w.kif",
            "手合割：平手\n手数----指手---------消費時間--\n   1 入玉勝ち\n",
            "position startpos moves win\n",
        ),
        ("n.kif", "手合割：平手\n手数----指手---------消費時間--\n", "position startpos\n"),
    ];
    for (name, kif, want) in cases {
        let input = tmp.path().join(name);
        std::fs::write(&input, kif).unwrap();
        let out = convert(&[input.to_str().unwrap(), "--to", "usi"]);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(String::from_utf8_lossy(&out.stdout), want, "{name}");
    }
}

#[test]
fn unreadable_input_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.kif");
    std::fs::write(&junk, [0xff, 0xfe, 0x00, 0x81, 0x00]).unwrap();
    let out = convert(&[junk.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("junk.kif"));
    let out = convert(&[dir.path().join("missing.kif").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
}

/// A file over the 1 GiB `index` reads at most is refused unread by `convert` and
/// `query --position` too (a sparse file of zeros: it takes no room).
#[test]
fn a_file_larger_than_any_record_is_refused_unread() {
    let dir = tempfile::tempdir().unwrap();
    let huge = dir.path().join("huge.kif");
    std::fs::File::create(&huge).unwrap().set_len((1 << 30) + 1).unwrap();
    let refused =
        format!("kifudex: cannot read {}: it holds over 1024 MiB, more than any record\n", huge.display());
    let out = convert(&[huge.to_str().unwrap()]);
    assert_eq!(
        (out.status.code(), String::from_utf8_lossy(&out.stderr).as_ref()),
        (Some(2), refused.as_str())
    );
    let position = format!("{}:1", huge.display());
    let (code, _, stderr) = kifudex(["query", "--position", &position]).run();
    assert_eq!((code, stderr.as_str()), (2, refused.as_str()));
    // A record of exactly the size a file may have is read as any other.
    let usi = dir.path().join("game.usi");
    std::fs::write(&usi, "startpos moves 7g7f 3c3d\n").unwrap();
    let out = convert(&[usi.to_str().unwrap(), "--to", "usi"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn text_shift_jis_cannot_hold_is_refused_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("emoji.psn");
    std::fs::write(&input, "[Sente \"\u{1F600} player\"]\n1. P-7f P-3d\n").unwrap();
    let target = dir.path().join("game.kif");
    let out = convert(&[input.to_str().unwrap(), "--out", target.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("U+1F600") && stderr.contains("line 1"), "{stderr}");
    // It names the file of UTF-8 that holds it.
    let kifu = dir.path().join("game.kifu");
    assert!(stderr.contains(&format!("write it to {}", kifu.display())), "{stderr}");
    assert!(!target.exists(), "nothing is written");
    // The name keeps the extension's case: a digit has none.
    for (name, named) in [("game.ki2", "game.ki2u"), ("game.KI2", "game.KI2U"), ("game.KIF", "game.KIFU")] {
        let out = convert(&[input.to_str().unwrap(), "--out", dir.path().join(name).to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(&format!("write it to {}", dir.path().join(named).display())), "{stderr}");
    }
    // UTF-8 holds it.
    let target = dir.path().join("game.kifu");
    let out = convert(&[input.to_str().unwrap(), "--out", target.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert!(std::fs::read_to_string(&target).unwrap().contains("先手：\u{1F600} player"));
    // Where that file is the record written from, which --out may not replace, it is not
    // the one named.
    let out = convert(&[target.to_str().unwrap(), "--out", dir.path().join("game.kif").to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr
            .contains(&format!("write it to a .kifu file (a file of UTF-8) other than {}", target.display())),
        "{stderr}"
    );
}

#[test]
fn a_variation_that_fits_no_line_or_stops_is_named_not_dropped_silently() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("variations.kifu");
    // The main line has two moves; 変化：7手 branches from nothing, and the variation for
    // move 2 plays an impossible move after its first.
    let text = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n\n\
                変化：7手\n   7 ２六歩(27)\n\n変化：2手\n   2 ８四歩(83)\n   3 ５五飛(28)\n";
    std::fs::write(&path, text).unwrap();
    let parsed = kifu::read_file(Some(&path), text.as_bytes()).unwrap();
    let game = &parsed.games[0];
    assert_eq!(game.moves.len(), 2);
    assert_eq!(game.warnings.len(), 1, "{:?}", game.warnings);
    assert_eq!(game.warnings[0].line, 7);
    assert!(game.warnings[0].message.contains("変化：7手"), "{:?}", game.warnings);
    let out = convert(&[path.to_str().unwrap(), "--to", "kif"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 7: 変化：7手 branches from no move"), "{err}");
    assert!(err.contains("the variation replacing move 2 is written up to move 2 only"), "{err}");
    // What could be kept is written.
    assert!(String::from_utf8_lossy(&out.stdout).contains("８四歩(83)"));

    // A variation whose first move is impossible holds nothing: it is named, and KIF and KI2
    // write no empty `変化` block for it, nor KIF the `+` that announces one.
    let text = "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n\n\
                変化：3手\n   3 ５五飛(28)\n   4 ８四歩(83)\n";
    std::fs::write(&path, text).unwrap();
    for to in ["kif", "ki2"] {
        let out = convert(&[path.to_str().unwrap(), "--to", to]);
        assert_eq!(out.status.code(), Some(1), "{to}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("the variation replacing move 3 is not written"), "{to}: {err}");
        let written = String::from_utf8_lossy(&out.stdout);
        assert!(!written.contains("変化"), "{to}: {written}");
        assert!(written.contains("２六歩"), "{to}: {written}");
        // Nor a mark on the move saying that a variation follows.
        assert!(!written.contains("２六歩(27)+"), "{to}: {written}");
    }
}

/// A record without moves that ends with its summary, as the KI2 writer writes one, keeps its
/// ending whatever its file is named: read as KI2 or as KIF, the summary is the ending.
#[test]
fn a_record_without_moves_keeps_its_summary_under_any_name() {
    let dir = tempfile::tempdir().unwrap();
    let text = "先手：a\n後手：b\n手合割：平手\nまで0手で先手の入玉勝ち\n";
    for name in ["k.ki2", "k.txt", "k.kif"] {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let out = convert(&[path.to_str().unwrap(), "--to", "csa"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{name}: {err}");
        assert!(String::from_utf8_lossy(&out.stdout).ends_with("+\n%KACHI\n"), "{name}");
    }
}

/// A record that says who won but not how (a まで line and no 投了 row) is written in Western
/// text with its `[Result]` and no `[Termination]`, and reads back with its result and no
/// warning, in Western text and in the formats written from it that hold such a result (CSA
/// and JKF have no word for it, and say so).
#[test]
fn a_result_without_its_manner_goes_through_western_text_without_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let kif = dir.path().join("u.kif");
    let text = "先手：A\n後手：B\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\nまで2手で先手の勝ち\n";
    std::fs::write(&kif, text).unwrap();
    let psn = dir.path().join("u.psn");
    let out = convert(&[kif.to_str().unwrap(), "--to", "western", "--out", psn.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let written = std::fs::read_to_string(&psn).unwrap();
    assert!(written.contains("[Result \"1-0\"]"), "{written}");
    assert!(!written.contains("Termination"), "{written}");
    for to in ["kif", "ki2", "western"] {
        let out = convert(&[psn.to_str().unwrap(), "--to", to]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!((out.status.code(), err.as_ref()), (Some(0), ""), "{to}");
        let game = kifu::read_file(Some(Path::new(&format!("g.{to}"))), &out.stdout).unwrap().games.remove(0);
        let ending = game.ending.expect("the result is kept");
        assert_eq!(ending.stated, Some(kifu::Outcome::Win(kifudex::shogi::Color::Black)), "{to}");
        assert!(game.warnings.is_empty(), "{to}: {:?}", game.warnings);
    }
}

/// A record that names a handicap game's players 下手 and 上手 keeps those keys in JKF (a CSA
/// record's N+ and N- are 先手 and 後手 there, as other converters write them), and they read
/// back as the same sides.
#[test]
fn jkf_names_a_handicap_game_s_players_as_kif_does() {
    let kif = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/handicap/2008-12-20_kyo-ochi.kif");
    let out = convert(&[kif.to_str().unwrap(), "--to", "jkf"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let jkf: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let header = &jkf["header"];
    // The sample's header lines: 上手：深浦康市, 下手：糸谷哲郎.
    assert_eq!((header["下手"].as_str(), header["上手"].as_str()), (Some("糸谷哲郎"), Some("深浦康市")));
    assert!(header.get("先手").is_none() && header.get("後手").is_none(), "{header}");
    let game = kifu::read_file(Some(Path::new("g.jkf")), &out.stdout).unwrap().games.remove(0);
    let name = |p: &Option<kifu::Player>| p.as_ref().map(|p| p.full.clone());
    assert_eq!(name(&game.info.black).as_deref(), Some("糸谷哲郎"));
    assert_eq!(name(&game.info.white).as_deref(), Some("深浦康市"));
}

/// A KIF move without an origin is read as a drop (as KIF writes board moves with theirs), and
/// a message quotes it as the file writes it, without the 打 it does not write.
#[test]
fn a_move_that_cannot_be_played_is_quoted_as_the_file_writes_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no_origin.kif");
    let text = "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩\n   4 投了\n";
    std::fs::write(&path, text).unwrap();
    let out = convert(&[path.to_str().unwrap(), "--to", "csa"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 5: move 3 (２六歩): no such move"), "{err}");
}

/// A variation of a variation that stops is named by the moves of the game, as its rows number
/// them: the one replacing move 5 of the variation that replaces move 3 stops at its move 6.
#[test]
fn a_nested_variation_that_stops_is_named_by_the_game_s_move_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested.kif");
    let text = "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 ８四歩(83)\n\
                \n変化：3手\n   3 ６六歩(67)\n   4 ８四歩(83)\n   5 ６八銀(79)\n\n\
                変化：5手\n   5 ５六歩(57)\n   6 ５九玉(51)\n";
    std::fs::write(&path, text).unwrap();
    let out = convert(&[path.to_str().unwrap(), "--to", "kif"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "the variation replacing move 5 is written up to move 5 only: line 15: move 6 (５九玉(51))"
        ),
        "{err}"
    );
}

#[test]
fn a_start_time_goes_through_western_text_and_back_as_one_date() {
    // The sample's 開始日時 is 2021/06/29 09:00: Western text writes it as a Date and a Time
    // tag, and every format written from that text has it once, whole.
    let tmp = tempfile::tempdir().unwrap();
    let kifu = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/pro/2021-06-29_oui-1.kifu");
    let psn = tmp.path().join("g.psn");
    let out = convert(&[kifu.to_str().unwrap(), "--to", "western", "--out", psn.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines = |text: &str, start: &str| -> Vec<String> {
        text.lines().filter(|l| l.starts_with(start)).map(String::from).collect()
    };
    let text = std::fs::read_to_string(&psn).unwrap();
    assert_eq!(lines(&text, "[Date "), ["[Date \"2021.06.29\"]"]);
    assert_eq!(lines(&text, "[Time "), ["[Time \"09:00:00\"]"]);
    for (to, start, want) in [
        ("kif", "開始日時", "開始日時：2021/06/29 09:00:00"),
        ("ki2", "開始日時", "開始日時：2021/06/29 09:00:00"),
        ("western", "[Time ", "[Time \"09:00:00\"]"),
        ("jkf", "    \"開始日時\"", "    \"開始日時\": \"2021/06/29 09:00:00\","),
    ] {
        let out = convert(&[psn.to_str().unwrap(), "--to", to]);
        assert!(out.status.success(), "{to}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(lines(&text, start), [want], "{to}");
        assert!(!text.contains("\"Time\""), "{to}");
        let game =
            kifu::read_file(Some(Path::new(&format!("g.{to}"))), text.as_bytes()).unwrap().games.remove(0);
        assert_eq!(game.info.start.map(|d| d.to_string()).as_deref(), Some("2021-06-29T09:00:00"), "{to}");
        assert!(game.warnings.is_empty(), "{to}: {:?}", game.warnings);
    }
}

/// A foul that ends a KIF record (a pawn moved back) is written in KI2 without the KIF origin
/// `(56)`, which KI2 has no place for, and reads back as the same foul.
#[test]
fn a_foul_is_written_in_ki2_without_its_kif_origin() {
    let tmp = tempfile::tempdir().unwrap();
    let kifu = tmp.path().join("foul.kifu");
    std::fs::write(
        &kifu,
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ５七歩(56)\n   4 反則勝ち\nまで2手で後手の反則勝ち\n",
    )
    .unwrap();
    let out = convert(&[kifu.to_str().unwrap(), "--to", "ki2"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("▲７六歩    △３四歩    ▲５七歩\n"), "{text}");
    assert!(!text.contains('('), "{text}");
    let game = kifu::read_file(Some(Path::new("foul.ki2")), text.as_bytes()).unwrap().games.remove(0);
    let replayed = replay::replay(&game);
    assert_eq!(replayed.moves.len(), 2);
    assert_eq!(
        (replayed.termination, replayed.outcome),
        (Some(kifu::Termination::IllegalMove), Some(kifu::Outcome::Win(kifudex::shogi::Color::White)))
    );
}

/// A date written with its numbers run together (`[Date "19970822"]`, as Western records of
/// the 1990s have it) is that date, once: Western text has one `Date` tag, as PGN has one tag
/// of a name, and KIF writes the date as it writes dates.
#[test]
fn a_date_run_together_is_written_once_as_the_format_writes_dates() {
    let tmp = tempfile::tempdir().unwrap();
    let psn = tmp.path().join("date.psn");
    std::fs::write(&psn, "[Sente \"A\"]\n[Gote \"B\"]\n[Date \"19970822\"]\n\n1. P-7f P-3d *\n").unwrap();
    for (to, start, want) in [
        ("western", "[Date ", "[Date \"1997.08.22\"]"),
        ("kif", "開始日時", "開始日時：1997/08/22"),
        ("ki2", "開始日時", "開始日時：1997/08/22"),
        ("csa", "$START_TIME", "$START_TIME:1997/08/22"),
    ] {
        let out = convert(&[psn.to_str().unwrap(), "--to", to]);
        assert!(out.status.success(), "{to}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<&str> =
            text.lines().filter(|l| l.starts_with(start) || l.contains("19970822")).collect();
        assert_eq!(lines, [want], "{to}:\n{text}");
    }
}

#[test]
fn a_mate_the_record_calls_a_resignation_is_a_mate_in_every_format_and_in_show() {
    // White's king on 5a, a Black pawn on 5c: the gold dropped on 5b takes every square the
    // king could go to (4a, 6a, 4b, 6b) and the pawn guards it, so it mates. The record ends
    // with %TORYO all the same.
    let tmp = tempfile::tempdir().unwrap();
    let empty = "P{n} *  *  *  *  *  *  *  *  * \n";
    let mut board = String::new();
    for n in 1..=9 {
        board.push_str(&match n {
            1 => "P1 *  *  *  * -OU *  *  *  * \n".to_string(),
            3 => "P3 *  *  *  * +FU *  *  *  * \n".to_string(),
            9 => "P9 *  *  *  * +OU *  *  *  * \n".to_string(),
            _ => empty.replace("{n}", &n.to_string()),
        });
    }
    let csa = tmp.path().join("mate.csa");
    std::fs::write(&csa, format!("V2.2\nN+Sente\nN-Gote\n{board}P+00KI\n+\n+0052KI\n%TORYO\n")).unwrap();
    let last_lines = |out: std::process::Output| -> Vec<String> {
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        text.lines().rev().filter(|l| !l.trim().is_empty()).take(2).map(|l| l.trim().to_string()).collect()
    };
    let kif = ["まで1手で詰み", "2 詰み"];
    assert_eq!(last_lines(convert(&[csa.to_str().unwrap(), "--to", "kif"])), kif);
    assert_eq!(last_lines(convert(&[csa.to_str().unwrap(), "--to", "ki2"])), ["まで1手で詰み", "▲５二金"]);
    assert_eq!(last_lines(convert(&[csa.to_str().unwrap(), "--to", "csa"])), ["%TSUMI", "+0052KI"]);
    let jkf = String::from_utf8(convert(&[csa.to_str().unwrap(), "--to", "jkf"]).stdout).unwrap();
    assert!(jkf.contains("\"special\": \"TSUMI\""), "{jkf}");
    let db = tmp.path().join("k.sqlite");
    let (code, _, stderr) = kifudex(["index", csa.to_str().unwrap()]).db(&db).run();
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(last_lines(kifudex(["show", "1"]).db(&db).output()), kif);
}

#[test]
fn a_variation_after_the_last_move_goes_through_jkf_and_western_text_says_it_cannot_hold_it() {
    // 1.▲７六歩 2.△３四歩, then 投了 (or nothing); the variation plays ▲２六歩 △８四歩 instead.
    let tmp = tempfile::tempdir().unwrap();
    let head = "手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n";
    let variation = "\n変化：3手\n   3 ２六歩(27)\n   4 ８四歩(83)\n";
    for (name, ending) in [("resigned.kif", "   3 投了\n"), ("open.kif", "")] {
        let kif = tmp.path().join(name);
        std::fs::write(&kif, format!("{head}{ending}{variation}")).unwrap();
        let jkf = tmp.path().join(format!("{name}.jkf"));
        let out = convert(&[kif.to_str().unwrap(), "--to", "jkf", "--out", jkf.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let game = kifu::read_file(Some(&jkf), &std::fs::read(&jkf).unwrap()).unwrap().games.remove(0);
        let replayed = replay::replay(&game);
        let usi = |moves: &[kifudex::shogi::Move]| moves.iter().map(ToString::to_string).collect::<Vec<_>>();
        assert_eq!(usi(&replayed.moves), ["7g7f", "3c3d"], "{name}");
        assert_eq!(replayed.variations.len(), 1, "{name}");
        assert_eq!(replayed.variations[0].ply, 2, "{name}");
        assert_eq!(usi(&replayed.variations[0].moves), ["2g2f", "8c8d"], "{name}");
        assert_eq!(game.ending.is_some(), !ending.is_empty(), "{name}");

        let out = convert(&[kif.to_str().unwrap(), "--to", "western"]);
        assert_eq!(out.status.code(), Some(1), "{name}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!(
                "kifudex: {} game 0: its 1 variation is left out: Western text holds none after the last move of a line, nor one of no move\n",
                kif.display()
            )
        );
    }
}

#[test]
fn a_variation_after_the_last_move_of_another_is_named_when_kif_cannot_hold_it() {
    // Main line 7g7f 3c3d 2g2f 8c8d 2f2e; in place of 3c3d, 8c8d 2g2f, and after that
    // variation's last move, 4a3b. A KIF file carries on only the main line past its end:
    // written as 変化：4手, the gold move would read back as a variation of the main line.
    let tmp = tempfile::tempdir().unwrap();
    let mv = |color: u8, from: (u8, u8), to: (u8, u8), piece: &str| {
        format!(
            r#"{{"move":{{"color":{color},"from":{{"x":{},"y":{}}},"to":{{"x":{},"y":{}}},"piece":"{piece}"}}}}"#,
            from.0, from.1, to.0, to.1
        )
    };
    let gold = format!(r#"{{"forks":[[{}]]}}"#, mv(1, (4, 1), (3, 2), "KI"));
    let fork = format!("[{},{},{gold}]", mv(1, (8, 3), (8, 4), "FU"), mv(0, (2, 7), (2, 6), "FU"));
    let second = mv(1, (3, 3), (3, 4), "FU");
    let second = format!(r#"{},"forks":[{fork}]}}"#, &second[..second.len() - 1]);
    let moves = [
        mv(0, (7, 7), (7, 6), "FU"),
        second,
        mv(0, (2, 7), (2, 6), "FU"),
        mv(1, (8, 3), (8, 4), "FU"),
        mv(0, (2, 6), (2, 5), "FU"),
    ];
    let jkf = tmp.path().join("nested.jkf");
    std::fs::write(&jkf, format!(r#"{{"header":{{}},"moves":[{{}},{}]}}"#, moves.join(","))).unwrap();
    let game = kifu::read_file(Some(&jkf), &std::fs::read(&jkf).unwrap()).unwrap().games.remove(0);
    let replayed = replay::replay(&game);
    assert_eq!(replayed.variations[0].variations.len(), 1, "the JKF holds the gold move");

    for to in ["kif", "ki2"] {
        let out = convert(&[jkf.to_str().unwrap(), "--to", to]);
        assert_eq!(out.status.code(), Some(1), "{to}");
        let said = format!(
            "kifudex: {} game 0: its 1 variation is left out: a {} file holds none after the last move of another variation\n",
            jkf.display(),
            to.to_uppercase()
        );
        assert_eq!(String::from_utf8_lossy(&out.stderr), said, "{to}");
        // What is written reads back as the main line and the one variation, and nothing else.
        let back = kifu::read_file(Some(Path::new(&format!("g.{to}"))), &out.stdout).unwrap().games.remove(0);
        let back = replay::replay(&back);
        assert!(back.warnings.is_empty(), "{to}: {:?}", back.warnings);
        assert_eq!(back.moves, replayed.moves, "{to}");
        assert_eq!(back.variations.len(), 1, "{to}");
        assert_eq!(
            (back.variations[0].ply, &back.variations[0].moves),
            (1, &replayed.variations[0].moves),
            "{to}"
        );
        assert!(back.variations[0].variations.is_empty(), "{to}");
    }
    // JKF holds it.
    assert_eq!(convert(&[jkf.to_str().unwrap(), "--to", "jkf"]).status.code(), Some(0));
}

#[test]
fn a_foul_ending_a_variation_keeps_its_winner_through_jkf() {
    // The variation of illegal.kif ends "3 反則勝ち / まで2手で先手の反則勝ち": Black, to move,
    // wins by White's foul. Through JKF it must stay Black's win.
    let tmp = tempfile::tempdir().unwrap();
    let jkf = tmp.path().join("illegal.jkf");
    let out =
        convert(&[data("illegal.kif").to_str().unwrap(), "--to", "jkf", "--out", jkf.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let kif = String::from_utf8(convert(&[jkf.to_str().unwrap(), "--to", "kif"]).stdout).unwrap();
    let variation = &kif[kif.find("変化：1手").expect("the variation")..];
    assert!(variation.contains("   3 反則勝ち\n"), "{variation}");
}

#[test]
fn a_variation_of_an_ending_alone_is_held_by_jkf_and_named_where_it_cannot_be() {
    // In place of move 3, Black resigns.
    let tmp = tempfile::tempdir().unwrap();
    let kif = tmp.path().join("r.kif");
    let text = "手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n\n変化：3手\n   3 投了\n";
    std::fs::write(&kif, text).unwrap();
    for (to, code) in [("usi", 1), ("csa", 1), ("western", 1), ("kif", 0), ("jkf", 0)] {
        let out = convert(&[kif.to_str().unwrap(), "--to", to]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{to}: {stderr}");
        assert_eq!(stderr.contains("its 1 variation is left out"), code == 1, "{to}: {stderr}");
        if to == "jkf" {
            let game = kifu::read_file(Some(Path::new("g.jkf")), &out.stdout).unwrap().games.remove(0);
            assert_eq!(game.variations.len(), 1);
            let v = &game.variations[0];
            assert_eq!((v.ply, v.moves.len()), (2, 0));
            assert_eq!(v.ending.as_ref().map(|e| e.termination), Some(kifu::Termination::Resign));
        }
    }
}

#[test]
fn a_resignation_out_of_turn_never_changes_sides() {
    // Black resigns after its own first move (as 将棋倶楽部24 writes it): White wins. CSA's
    // `%TORYO` and JKF's `TORYO` would say that White, to move, resigned; neither can say
    // this, so the ending is left out and said so, and no format reads back Black's win.
    // The variation ends the same way, on White's turn after move 3.
    let tmp = tempfile::tempdir().unwrap();
    let kif = tmp.path().join("r.kifu");
    let text = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 先手 投了\nまで1手で後手の勝ち\n\n変化：2手\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 先手 投了\n";
    std::fs::write(&kif, text).unwrap();
    let outcome = |bytes: &[u8], name: &str| {
        let game = kifu::read_file(Some(Path::new(name)), bytes).unwrap().games.remove(0);
        let variation_ending = game.variations.first().and_then(|v| v.ending.clone());
        (format!("{:?}", replay::replay(&game).outcome), variation_ending)
    };
    assert_eq!(outcome(text.as_bytes(), "r.kifu").0, "Some(Win(White))");
    for (to, name, code) in
        [("kif", "g.kifu", 0), ("western", "g.psn", 1), ("csa", "g.csa", 1), ("jkf", "g.jkf", 1)]
    {
        let out = convert(&[kif.to_str().unwrap(), "--to", to]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{to}: {stderr}");
        let left_out = stderr.contains("its ending (resign, a win for White) is left out");
        assert_eq!(left_out, matches!(to, "csa" | "jkf"), "{to}: {stderr}");
        let (main, variation) = outcome(&out.stdout, name);
        let expected = if left_out { "None" } else { "Some(Win(White))" };
        assert_eq!(main, expected, "{to}:\n{}", String::from_utf8_lossy(&out.stdout));
        if to == "jkf" {
            assert_eq!(variation.map(|e| e.termination), None, "the variation's ending");
        }
    }
}

#[test]
fn perpetual_check_is_lost_by_the_checking_side_in_every_format_read_back() {
    // Black's rook checks on every move, so Black loses (the rules of 千日手), whether the
    // fourth occurrence comes with Black's check (move 13) or with White's reply (move 12, from
    // a start where Black is to move). KIF and KI2 name the checking side when it is not the
    // side to move (`先手 連続王手の千日手`).
    let tmp = tempfile::tempdir().unwrap();
    let games = [
        "position sfen 8k/9/R8/9/9/9/9/9/4K4 b - 1 moves 9c9a 1a1b 9a9b 1b1a 9b9a 1a1b 9a9b 1b1a 9b9a 1a1b 9a9b 1b1a 9b9a",
        "position sfen R8/8k/9/9/9/9/9/9/4K4 b - 1 moves 9a9b 1b1a 9b9a 1a1b 9a9b 1b1a 9b9a 1a1b 9a9b 1b1a 9b9a 1a1b",
    ];
    for (i, usi) in games.iter().enumerate() {
        let source = tmp.path().join(format!("g{i}.usi"));
        std::fs::write(&source, format!("{usi}\n")).unwrap();
        for (to, ext) in
            [("kif", "kifu"), ("ki2", "ki2u"), ("csa", "csa"), ("jkf", "jkf"), ("western", "psn")]
        {
            let written = tmp.path().join(format!("g{i}.{ext}"));
            let out = convert(&[source.to_str().unwrap(), "--to", to, "--out", written.to_str().unwrap()]);
            assert_eq!(out.status.code(), Some(0), "{to}: {}", String::from_utf8_lossy(&out.stderr));
            let bytes = std::fs::read(&written).unwrap();
            let game = kifu::read_file(Some(&written), &bytes).unwrap().games.remove(0);
            let replayed = replay::replay(&game);
            assert_eq!(
                (replayed.termination, replayed.outcome),
                (
                    Some(kifu::Termination::PerpetualCheck),
                    Some(kifu::Outcome::Win(kifudex::shogi::Color::White))
                ),
                "game {i} through {to}"
            );
            assert_eq!(replayed.warnings, [], "game {i} through {to}:\n{}", String::from_utf8_lossy(&bytes));
        }
    }
}

#[test]
fn the_comment_on_a_foul_that_ended_the_game_is_written_in_every_format() {
    // Black's third move is no legal move, and the record says why under it.
    let tmp = tempfile::tempdir().unwrap();
    let kif = tmp.path().join("f.kifu");
    let text = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７四歩(76)\n*二歩進めは反則\nまで3手で先手の反則負け\n";
    std::fs::write(&kif, text).unwrap();
    for (to, name) in
        [("kif", "g.kifu"), ("ki2", "g.ki2u"), ("csa", "g.csa"), ("jkf", "g.jkf"), ("western", "g.psn")]
    {
        let out = convert(&[kif.to_str().unwrap(), "--to", to]);
        let game = kifu::read_file(Some(Path::new(name)), &out.stdout).unwrap().games.remove(0);
        // JKF writes it with the ending, whose comments it is read back as.
        let ending = game.ending.iter().flat_map(|e| &e.comments);
        let all: Vec<&String> =
            game.comments.iter().chain(game.moves.iter().flat_map(|m| &m.comments)).chain(ending).collect();
        assert!(
            all.iter().any(|c| c.contains("二歩進めは反則")),
            "{to}: {all:?}\n{}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert_eq!(format!("{:?}", replay::replay(&game).outcome), "Some(Win(White))", "{to}");
    }
}

/// Text after a KIF row's time block is no part of the move and no mark a writer makes (a
/// `+` there marks a move with variations): it is kept as a comment of the move, or of the
/// ending, as written, in every format.
#[test]
fn text_after_a_kif_rows_time_is_kept_as_a_comment() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("t.kifu");
    let record = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:01/00:00:01) 好手\n   2 ３四歩(33)   ( 0:02/00:00:02)+\n   3 投了   ( 0:03/00:00:04)+後で\n";
    std::fs::write(&path, record).unwrap();
    for (to, name) in [("kif", "g.kifu"), ("ki2", "g.ki2u"), ("csa", "g.csa"), ("jkf", "g.jkf")] {
        let out = convert(&[path.to_str().unwrap(), "--to", to]);
        let written = String::from_utf8_lossy(&out.stdout);
        let game = kifu::read_file(Some(Path::new(name)), &out.stdout).unwrap().games.remove(0);
        let moves: Vec<&Vec<String>> = game.moves.iter().map(|m| &m.comments).collect();
        assert_eq!(moves, [&vec!["好手".to_string()], &vec![]], "{to}:\n{written}");
        let ending = game.ending.as_ref().map(|e| e.comments.clone()).unwrap_or_default();
        assert_eq!(ending, ["+後で"], "{to}:\n{written}");
    }
}

/// A `まで` line whose words are not read, or a second one, is kept as a comment with its
/// text whole, in every format; the record's result is that of the line that is read. The
/// summary written twice over is one summary.
#[test]
fn a_summary_line_that_is_not_read_is_kept_as_a_comment() {
    let tmp = tempfile::tempdir().unwrap();
    let unread = "まで2手で何か不思議な終わり";
    let cases = [
        (
            "u.kif",
            format!("手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n{unread}\n"),
            None,
        ),
        ("u.ki2", format!("手合割：平手\n▲７六歩 △３四歩\n{unread}\n"), None),
        (
            "second.ki2",
            format!("手合割：平手\n▲７六歩 △３四歩\nまで2手で後手の勝ち\n{unread}\n"),
            Some("Some(Win(White))"),
        ),
        (
            "twice.kif",
            format!(
                "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\nまで2手で後手の勝ち\nまで2手で後手の勝ち\n{unread}\n"
            ),
            Some("Some(Win(White))"),
        ),
    ];
    for (file, record, outcome) in cases {
        let path = tmp.path().join(file);
        std::fs::write(&path, &record).unwrap();
        for (to, name) in [("kif", "g.kifu"), ("ki2", "g.ki2u"), ("csa", "g.csa"), ("jkf", "g.jkf")] {
            let out = convert(&[path.to_str().unwrap(), "--to", to]);
            let written = String::from_utf8_lossy(&out.stdout);
            let game = kifu::read_file(Some(Path::new(name)), &out.stdout).unwrap().games.remove(0);
            let ending = game.ending.iter().flat_map(|e| &e.comments);
            let all: Vec<&String> = game
                .comments
                .iter()
                .chain(game.moves.iter().flat_map(|m| &m.comments))
                .chain(ending)
                .collect();
            assert!(all.iter().any(|c| c.as_str() == unread), "{file} to {to}: {all:?}\n{written}");
            // The summary written again is the summary, not a comment.
            assert!(
                !all.iter().any(|c| c.starts_with("まで2手で後手")),
                "{file} to {to}: {all:?}\n{written}"
            );
            let replayed = format!("{:?}", replay::replay(&game).outcome);
            assert_eq!(replayed, outcome.unwrap_or("None"), "{file} to {to}:\n{written}");
        }
    }
}

#[test]
fn a_variation_s_ending_western_text_cannot_hold_is_named() {
    // In place of move 2, White plays ８四歩 and Black resigns: the variation has moves and
    // an ending. Western text writes the moves, not the ending.
    let tmp = tempfile::tempdir().unwrap();
    let kif = tmp.path().join("v.kifu");
    let text = "手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n\n変化：2手\n   2 ８四歩(83)\n   3 投了\n";
    std::fs::write(&kif, text).unwrap();
    for (to, name, code) in
        [("western", "g.psn", 1), ("kif", "g.kifu", 0), ("ki2", "g.ki2u", 0), ("jkf", "g.jkf", 0)]
    {
        let out = convert(&[kif.to_str().unwrap(), "--to", to]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{to}: {stderr}");
        assert_eq!(stderr.contains("the ending of 1 variation is left out"), code == 1, "{to}: {stderr}");
        let game = kifu::read_file(Some(Path::new(name)), &out.stdout).unwrap().games.remove(0);
        assert_eq!(game.variations.len(), 1, "{to}");
        let ending = game.variations[0].ending.as_ref();
        let white = kifu::Outcome::Win(kifudex::shogi::Color::White);
        match to {
            "western" => assert!(ending.is_none()),
            // KI2 states the winner alone, `まで2手で後手の勝ち`, as it does after its main line.
            "ki2" => assert_eq!(
                ending.map(|e| (e.termination, e.stated)),
                Some((kifu::Termination::Unknown, Some(white)))
            ),
            _ => {
                assert_eq!(ending.map(|e| e.termination), Some(kifu::Termination::Resign), "{to}");
                assert!(ending.is_some_and(|e| e.stated.is_none_or(|s| s == white)), "{to}");
            }
        }
        // Read back, KI2's ending is a resignation in every format that has the word.
        if to == "ki2" {
            let again = tmp.path().join("v.ki2u");
            std::fs::write(&again, &out.stdout).unwrap();
            for (to, word) in [("kif", "   3 投了\n"), ("jkf", "\"special\": \"TORYO\"")] {
                let out = convert(&[again.to_str().unwrap(), "--to", to]);
                let text = String::from_utf8_lossy(&out.stdout);
                assert_eq!(text.matches(word).count(), 1, "ki2 to {to}: {text}");
            }
        }
    }
}

/// Western text puts a comment in braces and joins its lines with `~`: a comment that holds
/// either cannot come back as it was, and `convert` says so. The other formats keep it.
#[test]
fn a_comment_western_text_cannot_hold_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.kifu");
    let text =
        "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n*a ~ tilde and a } brace\n   2 ３四歩(33)\n*plain\n";
    std::fs::write(&path, text).unwrap();
    let out = convert(&[path.to_str().unwrap(), "--to", "western"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("1 comment holds a '~' or a '}', which Western text reads as a line break"),
        "{err}"
    );
    for to in ["kif", "csa", "jkf"] {
        let out = convert(&[path.to_str().unwrap(), "--to", to]);
        assert_eq!(out.status.code(), Some(0), "{to}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stdout).contains("a ~ tilde and a } brace"), "{to}");
    }
}

/// What a format has no place for is named, never dropped in silence: move times in KI2,
/// Western and USI text, headers and comments in USI, an ending USI has no token for. A blank
/// comment line (between paragraphs) is kept by CSA as by the others.
#[test]
fn what_a_format_has_no_place_for_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let kif = tmp.path().join("e.kif");
    let text = "手合割：平手\n先手：A\n後手：B\n手数----指手---------消費時間--\n*para1\n*\n*para2\n   1 ７六歩(77)   ( 0:01/00:00:01)\n   2 ３四歩(33)\n   3 切れ負け\n";
    std::fs::write(&kif, text).unwrap();
    // The format's nature is a note, and no failure; an ending it has no word for is this
    // game's loss, and is. `show` of the game, indexed, says the same of it, with its id.
    let times = "note: the move times are left out";
    let usi = "note: the move times, headers and comments are left out: a USI line holds the start, the moves and a few endings only";
    let ending = "its ending (timeout, a win for White) is left out: a USI file has no word for it";
    let db = tmp.path().join("k.sqlite");
    let (code, _, stderr) = kifudex(["index", kif.to_str().unwrap()]).db(&db).run();
    assert_eq!(code, 0, "{stderr}");
    for (to, code, said) in [
        ("kif", 0, &[][..]),
        ("csa", 0, &[]),
        ("jkf", 0, &[]),
        ("ki2", 0, &[times][..]),
        ("western", 0, &[times]),
        ("usi", 1, &[ending, usi]),
    ] {
        let out = convert(&[kif.to_str().unwrap(), "--to", to]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{to}: {stderr}");
        assert_eq!(stderr.lines().count(), said.len(), "{to}: {stderr}");
        for (line, words) in stderr.lines().zip(said) {
            assert!(
                line.starts_with("kifudex: ") && line.contains("e.kif") && line.contains(words),
                "{to}: {stderr}"
            );
        }
        let (shown, record, stderr) = kifudex(["show", "1", "--to", to]).db(&db).run();
        assert_eq!(shown, code, "show --to {to}: {stderr}");
        assert_eq!(stderr.lines().count(), said.len(), "show --to {to}: {stderr}");
        for (line, words) in stderr.lines().zip(said) {
            assert!(
                line.starts_with("kifudex: game 1: ") && line.contains(words),
                "show --to {to}: {stderr}"
            );
        }
        assert!(!record.is_empty(), "show --to {to} writes the record all the same");
        if matches!(to, "csa" | "jkf" | "ki2") {
            // The three comment lines, the blank one included, read back.
            let name = format!("g.{to}");
            let game = kifu::read_file(Some(Path::new(&name)), &out.stdout).unwrap().games.remove(0);
            assert_eq!(game.comments, ["para1", "", "para2"], "{to}");
        }
    }
    // USI's own endings are no loss; the handicap is the start. A draw of a kind the moves do
    // not show (an impasse) is written as USI's one word for a draw, which says no kind: that
    // is said, and the status is 1.
    for (text, usi, lost) in [
        ("手数----指手--\n   1 ７六歩(77)\n   2 投了\n", "position startpos moves 7g7f resign\n", false),
        (
            "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 持将棋\n",
            "position startpos moves 7g7f 3c3d draw\n",
            true,
        ),
        (
            "手合割：香落ち\n手数----指手--\n   1 ３四歩(33)\n   2 持将棋\n",
            "position sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d draw\n",
            true,
        ),
    ] {
        let record = tmp.path().join("r.kif");
        std::fs::write(&record, text).unwrap();
        let out = convert(&[record.to_str().unwrap(), "--to", "usi"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(i32::from(lost)), "{text}: {stderr}");
        if lost {
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(
                stderr.contains("its ending (impasse, a draw) reads back from a USI file as draw"),
                "{stderr}"
            );
        } else {
            assert_eq!(stderr, "", "{text}");
        }
        assert_eq!(String::from_utf8_lossy(&out.stdout), usi);
    }
}

/// A variation is played instead of the move it replaces, so its running totals go on from
/// the totals before that move. The record below is written as Kifu for Windows writes
/// variations: its totals are what the KIF written from it must say again.
#[test]
fn a_variation_s_running_totals_go_on_from_before_the_move_it_replaces() {
    let rows = [
        "   1 ７六歩(77)   ( 0:02/00:00:02)+",
        "   2 ３四歩(33)   ( 0:01/00:00:01)+",
        "   3 ２六歩(27)   ( 0:01/00:00:03)+",
        "   4 ８四歩(83)   ( 0:04/00:00:05)",
        "",
        "変化：3手",
        "   3 ７五歩(76)   ( 0:01/00:00:03)",
        "   4 ８四歩(83)   ( 0:02/00:00:03)",
        "",
        "変化：2手",
        "   2 ８四歩(83)   ( 0:07/00:00:07)",
        "   3 ６八銀(79)   ( 0:02/00:00:04)+",
        "   4 ３四歩(33)   ( 0:01/00:00:08)",
        "",
        "変化：3手",
        "   3 ２六歩(27)   ( 0:08/00:00:10)",
        "",
        "変化：1手",
        "   1 ２六歩(27)   ( 0:05/00:00:05)",
        "   2 ３四歩(33)   ( 0:03/00:00:03)",
    ];
    let text = format!("手合割：平手\n手数----指手---------消費時間--\n{}\n", rows.join("\n"));
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("totals.kifu");
    std::fs::write(&path, &text).unwrap();
    let out = convert(&[path.to_str().unwrap(), "--to", "kif"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let written = String::from_utf8(out.stdout).unwrap();
    let times = |text: &str| -> Vec<String> {
        text.lines()
            .filter_map(|l| {
                l.find('(')
                    .filter(|_| l.ends_with(')') || l.ends_with(")+"))
                    .map(|i| l[i..].trim_end_matches('+').to_string())
            })
            .filter(|t| t.contains('/'))
            .collect()
    };
    assert_eq!(times(&written), times(&text), "{written}");
}

/// Variations that replace the ending go on from the totals after the last move, each of them.
#[test]
fn variations_that_replace_the_ending_each_go_on_from_the_last_move_s_totals() {
    let text = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:10/00:00:10)\n   2 ３四歩(33)   ( 0:05/00:00:05)\n   3 投了         ( 0:00/00:00:10)+\nまで2手で後手の勝ち\n\n変化：3手\n   3 ２六歩(27)   ( 0:20/00:00:30)\n\n変化：3手\n   3 ６六歩(67)   ( 0:30/00:00:40)\n";
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("ending.kifu");
    std::fs::write(&path, text).unwrap();
    let out = convert(&[path.to_str().unwrap(), "--to", "kif"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let written = String::from_utf8(out.stdout).unwrap();
    // By hand: black used 10 s before move 3, and each variation's move is its own.
    for row in ["２六歩(27)   ( 0:20/00:00:30)", "６六歩(67)   ( 0:30/00:00:40)"] {
        assert!(written.contains(row), "{row}:\n{written}");
    }
}

#[test]
fn standard_input_is_read_when_the_file_is_a_dash() {
    use std::io::Write;
    let run = |input: &[u8], to: &str| {
        let mut child = kifudex(["convert", "-", "--to", to])
            .cmd()
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(input).unwrap();
        child.wait_with_output().unwrap()
    };
    // A KIF record in Shift_JIS, its format told from its text: ７六歩 is 7g7f, ３四歩 3c3d.
    let kif = encoding::encode_cp932(
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n",
    )
    .unwrap();
    let out = run(&kif, "usi");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim_end(), "position startpos moves 7g7f 3c3d");
    // CSA on standard input.
    let out = run(b"V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n", "usi");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim_end(), "position startpos moves 7g7f 3c3d resign");
    // Messages name standard input.
    let out = run(b"no record here\n", "csa");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("kifudex: <stdin>: no game can be read"));
}

/// A JKF comment is one string that may hold line breaks. KIF and KI2 write a comment line as
/// a `*` line, CSA as a `'` line and Western text joins lines with `~`: each line of the
/// comment becomes one such line, so every format reads back the same lines, and none holds
/// a line break changed into other text (a literal `\n`, a space).
#[test]
fn a_comment_with_line_breaks_comes_back_line_by_line_in_every_format() {
    let tmp = tempfile::tempdir().unwrap();
    let jkf = tmp.path().join("c.jkf");
    let text = r#"{"header":{},"moves":[{"comments":["before\nthe game"]},
        {"move":{"color":0,"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"},"comments":["first line\r\nsecond line"]},
        {"move":{"color":1,"from":{"x":3,"y":3},"to":{"x":3,"y":4},"piece":"FU"}}]}"#;
    std::fs::write(&jkf, text).unwrap();
    for (to, name) in [("kif", "g.kifu"), ("ki2", "g.ki2u"), ("csa", "g.csa"), ("western", "g.psn")] {
        let out = convert(&[jkf.to_str().unwrap(), "--to", to]);
        assert_eq!(out.status.code(), Some(0), "{to}: {}", String::from_utf8_lossy(&out.stderr));
        let game = kifu::read_file(Some(Path::new(name)), &out.stdout).unwrap().games.remove(0);
        let written = String::from_utf8_lossy(&out.stdout);
        assert_eq!(game.comments, ["before", "the game"], "{to}:\n{written}");
        assert_eq!(game.moves[0].comments, ["first line", "second line"], "{to}:\n{written}");
    }
}

/// Readers split lines at a lone CR as at LF. A comment holding one, written as it is, ends
/// its comment line there, and the rest is read as a line of its own: after a lone CR, CSA
/// read `-3334FU` as White's move, adding a move to the game. Each format must keep it a
/// comment line.
#[test]
fn a_lone_carriage_return_in_a_comment_never_turns_its_rest_into_a_move() {
    let tmp = tempfile::tempdir().unwrap();
    let jkf = tmp.path().join("c.jkf");
    let text = r#"{"header":{},"moves":[{},
        {"move":{"color":0,"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"},"comments":["looks fine\r-3334FU"]}]}"#;
    std::fs::write(&jkf, text).unwrap();
    for (to, name) in [("csa", "g.csa"), ("kif", "g.kifu"), ("ki2", "g.ki2u"), ("western", "g.psn")] {
        let out = convert(&[jkf.to_str().unwrap(), "--to", to]);
        assert_eq!(out.status.code(), Some(0), "{to}: {}", String::from_utf8_lossy(&out.stderr));
        let written = String::from_utf8_lossy(&out.stdout);
        let game = kifu::read_file(Some(Path::new(name)), &out.stdout).unwrap().games.remove(0);
        let moves: Vec<String> = replay::replay(&game).moves.iter().map(ToString::to_string).collect();
        assert_eq!(moves, ["7g7f"], "{to}:\n{written}");
        assert_eq!(game.moves[0].comments, ["looks fine", "-3334FU"], "{to}:\n{written}");
    }
}

/// A header's key is one line of the written record, as its value is: a line break in a key
/// (JKF keys are any text) must not start a line of its own, which KIF and KI2 read as a move
/// row or skip, and CSA as a move.
#[test]
fn a_line_break_in_a_header_key_never_starts_a_line_of_its_own() {
    let tmp = tempfile::tempdir().unwrap();
    let jkf = tmp.path().join("h.jkf");
    let text = r#"{"header":{"note\n   2 ３四歩(33)\nx":"v","$EV\n-3334FU\n$X":"w"},"moves":[{},
        {"move":{"color":0,"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}}]}"#;
    std::fs::write(&jkf, text).unwrap();
    for (to, name) in [("csa", "g.csa"), ("kif", "g.kifu"), ("ki2", "g.ki2u")] {
        let out = convert(&[jkf.to_str().unwrap(), "--to", to]);
        // Both keys come back changed, and convert says so.
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{to}: {stderr}");
        assert!(stderr.contains("2 headers hold a line break"), "{to}: {stderr}");
        let written = String::from_utf8_lossy(&out.stdout);
        let game = kifu::read_file(Some(Path::new(name)), &out.stdout).unwrap().games.remove(0);
        let replayed = replay::replay(&game);
        let moves: Vec<String> = replayed.moves.iter().map(ToString::to_string).collect();
        assert_eq!(moves, ["7g7f"], "{to}:\n{written}");
        assert_eq!(game.warnings, [], "{to}:\n{written}");
        assert_eq!(replayed.warnings, [], "{to}:\n{written}");
        // Both values are kept, as headers or (CSA, for a key it does not know) a comment.
        let texts: Vec<&str> = game
            .headers
            .iter()
            .map(|h| h.value.as_str())
            .chain(game.comments.iter().map(String::as_str))
            .collect();
        for value in ["v", "w"] {
            assert!(texts.iter().any(|t| t.ends_with(value)), "{to}: {texts:?}\n{written}");
        }
    }
}

/// Western text has tags for the start (`Date`, `Time`) and writes the end too, so that a
/// record's end time (CSA `$END_TIME`, KIF `終了日時`) goes through it as through every other
/// format. It was dropped without a word.
#[test]
fn an_end_time_goes_through_western_text_and_back() {
    // example.csa: $START_TIME:2003/05/03 10:30:00, $END_TIME:2003/05/03 11:11:05.
    let tmp = tempfile::tempdir().unwrap();
    let psn = tmp.path().join("g.psn");
    let csa = data("csa/example.csa");
    let out = convert(&[csa.to_str().unwrap(), "--to", "western", "--out", psn.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let bytes = std::fs::read(&psn).unwrap();
    let game = kifu::read_file(Some(&psn), &bytes).unwrap().games.remove(0);
    let text = String::from_utf8_lossy(&bytes);
    assert_eq!(game.info.start.map(|d| d.to_string()).as_deref(), Some("2003-05-03T10:30:00"), "{text}");
    assert_eq!(game.info.end.map(|d| d.to_string()).as_deref(), Some("2003-05-03T11:11:05"), "{text}");
    assert_eq!(game.warnings, [], "{text}");
    for (to, line) in [("kif", "終了日時：2003/05/03 11:11:05"), ("csa", "$END_TIME:2003/05/03 11:11:05")]
    {
        let out = convert(&[psn.to_str().unwrap(), "--to", to]);
        let written = String::from_utf8_lossy(&out.stdout);
        assert_eq!(written.lines().filter(|l| *l == line).count(), 1, "{to}:\n{written}");
    }
}

/// A header line holds no line break: KIF and KI2 write one in a value as a literal `\n`, CSA
/// and Western text as a space. A name or value that comes back changed so is named; JKF,
/// which keeps it, says nothing.
#[test]
fn a_line_break_in_a_header_is_named_where_the_format_changes_it() {
    let tmp = tempfile::tempdir().unwrap();
    let jkf = tmp.path().join("n.jkf");
    let text = r#"{"header":{"先手":"line1\nline2","後手":"B"},"moves":[{},
        {"move":{"color":0,"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}}]}"#;
    std::fs::write(&jkf, text).unwrap();
    for (to, code, said) in [
        ("kif", 1, Some("a literal \\n")),
        ("ki2", 1, Some("a literal \\n")),
        ("csa", 1, Some("a CSA file writes as a space")),
        ("western", 1, Some("Western text writes as a space")),
        ("jkf", 0, None),
    ] {
        let out = convert(&[jkf.to_str().unwrap(), "--to", to]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "{to}: {stderr}");
        match said {
            Some(words) => {
                assert!(
                    stderr.contains("n.jkf game 0: 1 header holds a line break, which"),
                    "{to}: {stderr}"
                );
                assert!(stderr.contains(words), "{to}: {stderr}");
            }
            None => assert_eq!(stderr, "", "{to}"),
        }
    }
}

/// KIF and KI2 have no word for an ending by error (CSA's `%ERROR`): they write 中断, which
/// reads back as an interruption. The conversion says so, and exits 1.
#[test]
fn an_ending_by_error_written_as_an_interruption_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("error.csa");
    std::fs::write(&path, "V2.2\nPI\n+\n+7776FU\n-3334FU\n%ERROR\n").unwrap();
    for to in ["kif", "ki2"] {
        let out = convert(&[path.to_str().unwrap(), "--to", to]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{to}: {stderr}");
        assert!(
            stderr.contains("its ending (error) is written as 中断, which reads back as interrupted"),
            "{to}: {stderr}"
        );
        assert!(String::from_utf8_lossy(&out.stdout).contains("中断"), "{to}");
    }
    // The formats with a word for it say nothing.
    for to in ["csa", "jkf", "western"] {
        let out = convert(&[path.to_str().unwrap(), "--to", to]);
        assert_eq!(out.status.code(), Some(0), "{to}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

/// CSA's and JKF's word for a perpetual check (`%OUTE_SENNICHITE`) names no side: read back,
/// the moves must show who gave the checks. A KIF record that ends 連続王手の千日手 with a winner
/// but moves that show no fourfold repetition loses its winner there, and the conversion says
/// so rather than writing a file that reads back with no result.
#[test]
fn a_perpetual_check_the_moves_do_not_show_is_named_when_its_winner_is_lost() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("perpetual.kif");
    std::fs::write(
        &path,
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 連続王手の千日手\nまで2手で後手の勝ち\n",
    )
    .unwrap();
    {
        let to = "csa";
        let written = tmp.path().join("back.csa");
        let out = convert(&[path.to_str().unwrap(), "--to", to, "--out", written.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{to}: {stderr}");
        assert!(
            stderr.contains("its ending (perpetual_check, a win for White) reads back from a")
                && stderr.contains("as perpetual_check, no result"),
            "{to}: {stderr}"
        );
        // What the message says is what a reader finds.
        let bytes = std::fs::read(&written).unwrap();
        let game = kifu::read_file(Some(&written), &bytes).unwrap().games.remove(0);
        let replayed = replay::replay(&game);
        assert_eq!(replayed.termination, Some(kifu::Termination::PerpetualCheck), "{to}");
        assert_eq!(replayed.outcome, None, "{to}");
    }
    // JKF's schema has no word for it (it has CSA V2.2's): the checks (of Black, who lost) are Black's foul, the
    // winner is kept, and the conversion says what the ending reads back as.
    let written = tmp.path().join("back.jkf");
    let out = convert(&[path.to_str().unwrap(), "--to", "jkf", "--out", written.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "jkf: {stderr}");
    assert!(
        stderr.contains(
            "its ending (perpetual_check) is written as +ILLEGAL_ACTION, which reads back as illegal_move: a \
             JKF file has no word for it"
        ),
        "jkf: {stderr}"
    );
    let bytes = std::fs::read(&written).unwrap();
    assert!(String::from_utf8_lossy(&bytes).contains("\"special\": \"+ILLEGAL_ACTION\""));
    let replayed = replay::replay(&kifu::read_file(Some(&written), &bytes).unwrap().games.remove(0));
    assert_eq!(
        (replayed.termination, replayed.outcome),
        (Some(kifu::Termination::IllegalMove), Some(kifu::Outcome::Win(kifudex::shogi::Color::White)))
    );
    // KIF keeps the winner (the side to move loses by the word): no such message.
    let written = tmp.path().join("back.kif");
    let out = convert(&[path.to_str().unwrap(), "--to", "kif", "--out", written.to_str().unwrap()]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("reads back"));
    let bytes = std::fs::read(&written).unwrap();
    let game = kifu::read_file(Some(&written), &bytes).unwrap().games.remove(0);
    assert_eq!(replay::replay(&game).outcome, Some(kifu::Outcome::Win(kifudex::shogi::Color::White)));
}

/// The other way round: a CSA `%OUTE_SENNICHITE` names no side, and these moves show no
/// check, so the game has no result. KIF's and KI2's word for it is lost by the side to move
/// unless another is named: written, it reads back as a win, and the conversion says so.
#[test]
fn a_perpetual_check_with_no_winner_is_named_when_kif_gives_it_one() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("perpetual.csa");
    std::fs::write(&path, "V2.2\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n%OUTE_SENNICHITE\n").unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let source = replay::replay(&kifu::read_file(Some(&path), &bytes).unwrap().games.remove(0));
    assert_eq!((source.termination, source.outcome), (Some(kifu::Termination::PerpetualCheck), None));
    for (to, ext, name) in [("kif", "kifu", "KIF"), ("ki2", "ki2u", "KI2")] {
        let written = tmp.path().join(format!("back.{ext}"));
        let out = convert(&[path.to_str().unwrap(), "--to", to, "--out", written.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{to}: {stderr}");
        let bytes = std::fs::read(&written).unwrap();
        let back = replay::replay(&kifu::read_file(Some(&written), &bytes).unwrap().games.remove(0));
        // White is to move after three moves: the word says White lost.
        assert_eq!(back.outcome, Some(kifu::Outcome::Win(kifudex::shogi::Color::Black)), "{to}");
        assert!(
            stderr.contains(&format!(
                "its ending (perpetual_check, no result) reads back from a {name} file as perpetual_check, a win for Black"
            )),
            "{to}: {stderr}"
        );
    }
}

/// Western text reads a comment line back without the ASCII spaces and tabs at its ends (a
/// brace's padding, the file's own line breaks), but with a full-width space, which indents
/// Japanese text.
#[test]
fn western_text_keeps_the_full_width_spaces_of_comments() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("spaces.kifu");
    std::fs::write(
        &path,
        "手合割：平手\n手数----指手---------消費時間--\n*   indented line\n*trailing   \n*\u{3000}全角\n*plain\n   1 ７六歩(77)\n*\tafter move\n",
    )
    .unwrap();
    let written = tmp.path().join("spaces.psn");
    let out = convert(&[path.to_str().unwrap(), "--to", "western", "--out", written.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let bytes = std::fs::read(&written).unwrap();
    let game = kifu::read_file(Some(&written), &bytes).unwrap().games.remove(0);
    assert_eq!(game.comments, ["indented line", "trailing", "\u{3000}全角", "plain"]);
    assert_eq!(game.moves[0].comments, ["after move"]);
    let game = &kifu::western::read("1. P-7f { padded } {\u{3000}indented\u{3000}~ next } P-3d")[0];
    assert_eq!(game.moves[0].comments, ["padded", "\u{3000}indented\u{3000}", "next"]);
}

/// A file name that is not UTF-8 is named in messages as the database stores it: each byte
/// that is no UTF-8 as `\xNN`, never as a replacement character that two names could share.
#[test]
fn messages_name_a_file_whose_name_is_not_utf8_by_its_bytes() {
    use std::os::unix::ffi::OsStrExt;
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join(std::ffi::OsStr::from_bytes(b"sj\x8a\xbf.kif"));
    std::fs::write(&path, "not a record\n").unwrap();
    let out = kifudex([std::ffi::OsStr::new("convert"), path.as_os_str()]).output();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("sj\\x8a\\xbf.kif: no game can be read"), "{stderr}");
    assert!(!stderr.contains('\u{FFFD}'), "{stderr}");
}

/// Two headers of one field (`Date` and `UTCDate`, `Site` and `Venue`) are written once under
/// the field's KIF key, from the one the field was read from; the other keeps its own key. A
/// KIF key written twice read back as the first of the two, which could be the other one.
#[test]
fn two_headers_of_one_field_write_its_kif_key_once() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("two.psn");
    std::fs::write(
        &path,
        "[Sente \"A\"]\n[Gote \"B\"]\n[UTCDate \"2003.05.04\"]\n[Date \"2003.05.03\"]\n[Venue \"Tokyo\"]\n\
         [Site \"Osaka\"]\n\n1.P-7f P-3d\n",
    )
    .unwrap();
    for (to, ext) in [("kif", "kifu"), ("ki2", "ki2u")] {
        let written = tmp.path().join(format!("two.{ext}"));
        let out = convert(&[path.to_str().unwrap(), "--to", to, "--out", written.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{to}: {}", String::from_utf8_lossy(&out.stderr));
        let text = std::fs::read_to_string(&written).unwrap();
        for key in ["開始日時：", "場所："] {
            assert_eq!(text.matches(key).count(), 1, "{to}: {key}\n{text}");
        }
        let game = kifu::read_file(Some(&written), text.as_bytes()).unwrap().games.remove(0);
        assert_eq!(game.info.site.as_deref(), Some("Osaka"), "{to}\n{text}");
        let start = game.info.start.unwrap();
        assert_eq!((start.year, start.month, start.day), (2003, Some(5), Some(3)), "{to}\n{text}");
        for (key, value) in [("UTCDate", "2003.05.04"), ("Venue", "Tokyo")] {
            assert!(game.headers.iter().any(|h| h.key == key && h.value == value), "{to}: {key}\n{text}");
        }
    }
}

/// A CSA file without an encoding line is read as Shift_JIS (CSA V3.0, which defines the
/// line): written in UTF-8, a CSA text says so on its first line, once for several games.
#[test]
fn csa_text_says_it_is_utf8_once() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("two.psn");
    let game = "[Sente \"羽生善治\"]\n[Gote \"藤井猛\"]\n\n1.P-7f P-3d\n";
    std::fs::write(&path, format!("{game}\n{game}")).unwrap();
    let written = tmp.path().join("two.csa");
    let out = convert(&[path.to_str().unwrap(), "--to", "csa", "--out", written.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let bytes = std::fs::read(&written).unwrap();
    let text = String::from_utf8(bytes.clone()).expect("UTF-8, as the first line says");
    assert!(text.starts_with("'CSA encoding=UTF-8\nV2.2\n"), "{text}");
    assert_eq!(text.matches("encoding=").count(), 1, "{text}");
    assert!(text.contains("N+羽生善治\n"), "{text}");
    // Read back, the line is no comment of the game.
    let games = kifu::read_file(Some(&written), &bytes).unwrap().games;
    assert_eq!(games.len(), 2);
    for game in &games {
        assert!(game.comments.is_empty(), "{:?}", game.comments);
        assert_eq!(game.info.black.as_ref().map(|p| p.full.as_str()), Some("羽生善治"));
    }
}

/// CSA's version line comes once, at the top, as its encoding line does: what follows a `/`
/// is a game's names, headers, start and moves (CSA's record format, 2.1). A game that ends
/// at the move limit needs V3.0, which added `%MAX_MOVES`, and the file says so whichever
/// of its games that is.
#[test]
fn csa_text_says_its_version_once_the_newest_a_game_needs() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("two.csa");
    std::fs::write(&path, "V2.2\nPI\n+\n+2726FU\n%TORYO\n/\nPI\n+\n+7776FU\n-3334FU\n%MAX_MOVES\n").unwrap();
    let out = convert(&[path.to_str().unwrap(), "--to", "csa"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[..2], ["'CSA encoding=UTF-8", "V3.0"], "{text}");
    assert_eq!(lines.iter().filter(|l| l.starts_with('V')).count(), 1, "{text}");
    assert_eq!(lines.iter().filter(|l| **l == "/").count(), 1, "{text}");
    // Read back, the same two games, each with its own ending (White, to move, resigns: Black wins; then a draw).
    let games = replayed_games(&path, text.as_bytes());
    assert_eq!(games.iter().map(|g| g.3.as_str()).collect::<Vec<_>>(), ["Some(Win(Black))", "Some(Draw)"]);
    assert_eq!(replayed_games(&path, &std::fs::read(&path).unwrap()), games, "{text}");
}

/// The extension of `--out` picks the format when `--to` is not given, and a `--to` it
/// contradicts is refused before anything is written: a `game.csa` of KIF text would be read
/// as CSA, and fail. Only KIF and KI2 go to Shift_JIS in a `.kif` or `.ki2` file; CSA says its
/// text is UTF-8 and JSON is UTF-8, so they never do. Each file written is read back by its
/// own format's reader (told by the text, not the name), with the names as written.
#[test]
fn the_out_extension_picks_the_format_and_a_contradicting_to_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let source = tmp.path().join("g.csa");
    std::fs::write(&source, "V2.2\nN+羽生善治\nN-藤井猛\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n").unwrap();
    let source = source.to_str().unwrap();
    for (ext, starts) in [
        ("kif", "先手：羽生善治"),
        ("kifu", "先手：羽生善治"),
        ("ki2u", "先手：羽生善治"),
        ("csa", "'CSA encoding=UTF-8"),
        ("jkf", "{"),
        ("json", "{"),
        ("usi", "position startpos moves 7g7f 3c3d"),
        ("psn", "[Sente \"羽生善治\"]"),
    ] {
        let out = tmp.path().join(format!("o.{ext}"));
        let run = convert(&[source, "--out", out.to_str().unwrap()]);
        assert_eq!(run.status.code(), Some(0), "{ext}: {}", String::from_utf8_lossy(&run.stderr));
        let text = encoding::decode(&std::fs::read(&out).unwrap()).unwrap().text.into_owned();
        assert!(text.starts_with(starts), "{ext}: {text}");
        let format = kifu::read_file(None, text.as_bytes()).unwrap().games.remove(0);
        assert_eq!(replay::replay(&format).moves.len(), 2, "{ext}");
    }
    for (to, ext, message) in [
        (
            "kif",
            "csa",
            "--out {} names a CSA file, and --to kif writes KIF: give --to csa, or a name with another extension",
        ),
        (
            "csa",
            "kif",
            "--out {} names a KIF file, and --to csa writes CSA: give --to kif, or a name with another extension",
        ),
        (
            "jkf",
            "ki2",
            "--out {} names a KI2 file, and --to jkf writes JKF: give --to ki2, or a name with another extension",
        ),
    ] {
        let out = tmp.path().join(format!("refused.{ext}"));
        let run = convert(&[source, "--to", to, "--out", out.to_str().unwrap()]);
        assert_eq!(run.status.code(), Some(2), "{to} {ext}");
        let expected = format!("kifudex: {}\n", message.replace("{}", out.to_str().unwrap()));
        assert_eq!(String::from_utf8_lossy(&run.stderr), expected);
        assert!(!out.exists());
    }
    // A name of no record format takes what --to says; Hosking and Hodges are both Western.
    for (to, name) in [("csa", "o.txt"), ("hosking", "h.psn")] {
        let out = tmp.path().join(name);
        let run = convert(&[source, "--to", to, "--out", out.to_str().unwrap()]);
        assert_eq!(run.status.code(), Some(0), "{to}: {}", String::from_utf8_lossy(&run.stderr));
    }
    assert!(
        std::fs::read_to_string(tmp.path().join("o.txt"))
            .unwrap()
            .starts_with("'CSA encoding=UTF-8\nV2.2\nN+羽生善治")
    );
}

/// `show --out` never writes over a record file its database has indexed, by any path to it:
/// the archive would lose the record as it was. The file is left byte for byte; another name
/// is written.
#[test]
fn show_never_writes_over_an_indexed_record() {
    let tmp = tempfile::tempdir().unwrap();
    let (dir, db) = (tmp.path().join("rec"), tmp.path().join("k.sqlite"));
    std::fs::create_dir(&dir).unwrap();
    let record = "V2.2\nN+A\nN-B\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n";
    std::fs::write(dir.join("g.csa"), record).unwrap();
    assert_eq!(kifudex(["index", dir.to_str().unwrap()]).db(&db).output().status.code(), Some(0));
    let roundabout = dir.join("..").join("rec").join("g.csa");
    for target in [dir.join("g.csa"), roundabout] {
        let run = kifudex(["show", "1", "--out", target.to_str().unwrap()]).db(&db).output();
        assert_eq!(run.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(stderr.contains("is a record file indexed in"), "{stderr}");
        assert_eq!(std::fs::read_to_string(dir.join("g.csa")).unwrap(), record);
    }
    let other = tmp.path().join("copy.csa");
    let run = kifudex(["show", "1", "--out", other.to_str().unwrap()]).db(&db).output();
    assert_eq!(run.status.code(), Some(0), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(std::fs::read_to_string(&other).unwrap().contains("+7776FU"));
}

/// A date header whose text says more than the date read from it (a second day, a `Z` after
/// the time) keeps that text in every format with a place for it: CSA, with no such place in
/// `$START_TIME`, keeps it in a comment or under its own `$` key.
#[test]
fn a_date_that_says_more_than_its_day_is_kept_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let kif = tmp.path().join("two-days.kifu");
    std::fs::write(
        &kif,
        "開始日時：2005/11/29･30日\n手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 投了\n",
    )
    .unwrap();
    let csa = tmp.path().join("zulu.csa");
    std::fs::write(&csa, "V2.2\n$START:2017-03-22T01:00:00.000Z\nPI\n+\n+7776FU\n%TORYO\n").unwrap();
    let text = |file: &Path, to: &str| {
        let out = convert(&[file.to_str().unwrap(), "--to", to]);
        assert!(out.status.success(), "{to}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let lines = |text: &str, start: &str| -> Vec<String> {
        text.lines().filter(|l| l.starts_with(start)).map(String::from).collect()
    };
    // By hand, from the CSA standard: `$START_TIME` holds one day and time.
    let from_kif = text(&kif, "csa");
    assert_eq!(lines(&from_kif, "$START_TIME:"), ["$START_TIME:2005/11/29"]);
    assert_eq!(lines(&from_kif, "'開始日時"), ["'開始日時:2005/11/29･30日"]);
    assert_eq!(lines(&text(&kif, "jkf"), "    \"開始日時\""), ["    \"開始日時\": \"2005/11/29･30日\""]);
    assert_eq!(lines(&text(&kif, "western"), "[開始日時 "), ["[開始日時 \"2005/11/29･30日\"]"]);
    let from_csa = text(&csa, "csa");
    assert_eq!(
        lines(&from_csa, "$START"),
        ["$START_TIME:2017/03/22 01:00:00", "$START:2017-03-22T01:00:00.000Z"]
    );
    assert_eq!(lines(&text(&csa, "kif"), "開始日時"), ["開始日時：2017-03-22T01:00:00.000Z"]);
    // Under CSA's own keys, the line as it was, once: a key written twice reads as one.
    let own = tmp.path().join("own.csa");
    let (start, end) = ("$START_TIME:2017/03/22 01:00:00Z", "$END_TIME:2017/03/22 03:00:00+09:00");
    std::fs::write(&own, format!("V2.2\n{start}\n{end}\nPI\n+\n+7776FU\n%TORYO\n")).unwrap();
    let from_own = text(&own, "csa");
    assert_eq!(lines(&from_own, "$START"), [start], "{from_own}");
    assert_eq!(lines(&from_own, "$END"), [end], "{from_own}");
    // After a line of its key that gives no date, too.
    let era = tmp.path().join("era.csa");
    std::fs::write(&era, format!("V2.2\n$START_TIME:慶応2年\n{start}\nPI\n+\n+7776FU\n%TORYO\n")).unwrap();
    assert_eq!(lines(&text(&era, "csa"), "$START"), ["$START_TIME:慶応2年", start]);
    // Each written text reads back the dates as the record gave them.
    for (file, to) in [
        (&kif, "csa"),
        (&kif, "jkf"),
        (&kif, "western"),
        (&csa, "kif"),
        (&csa, "csa"),
        (&own, "csa"),
        (&own, "kif"),
    ] {
        let written = text(file, to);
        let game =
            kifu::read_file(Some(Path::new(&format!("g.{to}"))), written.as_bytes()).unwrap().games.remove(0);
        let want = if file == &kif { "2005-11-29" } else { "2017-03-22T01:00:00" };
        assert_eq!(
            (file == &own).then(|| game.info.end.map(|d| d.to_string())),
            (file == &own).then(|| Some("2017-03-22T03:00:00".to_string())),
            "{to}"
        );
        assert_eq!(game.info.start.map(|d| d.to_string()).as_deref(), Some(want), "{to}");
    }
}

/// By hand, from the CSA standard: `$TIME_LIMIT` holds `hh:mm+ss` (V2.2), `$TIME`, `$TIME+`
/// and `$TIME-` hold seconds, byoyomi and increment (V3.0, whose lines and `$MAX_MOVES` mark
/// the text V3.0); a time control in words goes in a comment, once.
#[test]
fn a_time_control_goes_on_csa_lines_only_in_their_forms() {
    let tmp = tempfile::tempdir().unwrap();
    let moves = "PI\n+\n+7776FU\n-3334FU\n%TORYO\n";
    let cases: [(&str, String, &[&str]); 7] = [
        ("limit.csa", format!("V2.2\n$TIME_LIMIT:00:25+00\n{moves}"), &["V2.2", "$TIME_LIMIT:00:25+00"]),
        // Each number of hh:mm+ss with two digits.
        ("short.csa", format!("V2.2\n$TIME_LIMIT:1:30+0\n{moves}"), &["V2.2", "$TIME_LIMIT:01:30+00"]),
        (
            "short.kifu",
            "持ち時間：1:30+60\n手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 投了\n"
                .to_string(),
            &["V2.2", "$TIME_LIMIT:01:30+60"],
        ),
        ("time.csa", format!("V3.0\n$TIME:30+0+5\n{moves}"), &["V3.0", "$TIME:30+0+5"]),
        ("side.csa", format!("V2.2\n$TIME+:600+10+0\n{moves}"), &["V3.0", "$TIME+:600+10+0"]),
        (
            "words.csa",
            format!("V3.0\n$TIME:各8時間\n$MAX_MOVES:256\n{moves}"),
            &["V3.0", "$MAX_MOVES:256", "'$TIME:各8時間"],
        ),
        (
            "words.kifu",
            "持ち時間：各8時間\n手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 投了\n"
                .to_string(),
            &["V2.2", "'持ち時間:各8時間"],
        ),
    ];
    for (name, text, expected) in cases {
        let path = tmp.path().join(name);
        std::fs::write(&path, text).unwrap();
        let out = convert(&[path.to_str().unwrap(), "--to", "csa"]);
        assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let written = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<&str> = written
            .lines()
            .filter(|l| l.starts_with('V') || l.starts_with('$') || l.contains("時間"))
            .collect();
        assert_eq!(lines, expected, "{name}:\n{written}");
    }
}

/// CSA reads `,'` inside a comment as the start of another (as padded server logs write
/// them), so a comment or a kept header that holds it is written with a space after the
/// comma: one comment, read back as written.
#[test]
fn a_comment_holding_comma_quote_stays_one_comment_through_csa() {
    let tmp = tempfile::tempdir().unwrap();
    let kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n*好手,'次は\n   2 投了\n";
    let csa = "V2.2\nN+Sente\nN+again,'x\nPI\n+\n+7776FU\n%TORYO\n";
    for (name, text, expected) in [("c.kifu", kif, "'好手, '次は"), ("c.csa", csa, "'N+:again, 'x")] {
        let path = tmp.path().join(name);
        std::fs::write(&path, text).unwrap();
        let out = convert(&[path.to_str().unwrap(), "--to", "csa"]);
        let written = String::from_utf8(out.stdout).unwrap();
        let comments: Vec<&str> =
            written.lines().filter(|l| l.contains("次は") || l.contains("again")).collect();
        assert_eq!(comments, [expected], "{name}:\n{written}");
        // Read back, it is one comment, and written again the same.
        let again = tmp.path().join(format!("{name}.csa"));
        std::fs::write(&again, &written).unwrap();
        let out = convert(&[again.to_str().unwrap(), "--to", "csa"]);
        assert_eq!(String::from_utf8(out.stdout).unwrap(), written, "{name}");
    }
}
