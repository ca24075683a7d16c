//! kifudex: a shogi game database.
//!
//! It walks directories of game records (kifu), reads them in every common format and
//! encoding, replays every move through a rules engine, and stores games, moves and every
//! position in one SQLite file that answers opening and position queries.
//!
//! The layers, each using only those before it:
//! - [`shogi`]: squares, pieces, moves, positions, handicaps, the frozen position key.
//! - [`notation`]: one move in text, to and from a move: Japanese, Western, USI, CSA.
//! - [`kifu`]: whole records: detection, decoding, readers and writers, the game model.
//! - [`replay`]: a record's moves checked against the rules; keys, result and status.
//! - [`walk`]: finding record files under the paths given.

#![forbid(unsafe_code)]

pub mod kifu;
pub mod notation;
pub mod replay;
pub mod shogi;
pub mod walk;
