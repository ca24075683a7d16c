//! The rules facade: perft, start positions, illegal-move reasons, check, mate and repetition.

use kifudex::shogi::{
    Color, Handicap, IllegalMoveKind, Move, Piece, PieceKind, Position, Repetition, STARTPOS_SFEN, Setup,
    Square, rules,
};

use crate::util::{Rng, perft, random_playout};

fn pos(sfen: &str) -> Position {
    Position::from_setup(sfen.parse().expect("test SFEN")).expect("test position")
}

fn mv(usi: &str) -> Move {
    usi.parse().expect("test move")
}

fn sq(usi: &str) -> Square {
    usi.parse().expect("test square")
}

/// Leaf statistics as the published start-position table counts them: each leaf move is
/// classified by what it does.
#[derive(Default, Debug, PartialEq)]
struct Leaves {
    nodes: u64,
    captures: u64,
    promotions: u64,
    checks: u64,
}

fn perft_stats(pos: &mut Position, depth: u32, out: &mut Leaves) {
    for m in pos.legal_moves() {
        if depth == 1 {
            out.nodes += 1;
            out.captures += u64::from(pos.piece_at(m.to()).is_some());
            out.promotions += u64::from(m.is_promotion());
            pos.play_unchecked(m);
            out.checks += u64::from(pos.is_check());
            pos.undo();
        } else {
            pos.play_unchecked(m);
            perft_stats(pos, depth - 1, out);
            pos.undo();
        }
    }
}

/// The start position, depths 1 to 4. Node counts and the capture, promotion and check counts
/// are the published table in "将棋でPerftしてみたまとめ" (Qiita, ak11), which also gives
/// 19,861,490 at depth 5 (see `startpos_perft_5`).
#[test]
fn startpos_perft() {
    let mut p = Position::startpos();
    let expected = [30, 900, 25_470, 719_731];
    for (depth, &nodes) in (1..).zip(expected.iter()) {
        assert_eq!(perft(&mut p, depth), nodes, "depth {depth}");
    }
    let mut d3 = Leaves::default();
    perft_stats(&mut p, 3, &mut d3);
    assert_eq!(d3, Leaves { nodes: 25_470, captures: 59, promotions: 30, checks: 48 });
    let mut d4 = Leaves::default();
    perft_stats(&mut p, 4, &mut d4);
    assert_eq!(d4, Leaves { nodes: 719_731, captures: 1_803, promotions: 842, checks: 1_121 });
    assert_eq!(p.sfen(), STARTPOS_SFEN, "undo restores the start position");
}

#[test]
#[ignore = "about 20 million nodes; run with --ignored"]
fn startpos_perft_5() {
    assert_eq!(perft(&mut Position::startpos(), 5), 19_861_490);
}

/// More positions and their published counts. The first three and their counts are the perft
/// table of the Peeper shogi engine (`Peeper.Logic/Util/PerftData.cs`): the "matsuri" position
/// of ak11's move-generation contest (指し手生成祭り), long used to test shogi move generators;
/// the Ryu-O game position (Sato v. Watanabe) engines use as a benchmark; and two bare kings
/// with every other piece in hand. The
/// position with the most legal moves known has 593 (ShogiLibSharp's perft tests give 53,393,368
/// at depth 3). The last two (a pinned checker and a double check) are from the rules crate's
/// own table. Every count here was also reproduced with cshogi 1.1.0, an independent move
/// generator, before being written down.
#[test]
fn reference_positions_perft() {
    let table: [(&str, &[u64]); 6] = [
        ("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1", &[207, 28_684, 4_809_015]),
        (
            "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
            &[178, 18_041, 2_552_846],
        ),
        ("9/9/9/3k5/9/5K3/9/9/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1", &[524, 248_257]),
        ("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", &[593, 105_677]),
        ("ln3gsn1/7kl/3+B1p1p1/p4s2p/2P6/P2B3PP/1PNP+rPP2/2G3SK1/L4G1NL b G3Prs3p 65", &[101, 15_744]),
        ("ln2+r1r2/5s+Pkl/3+B1p1p1/p4B2p/2P6/P6PP/1PNP1P3/2G3SK1/L4G1NL w 2GSN3Ps3p 76", &[2, 445]),
    ];
    for (sfen, counts) in table {
        let mut p = pos(sfen);
        for (depth, &nodes) in (1..).zip(counts.iter()) {
            assert_eq!(perft(&mut p, depth), nodes, "{sfen} depth {depth}");
        }
        assert_eq!(p.sfen(), pos(sfen).sfen(), "undo restores {sfen}");
    }
}

/// Deeper counts from the same tables; run with `--ignored` (tens of millions of nodes).
#[test]
#[ignore = "about 60 million nodes; run with --ignored"]
fn reference_positions_perft_deeper() {
    let mut max = pos("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1");
    assert_eq!(perft(&mut max, 3), 53_393_368);
    let mut pinned = pos("ln3gsn1/7kl/3+B1p1p1/p4s2p/2P6/P2B3PP/1PNP+rPP2/2G3SK1/L4G1NL b G3Prs3p 65");
    assert_eq!(perft(&mut pinned, 3), 1_183_354);
}

/// Positions mated at depth 7 from the start, listed in the same Qiita article: no legal move,
/// in check.
#[test]
fn published_mates_are_mates() {
    for sfen in [
        "ln+B1ggsnl/1r2k2b1/ppppSpppp/4p4/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w - 1",
        "ln1g1gsnl/1r1Bk2b1/ppppSpppp/4p4/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w - 1",
        "ln2Bgsnl/1rsGk2b1/pppppp1pp/9/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w P 1",
        "lns3snl/1rgkG+B1b1/pppppp1pp/9/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w P 1",
    ] {
        let p = pos(sfen);
        assert!(p.is_check() && p.is_checkmate(), "{sfen}");
        assert!(p.legal_moves().is_empty());
    }
    assert!(!Position::startpos().is_check());
    assert!(!Position::startpos().is_checkmate());
}

/// Which of White's pieces each handicap removes, written from the definitions (left and
/// right are 上手's own: its left is file 1), not from the SFEN table.
#[test]
fn handicaps_remove_the_right_pieces() {
    const SIX: [&str; 6] = ["8b", "2b", "1a", "9a", "8a", "2a"];
    let removed: [(Handicap, Vec<&str>); 16] = [
        (Handicap::Even, vec![]),
        (Handicap::Lance, vec!["1a"]),
        (Handicap::RightLance, vec!["9a"]),
        (Handicap::Bishop, vec!["2b"]),
        (Handicap::Rook, vec!["8b"]),
        (Handicap::RookLance, vec!["8b", "1a"]),
        (Handicap::TwoPieces, vec!["8b", "2b"]),
        (Handicap::ThreePieces, vec!["8b", "2b", "1a"]),
        (Handicap::FourPieces, vec!["8b", "2b", "1a", "9a"]),
        (Handicap::FivePieces, vec!["8b", "2b", "1a", "9a", "8a"]),
        (Handicap::LeftFivePieces, vec!["8b", "2b", "1a", "9a", "2a"]),
        (Handicap::SixPieces, SIX.to_vec()),
        (Handicap::LeftSevenPieces, [&SIX[..], &["3a"]].concat()),
        (Handicap::RightSevenPieces, [&SIX[..], &["7a"]].concat()),
        (Handicap::EightPieces, [&SIX[..], &["3a", "7a"]].concat()),
        (Handicap::TenPieces, [&SIX[..], &["3a", "7a", "4a", "6a"]].concat()),
    ];
    let even: Setup = STARTPOS_SFEN.parse().unwrap();
    for (handicap, squares) in removed {
        let p = Position::handicap(handicap);
        let mut expected = even.clone();
        for s in &squares {
            assert_eq!(expected.piece_at(sq(s)).map(|p| p.color), Some(Color::White), "{handicap} {s}");
            expected.set(sq(s), None);
        }
        expected.turn = if handicap == Handicap::Even { Color::Black } else { Color::White };
        assert_eq!(p.setup(), &expected, "{handicap}");
        assert_eq!(Handicap::from_name(handicap.japanese()), Some(handicap));
        assert_eq!(Handicap::find(p.setup()), Some(handicap));
        assert!(!p.legal_moves().is_empty());
    }
    assert_eq!(Handicap::from_name("香落"), Some(Handicap::Lance));
    assert_eq!(Handicap::from_name("2-piece"), Some(Handicap::TwoPieces));
    assert_eq!(Handicap::from_name("七枚落ち"), None);
    // Digits and Latin letters of either width: the names are the kanji ones.
    for (name, handicap) in [
        ("2枚落ち", Handicap::TwoPieces),
        ("２枚落ち", Handicap::TwoPieces),
        ("10枚落ち", Handicap::TenPieces),
        ("１０枚落ち", Handicap::TenPieces),
        ("左7枚落ち", Handicap::LeftSevenPieces),
        ("6枚落", Handicap::SixPieces),
        ("ＬＡＮＣＥ", Handicap::Lance),
        ("２－ｐｉｅｃｅ", Handicap::TwoPieces),
    ] {
        assert_eq!(Handicap::from_name(name), Some(handicap), "{name}");
    }
    for name in ["1枚落ち", "7枚落ち", "9枚落ち", "20枚落ち", "2枚"] {
        assert_eq!(Handicap::from_name(name), None, "{name}");
    }
}

fn refused(sfen: &str, usi: &str) -> IllegalMoveKind {
    let mut p = pos(sfen);
    let before = p.sfen();
    let err = p.play(mv(usi)).expect_err(usi);
    assert_eq!(p.sfen(), before, "a refused move changes nothing");
    assert!(!p.is_legal(mv(usi)));
    err.kind
}

#[test]
fn every_illegal_move_reason() {
    use IllegalMoveKind::*;
    let start = STARTPOS_SFEN;
    assert_eq!(refused(start, "5e5d"), NoPiece);
    assert_eq!(refused(start, "3c3d"), NotYourPiece);
    assert_eq!(refused(start, "7g7e"), CannotReach);
    assert_eq!(refused(start, "2h3f"), CannotReach);
    assert_eq!(refused(start, "2h3g"), OwnPiece);
    assert_eq!(refused(start, "8h2b+"), Blocked { at: sq("7g") });
    assert_eq!(refused(start, "9i9e"), Blocked { at: sq("9g") });
    assert_eq!(refused(start, "5i4i"), OwnPiece);
    assert_eq!(refused(start, "P*5e"), NotInHand);
    assert_eq!(refused(start, "7g7f+"), CannotPromote);
    // A king can never be dropped, nor a piece the mover does not hold.
    let hands = "4k4/9/9/9/9/9/9/9/4K4 b GP 1";
    assert_eq!(refused(hands, "S*5e"), NotInHand);
    assert_eq!(refused(hands, "P*5i"), Occupied);
    assert_eq!(refused(hands, "P*1a"), DeadPiece);
    assert_eq!(refused("4k4/9/9/9/9/9/9/9/4K4 b N 1", "N*1b"), DeadPiece);
    assert_eq!(refused("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "P*5e"), TwoPawns);
    // A tokin on the file does not count as a pawn: the drop is legal.
    assert!(pos("4k4/9/9/9/9/9/4+P4/9/4K4 b P 1").is_legal(mv("P*5e")));
    // 打ち歩詰め: the pawn on 9b is guarded by the gold, 8a by the silver, 8b by the gold.
    let uchifuzume = "k8/2S6/1G7/9/9/9/9/9/4K4 b P 1";
    assert_eq!(refused(uchifuzume, "P*9b"), PawnDropMate);
    // Without the silver the king escapes to 8a: the same drop is check, not mate, and legal.
    assert!(pos("k8/9/1G7/9/9/9/9/9/4K4 b P 1").is_legal(mv("P*9b")));
    // Promotion is forced where the piece could not move again, and refused for a gold.
    assert_eq!(refused("4k4/P8/9/9/9/9/9/9/4K4 b - 1", "9b9a"), MustPromote);
    assert!(pos("4k4/P8/9/9/9/9/9/9/4K4 b - 1").is_legal(mv("9b9a+")));
    assert_eq!(refused("4k4/9/9/7N1/9/9/9/9/4K4 b - 1", "2d1b"), MustPromote);
    assert_eq!(refused("4k4/9/9/7N1/9/9/9/9/4K4 b - 1", "2d3b"), MustPromote);
    assert!(pos("4k4/9/9/7N1/9/9/9/9/4K4 b - 1").is_legal(mv("2d1b+")));
    assert_eq!(refused("4k4/9/8G/9/9/9/9/9/4K4 b - 1", "1c1b+"), CannotPromote);
    // A pawn may decline promotion where it still has a move.
    assert!(pos("4k4/9/9/P8/9/9/9/9/4K4 b - 1").is_legal(mv("9d9c")));
    // The gold on 5h is pinned by the rook on 5a; the king may not step into the bishop's line.
    let pinned = "4r4/9/9/9/9/9/9/4G4/4K1b2 b - 1";
    assert_eq!(refused(pinned, "5h4h"), KingInCheck);
    assert_eq!(refused(pinned, "5i4h"), KingInCheck);
    assert!(pos(pinned).is_legal(mv("5h5g")));
    // In check, a move that does nothing about it.
    assert_eq!(refused("4r4/9/9/9/9/9/9/P8/4K4 b - 1", "9h9g"), KingInCheck);
}

/// Our explanation of a refusal agrees with the rules crate on every candidate move in many
/// random positions: a move passes our movement rules exactly when the only possible reasons
/// left are check-related, and every legal move passes them.
#[test]
fn reasons_agree_with_legality() {
    let mut rng = Rng::new(7);
    for game in 0..60 {
        let mut p = Position::handicap(Handicap::ALL[game % Handicap::ALL.len()]);
        let plies = 20 + rng.below(120);
        let mut positions = Vec::new();
        random_playout(&mut p, &mut rng, plies, |p, _| positions.push(p.clone()));
        for p in positions.iter().step_by(7) {
            for from in Square::all() {
                for to in Square::all().filter(|&to| to != from) {
                    for promote in [false, true] {
                        check_reason(p, Move::Normal { from, to, promote });
                    }
                }
            }
            for kind in PieceKind::ALL {
                for to in Square::all() {
                    check_reason(p, Move::Drop { kind, to });
                }
            }
        }
    }
}

fn check_reason(p: &Position, m: Move) {
    let movement = rules::movement_error(p.setup(), m);
    if p.is_legal(m) {
        assert_eq!(movement, None, "{m} is legal in {}", p.sfen());
        return;
    }
    let kind = p.check_move(m).expect_err("illegal").kind;
    match movement {
        Some(reason) => assert_eq!(kind, reason),
        None => assert!(
            matches!(kind, IllegalMoveKind::KingInCheck | IllegalMoveKind::PawnDropMate),
            "{m} in {}: {kind:?}",
            p.sfen()
        ),
    }
}

#[test]
fn invalid_setups_are_refused() {
    for bad in [
        "4k4/9/9/9/9/9/9/9/3KK4 b - 1",
        "4k4/9/9/9/9/9/9/9/4K4 b 19P 1",
        "4k4/9/9/9/9/9/9/9/4K4 b 3R 1",
        "4k4/4R4/9/9/9/9/9/9/4K4 b - 1",
    ] {
        let setup: Setup = bad.parse().unwrap();
        assert!(Position::from_setup(setup).is_err(), "{bad}");
    }
    // Tsume positions have one king, or none.
    assert!(Position::from_setup("4k4/9/9/9/9/9/9/9/9 b 2G 1".parse().unwrap()).is_ok());
    // A composed start may stack pawns on a file; dropping another there is still 二歩.
    let stacked = pos("4k4/9/9/9/9/9/4P4/4P4/4K4 b P 1");
    assert_eq!(stacked.check_move(mv("P*5e")).unwrap_err().kind, IllegalMoveKind::TwoPawns);
    // So may a piece stand where it has no move: it stays, and everything else plays.
    let stuck = pos("P3k4/9/9/9/9/9/9/9/4K4 b P 1");
    assert!(stuck.legal_moves().iter().all(|m| m.from() != Some(sq("9a"))));
    assert_eq!(stuck.check_move(mv("P*8a")).unwrap_err().kind, IllegalMoveKind::DeadPiece);
}

#[test]
fn undo_restores_every_position() {
    let mut rng = Rng::new(11);
    for game in 0..20 {
        let mut p = Position::handicap(Handicap::ALL[game % 16]);
        let mut sfens = vec![p.sfen()];
        random_playout(&mut p, &mut rng, 1500, |p, _| sfens.push(p.sfen()));
        while p.undo().is_some() {
            sfens.pop();
            assert_eq!(p.sfen(), *sfens.last().unwrap());
            assert!(p.legal_moves().iter().all(|&m| p.is_legal(m)));
        }
        assert_eq!(sfens.len(), 1);
    }
}

/// A position played far from its start, and taken back, answers as one made afresh from its
/// board: the same legal moves, check, and the same perft two plies deep, whatever history
/// the rules crate keeps behind it.
#[test]
fn a_position_with_a_long_history_answers_as_a_fresh_one() {
    fn assert_fresh(p: &mut Position, deep: bool) {
        let mut fresh = Position::from_setup(p.setup().clone()).expect("a position reached is legal");
        let sorted = |mut moves: Vec<Move>| {
            moves.sort_unstable();
            moves
        };
        assert_eq!(sorted(p.legal_moves()), sorted(fresh.legal_moves()), "{}", p.sfen());
        assert_eq!(p.is_check(), fresh.is_check(), "{}", p.sfen());
        if deep {
            assert_eq!(perft(p, 2), perft(&mut fresh, 2), "{}", p.sfen());
        }
    }
    let mut rng = Rng::new(29);
    for game in 0..12 {
        let mut p = Position::handicap(Handicap::ALL[game % 16]);
        let mut plies = 0;
        random_playout(&mut p, &mut rng, 700, |_, _| {});
        // Replayed move by move, so that each position is checked as it is reached.
        let moves: Vec<Move> = p.moves().collect();
        while p.undo().is_some() {}
        for mv in moves {
            p.play(mv).expect("a move played before");
            plies += 1;
            assert_fresh(&mut p, plies % 25 == 0);
        }
        while p.undo().is_some() {
            plies -= 1;
            assert_fresh(&mut p, plies % 25 == 0);
        }
    }
}

#[test]
fn sennichite_is_a_draw_on_the_fourth_occurrence() {
    let mut p = Position::startpos();
    let cycle = ["2h3h", "8b7b", "3h2h", "7b8b"];
    for round in 0..3 {
        for (i, m) in cycle.iter().enumerate() {
            assert!(!matches!(p.repetition(), Repetition::Draw), "round {round} move {i}");
            p.play(mv(m)).unwrap();
        }
        let expected =
            if round < 2 { Repetition::Repeated { times: round as u32 + 2 } } else { Repetition::Draw };
        assert_eq!(p.repetition(), expected);
    }
}

#[test]
fn perpetual_check_loses() {
    // The rook checks on every move; the king steps between 1a and 2a.
    let mut p = pos("8k/9/9/9/9/9/9/7R1/K8 b - 1");
    let cycle = ["2h1h", "1a2a", "1h2h", "2a1a"];
    for _ in 0..3 {
        for m in cycle {
            p.play(mv(m)).unwrap();
        }
    }
    assert_eq!(p.repetition(), Repetition::PerpetualCheck { loser: Color::Black });
    assert!(!p.last_move_gave_check());
}

#[test]
fn pieces_and_hands_follow_the_moves() {
    let mut p = Position::startpos();
    for m in ["7g7f", "3c3d", "8h2b+", "3a2b"] {
        p.play(mv(m)).unwrap();
    }
    assert_eq!(p.sfen(), "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5");
    assert_eq!(p.hand(Color::Black).count(PieceKind::Bishop), 1);
    assert_eq!(p.piece_at(sq("2b")), Some(Piece::new(Color::White, PieceKind::Silver)));
    assert!(p.legal_moves_of_kind_to(PieceKind::Bishop, sq("5e")).contains(&mv("B*5e")));
    assert_eq!(p.movers_to(PieceKind::Gold, sq("5h")), vec![sq("4i"), sq("6i")]);
}
