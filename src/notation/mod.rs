//! One move in text, to and from a [`Move`]: Japanese (KI2 style and KIF), Western (Hodges,
//! Hosking, 81Dojo letters), USI and CSA.
//!
//! Reading is two steps, so that "cannot read" and "cannot play" stay different errors:
//! 1. [`MoveToken::parse`] (or a notation's own `parse`) reads the text alone and fails with a
//!    [`MoveSyntaxError`];
//! 2. [`MoveToken::resolve`] finds the move in a position (given the previous move's
//!    destination, for 同 and short captures) and fails with a [`ResolveError`]: no such move,
//!    or ambiguous, with the candidates.
//!
//! Record readers do step 1 while parsing; replay does step 2. [`read_sequence`] does both for
//! a whole line of moves, as typed on the command line.
//!
//! Writing is [`write()`]: a legal move in a position, in one [`Style`]. Every move written in
//! every style reads back as the same move; the policies (which pieces need telling apart,
//! what a missing promotion mark means) are in the `resolve` and `write` modules' documentation
//! and in [`relative`].
//!
//! Yari shogi ([`Variant::Yari`]) is read and written in Western notation, with its own
//! piece letters (see [`western`]), and in the USI-like form (`7g7f`, `N*5e`, where the letters
//! are those of its SFEN-like text). Japanese notation (and CSA's codes, which JKF uses) has
//! no yari pieces of its own: a yari piece is written as the shogi piece of its SFEN letter
//! (歩, 桂 the yari knight, 角 the yari bishop, 飛 the yari rook, 玉 the general; と, 成桂,
//! 馬, 龍 promoted), so a Japanese move reads in either game and the position decides.
//! [`MoveToken::parse_in`] reads a move of either game; a Western move of one game never
//! resolves in a position of the other ([`ResolveError::WrongVariant`]).

pub mod csa;
pub mod japanese;
pub mod relative;
mod resolve;
pub mod sequence;
pub mod western;
mod write;

use std::fmt;

pub use csa::CsaMove;
pub use japanese::JapaneseMove;
pub use sequence::{
    MoveTokens, SequenceError, SequenceErrorKind, UnmarkedPromotion, read_sequence, unmarked_promotions,
};
pub use western::WesternMove;
pub use write::write;

use crate::shogi::{Color, IllegalMove, Move, PieceKind, Position, Square, Variant};

/// Text that is not a move in the notation it was read as.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot read move '{}': {why}", crate::text::excerpt(.text))]
pub struct MoveSyntaxError {
    /// The text, as given.
    pub text: String,
    /// What was expected or found instead.
    pub why: &'static str,
}

impl MoveSyntaxError {
    pub fn new(text: &str, why: &'static str) -> MoveSyntaxError {
        MoveSyntaxError { text: text.to_string(), why }
    }
}

/// A move read from text in some notation, not yet resolved against a position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveToken {
    /// A USI move (`7g7f`): already exact.
    Usi(Move),
    Csa(CsaMove),
    Japanese(JapaneseMove),
    Western(WesternMove),
}

impl MoveToken {
    /// Reads one move in whichever notation it is written in: USI, CSA, Japanese or Western.
    /// A Japanese move may also be written from right to left, as Edo-period books print it
    /// (`歩六七` for 七六歩); record readers, which read [`japanese::parse`], do not take that.
    ///
    /// # Errors
    ///
    /// [`MoveSyntaxError`] when the text is a move in none of them.
    pub fn parse(text: &str) -> Result<MoveToken, MoveSyntaxError> {
        let t = text.trim();
        if let Ok(m) = t.parse::<Move>() {
            return Ok(MoveToken::Usi(m));
        }
        let first = t.chars().next().ok_or_else(|| MoveSyntaxError::new(text, "empty move"))?;
        if first.is_ascii() {
            if matches!(first, '+' | '-' | '0'..='9') && t.len() >= 6 && t.len() <= 7 {
                if let Ok(m) = csa::parse(t) {
                    return Ok(MoveToken::Csa(m));
                }
            }
            if first != '-' || t.len() > 1 {
                if let Ok(m) = western::parse(t) {
                    return Ok(MoveToken::Western(m));
                }
                if western::names_yari_piece(t) {
                    return Err(MoveSyntaxError::new(
                        text,
                        "YN, YB and YR are yari shogi pieces, not shogi's",
                    ));
                }
            }
        }
        japanese::parse(t)
            .or_else(|e| japanese::parse(&t.chars().rev().collect::<String>()).map_err(|_| e))
            .map(MoveToken::Japanese)
            .map_err(|e| {
                if t.strip_suffix('=').is_some_and(|usi| usi.parse::<Move>().is_ok()) {
                    MoveSyntaxError::new(
                        text,
                        "a USI move has no '=': a move that does not promote is written bare",
                    )
                } else if t.is_ascii() || !first.is_ascii_digit() && first.is_ascii() {
                    MoveSyntaxError::new(text, "not a move in USI, CSA, Western or Japanese notation")
                } else {
                    e
                }
            })
    }

    /// Reads one move of `variant`. For standard shogi this is [`MoveToken::parse`]; yari
    /// shogi moves are Western (`P-7f`, `YNx7c=`), in the USI-like form (`7g7f`, `N*5e`), or
    /// Japanese and CSA moves that name each yari piece by the shogi piece of its letter
    /// (`▲７六歩`, `+2838KE`).
    ///
    /// # Errors
    ///
    /// [`MoveSyntaxError`] when the text is not a move of that game; a piece or a square the
    /// game does not have, and a notation it is not written in, are said so.
    pub fn parse_in(text: &str, variant: Variant) -> Result<MoveToken, MoveSyntaxError> {
        if variant == Variant::Standard {
            return MoveToken::parse(text);
        }
        let t = text.trim();
        if let Ok(m) = t.parse::<Move>() {
            let on_board = m.from().is_none_or(|sq| variant.contains(sq)) && variant.contains(m.to());
            return match m {
                _ if !on_board => {
                    Err(MoveSyntaxError::new(text, "a square off the 7×9 yari shogi board (files 1 to 7)"))
                }
                Move::Drop { kind, .. } if !variant.hand_kinds().contains(&kind) => {
                    Err(MoveSyntaxError::new(
                        text,
                        "yari shogi drops only P, N, B and R (pawn, yari knight, yari bishop, yari rook)",
                    ))
                }
                _ => Ok(MoveToken::Usi(m)),
            };
        }
        let first = t.chars().next().ok_or_else(|| MoveSyntaxError::new(text, "empty move"))?;
        let csa = matches!(first, '+' | '-') && csa::parse(t).is_ok();
        // Japanese and CSA name yari pieces as the shogi pieces of the same letters (桂, KE
        // for the yari knight): the position tells the game.
        if !first.is_ascii() || csa {
            return MoveToken::parse(t);
        }
        western::parse_in(t, variant).map(MoveToken::Western)
    }

    /// The side the text says is moving, when it says so (▲△, `+`/`-`).
    pub fn color(&self) -> Option<Color> {
        match self {
            MoveToken::Usi(_) | MoveToken::Western(_) => None,
            MoveToken::Csa(m) => m.color,
            MoveToken::Japanese(m) => m.color,
        }
    }
}

/// The move as it was written (normalized to its notation's standard form).
impl MoveToken {
    /// The move as written, without the side mark a Japanese move may carry (`▲７六歩` is
    /// `７六歩`): what a record says of a move whatever side it gives it to.
    pub fn unmarked(&self) -> String {
        match self {
            MoveToken::Japanese(m) if m.color.is_some() => {
                let mut m = m.clone();
                m.color = None;
                m.to_string()
            }
            token => token.to_string(),
        }
    }
}

impl fmt::Display for MoveToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveToken::Usi(m) => m.fmt(f),
            MoveToken::Csa(m) => m.fmt(f),
            MoveToken::Japanese(m) => m.fmt(f),
            MoveToken::Western(m) => m.fmt(f),
        }
    }
}

/// Why a read move does not name exactly one legal move in the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// 同 or a short capture with no previous move to refer to.
    #[error("同 (or a short capture like Px) refers to the previous move, and there is none")]
    NoPreviousMove,
    /// A square restated before 同 that is not the previous destination.
    #[error("{written}同 names {written}, but the previous move went to {previous}")]
    SameMismatch { written: Square, previous: Square },
    /// The side mark names the side that is not to move.
    #[error("the move is marked for {written}, but it is {to_move}'s turn")]
    WrongSide { written: Color, to_move: Color },
    /// No legal move fits. When the text names one move exactly (a USI or CSA move, a KIF
    /// origin), the rules' reason comes with it.
    #[error("no such move{}", .0.map(|e| format!(": {}", e.kind)).unwrap_or_default())]
    NoSuchMove(Option<IllegalMove>),
    /// Several legal moves fit the text.
    #[error("ambiguous: it could be {}", list(.0))]
    Ambiguous(Vec<Move>),
    /// The origin the text names holds one of the mover's pieces, but not the one written.
    /// Pieces are named as the game's Western notation names them (`B`, or yari shogi's `YB`).
    #[error("{}", piece_mismatch(*.at, *.written, *.found, *.variant))]
    PieceMismatch { at: Square, written: PieceKind, found: PieceKind, variant: Variant },
    /// `x` (a capture) onto an empty square.
    #[error("x marks a capture, but {0} is empty")]
    NothingToCapture(Square),
    /// A move written for one game, read in a position of the other.
    #[error("the move is written for {}, but the game is {}", .written.title().to_lowercase(), .game.title().to_lowercase())]
    WrongVariant { written: Variant, game: Variant },
}

/// Why the piece written is not the one on its origin. A kind the game does not have (a gold
/// written 金 or `KI` in a yari shogi record, whose general shares the gold's letter) is said
/// to be none of the game's pieces.
fn piece_mismatch(at: Square, written: PieceKind, found: PieceKind, variant: Variant) -> String {
    if !variant.has_kind(written) {
        let name = match written {
            PieceKind::Lance => "lance",
            PieceKind::Silver => "silver",
            PieceKind::Gold => "gold",
            PieceKind::ProLance => "promoted lance",
            PieceKind::ProSilver => "promoted silver",
            _ => "such piece",
        };
        return format!(
            "{} has no {name}: its pieces are P, YN, YB, YR and G",
            variant.title().to_lowercase()
        );
    }
    format!(
        "the piece on {at} is a {}, not a {}",
        piece_letters(variant, found),
        piece_letters(variant, written)
    )
}

/// A piece's letters in `variant`: its SFEN letter in shogi (`+B`), its Western letters in
/// yari shogi (`YB`, `G`).
fn piece_letters(variant: Variant, kind: PieceKind) -> &'static str {
    match variant {
        Variant::Standard => kind.sfen(),
        Variant::Yari => western::letters(variant, kind),
    }
}

fn list(moves: &[Move]) -> String {
    moves.iter().map(Move::to_string).collect::<Vec<_>>().join(" or ")
}

/// The notations moves can be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Style {
    /// KI2 style: `▲７六歩`, `△同　歩`, with minimal disambiguation.
    Japanese,
    /// Hodges: `P-7f`, `Bx2b+`, `B*4e`, `G7g-7h`, `N-7c=`.
    Western,
    /// Hosking: `P76`, `Bx22+`, `B'45`, `G77-78`.
    Hosking,
    /// USI: `7g7f`.
    Usi,
    /// CSA: `+7776FU`.
    Csa,
}

impl fmt::Display for Style {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Style::Japanese => "japanese",
            Style::Western => "western",
            Style::Hosking => "hosking",
            Style::Usi => "usi",
            Style::Csa => "csa",
        })
    }
}

/// The destination of the previous move, which 同 and short captures refer to.
pub type Previous = Option<Square>;

impl MoveToken {
    /// Finds the legal move the token names in `pos`; `previous` is the destination of the
    /// move before, for 同 and short captures.
    ///
    /// # Errors
    ///
    /// A [`ResolveError`]: no such move (with the reason when the text named one move
    /// exactly), ambiguous (with the candidates), or a side mark for the wrong side.
    pub fn resolve(&self, pos: &Position, previous: Previous) -> Result<Move, ResolveError> {
        match self {
            MoveToken::Usi(m) => resolve::exact(pos, *m),
            MoveToken::Csa(m) => m.resolve(pos),
            MoveToken::Japanese(m) => m.resolve(pos, previous),
            MoveToken::Western(m) => m.resolve(pos, previous),
        }
    }
}

impl CsaMove {
    /// The move this names in `pos`: a drop, or the piece on the origin moving, promoted when
    /// the code after the move is the promoted form of the piece before it.
    ///
    /// # Errors
    ///
    /// [`ResolveError::NoSuchMove`] with the rules' reason, or
    /// [`ResolveError::PieceMismatch`] when the mover's piece on the origin is another than
    /// the move says: another than the piece before it ([`CsaMove::before`]), when it says
    /// that, or one that the piece after it is no form of.
    pub fn resolve(&self, pos: &Position) -> Result<Move, ResolveError> {
        resolve::check_side(pos, self.color)?;
        let mv = match self.from {
            None => Move::Drop { kind: self.piece, to: self.to },
            Some(from) => {
                let before = pos.piece_at(from).map(|p| p.kind);
                let own = pos.piece_at(from).filter(|p| p.color == pos.turn()).map(|p| p.kind);
                if let (Some(written), Some(found)) = (self.before, own) {
                    if written != found {
                        return Err(ResolveError::PieceMismatch {
                            at: from,
                            written,
                            found,
                            variant: pos.variant(),
                        });
                    }
                }
                let promote = before.is_some_and(|k| k != self.piece && k.promote() == Some(self.piece));
                if before.is_some_and(|k| k != self.piece && !promote) {
                    // The code after the move is no form of the mover's piece there.
                    return Err(match own {
                        Some(found) => ResolveError::PieceMismatch {
                            at: from,
                            written: self.piece,
                            found,
                            variant: pos.variant(),
                        },
                        None => ResolveError::NoSuchMove(None),
                    });
                }
                Move::Normal { from, to: self.to, promote }
            }
        };
        resolve::exact(pos, mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notations_are_told_apart() {
        assert!(matches!(MoveToken::parse("7g7f"), Ok(MoveToken::Usi(_))));
        assert!(matches!(MoveToken::parse("P*5e"), Ok(MoveToken::Usi(_))));
        assert!(matches!(MoveToken::parse("+7776FU"), Ok(MoveToken::Csa(_))));
        assert!(matches!(MoveToken::parse("-3334FU"), Ok(MoveToken::Csa(_))));
        assert!(matches!(MoveToken::parse("P-7f"), Ok(MoveToken::Western(_))));
        assert!(matches!(MoveToken::parse("P76"), Ok(MoveToken::Western(_))));
        assert!(matches!(MoveToken::parse("+P-5c"), Ok(MoveToken::Western(_))));
        assert!(matches!(MoveToken::parse("▲７六歩"), Ok(MoveToken::Japanese(_))));
        assert!(matches!(MoveToken::parse("76歩"), Ok(MoveToken::Japanese(_))));
        assert!(matches!(MoveToken::parse("同　歩"), Ok(MoveToken::Japanese(_))));
        assert!(MoveToken::parse("hello").is_err());
        assert!(MoveToken::parse("").is_err());
    }

    #[test]
    fn usi_and_csa_resolve_exactly() {
        let pos = Position::startpos();
        let m: Move = "7g7f".parse().unwrap();
        assert_eq!(MoveToken::parse("+7776FU").unwrap().resolve(&pos, None), Ok(m));
        assert_eq!(MoveToken::parse("7g7f").unwrap().resolve(&pos, None), Ok(m));
        assert!(matches!(
            MoveToken::parse("-3334FU").unwrap().resolve(&pos, None),
            Err(ResolveError::WrongSide { .. })
        ));
        assert!(matches!(
            MoveToken::parse("+7775FU").unwrap().resolve(&pos, None),
            Err(ResolveError::NoSuchMove(Some(_)))
        ));
    }

    /// A CSA move whose piece is no form of the mover's piece on its origin names the piece
    /// found there, as KIF and Western moves do; a promotion off the zone is the rules' no.
    #[test]
    fn a_csa_move_of_another_piece_says_which_piece_stands_there() {
        let pos = Position::startpos();
        let at: Square = "7g".parse().unwrap();
        for (text, written) in [("+7776KI", PieceKind::Gold), ("+7776NG", PieceKind::ProSilver)] {
            assert_eq!(
                MoveToken::parse(text).unwrap().resolve(&pos, None),
                Err(ResolveError::PieceMismatch {
                    at,
                    written,
                    found: PieceKind::Pawn,
                    variant: Variant::Standard
                }),
                "{text}"
            );
        }
        assert!(matches!(
            MoveToken::parse("+7776TO").unwrap().resolve(&pos, None),
            Err(ResolveError::NoSuchMove(Some(_)))
        ));
        // An empty origin has no piece to name.
        assert!(matches!(
            MoveToken::parse("+7675FU").unwrap().resolve(&pos, None),
            Err(ResolveError::NoSuchMove(_))
        ));
    }
}
