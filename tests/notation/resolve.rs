//! Resolution beyond the sources' examples: pinned pieces, implied drops, origins, promotion
//! marks, the errors, and whole sequences.

use kifudex::{
    notation::{ResolveError, SequenceErrorKind, Style, read_sequence},
    shogi::{Color, IllegalMoveKind, PieceKind, Position, Variant},
};

use super::{board, mv, read, read_usi, sq, written};

/// The rules' reason in a "no such move" error.
fn reason(result: Result<kifudex::shogi::Move, ResolveError>) -> Option<IllegalMoveKind> {
    match result {
        Err(ResolveError::NoSuchMove(Some(illegal))) => Some(illegal.kind),
        other => panic!("expected no such move with a reason, got {other:?}"),
    }
}

/// Golds on 6六 and 4六 can reach 5五, but White's lance on 6一 pins the one on 6六 to Black's
/// king on 6九.
fn pinned_gold(hand: &str) -> Position {
    board("K69 k51 G66 G46 l61", "b", hand)
}

#[test]
fn markers_that_count_a_pinned_piece_still_read() {
    let p = pinned_gold("-");
    // Kakinoki counts the pinned gold and writes 右; a writer that does not writes nothing.
    assert_eq!(read_usi(&p, "5五金右", None), "4f5e");
    assert_eq!(read_usi(&p, "5五金", None), "4f5e");
    assert_eq!(read_usi(&p, "G-55", None), "4f5e");
    assert_eq!(read_usi(&p, "G46-55", None), "4f5e");
    // kifudex writes as Kakinoki does (and rsshogi agrees: the oracle tests compare).
    assert_eq!(written(&p, "4f5e", None, Style::Japanese), "▲５五金右");
    assert_eq!(written(&p, "4f5e", None, Style::Western), "G4f-5e");
    // The pinned gold, named exactly, is refused with the reason.
    assert_eq!(reason(read(&p, "5五金左", None)), Some(IllegalMoveKind::KingInCheck));
    assert_eq!(reason(read(&p, "G66-55", None)), Some(IllegalMoveKind::KingInCheck));
}

#[test]
fn a_drop_is_implied_when_no_board_piece_can_legally_move() {
    // Only the pinned gold reaches 5五; a gold in hand.
    let p = board("K69 k51 G66 l61", "b", "G");
    assert_eq!(read_usi(&p, "5五金打", None), "G*5e");
    assert_eq!(read_usi(&p, "5五金", None), "G*5e");
    // The pinned gold could reach 5五 were it free, so the drop is written with 打.
    assert_eq!(written(&p, "G*5e", None, Style::Japanese), "▲５五金打");
    // Western never implies a drop.
    assert!(matches!(read(&p, "G-55", None), Err(ResolveError::NoSuchMove(_))));
    assert_eq!(read_usi(&p, "G*55", None), "G*5e");
}

#[test]
fn drops_must_be_possible() {
    let p = board("K59 k51 P77", "b", "P");
    // No pawn on the board reaches 7五, so 7五歩 is the drop, which 二歩 forbids.
    assert_eq!(reason(read(&p, "7五歩", None)), Some(IllegalMoveKind::TwoPawns));
    assert_eq!(reason(read(&p, "P*75", None)), Some(IllegalMoveKind::TwoPawns));
    assert_eq!(reason(read(&p, "5五金打", None)), Some(IllegalMoveKind::NotInHand));
    assert_eq!(reason(read(&p, "P*7g", None)), Some(IllegalMoveKind::Occupied));
}

#[test]
fn promotion_marks() {
    let start = Position::startpos();
    // 不成 where no promotion is possible is true, and accepted.
    assert_eq!(read_usi(&start, "7六歩不成", None), "7g7f");
    assert_eq!(read_usi(&start, "P-7f=", None), "7g7f");
    assert_eq!(reason(read(&start, "7六歩成", None)), Some(IllegalMoveKind::CannotPromote));
    assert_eq!(written(&start, "7g7f", None, Style::Japanese), "▲７六歩");
    // Without a mark, a move that may promote does not; one that must, does.
    let p = board("K59 k51 L13 B88", "b", "-");
    assert_eq!(read_usi(&p, "B-22", None), "8h2b");
    assert_eq!(read_usi(&p, "2二角", None), "8h2b");
    assert_eq!(written(&p, "8h2b", None, Style::Western), "B-2b=");
    assert_eq!(written(&p, "8h2b", None, Style::Japanese), "▲２二角不成");
    assert_eq!(read_usi(&p, "L-1a", None), "1c1a+");
    assert_eq!(read_usi(&p, "1一香", None), "1c1a+");
    assert_eq!(written(&p, "1c1a+", None, Style::Japanese), "▲１一香成");
    assert_eq!(reason(read(&p, "L-1a=", None)), Some(IllegalMoveKind::MustPromote));
    assert_eq!(reason(read(&p, "1一香不成", None)), Some(IllegalMoveKind::MustPromote));
}

#[test]
fn kif_origins_are_exact() {
    let start = Position::startpos();
    assert_eq!(read_usi(&start, "７六歩(77)", None), "7g7f");
    assert_eq!(
        read(&start, "７六歩(88)", None),
        Err(ResolveError::PieceMismatch {
            at: sq("8h"),
            written: PieceKind::Pawn,
            found: PieceKind::Bishop,
            variant: Variant::Standard
        })
    );
    assert_eq!(reason(read(&start, "７五歩(76)", None)), Some(IllegalMoveKind::NoPiece));
    assert_eq!(reason(read(&start, "７五歩(77)", None)), Some(IllegalMoveKind::CannotReach));
    assert_eq!(
        read(&start, "G7g-7h", None),
        Err(ResolveError::PieceMismatch {
            at: sq("7g"),
            written: PieceKind::Gold,
            found: PieceKind::Pawn,
            variant: Variant::Standard
        })
    );
    let mut game = start.clone();
    for m in ["7g7f", "3c3d"] {
        game.play(mv(m)).unwrap();
    }
    assert_eq!(read_usi(&game, "２二角成(88)", Some(sq("3d"))), "8h2b+");
}

#[test]
fn same_square_errors() {
    let start = Position::startpos();
    assert_eq!(read(&start, "同歩", None), Err(ResolveError::NoPreviousMove));
    assert_eq!(read(&start, "Px", None), Err(ResolveError::NoPreviousMove));
    let mut game = start.clone();
    game.play(mv("2g2f")).unwrap();
    game.play(mv("3c3d")).unwrap();
    assert_eq!(
        read(&game, "2六同飛", Some(sq("3d"))),
        Err(ResolveError::SameMismatch { written: sq("2f"), previous: sq("3d") })
    );
    // With no previous move, the restated square is taken as written.
    assert_eq!(read_usi(&game, "2五同歩", None), "2f2e");
}

#[test]
fn side_marks_must_match_the_side_to_move() {
    let start = Position::startpos();
    assert_eq!(
        read(&start, "△７六歩", None),
        Err(ResolveError::WrongSide { written: Color::White, to_move: Color::Black })
    );
    assert!(matches!(read(&start, "-3334FU", None), Err(ResolveError::WrongSide { .. })));
}

#[test]
fn sequences_name_the_failing_move() {
    let start = Position::startpos();
    let e = read_sequence(&start, "7g7f 3c3d G-58").unwrap_err();
    assert_eq!((e.place, e.text.as_str(), e.turn), (3, "G-58", Color::Black));
    let SequenceErrorKind::Unplayable { error: ResolveError::Ambiguous(moves), candidates, .. } = &e.kind
    else {
        panic!("{e}");
    };
    assert_eq!(moves.len(), 2);
    assert_eq!(candidates, &["G4i-5h (4i5h)", "G6i-5h (6i5h)"]);
    assert_eq!(
        e.to_string(),
        "move 3 (G-58, black to move): ambiguous: it could be G4i-5h (4i5h) or G6i-5h (6i5h)"
    );

    let e = read_sequence(&start, "▲７六歩△３四歩▲５八金").unwrap_err();
    assert_eq!((e.place, e.text.as_str()), (3, "▲５八金"));
    assert!(e.to_string().contains("▲５八金右 (4i5h) or ▲５八金左 (6i5h)"), "{e}");

    let e = read_sequence(&start, "1.P-76 P-34 2.Q-26").unwrap_err();
    assert_eq!((e.place, e.text.as_str()), (3, "Q-26"));
    assert!(matches!(e.kind, SequenceErrorKind::Unreadable(_)));

    // A huge word is quoted in part: the message stays one short line.
    let huge = "x".repeat(100_000);
    let e = read_sequence(&start, &format!("7g7f {huge}")).unwrap_err();
    assert_eq!(e.text.len(), 100_000);
    assert_eq!(
        e.to_string(),
        format!(
            "move 2 ({}…, white to move): not a move in USI, CSA, Western or Japanese notation",
            "x".repeat(32)
        )
    );

    // A move no piece of the kind can make, and one that pieces of the kind can make, but
    // not as written: the message says which, with the moves that are legal there.
    let e = read_sequence(&start, "▲７六歩 △７六歩").unwrap_err();
    assert_eq!(e.to_string(), "move 2 (△７六歩, white to move): no such move: no legal 歩 to ７六");
    let e = read_sequence(&start, "5八金引").unwrap_err();
    assert_eq!(
        e.to_string(),
        "move 1 (5八金引, black to move): no such move as written: the legal 金 to ５八 are ▲５八金右 (4i5h) \
         or ▲５八金左 (6i5h)"
    );
    let e = read_sequence(&start, "G-58+").unwrap_err();
    assert_eq!(
        e.to_string(),
        "move 1 (G-58+, black to move): no such move as written: the legal G to 5h are G4i-5h (4i5h) or \
         G6i-5h (6i5h)"
    );
    let e = read_sequence(&start, "P-76 P-34 同角成").unwrap_err();
    // 同 is 3四, which the bishop on 8八 does not reach.
    assert_eq!(e.to_string(), "move 3 (同角成, black to move): no such move: no legal 角 to ３四");
    let e = read_sequence(&start, "P-76 P-34 Px").unwrap_err();
    assert_eq!(e.to_string(), "move 3 (Px, black to move): no such move: no legal P to 3d");

    let e = read_sequence(&start, "7g7f 7g7f").unwrap_err();
    assert_eq!((e.place, e.turn), (2, Color::White));
    assert_eq!(e.to_string(), "move 2 (7g7f, white to move): no such move: no piece on the origin square");
}

#[test]
fn sequences_skip_what_is_not_a_move() {
    let start = Position::startpos();
    let moves = read_sequence(&start, "1.P-76 $1 P-34, 2.P-26 1-0").unwrap();
    assert_eq!(moves, [mv("7g7f"), mv("3c3d"), mv("2g2f")]);
    assert!(read_sequence(&start, "").unwrap().is_empty());
    assert!(read_sequence(&start, " 1. 2. ... ").unwrap().is_empty());
    // Mixed notations, one move each.
    let moves = read_sequence(&start, "7g7f -3334FU ☗2六歩 P-84 ▲２五歩").unwrap();
    assert_eq!(moves, [mv("7g7f"), mv("3c3d"), mv("2g2f"), mv("8c8d"), mv("2f2e")]);
    // Numbers without dots, by ply and by pair of moves, and a first number anywhere.
    for text in ["1 7g7f 2 3c3d 3 2g2f", "1 P-76 P-34 2 P-26", "7g7f 2 3c3d 2g2f", "7g7f 3c3d 2 2g2f"] {
        assert_eq!(read_sequence(&start, text).unwrap(), [mv("7g7f"), mv("3c3d"), mv("2g2f")], "{text}");
    }
    assert_eq!(read_sequence(&start, "45 7g7f 46 3c3d").unwrap(), [mv("7g7f"), mv("3c3d")]);
    // A number where no move's number stands is a word that is no move, never skipped: the null
    // move changes the side to move, and a number out of turn may be a move mistyped.
    for (text, place) in [("7g7f 0000 3c3d", 2), ("7g7f 7776 3c3d", 2), ("1 7g7f 3 3c3d", 2), ("0 7g7f", 1)] {
        let e = read_sequence(&start, text).unwrap_err();
        assert_eq!(e.place, place, "{text}: {e}");
    }
}

#[test]
fn every_movement_word_from_a_ki2_file() {
    // Moves from bioshogi's KI2 test file that uses every movement word, tokins crowding round
    // 5八 and 5二 (no kings). Written back, each move is the file's text, except three where
    // the file adds a 寄 that 左 alone does not need (cshogi's KI2 writer leaves it out too).
    let data = include_str!("../data/notation/every_movement_word.txt");
    let (sfen, moves) = data.split_once('\n').expect("an SFEN line, then the moves");
    let start = super::pos(sfen);
    let played = read_sequence(&start, moves).unwrap_or_else(|e| panic!("{e}"));
    let texts: Vec<&str> = moves.split_whitespace().collect();
    assert_eq!(played.len(), 114);
    let mut game = start.clone();
    let mut tally = super::oracle::Tally::default();
    for (i, (&m, &text)) in played.iter().zip(&texts).enumerate() {
        let ours = kifudex::notation::write(&game, m, game.last_move().map(|l| l.to()), Style::Japanese);
        match i + 1 {
            44 | 76 | 100 => assert_eq!(format!("{ours}寄"), text, "move {}", i + 1),
            _ => assert_eq!(ours, text, "move {}", i + 1),
        }
        super::oracle::cross_check(&game, &mut tally);
        game.play(m).unwrap();
    }
}
