//! What holds for records in every format: round trips through every writer, and how a game
//! that cannot be read or played to its end is kept.

mod round_trip;
mod stops;
