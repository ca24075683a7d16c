//! Moves, and their USI text form.

use std::{fmt, str::FromStr};

use super::{PieceKind, Square};

/// A move: a piece on the board moving (and perhaps promoting), or a piece dropped from hand.
///
/// A `Move` says nothing of legality; [`Position::play`](super::Position::play) checks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Move {
    Normal { from: Square, to: Square, promote: bool },
    Drop { kind: PieceKind, to: Square },
}

impl Move {
    /// The destination square.
    pub const fn to(self) -> Square {
        match self {
            Move::Normal { to, .. } | Move::Drop { to, .. } => to,
        }
    }

    /// The origin square, for a board move.
    pub const fn from(self) -> Option<Square> {
        match self {
            Move::Normal { from, .. } => Some(from),
            Move::Drop { .. } => None,
        }
    }

    /// Whether the move promotes.
    pub const fn is_promotion(self) -> bool {
        matches!(self, Move::Normal { promote: true, .. })
    }

    /// Whether the move is a drop.
    pub const fn is_drop(self) -> bool {
        matches!(self, Move::Drop { .. })
    }

    /// The move's 16-bit code: for a board move `from * 81 + to` plus 0x8000 when it promotes,
    /// for a drop `(81 + hand index) * 81 + to`. A stored format: codes in the database use it.
    pub const fn code(self) -> u16 {
        match self {
            Move::Normal { from, to, promote } => {
                (from.index() * 81 + to.index()) as u16 | if promote { 0x8000 } else { 0 }
            }
            Move::Drop { kind, to } => {
                let hand = match kind.hand_index() {
                    Some(i) => i,
                    None => 7,
                };
                ((81 + hand) * 81 + to.index()) as u16
            }
        }
    }

    /// The move with this code, as [`Move::code`] gives it.
    pub const fn from_code(code: u16) -> Option<Move> {
        let promote = code & 0x8000 != 0;
        let rest = (code & 0x7fff) as usize;
        let (origin, to) = (rest / 81, rest % 81);
        let Some(to) = Square::from_index(to) else {
            return None;
        };
        if origin < 81 {
            let Some(from) = Square::from_index(origin) else {
                return None;
            };
            if from.index() == to.index() {
                return None;
            }
            Some(Move::Normal { from, to, promote })
        } else if origin < 88 && !promote {
            Some(Move::Drop { kind: PieceKind::HAND[origin - 81], to })
        } else {
            None
        }
    }
}

/// USI form: `7g7f`, `8h2b+`, `P*5e`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Normal { from, to, promote } => {
                write!(f, "{from}{to}{}", if promote { "+" } else { "" })
            }
            Move::Drop { kind, to } => write!(f, "{}*{to}", kind.sfen()),
        }
    }
}

/// The error for text that is not a USI move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a USI move (expected a form like 7g7f, 8h2b+ or P*5e)")]
pub struct ParseMoveError;

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let b = s.as_bytes();
        let square = |i: usize| s.get(i..i + 2).and_then(|t| t.parse::<Square>().ok());
        match b.len() {
            4 if b[1] == b'*' => {
                let kind = PieceKind::from_letter(b[0] as char)
                    .filter(|k| b[0].is_ascii_uppercase() && k.hand_index().is_some())
                    .ok_or(ParseMoveError)?;
                Ok(Move::Drop { kind, to: square(2).ok_or(ParseMoveError)? })
            }
            4 | 5 => {
                let promote = match b.get(4) {
                    None => false,
                    Some(b'+') => true,
                    Some(_) => return Err(ParseMoveError),
                };
                let from = square(0).ok_or(ParseMoveError)?;
                let to = square(2).ok_or(ParseMoveError)?;
                if from == to {
                    return Err(ParseMoveError);
                }
                Ok(Move::Normal { from, to, promote })
            }
            _ => Err(ParseMoveError),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usi_round_trips() {
        for text in ["7g7f", "8h2b+", "P*5e", "R*1a", "1a9i"] {
            assert_eq!(text.parse::<Move>().unwrap().to_string(), text);
        }
        for bad in ["", "7g7g", "K*5e", "+P*5e", "p*5e", "7g7f=", "7g7f++", "P*5j", "7g"] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
    }

    #[test]
    fn codes_round_trip_over_every_move_shape() {
        let mut seen = std::collections::HashSet::new();
        for from in Square::all() {
            for to in Square::all().filter(|&to| to != from) {
                for promote in [false, true] {
                    let m = Move::Normal { from, to, promote };
                    assert_eq!(Move::from_code(m.code()), Some(m));
                    assert!(seen.insert(m.code()));
                }
            }
        }
        for kind in PieceKind::HAND {
            for to in Square::all() {
                let m = Move::Drop { kind, to };
                assert_eq!(Move::from_code(m.code()), Some(m));
                assert!(seen.insert(m.code()));
            }
        }
    }
}
