//! The position key: a 64-bit Zobrist hash of the board, both hands and the side to move.
//!
//! # A stored format
//!
//! Keys are written into databases and compared across runs, versions and machines. The
//! numbers behind them are constants (never generated at run time), one table per game:
//! `table.rs` for standard shogi, `yari_table.rs` for yari shogi. `tests/data/position_keys.csv`
//! and `tests/data/yari/position_keys.csv` pin keys for known positions. Changing a table, or
//! the way keys are combined below, changes every stored key of that game: it is a database
//! migration, never a refactoring.
//!
//! # How a key is made
//!
//! The key is the XOR of:
//! - for every occupied square, `BOARD[square][piece]`;
//! - for every kind a side holds n of, the first n numbers of `HAND[side][kind]`;
//! - `WHITE_TO_MOVE` when White is to move.
//!
//! For standard shogi, `square` is [`Square::index`] (0 to 80), `piece` is [`Piece::index`]
//! (0 to 27) and `kind` is [`PieceKind::hand_index`] (P L N S G B R); the tables are the
//! outputs of SplitMix64 seeded with `0x6b69667564657831`. For yari shogi, `square` is the same
//! index (0 to 62, the yari board being files 1 to 7), `piece` is the side's index times 9
//! plus the kind's place in `P N B R K +P +N +B +R` (0 to 17), and `kind` is the kind's place in
//! `P N B R` (a hand row holds 14 numbers); the tables are the outputs of SplitMix64 seeded
//! with `0x6b69667579617269`. The two games' keys come from different numbers, so a position
//! of one never shares its key with a position of the other but by chance.
//!
//! The move number is not part of the key: the same position reached at different plies has
//! one key. Because every part is an XOR, a move updates the key with a handful of XORs
//! (see [`PositionKey::after`]).

mod table;
mod yari_table;

use std::fmt;

use super::{Color, Move, Piece, PieceKind, Setup, Square, Variant};

/// The 64-bit key of a position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PositionKey(pub u64);

impl PositionKey {
    /// The key of `setup`, computed from scratch.
    pub fn of(setup: &Setup) -> PositionKey {
        let variant = setup.variant;
        let mut key = 0;
        for sq in variant.squares() {
            if let Some(piece) = setup.piece_at(sq) {
                key ^= board(variant, sq, piece);
            }
        }
        for color in Color::ALL {
            for (kind, n) in setup.hand(color).iter() {
                for i in 0..n {
                    key ^= hand(variant, color, kind, i);
                }
            }
        }
        if setup.turn == Color::White {
            key ^= white_to_move(variant);
        }
        PositionKey(key)
    }

    /// The key after `mv` is played in `setup` (which must be the position before the move and
    /// the move must be legal there; only the pieces it touches are read).
    pub fn after(self, setup: &Setup, mv: Move) -> PositionKey {
        let us = setup.turn;
        let v = setup.variant;
        let mut key = self.0 ^ white_to_move(v);
        match mv {
            Move::Normal { from, to, promote } => {
                let piece = setup.piece_at(from).expect("a legal board move starts on a piece");
                key ^= board(v, from, piece);
                if let Some(captured) = setup.piece_at(to) {
                    key ^= board(v, to, captured);
                    let kind = captured.kind.unpromote();
                    key ^= hand(v, us, kind, setup.hand(us).count(kind));
                }
                let kind = if promote { piece.kind.promote().unwrap_or(piece.kind) } else { piece.kind };
                key ^= board(v, to, Piece::new(us, kind));
            }
            Move::Drop { kind, to } => {
                let n = setup.hand(us).count(kind);
                key ^= hand(v, us, kind, n.saturating_sub(1));
                key ^= board(v, to, Piece::new(us, kind));
            }
        }
        PositionKey(key)
    }

    /// The key as SQLite stores it: the same 64 bits read as a signed integer.
    pub const fn to_i64(self) -> i64 {
        self.0 as i64
    }

    /// The key from SQLite's signed integer.
    pub const fn from_i64(v: i64) -> PositionKey {
        PositionKey(v as u64)
    }
}

/// Sixteen lowercase hexadecimal digits.
impl fmt::Display for PositionKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

fn board(variant: Variant, sq: Square, piece: Piece) -> u64 {
    match variant {
        Variant::Standard => table::BOARD[sq.index()][piece.index()],
        // A yari setup holds only yari pieces on yari squares (positions are validated); the
        // last row and column stand in for anything else rather than panic.
        Variant::Yari => yari_table::BOARD[sq.index().min(62)][yari_piece_index(piece)],
    }
}

/// The number added when a hand goes from `i` to `i + 1` pieces of `kind`.
fn hand(variant: Variant, color: Color, kind: PieceKind, i: u8) -> u64 {
    match variant {
        Variant::Standard => {
            let k = kind.hand_index().expect("only hand kinds are counted in hand");
            table::HAND[color.index()][k][usize::from(i).min(17)]
        }
        Variant::Yari => {
            let k = Variant::Yari.hand_kinds().iter().position(|&h| h == kind).unwrap_or(3);
            yari_table::HAND[color.index()][k][usize::from(i).min(13)]
        }
    }
}

fn white_to_move(variant: Variant) -> u64 {
    match variant {
        Variant::Standard => table::WHITE_TO_MOVE,
        Variant::Yari => yari_table::WHITE_TO_MOVE,
    }
}

/// A yari piece's column in the yari board table: the side's index times 9, plus the kind's
/// place in `P N B R K +P +N +B +R`.
fn yari_piece_index(piece: Piece) -> usize {
    let kind = Variant::Yari.kinds().iter().position(|&k| k == piece.kind).unwrap_or(8);
    piece.color.index() * 9 + kind
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks that `numbers`, in order, are the outputs of SplitMix64 from `seed`.
    fn assert_splitmix64(seed: u64, numbers: impl Iterator<Item = u64>) {
        let mut state = seed;
        for (i, v) in numbers.enumerate() {
            state = state.wrapping_add(0x9E3779B97F4A7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
            assert_eq!(v, z ^ (z >> 31), "number {i} of the table seeded {seed:#x}");
        }
    }

    /// The table is the output of SplitMix64 from the documented seed, in the documented
    /// order: this recomputes it, so a stray edit to one constant cannot go unnoticed.
    #[test]
    fn table_is_the_documented_sequence() {
        let board = table::BOARD.iter().flatten();
        let hand = table::HAND.iter().flatten().flatten();
        let numbers = board.chain(hand).chain([&table::WHITE_TO_MOVE]).copied();
        assert_eq!(numbers.clone().count(), 2_521);
        assert_splitmix64(0x6b69667564657831, numbers);
    }

    /// The same for the yari table, from its own seed ("kifuyari" in ASCII).
    #[test]
    fn yari_table_is_the_documented_sequence() {
        let board = yari_table::BOARD.iter().flatten();
        let hand = yari_table::HAND.iter().flatten().flatten();
        let numbers = board.chain(hand).chain([&yari_table::WHITE_TO_MOVE]).copied();
        assert_eq!(numbers.clone().count(), 1_247);
        assert_eq!(u64::from_be_bytes(*b"kifuyari"), 0x6b69667579617269);
        assert_splitmix64(0x6b69667579617269, numbers);
    }

    #[test]
    fn display_is_sixteen_hex_digits() {
        assert_eq!(PositionKey(0xab).to_string(), "00000000000000ab");
        assert_eq!(PositionKey::from_i64(PositionKey(u64::MAX).to_i64()), PositionKey(u64::MAX));
    }
}
