//! Whole records: format detection, decoding, and the readers and writers of every format.
//!
//! Readers check syntax only: a move that is well written but illegal is the replay's
//! business ([`crate::replay`]). Every reader returns every game it finds; a game it cannot
//! read to the end keeps what came before and says where and why it stopped
//! ([`Game::problem`]).

pub mod csa;
mod game;
mod interim;
pub mod jkf;
mod support;
pub mod usi;
pub mod western;

pub use game::{
    DateTime, Ending, Format, Game, Header, Info, MoveEntry, Outcome, Player, ReadProblem, Start,
    Termination, Variation,
};
