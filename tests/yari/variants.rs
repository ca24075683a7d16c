//! Yari shogi named by a record's start header in every format that has one (KIF and KI2's
//! 手合割, JKF's header and preset, Western `[Handicap]`), games of unknown variants refused,
//! messages in yari shogi's own piece names, the end by stalemate as Fairy-Stockfish scores it,
//! and a yari game written to every format and read back.

use kifudex::{
    kifu::{self, Format, Outcome, Termination},
    replay::{self, Status},
    shogi::{Color, Variant},
    write,
};

/// The seed's opening as `tests/data/yari/opening.psn` plays it, turned into the USI-like form
/// by hand (P-7f is 7g7f, YB2a-3b is 2a3b, P*7c a drop, YRx7c+ promotes).
const OPENING: &str = "7g7f 3c3d 2g2f 2a3b 6i5h 5a5b 7f7e 3d3e 7e7d 7c7d 7i7d P*7c 7d7c+";

fn usi_moves(format: Format, text: &str) -> (Variant, String, Option<String>) {
    let games = kifu::read(format, text);
    let game = &games[0];
    let replayed = replay::replay(game);
    let moves: Vec<String> = replayed.moves.iter().map(ToString::to_string).collect();
    let stop = match &replayed.status {
        Status::Complete => None,
        Status::Stopped(reason) => Some(reason.to_string()),
    };
    (game.start.variant(), moves.join(" "), game.problem.as_ref().map(|p| p.code().to_string()).or(stop))
}

#[test]
fn kif_ki2_and_jkf_name_yari_shogi_in_their_headers() {
    let kif = "手合割：槍将棋\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ５八角(69)\n";
    assert_eq!(usi_moves(Format::Kif, kif), (Variant::Yari, "7g7f 3c3d 6i5h".into(), None));
    // KI2 names the yari bishop that moves: 左 is Black's left one, on 6i (the seed's YB6i-5h).
    let ki2 = "手合割：槍将棋\n▲７六歩 △３四歩 ▲５八角左\n";
    assert_eq!(usi_moves(Format::Ki2, ki2), (Variant::Yari, "7g7f 3c3d 6i5h".into(), None));
    let jkf = |header: &str, initial: &str| {
        format!(
            r#"{{"header":{{{header}}},{initial}"moves":[{{}},{{"move":{{"from":{{"x":7,"y":7}},"to":{{"x":7,"y":6}},"piece":"FU","color":0}}}}]}}"#
        )
    };
    for (header, initial) in [
        (r#""手合割":"槍将棋""#, ""),
        ("", r#""initial":{"preset":"YARI"},"#),
        (r#""手合割":"槍将棋""#, r#""initial":{"preset":"HIRATE"},"#),
    ] {
        assert_eq!(
            usi_moves(Format::Jkf, &jkf(header, initial)),
            (Variant::Yari, "7g7f".into(), None),
            "{header}"
        );
    }
    // A preset of a shogi handicap contradicts the header.
    let odd = jkf(r#""手合割":"槍将棋""#, r#""initial":{"preset":"KY"},"#);
    assert_eq!(usi_moves(Format::Jkf, &odd).2.as_deref(), Some("wrong_variant"));
    // Western text takes the same name in its [Handicap] tag.
    let psn = "[Handicap \"槍将棋\"]\n\n1. P-7f P-3d\n";
    assert_eq!(usi_moves(Format::Western, psn), (Variant::Yari, "7g7f 3c3d".into(), None));
    // The shogi of the same header is shogi still.
    let shogi = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n";
    assert_eq!(usi_moves(Format::Kif, shogi), (Variant::Standard, "7g7f".into(), None));
}

#[test]
fn records_of_unknown_variants_are_refused_with_the_reason() {
    let why = "unknown variant '中将棋' (kifudex plays shogi and yari shogi)";
    let records = [
        (Format::Kif, "手合割：中将棋\n手数----指手---------消費時間--\n   1 ７六歩(77)\n".to_string()),
        (Format::Ki2, "手合割：中将棋\n▲７六歩\n".to_string()),
        (Format::Jkf, r#"{"header":{"手合割":"中将棋"},"moves":[{}]}"#.to_string()),
        (Format::Western, "[Variant \"中将棋\"]\n\n1. P-7f\n".to_string()),
        (Format::Western, "[Handicap \"中将棋\"]\n\n1. P-7f\n".to_string()),
    ];
    for (format, text) in records {
        let game = &kifu::read(format, &text)[0];
        let problem = game.problem.as_ref().unwrap_or_else(|| panic!("{format:?} {text}"));
        assert_eq!((problem.code(), problem.to_string().contains(why)), ("bad_header", true), "{problem}");
        assert!(replay::replay(game).moves.is_empty(), "{format:?}: nothing is replayed as shogi");
    }
}

#[test]
fn messages_name_the_general_and_the_yari_pieces() {
    // Black's general on 4i, White's yari rook on 4a down the open file 4 (no pawn on 4c or
    // 4g): the general may not step onto 4h, still on the file.
    let kif = "手合割：槍将棋\n手数----指手---------消費時間--\n   1 ４八玉(49)\n";
    let game = &kifu::read(Format::Kif, kif)[0];
    assert_eq!(replay::replay(game).moves.len(), 1, "4i4h is legal from the start: pawns shield file 4");
    let psn = "[SFEN \"3r2k/7/7/7/7/7/7/7/3K3 b - 1\"]\n\n1. G-4h\n";
    let game = &kifu::read(Format::Western, psn)[0];
    let stopped = replay::replay(game).status;
    let message = match stopped {
        Status::Stopped(reason) => reason.to_string(),
        Status::Complete => panic!("G-4h stays on the yari rook's file"),
    };
    assert!(message.contains("the general is left in check"), "{message}");
    // A KIF move whose piece is not the one on its origin: named by the yari letters.
    let kif = "手合割：槍将棋\n手数----指手---------消費時間--\n   1 ５八飛(59)\n";
    let game = &kifu::read(Format::Kif, kif)[0];
    let message = match replay::replay(game).status {
        Status::Stopped(reason) => reason.to_string(),
        Status::Complete => panic!("5i holds a yari bishop"),
    };
    assert!(message.contains("the piece on 5i is a YB, not a YR"), "{message}");
}

/// Fairy-Stockfish (pyffish 0.0.90, variant yarishogi) on this position after 2d2c (`f6f7` in
/// its coordinates): `legal_moves` is empty, `gives_check` false, and `game_result` -32000,
/// a loss for the side to move. White's general on 1a: the pawn on 1c guards 1b, the yari rook
/// on 2c guards 2b and 2a, and nothing attacks 1a.
#[test]
fn a_stalemated_side_loses_as_fairy_stockfish_scores_it() {
    let line = "position sfen 6k/7/6P/5R1/7/7/7/7/K6 b - 1 moves 2d2c\n";
    let game = &kifu::read(Format::Usi, line)[0];
    let replayed = replay::replay(game);
    assert_eq!(replayed.status, Status::Complete);
    assert_eq!(
        (replayed.termination, replayed.outcome),
        (Some(Termination::Stalemate), Some(Outcome::Win(Color::Black)))
    );
    // A record that says otherwise is overruled, with a warning; one that goes on is cut.
    let psn = "[SFEN \"6k/7/6P/5R1/7/7/7/7/K6 b - 1\"]\n[Result \"0-1\"]\n\n1. YR-2c 0-1\n";
    let replayed = replay::replay(&kifu::read(Format::Western, psn)[0]);
    assert_eq!(replayed.outcome, Some(Outcome::Win(Color::Black)));
    assert!(
        replayed.warnings.iter().any(|w| w.code == "ending_contradicts_stalemate"),
        "{:?}",
        replayed.warnings
    );
}

/// The seed's opening, written in every format and read back with its format found from the
/// text alone: the same moves and the same variant, or, for CSA, no text at all.
#[test]
fn a_yari_game_round_trips_through_every_format() {
    let psn = include_str!("../data/yari/opening.psn");
    let game = &kifu::read(Format::Western, psn)[0];
    let replayed = replay::replay(game);
    for format in Format::ALL {
        if !format.holds_start(&replayed.start) {
            assert_eq!(format, Format::Csa);
            continue;
        }
        let text = write::write(format, game, &replayed);
        let found = kifu::detect(None, &text).unwrap_or_else(|| panic!("{format:?}:\n{text}"));
        assert_eq!(found, format, "{text}");
        let back = usi_moves(format, &text);
        assert_eq!(back, (Variant::Yari, OPENING.to_string(), None), "{format:?}:\n{text}");
    }
}
