//! JKF: forks, presets, drops, and the conversions shogi-kifu-converter ships.

use kifudex::{
    kifu::{Format, Start, jkf},
    replay::replay,
    shogi::{Color, Handicap, PieceKind},
};
use serde_json::Value;

use super::{BRIDGE_GAME_END, expect, only_game, tokens};

#[test]
fn jkf_forks_and_presets() {
    // forks.json: forks on the 5th move (eight moves, with a fork of seven on its 5th) and
    // on the 10th (five moves), counted in the JSON by hand.
    let game = only_game(Format::Jkf, "jkf/forks.json");
    type Shape = (usize, usize, Vec<(usize, usize)>);
    let shape: Vec<Shape> = game
        .variations
        .iter()
        .map(|v| (v.ply, v.moves.len(), v.variations.iter().map(|w| (w.ply, w.moves.len())).collect()))
        .collect();
    assert_eq!(shape, [(4, 8, vec![(4, 7)]), (9, 5, vec![])]);
    let r = replay(&game);
    expect(&r, 12, "lnsgk2nl/1r4gs1/p1pppp1pp/6p2/1p7/2P4P1/PPSPPPP1P/2G4R1/LN2KGSNL b Bb", "-", "none");
    // Every fork is a legal line from where it branches.
    assert_eq!(r.variations.len(), 2);
    assert!(r.variations.iter().all(|v| v.stopped.is_none()));
    assert_eq!(r.variations[0].variations[0].moves.len(), 7);
    assert_eq!(r.variations[0].variations[0].stopped, None);

    assert_eq!(only_game(Format::Jkf, "jkf/initial_2.json").start, Start::Standard(Handicap::TwoPieces));
    assert_eq!(only_game(Format::Jkf, "jkf/initial_ky.json").start, Start::Standard(Handicap::Lance));
    let other = only_game(Format::Jkf, "jkf/other_board.jkf");
    assert!(matches!(other.start, Start::Custom(_)));
    expect(
        &replay(&other),
        0,
        "lnsgk1snl/1r4gb1/p1ppppppp/9/1p5P1/9/PPPPPPP1P/1BGK3R1/LNS2GSNL w -",
        "-",
        "none",
    );
    let tsume = only_game(Format::Jkf, "jkf/tsumeshogi_00al.json");
    let white = tsume.start.setup();
    assert_eq!(white.hand(Color::White).count(PieceKind::Pawn), 14);
}

#[test]
fn jkf_matches_its_csa_sibling() {
    // shogi-kifu-converter's JSON files are its expected conversions of the CSA files.
    for name in ["v22", "initial_2", "initial_ky", "tsumeshogi_00al", "floodgate"] {
        let from_csa = only_game(Format::Csa, &format!("jkf/{name}.csa"));
        let from_jkf = only_game(Format::Jkf, &format!("jkf/{name}.json"));
        assert_eq!(from_jkf.start.setup(), from_csa.start.setup(), "{name}");
        assert_eq!(from_jkf.info, from_csa.info, "{name}");
        let (a, b) = (replay(&from_csa), replay(&from_jkf));
        assert!(a.status.is_complete() && b.status.is_complete(), "{name}");
        assert_eq!((&a.moves, a.termination, a.outcome), (&b.moves, b.termination, b.outcome), "{name}");
        let seconds = |g: &kifudex::kifu::Game| g.moves.iter().map(|m| m.seconds).collect::<Vec<_>>();
        assert_eq!(seconds(&from_jkf), seconds(&from_csa), "{name}");
        // Engine lines and the board dump after the ending stay with their moves.
        let comments = |g: &kifudex::kifu::Game| {
            g.moves
                .iter()
                .map(|m| m.comments.iter().map(|c| c.trim_end().to_string()).collect())
                .collect::<Vec<Vec<_>>>()
        };
        assert_eq!(comments(&from_jkf), comments(&from_csa), "{name}");
    }
}

#[test]
fn jkf_drops_with_null_from() {
    // Drops written `"from": null`; the game's commentary was left out of the fixture.
    let game = only_game(Format::Jkf, "jkf/drops_from_null.jkf");
    assert_eq!(game.info.event.as_deref(), Some("第２７期竜王戦挑戦者決定三番勝負\u{3000}第２局"));
    assert_eq!(game.info.start.map(|d| d.to_string()).as_deref(), Some("2014-09-02T10:00:00"));
    assert_eq!(game.info.black.as_ref().map(|p| p.full.as_str()), Some("羽生善治"));
    assert_eq!(game.header("手合割"), Some("平手\u{3000}\u{3000}"));
    expect(
        &replay(&game),
        117,
        "l+R6l/9/2B1p1+P2/p2k4p/2N1Rg3/P1P1s4/1PG5P/1K3S3/LN1+p1b1NL w 6P2g2sn3p",
        "b",
        "resign",
    );
}

#[test]
fn jkf_without_initial_and_with_same() {
    let game = only_game(Format::Jkf, "jkf/same_move_minimal.jkf");
    assert_eq!(game.start, Start::Standard(Handicap::Even));
    assert_eq!(tokens(&game), ["+7776FU", "-3334FU", "+8822UM", "-3122GI", "+2726FU"]);
    expect(
        &replay(&game),
        5,
        "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P4P1/PP1PPPP1P/7R1/LNSGKGSNL w Bb",
        "-",
        "none",
    );
}

#[test]
fn jkf_times_comments_and_special() {
    let game = only_game(Format::Jkf, "jkf/engine_comments.jkf");
    let seconds: Vec<_> = game.moves.iter().map(|m| m.seconds).collect();
    assert_eq!(seconds, [Some(2), Some(1), Some(2), Some(1), Some(3), Some(1)]);
    assert_eq!(game.moves[1].comments[..2], ["互角".to_string(), "*評価値=-35".to_string()]);
    assert_eq!(game.info.time_control.as_deref(), Some("30+0+5"));
    assert_eq!(game.header("表題"), Some("test+test-30-5F+Enemy+usi-csa-bridge+20260805002900"));
    expect(&replay(&game), 6, BRIDGE_GAME_END, "w", "resign");
}

#[test]
fn jkf_problems_name_their_line() {
    let game = jkf::read("{\"moves\": [\n{},\n").remove(0);
    assert_eq!(game.problem.as_ref().map(|p| p.line), Some(3));
    let text = "{\"header\": {},\n \"moves\": [{},\n {\"move\": {\"from\": {\"x\": 7, \"y\": 7}, \"to\": {\"x\": 7, \"y\": 6}, \"piece\": \"FU\", \"color\": 0}},\n {\"move\": {\"to\": {\"x\": 3, \"y\": 4}, \"piece\": \"XX\", \"color\": 1}}]}";
    let game = jkf::read(text).remove(0);
    assert_eq!(game.moves.len(), 1);
    let problem = game.problem.expect("the bad piece is reported");
    assert_eq!(problem.line, 4);
    assert!(problem.kind.to_string().contains("XX"), "{problem}");
    assert_eq!(problem.code(), "bad_move_text");
    let game = jkf::read("{\"initial\": {\"preset\": \"9\"}, \"moves\": []}").remove(0);
    assert_eq!(game.problem.map(|p| p.code()), Some("bad_board"));
}

#[test]
fn jkf_writer_matches_the_shipped_conversions() {
    // shogi-kifu-converter's JSON is its conversion of the CSA file: the JKF writer, given the
    // CSA game, must say the same. Comments after the ending are the one known difference
    // (kifudex keeps them with the last move), and `relative` is compared once the KI2 form
    // of moves is written.
    for name in ["floodgate", "v22", "tsumeshogi_00al", "initial_2"] {
        let game = only_game(Format::Csa, &format!("jkf/{name}.csa"));
        let ours: Value =
            serde_json::from_str(&kifudex::write::jkf::write(&game, &replay(&game))).expect("JSON");
        let theirs: Value = serde_json::from_str(&super::fixture(&format!("jkf/{name}.json"))).expect("JSON");
        assert_eq!(ours["header"], theirs["header"], "{name}");
        assert_eq!(ours["initial"], theirs["initial"], "{name}");
        let (ours, theirs) =
            (ours["moves"].as_array().expect("moves"), theirs["moves"].as_array().expect("moves"));
        assert_eq!(ours.len(), theirs.len(), "{name}");
        let last_move = ours.len().saturating_sub(2);
        for (i, (a, b)) in ours.iter().zip(theirs).enumerate().skip(1) {
            assert_eq!((&a["time"], &a["special"]), (&b["time"], &b["special"]), "{name} {i}");
            if i < last_move {
                assert_eq!(a["comments"], b["comments"], "{name} {i}");
            }
            let (Some(a), Some(b)) = (a["move"].as_object(), b["move"].as_object()) else { continue };
            for key in ["color", "from", "to", "piece", "same", "capture"] {
                assert_eq!(a.get(key), b.get(key), "{name} {i} {key}");
            }
            let promote = |m: &serde_json::Map<String, Value>| m.get("promote") == Some(&Value::Bool(true));
            assert_eq!(promote(a), promote(b), "{name} {i}");
            if a.contains_key("relative") {
                assert_eq!(a.get("relative"), b.get("relative"), "{name} {i}");
            }
        }
    }
}

#[test]
fn jkf_fork_totals_count_from_before_the_move_they_replace() {
    // Black spends 10 s on 7六歩; the fork replaces it with 2六歩 in 5 s: black's total there
    // is 5 s, not 15. White's 3四歩 (20 s) is replaced by 8四歩 (7 s): white's total is 7 s.
    let entry = |color, from: (u8, u8), to: (u8, u8), now: u32, more: &str| {
        format!(
            r#"{{"move": {{"color": {color}, "from": {{"x": {}, "y": {}}}, "to": {{"x": {}, "y": {}}}, "piece": "FU"}}, "time": {{"now": {{"m": 0, "s": {now}}}}}{more}}}"#,
            from.0, from.1, to.0, to.1
        )
    };
    let fork = |color, from, to, now| format!(r#", "forks": [[{}]]"#, entry(color, from, to, now, ""));
    let text = format!(
        r#"{{"moves": [{{}}, {}, {}]}}"#,
        entry(0, (7, 7), (7, 6), 10, &fork(0, (2, 7), (2, 6), 5)),
        entry(1, (3, 3), (3, 4), 20, &fork(1, (8, 3), (8, 4), 7)),
    );
    let g = jkf::read(&text).remove(0);
    assert_eq!(g.problem, None);
    let written: Value =
        serde_json::from_str(&kifudex::write::jkf::write(&g, &replay(&g))).expect("the writer writes JSON");
    let total = |entry: &Value| entry["time"]["total"]["s"].as_u64();
    let moves = &written["moves"];
    assert_eq!(total(&moves[1]), Some(10));
    assert_eq!(total(&moves[2]), Some(20));
    assert_eq!(total(&moves[1]["forks"][0][0]), Some(5));
    assert_eq!(total(&moves[2]["forks"][0][0]), Some(7));
}
