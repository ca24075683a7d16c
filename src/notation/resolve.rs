//! Finding the legal move a Japanese or Western token names.
//!
//! Both notations name a piece, a destination and, when needed, which piece moves; they
//! differ in how. The policy they share:
//! - A move that the text names exactly (a drop, an origin) is legal or is refused with the
//!   rules' reason.
//! - Otherwise every legal move of a piece of the named kind to the destination is a
//!   candidate; the text's words filter them. Exactly one left wins, even when the words only
//!   make sense counting pinned pieces (as Kakinoki writes them). None left is "no such move",
//!   with the rules' reason when the words pick out exactly one piece that cannot legally move;
//!   several left is "ambiguous", listing them.
//! - Promotion: 成 / `+` keeps the promoting moves, 不成 / 生 / `=` the others. No mark means no
//!   promotion, except where the piece must promote (a pawn or lance reaching the last rank,
//!   a knight the last two), which only the promoting move can do. This is how a KIF move,
//!   which names its origin, is written; where the notation makes the mark obligatory (a
//!   Japanese move without an origin, which writes 不成; Western text, which writes `=`), it
//!   is the tolerant reading, and replay warns of it: `promotion_unmarked`.
//!   `=` or 不成 where no promotion was possible is accepted: it is true.
//!
//! Western text also says whether the move captures. `-` (or no symbol, as Hosking writes)
//! is accepted for a capture, since many texts write it so; `x` onto an empty square is
//! refused ([`ResolveError::NothingToCapture`]), because a text that claims a capture that
//! cannot be has lost track of the game.

use super::{
    Previous, ResolveError,
    japanese::{Destination, JapaneseMove},
    relative,
    western::{Action, WesternMove},
};
use crate::shogi::{Color, Move, Piece, PieceKind, Position, Square};

/// Checks the side mark against the side to move.
pub(super) fn check_side(pos: &Position, color: Option<Color>) -> Result<(), ResolveError> {
    match color {
        Some(written) if written != pos.turn() => {
            Err(ResolveError::WrongSide { written, to_move: pos.turn() })
        }
        _ => Ok(()),
    }
}

/// A move named exactly: legal, or no such move with the rules' reason.
pub(super) fn exact(pos: &Position, mv: Move) -> Result<Move, ResolveError> {
    pos.check_move(mv).map(|()| mv).map_err(|e| ResolveError::NoSuchMove(Some(e)))
}

/// The legal moves of the pieces on `origins` to `to` that the promotion mark allows (see the
/// module documentation): at most one per origin.
fn legal_from(pos: &Position, origins: &[Square], to: Square, mark: Option<bool>) -> Vec<Move> {
    origins.iter().filter_map(|&from| legal_one(pos, from, to, mark)).collect()
}

/// The legal move of the piece on `from` to `to` that the promotion mark allows, if any.
fn legal_one(pos: &Position, from: Square, to: Square, mark: Option<bool>) -> Option<Move> {
    let plain = Move::Normal { from, to, promote: false };
    let promoted = Move::Normal { from, to, promote: true };
    let legal = |m: Move| pos.is_legal(m).then_some(m);
    match mark {
        Some(false) => legal(plain),
        Some(true) => legal(promoted),
        None => legal(plain).or_else(|| legal(promoted)),
    }
}

/// One move left wins; none is no such move (with the reason `named` gives, if the text
/// named one move exactly); several are ambiguous.
fn conclude(pos: &Position, moves: Vec<Move>, named: Option<Move>) -> Result<Move, ResolveError> {
    match moves.len() {
        1 => Ok(moves[0]),
        0 => Err(ResolveError::NoSuchMove(named.and_then(|m| pos.check_move(m).err()))),
        _ => Err(ResolveError::Ambiguous(moves)),
    }
}

/// The move of the piece on `from` to `to`, which the text names exactly: it must be a piece
/// of `kind` (when one of the mover's own pieces stands there).
fn from_origin(
    pos: &Position,
    kind: PieceKind,
    from: Square,
    to: Square,
    promotion: Option<bool>,
) -> Result<Move, ResolveError> {
    let legal = match pos.piece_at(from) {
        Some(Piece { color, kind: found }) if color == pos.turn() && found != kind => {
            return Err(ResolveError::PieceMismatch {
                at: from,
                written: kind,
                found,
                variant: pos.variant(),
            });
        }
        Some(_) => legal_one(pos, from, to, promotion),
        None => None,
    };
    match legal {
        // Most moves of a record name their origin: found without a list.
        Some(mv) => Ok(mv),
        None => conclude(pos, Vec::new(), Some(Move::Normal { from, to, promote: promotion == Some(true) })),
    }
}

impl JapaneseMove {
    /// The move this names in `pos`; `previous` is the previous move's destination, which 同
    /// refers to.
    ///
    /// Movement words (上 引 寄 右 左 直 行 入) are read as the [`relative`] module
    /// describes; a KIF origin (`(77)`) names the move exactly. Without 打, a drop is meant
    /// only when no piece on the board can legally make the move. A bare 合 is whichever drop
    /// the side can interpose (ambiguous when it holds several kinds). `2四同` with no previous
    /// move is read as 2四.
    ///
    /// # Errors
    ///
    /// A [`ResolveError`]: the side mark names the side not to move; 同 without a previous
    /// move, or restating another square; no such move (with the rules' reason when the text
    /// names one move exactly); ambiguous (with the candidates).
    pub fn resolve(&self, pos: &Position, previous: Previous) -> Result<Move, ResolveError> {
        check_side(pos, self.color)?;
        let to = match self.destination {
            Destination::Square(sq) => sq,
            Destination::Same => previous.ok_or(ResolveError::NoPreviousMove)?,
            Destination::SquareSame(written) => match previous {
                Some(previous) if previous != written => {
                    return Err(ResolveError::SameMismatch { written, previous });
                }
                _ => written,
            },
        };
        let Some(kind) = self.piece else {
            return if self.drop { self.interposition(pos, to) } else { self.any_piece(pos, to) };
        };
        if self.drop {
            return exact(pos, Move::Drop { kind, to });
        }
        if let Some(from) = self.origin {
            return from_origin(pos, kind, from, to, self.promotion);
        }
        let reference = pos.movers_to(kind, to);
        let mut moves = legal_from(pos, &reference, to, self.promotion);
        moves.retain(|&m| self.fits(pos.turn(), m, to, &reference));
        let worded = self.relative.is_some() || self.motion.is_some();
        let drop = Move::Drop { kind, to };
        if moves.is_empty() && !worded && self.promotion.is_none() && pos.is_legal(drop) {
            return Ok(drop);
        }
        // The one move the words name if pins are ignored, for the rules' reason. A drop is
        // named only where the text could mean one: onto an empty square, without a
        // promotion mark.
        let drop_meant = !worded
            && self.promotion.is_none()
            && pos.piece_at(to).is_none()
            && pos.hand(pos.turn()).count(kind) > 0;
        let mut named = reference
            .iter()
            .filter(|&&from| relative::matches(pos.turn(), from, to, self.relative, self.motion, &reference));
        let named = match (named.next(), named.next()) {
            (Some(&from), None) => Some(Move::Normal { from, to, promote: self.promotion == Some(true) }),
            (None, _) if drop_meant => Some(drop),
            _ => None,
        };
        conclude(pos, moves, named)
    }

    /// Whether the board move `m` fits the text's movement words.
    fn fits(&self, color: Color, m: Move, to: Square, reference: &[Square]) -> bool {
        m.from().is_some_and(|from| relative::matches(color, from, to, self.relative, self.motion, reference))
    }

    /// A bare 合: whichever piece the side can drop on `to`.
    fn interposition(&self, pos: &Position, to: Square) -> Result<Move, ResolveError> {
        let drops =
            PieceKind::HAND.into_iter().map(|kind| Move::Drop { kind, to }).filter(|&m| pos.is_legal(m));
        conclude(pos, drops.collect(), None)
    }

    /// Only the movement written (`5八右`): any kind of piece the words fit. 右, 左 and 直 tell
    /// apart pieces of one kind, so they name a kind only when it has several that could go.
    fn any_piece(&self, pos: &Position, to: Square) -> Result<Move, ResolveError> {
        let mut moves = Vec::new();
        for kind in PieceKind::ALL {
            let reference = pos.movers_to(kind, to);
            if self.relative.is_none() || reference.len() > 1 {
                let legal = legal_from(pos, &reference, to, self.promotion);
                moves.extend(legal.into_iter().filter(|&m| self.fits(pos.turn(), m, to, &reference)));
            }
        }
        conclude(pos, moves, None)
    }
}

impl WesternMove {
    /// The move this names in `pos`; `previous` is the previous move's destination, which the
    /// short capture form (`Px`) refers to.
    ///
    /// A drop (`*`, `'`) must be a drop; any other move is a board move (Western text always
    /// marks drops). The origin (`G7g-7h`) names the piece exactly. See the module
    /// documentation for promotion and capture marks.
    ///
    /// # Errors
    ///
    /// A [`ResolveError`]: a move of another game; the short form without a previous move; no
    /// such move (with the rules' reason when the text names one move exactly); ambiguous
    /// (with the candidates); a piece other than the one written on the origin; `x` onto an
    /// empty square.
    pub fn resolve(&self, pos: &Position, previous: Previous) -> Result<Move, ResolveError> {
        if self.variant != pos.variant() {
            return Err(ResolveError::WrongVariant { written: self.variant, game: pos.variant() });
        }
        let to = match self.destination {
            Some(sq) => sq,
            None => previous.ok_or(ResolveError::NoPreviousMove)?,
        };
        let mv = match (self.action, self.origin) {
            (Action::Drop, _) => return exact(pos, Move::Drop { kind: self.piece, to }),
            (_, Some(from)) => from_origin(pos, self.piece, from, to, self.promotion)?,
            (_, None) => {
                let reference = pos.movers_to(self.piece, to);
                let moves = legal_from(pos, &reference, to, self.promotion);
                let named = match reference.as_slice() {
                    &[from] => Some(Move::Normal { from, to, promote: self.promotion == Some(true) }),
                    _ => None,
                };
                conclude(pos, moves, named)?
            }
        };
        if self.action == Action::Capture && pos.piece_at(to).is_none() {
            return Err(ResolveError::NothingToCapture(to));
        }
        Ok(mv)
    }
}
