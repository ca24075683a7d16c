//! Japanese output checked against an independent writer: the rsshogi crate's KI2 notation.
//!
//! The two agree on every move except in two ways, each shown in a test below:
//! - after 同, rsshogi puts a full-width space whenever nothing follows the piece (`同　成銀`);
//!   kifudex pads only one-character remainders to three characters, as KI2 files do
//!   (`同　歩`, `同成銀`, `同歩成`).
//! - rsshogi never writes 寄 after 右 or 左, so when two pieces on one side can reach the
//!   square, one moving sideways and one not, it writes `右` for the sideways one, which names
//!   both; kifudex writes `右寄`, as KI2 files do.
//!
//! [`cross_check`] is the comparison; the round trip tests feed it random games from every
//! start, and the test here crowded positions.

use kifudex::{
    notation::{Previous, ResolveError, Style, write},
    shogi::{Move, Position},
};
use rsshogi::board;

use super::{mv, pos, read, round_trip::crowded_positions, sq, written};

/// How many moves agreed, and how many differed for each known reason.
#[derive(Debug, Default)]
pub struct Tally {
    pub moves: usize,
    pub same: usize,
    pub spacing: usize,
    pub sideways: usize,
}

/// rsshogi's KI2 text for `m` in `pos`, with the last move played so that it writes 同.
fn rsshogi_ki2(pos: &Position, m: Move) -> String {
    let rs = match pos.last_move() {
        Some(last) => {
            let mut parent = pos.clone();
            parent.undo();
            let mut rs = board::position_from_sfen(&parent.sfen()).expect("rsshogi reads our SFEN");
            rs.apply_move32(board::move_from_usi_expect(&rs, &last.to_string()));
            rs
        }
        None => board::position_from_sfen(&pos.sfen()).expect("rsshogi reads our SFEN"),
    };
    let m = board::move_from_usi_expect(&rs, &m.to_string());
    m.to_ki2(&rs).expect("a legal move has KI2 text")
}

/// Removes the full-width space after 同.
fn unpadded(text: &str) -> String {
    text.replacen("同\u{3000}", "同", 1)
}

/// Compares kifudex's Japanese for every legal move of `pos` (the previous move being the last
/// one played, if any) with rsshogi's, and counts the known differences.
///
/// # Panics
///
/// On a difference that is not one of the known ones, or a known one that does not hold as
/// explained (rsshogi's shorter text must be ambiguous).
pub fn cross_check(pos: &Position, tally: &mut Tally) {
    let previous: Previous = pos.last_move().map(Move::to);
    for mv in pos.legal_moves() {
        let ours = write(pos, mv, previous, Style::Japanese);
        let theirs = rsshogi_ki2(pos, mv);
        tally.moves += 1;
        if ours == theirs {
            tally.same += 1;
            continue;
        }
        let (ours_u, theirs_u) = (unpadded(&ours), unpadded(&theirs));
        if ours_u == theirs_u {
            // Only the padding differs: ours pads exactly the one-character remainders.
            assert_eq!(ours.contains('\u{3000}'), ours_u.chars().count() == 3, "{ours} / {theirs}");
            tally.spacing += 1;
        } else if ours_u.replacen("右寄", "右", 1) == theirs_u || ours_u.replacen("左寄", "左", 1) == theirs_u
        {
            // rsshogi's text names two pieces: read by the rules, it is ambiguous.
            assert!(
                matches!(read(pos, &theirs, previous), Err(ResolveError::Ambiguous(ref c)) if c.contains(&mv)),
                "rsshogi's {theirs} for {mv} should be ambiguous in {}",
                pos.sfen()
            );
            tally.sideways += 1;
        } else {
            panic!("{mv} in {}: kifudex writes {ours}, rsshogi {theirs}", pos.sfen());
        }
    }
}

/// A position after White's pawn went 3二-3三, with `black` (SFEN letters) on 4四 to take it.
fn after_pawn_to_3c(black: &str) -> Position {
    let mut game = pos(&format!("4k4/6p2/9/5{black}3/9/9/9/9/4K4 w - 1"));
    game.play(mv("3b3c")).unwrap();
    game
}

#[test]
fn same_square_padding_differs_for_longer_pieces() {
    let game = after_pawn_to_3c("+S");
    assert_eq!(written(&game, "4d3c", Some(sq("3c")), Style::Japanese), "▲同成銀");
    assert_eq!(rsshogi_ki2(&game, mv("4d3c")), "▲同　成銀");
    // One character after 同 is padded by both; more is not padded by either.
    let game = after_pawn_to_3c("G");
    assert_eq!(written(&game, "4d3c", Some(sq("3c")), Style::Japanese), "▲同　金");
    assert_eq!(rsshogi_ki2(&game, mv("4d3c")), "▲同　金");
    let game = after_pawn_to_3c("S");
    assert_eq!(written(&game, "4d3c", Some(sq("3c")), Style::Japanese), "▲同銀不成");
    assert_eq!(rsshogi_ki2(&game, mv("4d3c")), "▲同銀不成");
}

#[test]
fn sideways_word_is_kept_beside_right_and_left() {
    // Golds on 4五 and 4六 (both on Black's right of 5五) and 6五: 4五 and 6五 move sideways,
    // 4六 up, so 上 alone names 4六, and 4五 needs both its side and 寄.
    let p = pos("4k4/9/9/9/3G1G3/5G3/9/9/4K4 b - 1");
    assert_eq!(written(&p, "4e5e", None, Style::Japanese), "▲５五金右寄");
    assert_eq!(written(&p, "4f5e", None, Style::Japanese), "▲５五金上");
    assert_eq!(written(&p, "6e5e", None, Style::Japanese), "▲５五金左");
    let theirs = rsshogi_ki2(&p, mv("4e5e"));
    assert_eq!(theirs, "▲５五金右");
    let Err(ResolveError::Ambiguous(mut candidates)) = read(&p, &theirs, None) else {
        panic!("{theirs} should be ambiguous");
    };
    candidates.sort();
    assert_eq!(candidates, [mv("4e5e"), mv("4f5e")]);
}

#[test]
fn agrees_with_rsshogi_in_crowded_positions() {
    let mut tally = Tally::default();
    crowded_positions(11, 3_000, |p| cross_check(p, &mut tally));
    eprintln!("rsshogi cross-check, crowded positions: {tally:?}");
    assert!(tally.sideways > 0, "the crowded positions should show the 右寄 difference: {tally:?}");
}
