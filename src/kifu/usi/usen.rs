//! USEN, the URL-safe SFEN-extended notation of mogproject's shogi tools (Shogi Playground):
//! a whole game, variations included, in one line of URL-safe characters.
//!
//! `{start}~{offset}.{moves}.{final}` then `~{offset}.{moves}.{final}` for each variation:
//! - `start` is empty for the even game, else an SFEN without its move number, with `_` for
//!   `/`, `.` for the spaces and `z` for `+`;
//! - `offset` is the ply the line starts at (for a variation, the ply of the main-line move it
//!   replaces);
//! - each move is three base-36 digits of `(from * 81 + to) * 2 + promote`, a square counting
//!   `(rank - 1) * 9 + (file - 1)`, and a drop's `from` being 81 plus the piece's number
//!   (gold 9, pawn 10, lance 11, knight 12, silver 13, bishop 14, rook 15);
//! - `final` is empty, or `r` resigned, `t` time up, `p` paused (interrupted), `j` won by
//!   declaration, `i` followed by a move: that illegal move ended the game.
//!
//! The last `.final` section may be left out (the files written by some tools do).

use crate::{
    kifu::{
        Ending, Game, MoveEntry, ReadProblem, Start, Termination, Variation,
        support::{TooManyMoves, room_for_move},
    },
    notation::MoveToken,
    shogi::{Move, PieceKind, Setup, Square},
    text::excerpt,
};

/// Why a USEN line cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UsenError {
    #[error("the start position '{0}' is not SFEN")]
    Start(String),
    #[error("the offset '{0}' is not a number")]
    Offset(String),
    #[error("'{0}' is not a move (three base-36 digits)")]
    Move(String),
    #[error("unknown final action '{0}'")]
    Final(String),
    #[error("a variation starts at ply {0}, outside the main line")]
    Branch(usize),
    #[error(transparent)]
    TooManyMoves(#[from] TooManyMoves),
}

impl UsenError {
    /// The reject code (see [`ReadProblem`]'s module).
    pub fn code(&self) -> &'static str {
        match self {
            UsenError::Start(_) => "bad_board",
            UsenError::Offset(_) | UsenError::Branch(_) => "bad_variation",
            UsenError::Move(_) => "bad_move_text",
            UsenError::Final(_) => "bad_ending",
            UsenError::TooManyMoves(_) => "too_many_moves",
        }
    }
}

/// Whether a line is USEN: URL-safe characters with a `~` between the start and the moves.
pub(super) fn is_usen(line: &str) -> bool {
    line.contains('~')
        && line.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'~' | b'.' | b'_' | b'-' | b'+'))
}

/// Reads a USEN line (number `line`) as a game.
pub(super) fn read_line(text: &str, line: u32) -> Game {
    let mut game = Game { line, ..Game::default() };
    if let Err(error) = read_into(text, line, &mut game) {
        game.problem = Some(ReadProblem::new(line, error));
    }
    game
}

fn read_into(text: &str, line: u32, game: &mut Game) -> Result<(), UsenError> {
    let mut sections = text.split('~');
    let start = sections.next().unwrap_or_default();
    if !start.is_empty() {
        let sfen: String = start
            .chars()
            .map(|c| match c {
                '_' => '/',
                '.' => ' ',
                'z' => '+',
                c => c,
            })
            .collect();
        let setup: Setup = sfen.parse().map_err(|_| UsenError::Start(excerpt(start)))?;
        game.start = Start::of(setup);
    }
    let Some(trunk) = sections.next() else { return Ok(()) };
    let base = branch(trunk, line, &mut game.moves, &mut game.ending)?;
    for section in sections {
        let mut var = Variation::default();
        let offset = branch(section, line, &mut var.moves, &mut var.ending)?;
        var.ply =
            offset.checked_sub(base).filter(|&p| p < game.moves.len()).ok_or(UsenError::Branch(offset))?;
        game.variations.push(var);
    }
    Ok(())
}

/// Reads `{offset}.{moves}[.{final}]` into `moves` and `ending`; returns the offset.
fn branch(
    text: &str,
    line: u32,
    moves: &mut Vec<MoveEntry>,
    ending: &mut Option<Ending>,
) -> Result<usize, UsenError> {
    let mut parts = text.splitn(3, '.');
    let offset_text = parts.next().unwrap_or_default();
    let offset = offset_text.parse().map_err(|_| UsenError::Offset(excerpt(offset_text)))?;
    let entry = |mv| MoveEntry { token: MoveToken::Usi(mv), line, seconds: None, comments: Vec::new() };
    let codes = parts.next().unwrap_or_default();
    for i in (0..codes.len()).step_by(3) {
        let code = codes.get(i..i + 3).unwrap_or(&codes[i..]);
        let mv = decode(code).ok_or_else(|| UsenError::Move(code.to_string()))?;
        room_for_move(moves)?;
        moves.push(entry(mv));
    }
    let last = parts.next().unwrap_or_default();
    let termination = match last.get(..1) {
        None => return Ok(offset),
        Some("r") => Termination::Resign,
        Some("t") => Termination::Timeout,
        Some("p") => Termination::Interrupted,
        Some("j") => Termination::EnteringKing,
        Some("i") => {
            let mv = decode(&last[1..]).ok_or_else(|| UsenError::Move(excerpt(&last[1..])))?;
            room_for_move(moves)?;
            moves.push(entry(mv));
            Termination::IllegalMove
        }
        Some(_) => return Err(UsenError::Final(excerpt(last))),
    };
    *ending = Some(Ending {
        termination,
        side: None,
        stated: None,
        text: last.to_string(),
        line,
        seconds: None,
        comments: Vec::new(),
    });
    Ok(offset)
}

/// The move three base-36 digits encode.
fn decode(code: &str) -> Option<Move> {
    if code.len() != 3 || !code.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    let value = u32::from_str_radix(code, 36).ok()?;
    let (from, to, promote) = (value / 162, value / 2 % 81, value % 2 == 1);
    let square = |i: u32| Square::from_numbers((i % 9) as u8 + 1, (i / 9) as u8 + 1);
    let to = square(to)?;
    if from < 81 {
        let from = square(from)?;
        return (from != to).then_some(Move::Normal { from, to, promote });
    }
    let kind = match from - 81 {
        9 => PieceKind::Gold,
        10 => PieceKind::Pawn,
        11 => PieceKind::Lance,
        12 => PieceKind::Knight,
        13 => PieceKind::Silver,
        14 => PieceKind::Bishop,
        15 => PieceKind::Rook,
        _ => return None,
    };
    (!promote).then_some(Move::Drop { kind, to })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_decode() {
        // (60 * 81 + 51) * 2 = 9822 = "7ku": 7g7f.
        assert_eq!(decode("7ku"), Some("7g7f".parse().unwrap()));
        // A pawn drop on 5e (index 40): ((81 + 10) * 81 + 40) * 2 = 14822 = "bfq".
        assert_eq!(decode("bfq"), Some("P*5e".parse().unwrap()));
        assert_eq!(decode("zzz"), None);
        assert_eq!(decode("7k"), None);
        assert_eq!(decode("+7k"), None);
    }

    #[test]
    fn a_game_with_a_variation() {
        let game = read_line("~0.7ku2jm.r~1.2jn.", 1);
        assert_eq!(game.problem, None);
        assert_eq!(game.moves.len(), 2);
        assert_eq!(game.ending.as_ref().map(|e| e.termination), Some(Termination::Resign));
        assert_eq!(game.variations.len(), 1);
        assert_eq!(game.variations[0].ply, 1);
    }
}
