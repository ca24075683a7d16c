//! The geometry behind the Japanese movement words: 上 引 寄 (how the piece moves) and 右 左 直
//! (which of several pieces moves), as the player who moves sees the board.
//!
//! Writing and reading share one model, so that whatever [`markers`] writes, [`matches()`]
//! reads back as the same piece:
//! - 上 / 引 / 寄: the move goes toward the opponent, back, or along the rank.
//! - 右 / 左: the piece stands furthest to the mover's right (left) among the pieces of its kind
//!   that could reach the square. For golds and silvers this is the side of the destination
//!   the piece comes from, as the Japan Shogi Association rules put it; for the dragon and the
//!   horse, which may stand on the destination's file, it is the side of the other piece.
//! - 直: the piece comes from straight behind, moving straight up. Only golds, silvers and the
//!   gold-like promoted pieces (yari shogi's golds among them, the promoted yari bishop, named
//!   馬, too) are written with it; reading accepts it for any piece.
//!
//! The pieces that count are those that could reach the square if pins and checks were
//! ignored, as Kakinoki's KI2 writer and the rules crate's count them: a pinned piece still
//! needs telling apart in the text, even though it cannot legally move.

use super::japanese::{Motion, Relative};
use crate::shogi::{Color, PieceKind, Square, Variant};

/// The square as the mover sees the board: `x` grows to the mover's left, `y` toward the
/// mover's own side.
fn oriented(color: Color, sq: Square) -> (i8, i8) {
    let (file, rank) = (sq.file().get() as i8, sq.rank().get() as i8);
    match color {
        Color::Black => (file, rank),
        Color::White => (10 - file, 10 - rank),
    }
}

/// How a move from `from` to `to` goes, as `color` sees it: 上, 引 or 寄.
pub fn motion(color: Color, from: Square, to: Square) -> Motion {
    let (_, y_from) = oriented(color, from);
    let (_, y_to) = oriented(color, to);
    match y_to.cmp(&y_from) {
        std::cmp::Ordering::Less => Motion::Up,
        std::cmp::Ordering::Greater => Motion::Down,
        std::cmp::Ordering::Equal => Motion::Sideways,
    }
}

/// The side of `to` that `from` lies on, as `color` sees it; `None` on the same file.
fn side(color: Color, from: Square, to: Square) -> Option<Relative> {
    let (x_from, _) = oriented(color, from);
    let (x_to, _) = oriented(color, to);
    match x_from.cmp(&x_to) {
        std::cmp::Ordering::Less => Some(Relative::Right),
        std::cmp::Ordering::Greater => Some(Relative::Left),
        std::cmp::Ordering::Equal => None,
    }
}

/// Whether 直 is the word for this kind's straight-up move in `variant`: golds, silvers and
/// the gold-like promoted pieces; in yari shogi, the promoted yari bishop (a yari gold, as the
/// promoted yari knight is, which is named 馬 but moves as no horse does).
pub fn writes_straight(kind: PieceKind, variant: Variant) -> bool {
    kind == PieceKind::Silver
        || kind.moves_like_gold()
        || (variant == Variant::Yari && kind == PieceKind::Horse)
}

/// The movement words that tell the move from `from` to `to` apart from the other pieces in
/// `candidates` (the squares of the pieces of `kind` that could reach `to`, `from` among
/// them). Nothing when the piece is alone; otherwise 上/引/寄 when that is enough, then 右/左
/// (or 直 for a gold or silver going straight up), with 上/引/寄 added when the side alone is
/// not enough.
pub fn markers(
    color: Color,
    kind: PieceKind,
    variant: Variant,
    from: Square,
    to: Square,
    candidates: &[Square],
) -> (Option<Relative>, Option<Motion>) {
    if candidates.iter().filter(|&&c| c != from).count() == 0 {
        return (None, None);
    }
    let m = motion(color, from, to);
    if candidates.iter().filter(|&&c| motion(color, c, to) == m).count() <= 1 {
        return (None, Some(m));
    }
    match side(color, from, to) {
        Some(h) => {
            let same_side = candidates.iter().filter(|&&c| side(color, c, to) == Some(h)).count();
            (Some(h), if same_side > 1 { Some(m) } else { None })
        }
        None if writes_straight(kind, variant) => (Some(Relative::Straight), None),
        // A piece on the destination's file between others on both sides, all moving up (yari
        // knights, which go straight ahead as well as jump): 右 and 左 name the outer ones, so
        // it is the one that goes straight up, 直.
        None if m == Motion::Up && both_sides(color, to, candidates) => (Some(Relative::Straight), None),
        None => {
            // A dragon or horse on the destination's file: it is told apart by the side of
            // the others that move as it does, which are not on that file (two on it would
            // differ in motion); with a piece on the file that moves otherwise (yari shogi has
            // more than two of a kind), the motion is said too.
            let other_right = candidates.iter().any(|&c| side(color, c, to) == Some(Relative::Right));
            let h = if other_right { Relative::Left } else { Relative::Right };
            let alike =
                candidates.iter().filter(|&&c| matches(color, c, to, Some(h), None, candidates)).count();
            (Some(h), if alike > 1 { Some(m) } else { None })
        }
    }
}

/// Whether `candidates` has pieces on both sides of `to`'s file.
fn both_sides(color: Color, to: Square, candidates: &[Square]) -> bool {
    let on = |h| candidates.iter().any(|&c| side(color, c, to) == Some(h));
    on(Relative::Right) && on(Relative::Left)
}

/// Whether the move from `from` to `to` fits the movement words `relative` and `motion`, with
/// `reference` the squares of the pieces of its kind that could reach `to` (see the module
/// documentation).
pub fn matches(
    color: Color,
    from: Square,
    to: Square,
    relative: Option<Relative>,
    motion_word: Option<Motion>,
    reference: &[Square],
) -> bool {
    if motion_word.is_some_and(|m| m != motion(color, from, to)) {
        return false;
    }
    let x = |sq| oriented(color, sq).0;
    match relative {
        None => true,
        Some(Relative::Straight) => side(color, from, to).is_none() && motion(color, from, to) == Motion::Up,
        Some(Relative::Right) => reference.iter().all(|&c| x(c) >= x(from)),
        Some(Relative::Left) => reference.iter().all(|&c| x(c) <= x(from)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(f: u8, r: u8) -> Square {
        Square::from_numbers(f, r).unwrap()
    }

    #[test]
    fn motion_is_seen_from_the_mover() {
        assert_eq!(motion(Color::Black, sq(7, 7), sq(7, 6)), Motion::Up);
        assert_eq!(motion(Color::White, sq(7, 7), sq(7, 6)), Motion::Down);
        assert_eq!(motion(Color::White, sq(6, 8), sq(7, 8)), Motion::Sideways);
    }

    /// The words [`markers`] writes for each of `pieces` going to `to`, each checked to read
    /// back as that piece alone.
    fn words(
        color: Color,
        kind: PieceKind,
        pieces: &[Square],
        to: Square,
    ) -> Vec<(Option<Relative>, Option<Motion>)> {
        let words: Vec<_> =
            pieces.iter().map(|&p| markers(color, kind, Variant::Standard, p, to, pieces)).collect();
        for (p, &(relative, motion_word)) in pieces.iter().zip(&words) {
            let read: Vec<_> =
                pieces.iter().filter(|&&c| matches(color, c, to, relative, motion_word, pieces)).collect();
            assert_eq!(read, [p], "{p} to {to} for {color:?}");
        }
        words
    }

    #[test]
    fn three_golds_in_a_row() {
        assert_eq!(
            words(Color::Black, PieceKind::Gold, &[sq(6, 6), sq(5, 6), sq(4, 6)], sq(5, 5)),
            [(Some(Relative::Left), None), (Some(Relative::Straight), None), (Some(Relative::Right), None)]
        );
    }

    #[test]
    fn a_piece_going_straight_up_between_two_others_is_straight() {
        // Yari knights on 3七, 2七 and 1七 can all reach 2五: the outer two by a jump, the
        // middle one straight ahead. 左 and 右 name the outer ones, so the middle one is 直
        // (seed 001: "a third positional origin indicator is used: 直 for vertical (straight
        // up) movement").
        let expected =
            [(Some(Relative::Left), None), (Some(Relative::Straight), None), (Some(Relative::Right), None)];
        assert_eq!(
            words(Color::Black, PieceKind::Knight, &[sq(3, 7), sq(2, 7), sq(1, 7)], sq(2, 5)),
            expected
        );
        // The same turned round for White, whose left is Black's right.
        assert_eq!(
            words(Color::White, PieceKind::Knight, &[sq(7, 3), sq(8, 3), sq(9, 3)], sq(8, 5)),
            expected
        );
    }

    #[test]
    fn white_sees_the_board_turned_round() {
        // White's golds on 6一 and 4一 going to 5二: the one on 6一 is White's right.
        let golds = [sq(6, 1), sq(4, 1)];
        assert_eq!(
            markers(Color::White, PieceKind::Gold, Variant::Standard, sq(6, 1), sq(5, 2), &golds),
            (Some(Relative::Right), None)
        );
        assert!(matches(Color::White, sq(6, 1), sq(5, 2), Some(Relative::Right), None, &golds));
        assert!(!matches(Color::White, sq(4, 1), sq(5, 2), Some(Relative::Right), None, &golds));
    }
}
