//! Yari shogi notation: every example of the seed text on yari shogi, Hosking's forms, and the
//! errors for illegal, ambiguous and wrong-game moves.

use kifudex::{
    notation::{MoveToken, ResolveError, SequenceErrorKind, Style, read_sequence, write},
    shogi::{IllegalMoveKind, Move, Position, Variant},
};

use super::{pos, start};

/// Reads a sequence that must be playable, as USI-like moves.
fn usi(start: &Position, text: &str) -> String {
    let moves = read_sequence(start, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    moves.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
}

/// The error reading `text` from `start` gives, as `moves` prints it.
fn error(start: &Position, text: &str) -> String {
    match read_sequence(start, text) {
        Ok(moves) => panic!("{text} read as {moves:?}"),
        Err(e) => e.to_string(),
    }
}

/// Writes a USI-like move of `p` in `style`.
fn written(p: &Position, usi: &str, style: Style) -> String {
    let mv: Move = usi.parse().expect("a move");
    write(p, mv, None, style)
}

/// "A typical example is P-7f."
#[test]
fn seed_p_7f() {
    let p = start();
    assert_eq!(usi(&p, "P-7f"), "7g7f");
    assert_eq!(written(&p, "7g7f", Style::Western), "P-7f");
    assert_eq!(written(&p, "7g7f", Style::Hosking), "P76");
    assert_eq!(usi(&p, "P76"), "7g7f", "Hosking's hyphen-less form");
}

/// "YNx7c= indicates a yari knight capturing on 7c without promoting." No yari knight of
/// Black's can reach 7c from the start by its own moves (its jumps go two ranks up for one
/// file aside), so it comes from hand: White's yari knight from 6a was captured.
#[test]
fn seed_ynx7c_declined() {
    let p = pos("r1nkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b N 1");
    assert_eq!(usi(&p, "YN*6e P-1d YNx7c="), "N*6e 1c1d 6e7c");
    assert_eq!(usi(&p, "YN*6e P-1d YNx7c+"), "N*6e 1c1d 6e7c+");
    assert_eq!(usi(&p, "1. YN'65 P14 2. YNx73="), "N*6e 1c1d 6e7c", "Hosking");
    let mut before = p.clone();
    for m in ["N*6e", "1c1d"] {
        before.play(m.parse().expect("a move")).expect("legal");
    }
    assert_eq!(written(&before, "6e7c", Style::Western), "YNx7c=");
    assert_eq!(written(&before, "6e7c+", Style::Western), "YNx7c+");
    assert_eq!(written(&before, "6e7c", Style::Hosking), "YNx73=");
    assert_eq!(written(&p, "N*6e", Style::Western), "YN*6e");
    assert_eq!(written(&p, "N*6e", Style::Hosking), "YN'65");
}

/// "In the initial position Black has two yari bishops which can be moved to the square 5h,
/// and these are distinguished as YB6i-5h (moving the left one) and YB5i-5h (moving the right
/// one)."
#[test]
fn seed_origin_only_when_needed() {
    let p = start();
    assert_eq!(usi(&p, "YB6i-5h"), "6i5h");
    assert_eq!(usi(&p, "YB5i-5h"), "5i5h");
    assert_eq!(written(&p, "6i5h", Style::Western), "YB6i-5h");
    assert_eq!(written(&p, "5i5h", Style::Western), "YB5i-5h");
    assert_eq!(written(&p, "6i5h", Style::Hosking), "YB69-58");
    assert_eq!(usi(&p, "YB6958"), "6i5h", "Hosking without the hyphen");
    // Only one yari bishop reaches 4h and 7h: no origin.
    assert_eq!(written(&p, "5i4h", Style::Western), "YB-4h");
    assert_eq!(written(&p, "6i7h", Style::Western), "YB-7h");
    assert_eq!(
        error(&p, "YB-5h"),
        "move 1 (YB-5h, black to move): ambiguous: it could be YB5i-5h (5i5h) or YB6i-5h (6i5h)"
    );
}

/// "1. P-7f P-3d 2. P-2f YB-3b": both of White's yari bishops reach 3b (the one on 3a straight
/// ahead, the one on 2a diagonally), so by the seed's own rule the last move needs its origin.
/// It is reported as ambiguous, naming both; never resolved by a guess.
#[test]
fn seed_numbered_opening_is_ambiguous() {
    let p = start();
    let e = read_sequence(&p, "1. P-7f P-3d 2. P-2f YB-3b").expect_err("ambiguous");
    assert_eq!(e.place, 4);
    let SequenceErrorKind::Unplayable { error: ResolveError::Ambiguous(moves), candidates, .. } = &e.kind
    else {
        panic!("{e}")
    };
    assert_eq!(moves.iter().map(ToString::to_string).collect::<Vec<_>>(), ["2a3b", "3a3b"]);
    assert_eq!(candidates, &["YB2a-3b (2a3b)", "YB3a-3b (3a3b)"]);
    assert_eq!(
        e.to_string(),
        "move 4 (YB-3b, white to move): ambiguous: it could be YB2a-3b (2a3b) or YB3a-3b (3a3b)"
    );
    assert_eq!(usi(&p, "1. P-7f P-3d 2. P-2f YB2a-3b"), "7g7f 3c3d 2g2f 2a3b");
    assert_eq!(usi(&p, "1. P-7f P-3d 2. P-2f YB3a-3b"), "7g7f 3c3d 2g2f 3a3b");
    assert_eq!(usi(&p, "1.P76 P34 2.P26 YB31-32"), "7g7f 3c3d 2g2f 3a3b", "Hosking");
}

/// "In handicap games White plays first, so Black's move 1 is replaced by an ellipsis." Yari
/// shogi has no standard handicaps; here White, without its left yari rook, moves first.
#[test]
fn seed_handicap_ellipsis() {
    let handicap = pos("1nnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR w - 1");
    assert_eq!(usi(&handicap, "1... P-3d 2. P-7f P-3e"), "3c3d 7g7f 3d3e");
    assert_eq!(usi(&handicap, "1...P34 2.P76 P35"), "3c3d 7g7f 3d3e", "Hosking");
    // After an ellipsis the move is White's.
    assert_eq!(
        error(&start(), "1... P-3d"),
        "move 1 (P-3d, black to move): the move is marked for white, but it is black's turn"
    );
}

#[test]
fn promotion_marks() {
    // A pawn on 4b must promote on 4a; `=` there is refused with the reason.
    let p = pos("k6/3P3/7/7/7/7/7/7/6K b - 1");
    assert_eq!(usi(&p, "P-4a+"), "4b4a+");
    assert_eq!(usi(&p, "P-4a"), "4b4a+", "no mark where promotion is forced");
    let e = read_sequence(&p, "P-4a=").expect_err("must promote");
    assert!(e.to_string().contains("must promote"), "{e}");
    assert_eq!(written(&p, "4b4a+", Style::Western), "P-4a+");
    // A yari knight on the second-to-last rank need not promote; a yari rook never must.
    let p = pos("p5k/7/7/3N3/7/7/7/7/R5K b - 1");
    assert_eq!(usi(&p, "YN-4b"), "4d4b");
    assert_eq!(written(&p, "4d4b", Style::Western), "YN-4b=");
    assert_eq!(written(&p, "4d4b+", Style::Western), "YN-4b+");
    assert_eq!(usi(&p, "YRx7a"), "7i7a");
    assert_eq!(written(&p, "7i7a", Style::Western), "YRx7a=");
    // No promotion outside the zone: no mark written.
    assert_eq!(written(&p, "4d4c", Style::Western), "YN-4c=");
    assert_eq!(written(&pos("k6/7/7/7/7/3N3/7/7/6K b - 1"), "4f4e", Style::Western), "YN-4e");
}

#[test]
fn promoted_pieces_and_the_general() {
    let p = pos("k6/7/7/3+P3/2+N1+B2/7/3+R3/7/3K3 b - 1");
    assert_eq!(usi(&p, "+P-4c"), "4d4c");
    assert_eq!(usi(&p, "+YN-5d"), "5e5d");
    assert_eq!(usi(&p, "+YB-3d"), "3e3d");
    assert_eq!(usi(&p, "+YR-1g"), "4g1g");
    assert_eq!(usi(&p, "G-4h"), "4i4h");
    assert_eq!(written(&p, "4i4h", Style::Western), "G-4h");
    assert_eq!(written(&p, "4d4e", Style::Western), "+P-4e");
    assert_eq!(written(&p, "5e5f", Style::Western), "+YN-5f");
    assert_eq!(written(&p, "3e3f", Style::Western), "+YB-3f");
}

/// A pawn drop may give mate in yari shogi; the two-pawn rule holds.
#[test]
fn pawn_drops() {
    let p = pos("5rk/7/6+P/7/7/7/7/7/K6 b P 1");
    let mut after = p.clone();
    for mv in read_sequence(&p, "P*1b").expect("a pawn drop may mate") {
        after.play(mv).expect("legal");
    }
    assert!(after.is_checkmate());
    let p = pos("3k3/7/7/7/7/7/3P3/7/3K3 b P 1");
    let e = read_sequence(&p, "P*4e").expect_err("two pawns");
    let SequenceErrorKind::Unplayable { error: ResolveError::NoSuchMove(Some(illegal)), .. } = e.kind else {
        panic!("{e}")
    };
    assert_eq!(illegal.kind, IllegalMoveKind::TwoPawns);
    assert_eq!(usi(&pos("3k3/7/7/7/7/7/3+P3/7/3K3 b P 1"), "P*4e"), "P*4e", "a yari silver is no pawn");
}

#[test]
fn pieces_and_squares_yari_shogi_lacks_are_errors_saying_so() {
    let p = start();
    for (text, why) in [
        ("S-4h", "yari shogi has no silver: its pieces are P, YN, YB, YR and G"),
        ("L-1h", "yari shogi has no lance: its pieces are P, YN, YB, YR and G"),
        ("N-3h", "N, B and R are shogi's letters: yari shogi writes its pieces YN, YB and YR"),
        ("K-4h", "yari shogi writes its general G, not K"),
        ("+G-4h", "the general does not promote"),
        ("D-5c", "D, H and T are shogi's promoted pieces: yari shogi writes +P, +YN, +YB and +YR"),
        ("P-8f", "a square off the 7×9 yari shogi board (files 1 to 7, ranks a to i)"),
        ("P86", "a square off the 7×9 yari shogi board (files 1 to 7, ranks a to i)"),
        ("8g8f", "a square off the 7×9 yari shogi board (files 1 to 7)"),
        ("S*5e", "yari shogi drops only P, N, B and R (pawn, yari knight, yari bishop, yari rook)"),
    ] {
        assert_eq!(error(&p, text), format!("move 1 ({text}, black to move): {why}"), "{text}");
    }
}

#[test]
fn yari_pieces_in_a_shogi_game_are_errors_saying_so() {
    let p = Position::startpos();
    assert_eq!(
        error(&p, "YB-5h"),
        "move 1 (YB-5h, black to move): YN, YB and YR are yari shogi pieces, not shogi's"
    );
    // A move read as yari shogi's does not resolve in a shogi position, nor the reverse.
    let yari = MoveToken::parse_in("P-7f", Variant::Yari).expect("a yari move");
    assert_eq!(
        yari.resolve(&p, None),
        Err(ResolveError::WrongVariant { written: Variant::Yari, game: Variant::Standard })
    );
    let shogi = MoveToken::parse("P-7f").expect("a shogi move");
    assert_eq!(
        shogi.resolve(&start(), None).unwrap_err().to_string(),
        "the move is written for shogi, but the game is yari shogi"
    );
    // Japanese names a yari piece by the shogi piece of its letter: the position decides.
    let japanese = MoveToken::parse("▲７六歩").expect("a Japanese move");
    assert_eq!(japanese.resolve(&start(), None), Ok("7g7f".parse().expect("a move")));
}

#[test]
fn illegal_and_mistaken_moves_get_precise_errors() {
    let p = start();
    for (text, why) in [
        ("P-7e", "no such move: no legal P to 7e"),
        ("YB6i-6g", "no such move: the destination holds one of the mover's own pieces"),
        ("YR3i-3h", "the piece on 3i is a YN, not a YR"),
        ("YNx3h", "x marks a capture, but 3h is empty"),
        ("YN*5e", "no such move: no such piece in hand"),
        ("G-4g", "no such move: no legal G to 4g"),
    ] {
        assert_eq!(error(&p, text), format!("move 1 ({text}, black to move): {why}"), "{text}");
    }
    assert_eq!(
        error(&p, "YN2i-3h"),
        "move 1 (YN2i-3h, black to move): no such move: the piece does not move that way"
    );
}

/// Promoted yari bishops (yari golds, named 馬) on 3六, 2六 and 2一, all of which reach 2五:
/// the one below goes straight up, 直, as a yari gold's is, where the 右 written for it read as
/// the one above too (a horse's word, for a piece that moves as no horse does).
#[test]
fn yari_golds_named_horse_are_told_apart_as_golds() {
    for (sfen, usi, text) in [
        ("3k1+B1/7/7/7/7/4+B+B1/7/7/3K3 b - 1", "2f2e", "▲２五馬直"),
        ("3k1+B1/7/7/7/7/4+B+B1/7/7/3K3 b - 1", "2a2e", "▲２五馬引"),
        ("k6/7/7/3+b+b2/7/3+b3/7/7/K6 w - 1", "4d4e", "△４五馬直"),
    ] {
        let p = pos(sfen);
        assert_eq!(written(&p, usi, Style::Japanese), text, "{sfen}");
        assert_eq!(self::usi(&p, text), usi, "{text} in {sfen}");
    }
}

/// Random yari positions where several pieces of one kind crowd round one square, so that the
/// movement words and Western origins are needed in every combination: every legal move,
/// written in Japanese, Western, Hosking and the USI-like form, reads back as itself.
#[test]
fn every_move_in_crowded_yari_positions_reads_back() {
    const KINDS: [&str; 8] = ["P", "N", "B", "R", "+P", "+N", "+B", "+R"];
    let mut rng = crate::util::Rng::new(11);
    let (mut positions, mut moves) = (0, 0);
    while positions < 1_500 {
        let mut board: [[Option<String>; 7]; 9] = Default::default();
        let black = rng.below(2) == 0;
        let letter = |kind: &str, black: bool| if black { kind.to_string() } else { kind.to_lowercase() };
        let kind = KINDS[rng.below(KINDS.len())];
        let (file, rank) = (rng.below(7) as i64, rng.below(9) as i64);
        for _ in 0..2 + rng.below(6) {
            let (f, r) = (file + rng.below(5) as i64 - 2, rank + rng.below(5) as i64 - 2);
            if (0..7).contains(&f) && (0..9).contains(&r) {
                board[r as usize][f as usize] = Some(letter(kind, black));
            }
        }
        for _ in 0..rng.below(5) {
            let other = KINDS[rng.below(KINDS.len())];
            board[rng.below(9)][rng.below(7)] = Some(letter(other, rng.below(3) != 0));
        }
        for side in [true, false] {
            board[rng.below(9)][rng.below(7)] = Some(letter("K", side));
        }
        let rows: Vec<String> = board
            .iter()
            .map(|row| {
                let mut text = String::new();
                let mut empty = 0;
                for cell in row {
                    match cell {
                        Some(piece) => {
                            if empty > 0 {
                                text.push_str(&empty.to_string());
                                empty = 0;
                            }
                            text.push_str(piece);
                        }
                        None => empty += 1,
                    }
                }
                if empty > 0 {
                    text.push_str(&empty.to_string());
                }
                text
            })
            .collect();
        let sfen = format!("{} {} - 1", rows.join("/"), if black { "b" } else { "w" });
        // Boards with a king missing, two of a side, or the side not to move in check.
        let Ok(p) = sfen.parse().map_err(|_| ()).and_then(|s| Position::from_setup(s).map_err(|_| ())) else {
            continue;
        };
        positions += 1;
        for mv in p.legal_moves() {
            for style in [Style::Japanese, Style::Western, Style::Hosking, Style::Usi] {
                let text = write(&p, mv, None, style);
                let back = MoveToken::parse_in(&text, Variant::Yari)
                    .map_err(|e| e.to_string())
                    .and_then(|token| token.resolve(&p, None).map_err(|e| e.to_string()));
                assert_eq!(back, Ok(mv), "{style:?} '{text}' for {mv} in {sfen}");
            }
            moves += 1;
        }
    }
    eprintln!("round trip in crowded yari positions: {positions} positions, {moves} moves");
}
