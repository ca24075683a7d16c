//! A position for the page: how it was reached, in every notation it shows, and the moves
//! that are legal in it. The page draws boards and takes clicks; every rule is decided here.
//!
//! [`jump`] reads whatever a user pastes: moves in any notation, an SFEN, a board diagram
//! (BOD) or a whole record (KIF, KI2, CSA, JKF, USI, Western; the first game, as far as it
//! can be played).

use serde_json::{Value, json};

use super::{api::ApiError, params::MAX_MOVES_PARAM};
use crate::{
    kifu,
    notation::{Style, read_sequence, write},
    query::{Target, TargetError},
    replay,
    shogi::{Color, Move, Position, STARTPOS_SFEN, Setup},
};

/// The target's start and moves, each move in USI, Japanese and Western notation; the
/// position's SFEN, side to move, check and mate; and every legal move in USI.
pub fn describe(target: &Target) -> Value {
    let (start, moves): (Setup, &[Move]) = match &target.sequence {
        Some((start, moves)) => (start.clone(), moves),
        None => (target.position.setup().clone(), &[]),
    };
    let mut path = Vec::with_capacity(moves.len());
    if let Ok(mut pos) = Position::from_setup(start.clone()) {
        let mut previous = None;
        for &mv in moves {
            path.push(json!({
                "usi": mv.to_string(),
                "japanese": write(&pos, mv, previous, Style::Japanese),
                "western": write(&pos, mv, previous, Style::Western),
            }));
            previous = Some(mv.to());
            pos.play_unchecked(mv);
        }
    }
    let pos = &target.position;
    let legal: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    json!({
        "start": start.to_string(),
        "sfen": pos.sfen(),
        "turn": match pos.turn() { Color::Black => "black", Color::White => "white" },
        "moves": path,
        "legal": legal,
        "check": pos.is_check(),
        "mate": pos.is_checkmate(),
    })
}

/// Pasted text as the parameters that open its position: `{"moves": "…", "start": "…"}` or
/// `{"sfen": "…"}`.
///
/// # Errors
///
/// 400 when the text is none of the things it may be, with the reason of the reading that
/// fits it best: a one-line text as moves, a text with a drawn board as a diagram, anything
/// else as a record.
pub fn jump(pasted: &str) -> Result<Value, ApiError> {
    let text = pasted.trim();
    if text.is_empty() {
        return Err(ApiError::bad(
            "there is nothing to read: paste moves, an SFEN, a board diagram or a record",
        ));
    }
    let sfen_error = match Target::from_sfen(text) {
        Ok(target) => {
            return Ok(match &target.sequence {
                // A USI position command with moves: the moves, so the page shows how it was
                // reached.
                Some((start, moves)) => opened(start, moves),
                None => json!({ "sfen": target.position.sfen() }),
            });
        }
        Err(e) => e,
    };
    // A USI position command is nothing else: what is wrong with it is its own error (a
    // move after `resign`, say), not that `position` is no move. Several lines are a USI
    // record (a game a line), read as any record is, below.
    if !text.contains('\n')
        && matches!(text.split_whitespace().next(), Some("position" | "sfen" | "startpos"))
    {
        // A move that cannot be played is where the record it is stops, as in a USI file.
        if let Ok(parsed) = kifu::read_file(None, pasted.as_bytes())
            && let Some(replayed) = parsed.games.first().map(replay::replay)
            && !replayed.has_no_start()
            && !replayed.status.is_complete()
        {
            return Ok(opened_record(&replayed));
        }
        return Err(ApiError::bad(sfen_error.to_string()));
    }
    let moves_error = match read_sequence(&Position::startpos(), text) {
        Ok(moves) => return Ok(opened(Position::startpos().setup(), &moves)),
        Err(e) => e,
    };
    // The text as pasted, so that lines are counted as the user sees them.
    let record_error = match kifu::read_file(None, pasted.as_bytes()) {
        Ok(parsed) => match parsed.games.first().map(replay::replay) {
            // A record whose start could not be read has no position to open: a diagram
            // with a mistake in it is that mistake, not a board without the piece.
            Some(replayed) if replayed.has_no_start() => match replayed.status {
                replay::Status::Stopped(reason) => reason.to_string(),
                replay::Status::Complete => "it has no start position".to_string(),
            },
            // One line that does not read as moves is not taken as a record that stops early;
            // a record that does opens where it stops, and says why.
            Some(replayed) if text.contains('\n') || replayed.status.is_complete() => {
                return Ok(opened_record(&replayed));
            }
            Some(_) => "it does not read as moves".to_string(),
            None => "it holds no game".to_string(),
        },
        Err(e) => e.to_string(),
    };
    let bod_error = match Target::from_bod(text) {
        Ok(target) => return Ok(json!({ "sfen": target.position.sfen() })),
        Err(e) => e,
    };
    let message = if !text.contains('\n') {
        TargetError::from(moves_error).to_string()
    } else if text.lines().any(|l| l.trim_start().starts_with('|')) || kifu::grid::is_grid(text) {
        bod_error.to_string()
    } else {
        format!("not a record: {record_error}")
    };
    Err(ApiError::bad(message))
}

/// The parameters that open the position a record reaches, and where and why it stopped
/// when it stopped early.
fn opened_record(replayed: &replay::ReplayedGame) -> Value {
    let mut answer = opened(&replayed.start, &replayed.moves);
    if let replay::Status::Stopped(reason) = &replayed.status {
        answer["stopped"] = json!({ "ply": replayed.moves.len(), "reason": reason.to_string() });
    }
    answer
}

/// The parameters that open the position after `moves` from `start`: the moves in USI, or,
/// past what the `moves` parameter takes, the position itself.
fn opened(start: &Setup, moves: &[Move]) -> Value {
    let text = moves.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ");
    if text.len() > MAX_MOVES_PARAM {
        let mut end = start.clone();
        moves.iter().for_each(|&mv| {
            end.play_legal(mv);
        });
        return json!({ "sfen": end.to_string() });
    }
    let start = start.to_string();
    let start = if start == STARTPOS_SFEN { "startpos".to_string() } else { start };
    json!({ "moves": text, "start": start })
}
