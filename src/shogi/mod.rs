//! The game itself: squares, pieces, hands, moves, positions and the position key.
//!
//! Everything here is pure: no I/O, no text formats beyond SFEN and USI moves. Legality and
//! move generation come from the rules crate, wrapped by [`Position`]; no other module names
//! that crate, so replacing it is a change to this module alone. The position key
//! ([`PositionKey`]) is ours, because stored keys must not change when a dependency does.

mod hand;
mod handicap;
mod mv;
mod piece;
mod position;
pub mod rules;
mod setup;
mod square;
mod zobrist;

pub use hand::Hand;
pub use handicap::{Handicap, UnknownHandicap};
pub use mv::{Move, ParseMoveError};
pub use piece::{Color, Piece, PieceKind};
pub use position::{Position, PositionError, Repetition};
pub use rules::{IllegalMove, IllegalMoveKind};
pub use setup::{STARTPOS_SFEN, Setup, SfenError};
pub use square::{File, ParseSquareError, Rank, Square};
pub use zobrist::PositionKey;
