//! USI position lines, SFEN lists and USEN.

use kifudex::{
    kifu::{Format, Outcome, Start, Termination, usi},
    replay::{Status, StopReason, replay},
    shogi::{Color, Handicap},
};

use super::{expect, fixture, only_game};

#[test]
fn usi_resign_token_and_illegal_drop() {
    let resign = only_game(Format::Usi, "usi/test_resign.usi");
    assert_eq!(resign.moves.len(), 2);
    expect(
        &replay(&resign),
        2,
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b -",
        "w",
        "resign",
    );
    // `P*5e` with no pawn in hand: read (it is a well-formed move), stopped by replay at 5.
    let drops = only_game(Format::Usi, "usi/test_drops.usi");
    assert_eq!(drops.moves.len(), 5);
    let r = replay(&drops);
    expect(&r, 4, "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb", "-", "none");
    assert!(matches!(r.status, Status::Stopped(StopReason::Move { ply: 5, line: 1, .. })), "{}", r.status);
}

#[test]
fn sfen_several_games_in_one_file() {
    // Bare SFEN lines with move numbers: three positions, no moves.
    let games = usi::read(&fixture("usi/test_collection.sfen"));
    let ends: Vec<_> = games.iter().map(|g| replay(g).end.position_text()).collect();
    assert_eq!(
        ends,
        [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -",
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b -",
        ]
    );
    assert_eq!(games[0].start, Start::Standard(Handicap::Even));
    assert!(matches!(&games[2].start, Start::Custom(s) if s.move_number == 3));
    // `position startpos moves …` lines.
    let games = usi::read(&fixture("usi/division-input.sfen"));
    assert_eq!(games.iter().map(|g| g.line).collect::<Vec<_>>(), [1, 2, 3]);
    let expected = [
        (13, "ln1gk2nl/1r1s1sgb1/p1pp1p1pp/1p2p1p2/9/2P1P2P1/PPSP1PP1P/1BG2S1R1/LN2KG1NL w -"),
        (14, "lns1kg1nl/1r2g1s2/p1ppp1bpp/5pp2/1p5P1/2P3P2/PPBPPPS1P/7R1/LNSGKG1NL b -"),
        (18, "ln1gk2nl/1r4gs1/p1pspp1pp/3p2p2/1p5P1/2P3P2/PPSPPPN1P/6SR1/LN1GKG2L b Bb"),
    ];
    for (game, (plies, end)) in games.iter().zip(expected) {
        expect(&replay(game), plies, end, "-", "none");
    }
}

#[test]
fn sfen_handicap_position_line() {
    // `position sfen 2sgkgs2/… w - 1 moves 5a4b …`: 六枚落ち, White first, 89 moves; the last
    // one mates but nothing is written after it.
    let game = only_game(Format::Usi, "usi/six_piece_handicap.sfen");
    assert_eq!(game.start, Start::Standard(Handicap::SixPieces));
    let r = replay(&game);
    assert_eq!(r.plies(), 89);
    assert_eq!(r.end.position_text(), "9/9/p2p+S2+L1/2g2p+R2/1p2p1P2/2pP1ks2/PP2P+p3/1BGKs4/LN1g5 b GSN6P");
    assert!(r.status.is_complete());
}

#[test]
fn usen_games() {
    // No oracle reads USEN: the expectations were decoded by hand (see the module docs of
    // the USEN reader for the encoding); test_basic.usen is test_basic.usi's game.
    let basic = only_game(Format::Usi, "usi/test_basic.usen");
    let r = replay(&basic);
    let usi: Vec<String> = r.moves.iter().map(ToString::to_string).collect();
    assert_eq!(usi, ["7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h"]);
    expect(&r, 7, "lnsgkgsnl/1r5b1/p1pppp1pp/6p2/1p5P1/2P6/PP1PPPP1P/1BG4R1/LNS1KGSNL w -", "-", "none");
    // A 四枚落ち board given in full, White to move, ending `.r`: resigned.
    let handicap = only_game(Format::Usi, "usi/test_handicap.usen");
    assert_eq!(handicap.start, Start::Standard(Handicap::FourPieces));
    assert_eq!(handicap.ending.as_ref().map(|e| e.termination), Some(Termination::Resign));
    expect(
        &replay(&handicap),
        11,
        "1n2k2n1/1s2g1g2/ppppppspp/6p2/7P1/2P6/PP1PPPP1P/1B2GS1R1/LNSGK2NL b -",
        "w",
        "resign",
    );
}

#[test]
fn usi_lines_that_are_not_usi() {
    let games = usi::read("position startpos moves 7g7f\nnot a game\nposition sfen 9/9 b -\n");
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].problem, None);
    assert_eq!(games[1].problem.as_ref().map(|p| p.line), Some(2));
    assert_eq!(games[2].problem.as_ref().map(|p| p.line), Some(3));
}

#[test]
fn usi_every_line_form_and_ending_token() {
    let text = concat!(
        "position startpos moves 7g7f 3c3d resign\n",
        "position startpos moves 7g7f 3c3d win\n",
        "startpos moves 7g7f 3c3d draw\n",
        "# a bare move list, from the even start\n",
        "7g7f 3c3d 2g2f\n",
        "\n",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n",
        "sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1 moves G*5b\n",
    );
    let games = usi::read(text);
    assert_eq!(games.iter().map(|g| g.line).collect::<Vec<_>>(), [1, 2, 3, 5, 7, 8]);
    let results: Vec<_> = games
        .iter()
        .map(|g| {
            assert_eq!(g.problem, None, "line {}", g.line);
            let r = replay(g);
            (r.plies(), r.termination, r.outcome)
        })
        .collect();
    let (black, white) = (Some(Outcome::Win(Color::Black)), Some(Outcome::Win(Color::White)));
    assert_eq!(
        results,
        [
            // Black is to move after two moves: resign is Black's, win (an entering-king
            // declaration) is Black's too.
            (2, Some(Termination::Resign), white),
            (2, Some(Termination::EnteringKing), black),
            (2, Some(Termination::Draw), Some(Outcome::Draw)),
            (3, None, None),
            (0, None, None),
            // G*5b, guarded by the pawn, mates: no ending is written, the position says it.
            (1, Some(Termination::Checkmate), black),
        ]
    );
    assert_eq!(
        replay(&games[4]).end.to_string(),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
    );
}
