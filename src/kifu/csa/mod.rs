//! CSA records (V2, V2.2 and V3.0): reading and detection (the writer is [`crate::write::csa`]).
//!
//! A file holds one game or several separated by lines of a single `/`. Each game is read
//! statement by statement: `V` version, `N+`/`N-` names, `$KEY:value` headers (every one kept
//! raw, the known ones normalized), `'` comments, the start position (`PI` with removals,
//! `P1`–`P9` rows, `P+`/`P-` pieces with `00` for the hand and `00AL` for every remaining
//! piece, then `+`/`-` for the side to move), moves with `T` times, and the `%` ending.
//! Moves, times and endings may share a line, separated by `,`.
//!
//! Policy:
//! - A start that equals a standard one (平手 or a handicap) is read as that standard start.
//! - Comments attach to the move before them; those before the first move belong to the game,
//!   those after the ending to the ending.
//! - A `'CSA encoding=…` or `'encoding=…` line before anything else of the game describes the
//!   bytes, which decoding has already handled; it is dropped. Later, it is a comment.
//! - Server lines (`#RESIGN`, `#TIME_UP` …) are kept as comments. When no `%` line ends the
//!   game, a server line or a floodgate `'summary:` comment supplies the ending.
//! - Reading goes on past what the game does not need: a line that is no CSA statement (an
//!   engine comment that lost its `'`, stray text) or a time that cannot be read is skipped
//!   with an `unknown_line` warning; an ending word CSA does not define (`%GOTE_WIN_CHECKMATE`)
//!   ends the game without a stated ending, with an `unknown_ending` warning
//!   ([`Game::warnings`](crate::kifu::Game)).
//! - A move that cannot be read, a move after the ending, a start position that cannot be
//!   read, or a position statement after the first move stops the game there
//!   ([`Game::problem`](crate::kifu::Game)); reading resumes with the next game.
//! - A `T` time after the ending (the time spent resigning) is the ending's. A time that goes
//!   with no move or ending read, or with one that has its time, is skipped with a `stray_time`
//!   warning; a fraction of a second (`T1.250`, CSA V3) is rounded down, with one
//!   `time_rounded` warning a game.

mod ending;
mod read;
mod statement;

pub(crate) use ending::{EndingWord, word_for};
pub use read::{CsaError, looks_like, read, read_after};
pub use statement::StatementError;
