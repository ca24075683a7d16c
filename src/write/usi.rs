//! Writing a game as a USI position line.

use crate::{
    kifu::{Game, Outcome, Termination},
    replay::ReplayedGame,
    shogi::{Handicap, Move},
};

/// Writes the game as one USI line: `position startpos moves …` from the even start numbered
/// from the first move, `position sfen <sfen> moves …` from any other (the even start as the
/// 31st move included: `startpos` has no move number), then `resign`, `win` or `draw` when the game
/// ended in a way USI has a token for, after `moves` even when no move comes before it. USI holds no headers, times or comments.
///
/// `replayed` is [`replay`](crate::replay::replay)`(game)`: the moves written are the replayed,
/// legal ones, and the result is the one replay judged.
pub fn write(_game: &Game, replayed: &ReplayedGame) -> String {
    let mut out = String::with_capacity(32 + replayed.moves.len() * 6);
    if Handicap::find(&replayed.start) == Some(Handicap::Even) && replayed.start.move_number == 1 {
        out.push_str("position startpos");
    } else {
        out.push_str("position sfen ");
        out.push_str(&replayed.start.to_string());
    }
    // The ending goes after `moves`, as a last move would, even where no move comes before
    // it: `position startpos resign` is no position command.
    let token = ending_token(replayed);
    if !replayed.moves.is_empty() || token.is_some() {
        out.push_str(" moves");
    }
    for mv in &replayed.moves {
        out.push(' ');
        out.push_str(&Move::to_string(mv));
    }
    if let Some(token) = token {
        out.push(' ');
        out.push_str(token);
    }
    out.push('\n');
    out
}

/// The token for the game's ending, when USI has one: the side to move resigned, declared an
/// entering-king win, or the game was drawn (however: USI has one word for every draw).
pub(crate) fn ending_token(replayed: &ReplayedGame) -> Option<&'static str> {
    let to_move = replayed.end.turn;
    match (replayed.termination?, replayed.outcome?) {
        (Termination::Resign, Outcome::Win(w)) if w != to_move => Some("resign"),
        (Termination::EnteringKing, Outcome::Win(w)) if w == to_move => Some("win"),
        (_, Outcome::Draw) => Some("draw"),
        _ => None,
    }
}
