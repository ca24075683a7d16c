//! What holds for records in every format: round trips through every writer, how a game
//! that cannot be read or played to its end is kept, and the time and comments of an ending.

mod endings;
mod round_trip;
mod stops;
