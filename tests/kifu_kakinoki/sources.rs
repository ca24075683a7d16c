//! More hard cases the corpus's sources name, one named test each, on fixtures copied into
//! `tests/data/kifu/` (listed in its `SOURCES.md` under "Added for the hard cases"). Plies,
//! final positions, winners and terminations are the corpus oracle's
//! (`tests/data/corpus/expected.tsv`).

use std::path::Path;

use kifudex::{
    kifu::{self, Format},
    replay::replay,
};

use super::fixtures::{expect, status_text, winner};

#[test]
fn kif_title_games_ryuou_ouza_kiou_with_times() {
    let (game, _) = expect(
        "ryuou201409020101.kif",
        117,
        "l+R6l/9/2B1p1+P2/p2k4p/2N1Rg3/P1P1s4/1PG5P/1K3S3/LN1+p1b1NL w 6P2g2sn3p",
        "b",
        "resign",
        "ok",
    );
    assert!(game.info.event.as_deref().is_some_and(|e| e.contains("竜王戦")), "{:?}", game.info.event);
    assert!(game.moves.iter().all(|m| m.seconds.is_some()));
    // The record stops without an ending; its last move is the 103rd.
    let (game, _) = expect(
        "ouza201410070101.kif",
        103,
        "l4g1n1/2p6/p2kp2p1/6p1p/3p5/1+BL2p3/PP1PLSPPP/2G3SK1/1+b3S1NL w GP2rgs2n3p",
        "-",
        "none",
        "ok",
    );
    assert!(game.info.event.as_deref().is_some_and(|e| e.contains("王座戦")));
    let (game, _) = expect(
        "kiou201403160101.kif",
        85,
        "l7l/1S5g1/p+Sppp+BP1p/1k3N3/9/1pP6/P1KP1P2P/S3g4/LN+bs3NL w GN4P2rg2p",
        "b",
        "resign",
        "ok",
    );
    // `手合割：平手　　` with trailing full-width spaces, `開始日時` without seconds.
    assert_eq!(game.info.start.map(|d| d.to_string()).as_deref(), Some("2014-03-16T09:00:00"));
    assert_eq!(game.info.black.map(|p| p.full).as_deref(), Some("渡辺明"));
}

#[test]
fn kif_repetition_draw_in_a_pro_game() {
    let sfen = "lr6l/3g1kg2/3ppp1p1/p1p3Psp/1n4bn1/PSPsS1p1P/1P2PP1R1/1G1KG4/LN5NL w B2Pp";
    let (game, _) = expect("mog-009-sennichite.kif", 85, sfen, "d", "repetition", "ok");
    assert_eq!(game.ending.map(|e| e.text).as_deref(), Some("千日手"));
}

#[test]
fn kif_shogidokoro_exports() {
    // Declared `encoding=UTF-8` but written in Shift_JIS (converted by nkf), with an engine's
    // score and principal variation as comments on every move.
    let sfen = "ln2n4/2G2+R+P2/pp2p3p/k1gp3p1/P7P/3+BPS1b1/1PNP1s1+n+s/2S1g1+p1l/L1K5R w 4Pglp";
    // Resigned in a mated position (cshogi: in check, no legal move): checkmate.
    let (game, _) = expect("shogidokoro-engine-comments.kif", 131, sfen, "b", "checkmate", "ok");
    assert_eq!(game.moves[0].comments, ["0", "▲７八金(69)△３二金(41)▲６八玉(59)△４二玉(51)"]);
    // An engine game that ended with an illegal move and 反則勝ち/負け.
    let sfen = "1n4kn1/1rs2s1bl/l1p1gpp1p/pp1pg2p1/7P1/2PP1PG1P/P1B1p1P1N/2GR4L/LNS1K1S2 b Pp";
    expect("shogidokoro-illegal.kifu", 52, sfen, "w", "illegal_move", "ok");
}

#[test]
fn kif_kiou_games_from_shogi_supplement() {
    let sfen = "lr5sl/3+B1k3/3p1pnp1/p1p3N2/3S4P/P1P2Ps1p/3P2NP1/L+p2G1SK1/5G2L w 2GPrbn4p";
    let (game, _) = expect("supplement-kiou_game1.kif", 103, sfen, "b", "resign", "ok");
    assert_eq!(game.info.time_control.as_deref(), Some("10分+30秒"));
}

#[test]
fn conversion_inputs_in_shift_jis_and_utf8() {
    // The UTF-8 ones start with a byte order mark (seen with xxd).
    let cases = [
        (
            "conversion-kif-sjis.kif",
            Format::Kif,
            "cp932",
            6,
            "lnsgk1snl/1r4gb1/p1ppppppp/9/1p5P1/9/PPPPPPP1P/1BG4R1/LNS1KGSNL b -",
            "w",
            "resign",
        ),
        (
            "conversion-ki2-sjis.ki2",
            Format::Ki2,
            "cp932",
            6,
            "lnsgk1snl/1r4gb1/p1ppppppp/9/1p5P1/9/PPPPPPP1P/1BG4R1/LNS1KGSNL b -",
            "w",
            "resign",
        ),
        (
            "conversion-kifu-utf8.kifu",
            Format::Kif,
            "utf-8-bom",
            19,
            "lnsgkg1nl/4r2b1/pppp1p1pp/5sp2/9/2P1P2P1/PP1PSPP1P/1BK1G2R1/LNSG3NL w p",
            "-",
            "none",
        ),
        (
            "ki2u-utf8.ki2u",
            Format::Ki2,
            "utf-8-bom",
            15,
            "ln1g2snl/2s1k1gb1/p1ppppppp/9/7P1/1rP3P2/P2PPP2P/1BGK2SR1/LNS2G1NL w Pp",
            "-",
            "none",
        ),
        (
            "csa/conversion-csa-sjis.csa",
            Format::Csa,
            "cp932",
            20,
            "lnsg2snl/4k1gb1/p1pppp1pp/1r4p2/9/2P4R1/PP1PPPP1P/1BG1K4/LNS2GSNL b Pp",
            "-",
            "none",
        ),
    ];
    for (name, format, encoding, plies, sfen, win, termination) in cases {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kifu").join(name);
        let bytes = std::fs::read(&path).expect("a fixture");
        let parsed = kifu::read_file(Some(&path), &bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!((parsed.format, parsed.encoding), (format, encoding), "{name}");
        let r = replay(&parsed.games[0]);
        let got =
            (r.plies(), r.end.position_text(), winner(r.outcome), r.termination.map_or("none", |t| t.name()));
        assert_eq!(got, (plies, sfen.to_string(), win, termination), "{name}");
        assert_eq!(status_text(&r), "ok", "{name}");
    }
}
