//! CSA move notation: `+7776FU`, `-3334FU`, `+0055KA`, `+2822UM`.
//!
//! A move is a sign (optional here), the origin (`00` for a drop), the destination, and the
//! piece as it stands after the move: promotion shows as a promoted piece code. This module
//! reads the text into a [`CsaMove`] without looking at any position.

use super::MoveSyntaxError;
use crate::{
    shogi::{Color, PieceKind, Square},
    text::trim_space,
};

/// A CSA move as written, not yet resolved against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CsaMove {
    /// `+` is Black, `-` White; `None` when no sign was written.
    pub color: Option<Color>,
    /// The origin, or `None` for a drop (`00`).
    pub from: Option<Square>,
    pub to: Square,
    /// The piece after the move.
    pub piece: PieceKind,
    /// The piece before the move, for a board move whose record says it apart from the piece
    /// after (JKF's `piece` and `promote`). CSA text never does: `+8822UM` may be a horse moving
    /// or a bishop promoting, and the board tells which.
    pub before: Option<PieceKind>,
}

/// The piece for a CSA piece code: `FU`, `KY`, `KE`, `GI`, `KI`, `KA`, `HI`, `OU`, `TO`, `NY`,
/// `NK`, `NG`, `UM`, `RY`.
pub fn piece_from_code(code: &str) -> Option<PieceKind> {
    Some(match code {
        "FU" => PieceKind::Pawn,
        "KY" => PieceKind::Lance,
        "KE" => PieceKind::Knight,
        "GI" => PieceKind::Silver,
        "KI" => PieceKind::Gold,
        "KA" => PieceKind::Bishop,
        "HI" => PieceKind::Rook,
        "OU" => PieceKind::King,
        "TO" => PieceKind::ProPawn,
        "NY" => PieceKind::ProLance,
        "NK" => PieceKind::ProKnight,
        "NG" => PieceKind::ProSilver,
        "UM" => PieceKind::Horse,
        "RY" => PieceKind::Dragon,
        _ => return None,
    })
}

/// The CSA code of a piece kind.
pub const fn piece_code(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Pawn => "FU",
        PieceKind::Lance => "KY",
        PieceKind::Knight => "KE",
        PieceKind::Silver => "GI",
        PieceKind::Gold => "KI",
        PieceKind::Bishop => "KA",
        PieceKind::Rook => "HI",
        PieceKind::King => "OU",
        PieceKind::ProPawn => "TO",
        PieceKind::ProLance => "NY",
        PieceKind::ProKnight => "NK",
        PieceKind::ProSilver => "NG",
        PieceKind::Horse => "UM",
        PieceKind::Dragon => "RY",
    }
}

/// Reads one CSA move.
///
/// # Errors
///
/// [`MoveSyntaxError`] when the text is not a CSA move.
pub fn parse(text: &str) -> Result<CsaMove, MoveSyntaxError> {
    let err = |why| MoveSyntaxError::new(text, why);
    let t = trim_space(text);
    let (color, body) = match t.as_bytes().first() {
        Some(b'+') => (Some(Color::Black), &t[1..]),
        Some(b'-') => (Some(Color::White), &t[1..]),
        _ => (None, t),
    };
    let b = body.as_bytes();
    if b.len() != 6 || !b[..4].iter().all(u8::is_ascii_digit) {
        return Err(err("expected a CSA move like +7776FU"));
    }
    let from = match (b[0] - b'0', b[1] - b'0') {
        (0, 0) => None,
        (f, r) => Some(Square::from_numbers(f, r).ok_or_else(|| err("the origin is not a square"))?),
    };
    let to = Square::from_numbers(b[2] - b'0', b[3] - b'0')
        .ok_or_else(|| err("the destination is not a square"))?;
    let piece = piece_from_code(&body[4..]).ok_or_else(|| err("unknown piece code"))?;
    if from.is_none() && piece.hand_index().is_none() {
        return Err(err("only unpromoted pieces other than the king can be dropped"));
    }
    Ok(CsaMove { color, from, to, piece, before: None })
}

/// Writes the move back: `+7776FU`, `0055KA` when no sign was read.
impl std::fmt::Display for CsaMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.color {
            Some(Color::Black) => f.write_str("+")?,
            Some(Color::White) => f.write_str("-")?,
            None => {}
        }
        let (ff, fr) = self.from.map_or((0, 0), |s| (s.file().get(), s.rank().get()));
        write!(f, "{ff}{fr}{}{}{}", self.to.file().get(), self.to.rank().get(), piece_code(self.piece))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csa_moves() {
        let m = parse("+7776FU").unwrap();
        assert_eq!(m.color, Some(Color::Black));
        assert_eq!(m.from, Square::from_numbers(7, 7));
        assert_eq!(m.to, Square::from_numbers(7, 6).unwrap());
        let drop = parse("+0055KA").unwrap();
        assert_eq!((drop.from, drop.piece), (None, PieceKind::Bishop));
        assert_eq!(parse("-2822UM").unwrap().piece, PieceKind::Horse);
        assert_eq!(parse("3334FU").unwrap().color, None);
        for kind in PieceKind::ALL {
            assert_eq!(piece_from_code(piece_code(kind)), Some(kind));
        }
    }

    #[test]
    fn not_csa_moves() {
        for text in ["", "+7776", "+7776XX", "+0055UM", "+0055OU", "+7076FU", "*7776FU", "+77761FU"] {
            assert!(parse(text).is_err(), "{text:?}");
        }
    }
}
