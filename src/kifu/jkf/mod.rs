//! JKF (JSON Kifu Format): reading and detection (the writer is [`crate::write::jkf`]).
//!
//! A JKF text is one JSON object: `header` (a map of KIF header keys to values, kept raw in
//! file order and normalized like KIF's), `initial` (a `preset` such as `HIRATE`, `KY` or
//! `2`, or `OTHER` with a 9×9 `board` indexed `[x-1][y-1]`, the side to move and the hands),
//! and `moves`: the first entry holds the start's comments, each later one a `move` with its
//! `time` and `comments`, or a `special` ending (`TORYO` …, the CSA words without `%`).
//! `forks` on an entry are alternatives to its move and become variations.
//!
//! Policy:
//! - A JKF move is exact (color, origin or none for a drop, destination, the piece before the
//!   move, promotion), so it is read as a CSA move token that keeps the piece before the move
//!   apart; replay then checks the piece and the side as well as the move (a `UM` written
//!   where a bishop stands is refused, not read as the bishop promoting). `same`, `capture`
//!   and `relative` only repeat what the move says and are not read; the writer fills them in.
//! - Drops written with `"from": null` are drops. Every null the schema allows (`comments`,
//!   `forks`, `special`, `time`, an hour) is read as absent; the start's comment may also be
//!   the schema's single `comment` string.
//! - An entry with both a move and a `special` is the move, then the ending. A `special` that
//!   is no ending JKF defines ends the game without a stated ending, with an `unknown_ending`
//!   warning, as an unknown CSA ending does.
//! - The start is read exactly or refused: a square with a color and no kind (or the other
//!   way round), a hand count that is no whole number a set can hold, a piece in hand that
//!   cannot be held, more than two hands. A count of none of any piece is no piece. Board
//!   `data` without a `preset` is the start it shows.
//! - A move of the main line that cannot be read stops the game there. A fork that cannot be
//!   read is kept up to there (`variation_cut`), forks nested too deep are left out
//!   (`variation_left_out`), and the main line goes on. A `time` that is no time (negative,
//!   not a number, past what a time holds) leaves its move without one (`bad_time`); a
//!   fraction of a second is rounded down, and a game that held one says so once
//!   (`time_rounded`).
//! - Lines are those of the entry in the JSON text, for problems and moves alike.

mod read;

pub use read::{JkfError, looks_like, read, read_as};

use crate::shogi::Handicap;

/// The JKF preset names, in [`Handicap::ALL`] order.
const PRESETS: [&str; 16] =
    ["HIRATE", "KY", "KY_R", "KA", "HI", "HIKY", "2", "3", "4", "5", "5_L", "6", "7_L", "7_R", "8", "10"];

/// The standard start a preset names (`OTHER` is none).
fn preset_handicap(preset: &str) -> Option<Handicap> {
    PRESETS.iter().position(|&p| p == preset).map(|i| Handicap::ALL[i])
}

/// The preset that names a standard start.
pub(crate) fn preset_name(handicap: Handicap) -> &'static str {
    let i = Handicap::ALL.iter().position(|&h| h == handicap).expect("every handicap is in ALL");
    PRESETS[i]
}
