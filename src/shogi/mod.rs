//! The game itself: squares, pieces, hands, moves, positions and the position key, for
//! standard shogi and for yari shogi ([`Variant`]).
//!
//! Everything here is pure: no I/O, no text formats beyond SFEN and USI moves. Both games share
//! the vocabulary; a [`Setup`] says which game it is, and a [`Position`] made from it plays by
//! that game's rules (see [`variant`] for what differs). Standard shogi's legality and move
//! generation come from the rules crate, wrapped by [`Position`]; no other module names that
//! crate, so replacing it is a change to this module alone. Yari shogi's rules are our own
//! ([`yari`]). The position keys ([`PositionKey`]) are ours, one frozen table per game,
//! because stored keys must not change when a dependency does.

mod hand;
mod handicap;
mod mv;
mod piece;
mod position;
pub mod rules;
mod setup;
mod square;
pub mod variant;
pub mod yari;
mod zobrist;

pub use hand::Hand;
pub use handicap::{Handicap, UnknownHandicap};
pub use mv::{Move, ParseMoveError};
pub use piece::{Color, Piece, PieceKind};
pub use position::{Position, PositionError, Repetition};
pub use rules::{IllegalMove, IllegalMoveKind};
pub use setup::{STARTPOS_SFEN, Setup, SfenError};
pub use square::{File, ParseSquareError, Rank, Square};
pub use variant::{Variant, YARI_START_SFEN};
pub use zobrist::PositionKey;
