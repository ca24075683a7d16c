//! Notation: reading and writing single moves in Japanese, Western, USI and CSA, sequences, and
//! `kifudex moves`.

mod cli;
pub mod oracle;
mod props;
mod resolve;
pub mod round_trip;
mod seeds;

use kifudex::{
    notation::{MoveToken, Previous, ResolveError, Style, read_sequence, write},
    shogi::{Move, Position, Square},
};

/// A position from SFEN.
pub fn pos(sfen: &str) -> Position {
    Position::from_setup(sfen.parse().expect("test SFEN")).expect("test position")
}

pub fn mv(usi: &str) -> Move {
    usi.parse().expect("test move")
}

pub fn sq(usi: &str) -> Square {
    usi.parse().expect("test square")
}

/// Reads one move of any notation in `pos`.
pub fn read(pos: &Position, text: &str, previous: Previous) -> Result<Move, ResolveError> {
    MoveToken::parse(text).unwrap_or_else(|e| panic!("{text}: {e}")).resolve(pos, previous)
}

/// Reads one move that must be legal and unambiguous, as USI.
pub fn read_usi(pos: &Position, text: &str, previous: Previous) -> String {
    read(pos, text, previous).unwrap_or_else(|e| panic!("{text} in {}: {e}", pos.sfen())).to_string()
}

/// Reads a sequence that must be playable, as USI.
pub fn sequence_usi(start: &Position, text: &str) -> Vec<String> {
    read_sequence(start, text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// Writes a USI move of `pos` in `style`.
pub fn written(pos: &Position, usi: &str, previous: Previous, style: Style) -> String {
    write(pos, mv(usi), previous, style)
}

/// A position from a list of pieces, squares written as numbers the way the notation sources
/// do: `G77` is a Black gold on 7七, `g61` a White gold on 6一, `+r55` a White dragon on 5五.
/// `turn` is `b` or `w`; `hands` is SFEN's hands field (`-`, `P2b`, …).
pub fn board(pieces: &str, turn: &str, hands: &str) -> Position {
    let mut setup: kifudex::shogi::Setup =
        format!("9/9/9/9/9/9/9/9/9 {turn} {hands} 1").parse().expect("test turn and hands");
    for word in pieces.split_whitespace() {
        let (promoted, rest) = match word.strip_prefix('+') {
            Some(rest) => (true, rest),
            None => (false, word),
        };
        let letter = rest.chars().next().expect("a piece letter");
        let kind = kifudex::shogi::PieceKind::from_letter(letter).expect("a piece letter");
        let kind = if promoted { kind.promote().expect("a promotable piece") } else { kind };
        let color = if letter.is_ascii_uppercase() {
            kifudex::shogi::Color::Black
        } else {
            kifudex::shogi::Color::White
        };
        let digits = &rest.as_bytes()[1..];
        let square = Square::from_numbers(digits[0] - b'0', digits[1] - b'0').expect("a square like 77");
        setup.set(square, Some(kifudex::shogi::Piece::new(color, kind)));
    }
    Position::from_setup(setup).unwrap_or_else(|e| panic!("{pieces}: {e}"))
}
