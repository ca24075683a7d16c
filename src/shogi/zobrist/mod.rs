//! The position key: a 64-bit Zobrist hash of the board, both hands and the side to move.
//!
//! # A stored format
//!
//! Keys are written into databases and compared across runs, versions and machines. The
//! numbers behind them are constants in [`table`](self) (never generated at run time), and
//! `tests/data/position_keys.csv` pins keys for known positions. Changing the table, or the
//! way keys are combined below, changes every stored key: it is a database migration, never a
//! refactoring.
//!
//! # How a key is made
//!
//! The key is the XOR of:
//! - for every occupied square, `BOARD[square][piece]`;
//! - for every kind a side holds n of, the first n numbers of `HAND[side][kind]`;
//! - `WHITE_TO_MOVE` when White is to move.
//!
//! The move number is not part of the key: the same position reached at different plies has
//! one key. Because every part is an XOR, a move updates the key with a handful of XORs
//! (see [`PositionKey::after`]).

mod table;

use std::fmt;

use super::{Color, Move, Piece, PieceKind, Setup, Square};

/// The 64-bit key of a position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PositionKey(pub u64);

impl PositionKey {
    /// The key of `setup`, computed from scratch.
    pub fn of(setup: &Setup) -> PositionKey {
        let mut key = 0;
        for sq in Square::all() {
            if let Some(piece) = setup.piece_at(sq) {
                key ^= board(sq, piece);
            }
        }
        for color in Color::ALL {
            for (kind, n) in setup.hand(color).iter() {
                for i in 0..n {
                    key ^= hand(color, kind, i);
                }
            }
        }
        if setup.turn == Color::White {
            key ^= table::WHITE_TO_MOVE;
        }
        PositionKey(key)
    }

    /// The key after `mv` is played in `setup` (which must be the position before the move and
    /// the move must be legal there; only the pieces it touches are read).
    pub fn after(self, setup: &Setup, mv: Move) -> PositionKey {
        let us = setup.turn;
        let mut key = self.0 ^ table::WHITE_TO_MOVE;
        match mv {
            Move::Normal { from, to, promote } => {
                let piece = setup.piece_at(from).expect("a legal board move starts on a piece");
                key ^= board(from, piece);
                if let Some(captured) = setup.piece_at(to) {
                    key ^= board(to, captured);
                    let kind = captured.kind.unpromote();
                    key ^= hand(us, kind, setup.hand(us).count(kind));
                }
                let kind = if promote { piece.kind.promote().unwrap_or(piece.kind) } else { piece.kind };
                key ^= board(to, Piece::new(us, kind));
            }
            Move::Drop { kind, to } => {
                let n = setup.hand(us).count(kind);
                key ^= hand(us, kind, n.saturating_sub(1));
                key ^= board(to, Piece::new(us, kind));
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

fn board(sq: Square, piece: Piece) -> u64 {
    table::BOARD[sq.index()][piece.index()]
}

/// The number added when a hand goes from `i` to `i + 1` pieces of `kind`.
fn hand(color: Color, kind: PieceKind, i: u8) -> u64 {
    let k = kind.hand_index().expect("only hand kinds are counted in hand");
    table::HAND[color.index()][k][usize::from(i).min(17)]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table is the output of SplitMix64 from the documented seed, in the documented
    /// order: this recomputes it, so a stray edit to one constant cannot go unnoticed.
    #[test]
    fn table_is_the_documented_sequence() {
        let mut state: u64 = 0x6b69667564657831;
        let mut next = || {
            state = state.wrapping_add(0x9E3779B97F4A7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
            z ^ (z >> 31)
        };
        for row in &table::BOARD {
            for &v in row {
                assert_eq!(v, next());
            }
        }
        for side in &table::HAND {
            for row in side {
                for &v in row {
                    assert_eq!(v, next());
                }
            }
        }
        assert_eq!(table::WHITE_TO_MOVE, next());
    }

    #[test]
    fn display_is_sixteen_hex_digits() {
        assert_eq!(PositionKey(0xab).to_string(), "00000000000000ab");
        assert_eq!(PositionKey::from_i64(PositionKey(u64::MAX).to_i64()), PositionKey(u64::MAX));
    }
}
