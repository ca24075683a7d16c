//! How pieces move, and why a move is illegal, in the words players use.
//!
//! For standard shogi the rules crate behind [`Position`](super::Position) decides legality;
//! this module explains a refusal and answers geometric questions that notation needs ("which
//! pieces of this kind could reach this square if pins were ignored?"). Yari shogi's moves are
//! played by [`super::yari`], from the same tables. Every function reads the game from the
//! setup it is given ([`Setup::variant`]): a piece moves as its game says, and never off that
//! game's board.

use std::fmt;

use super::{Color, Move, Piece, PieceKind, Setup, Square, Variant};

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IllegalMoveKind {
    /// No piece stands on the origin square.
    NoPiece,
    /// The piece on the origin square belongs to the opponent.
    NotYourPiece,
    /// The piece does not move that way.
    CannotReach,
    /// A piece stands in the way.
    Blocked { at: Square },
    /// The destination holds one of the mover's own pieces.
    OwnPiece,
    /// The mover holds no piece of that kind in hand (kings and promoted pieces never are).
    NotInHand,
    /// A drop onto an occupied square.
    Occupied,
    /// 二歩: a pawn dropped on a file that already holds an unpromoted pawn of the same side.
    TwoPawns,
    /// 打ち歩詰め: a pawn drop that gives checkmate.
    PawnDropMate,
    /// A piece dropped where it would never move again (行き所のない駒).
    DeadPiece,
    /// Promotion asked for where none is possible: a kind that does not promote, or a move
    /// that neither starts nor ends in the promotion zone.
    CannotPromote,
    /// No promotion where it is forced: the piece would never move again.
    MustPromote,
    /// The move leaves (or puts) the mover's king in check.
    KingInCheck,
    /// The same in yari shogi, whose king is the general.
    GeneralInCheck,
    /// A square of the move is not on the game's board (files 8 and 9 in yari shogi).
    OffBoard,
}

impl fmt::Display for IllegalMoveKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMoveKind::NoPiece => f.write_str("no piece on the origin square"),
            IllegalMoveKind::NotYourPiece => f.write_str("the piece on the origin square is the opponent's"),
            IllegalMoveKind::CannotReach => f.write_str("the piece does not move that way"),
            IllegalMoveKind::Blocked { at } => write!(f, "blocked path: a piece stands on {at}"),
            IllegalMoveKind::OwnPiece => f.write_str("the destination holds one of the mover's own pieces"),
            IllegalMoveKind::NotInHand => f.write_str("no such piece in hand"),
            IllegalMoveKind::Occupied => f.write_str("a drop needs an empty square"),
            IllegalMoveKind::TwoPawns => {
                f.write_str("二歩 (two pawns): the file already holds an unpromoted pawn of the same side")
            }
            IllegalMoveKind::PawnDropMate => {
                f.write_str("打ち歩詰め (pawn-drop mate): a dropped pawn may not give checkmate")
            }
            IllegalMoveKind::DeadPiece => f.write_str("the dropped piece would have no further move"),
            IllegalMoveKind::CannotPromote => f.write_str("no promotion is possible for this move"),
            IllegalMoveKind::MustPromote => {
                f.write_str("the piece must promote: unpromoted it would have no further move")
            }
            IllegalMoveKind::KingInCheck => f.write_str("the king is left in check"),
            IllegalMoveKind::GeneralInCheck => f.write_str("the general is left in check"),
            IllegalMoveKind::OffBoard => f.write_str("a square of the move is off the board"),
        }
    }
}

/// A refused move and the reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("illegal move {mv}: {kind}")]
pub struct IllegalMove {
    pub mv: Move,
    pub kind: IllegalMoveKind,
}

/// Whether a piece can get from one square to another by its own movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    Yes,
    No,
    /// The piece moves that way, but another piece is in between.
    BlockedAt(Square),
}

/// Single steps of each kind in `variant`, as Black sees them: `(files, ranks)` with ranks
/// decreasing forward. White's steps are the same with the rank sign reversed.
pub(super) fn steps(variant: Variant, kind: PieceKind) -> &'static [(i8, i8)] {
    const KING: &[(i8, i8)] = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];
    const GOLD: &[(i8, i8)] = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
    const SILVER: &[(i8, i8)] = &[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
    const KNIGHT: &[(i8, i8)] = &[(-1, -2), (1, -2)];
    const PAWN: &[(i8, i8)] = &[(0, -1)];
    const ORTHOGONAL: &[(i8, i8)] = &[(0, -1), (-1, 0), (1, 0), (0, 1)];
    const DIAGONAL: &[(i8, i8)] = &[(-1, -1), (1, -1), (-1, 1), (1, 1)];
    // Yari shogi: the three squares ahead (yari silver), and those with the two beside them
    // (yari gold); each slides backward besides, so the step straight back is left out here.
    const FORWARD_THREE: &[(i8, i8)] = &[(-1, -1), (0, -1), (1, -1)];
    const FORWARD_DIAGONALS: &[(i8, i8)] = &[(-1, -1), (1, -1)];
    const YARI_GOLD: &[(i8, i8)] = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0)];
    match variant {
        Variant::Standard => match kind {
            PieceKind::Pawn => PAWN,
            PieceKind::Knight => KNIGHT,
            PieceKind::Silver => SILVER,
            PieceKind::King => KING,
            PieceKind::Horse => ORTHOGONAL,
            PieceKind::Dragon => DIAGONAL,
            PieceKind::Lance | PieceKind::Bishop | PieceKind::Rook => &[],
            _ => GOLD,
        },
        Variant::Yari => match kind {
            PieceKind::Pawn => PAWN,
            PieceKind::Knight => KNIGHT,
            PieceKind::Bishop => FORWARD_DIAGONALS,
            PieceKind::King => KING,
            PieceKind::ProPawn => FORWARD_THREE,
            PieceKind::ProKnight | PieceKind::Horse => YARI_GOLD,
            _ => &[],
        },
    }
}

/// Sliding directions of each kind in `variant`, as Black sees them.
pub(super) fn slides(variant: Variant, kind: PieceKind) -> &'static [(i8, i8)] {
    const FORWARD: &[(i8, i8)] = &[(0, -1)];
    const BACKWARD: &[(i8, i8)] = &[(0, 1)];
    const ORTHOGONAL: &[(i8, i8)] = &[(0, -1), (-1, 0), (1, 0), (0, 1)];
    const DIAGONAL: &[(i8, i8)] = &[(-1, -1), (1, -1), (-1, 1), (1, 1)];
    const FORWARD_AND_SIDEWAYS: &[(i8, i8)] = &[(0, -1), (-1, 0), (1, 0)];
    match variant {
        Variant::Standard => match kind {
            PieceKind::Lance => FORWARD,
            PieceKind::Bishop | PieceKind::Horse => DIAGONAL,
            PieceKind::Rook | PieceKind::Dragon => ORTHOGONAL,
            _ => &[],
        },
        Variant::Yari => match kind {
            PieceKind::Knight | PieceKind::Bishop => FORWARD,
            PieceKind::Rook => FORWARD_AND_SIDEWAYS,
            PieceKind::ProPawn | PieceKind::ProKnight | PieceKind::Horse => BACKWARD,
            PieceKind::Dragon => ORTHOGONAL,
            _ => &[],
        },
    }
}

/// The square `df` files and `dr` ranks from `sq`, if it is on `variant`'s board.
pub(super) fn offset(variant: Variant, sq: Square, df: i8, dr: i8) -> Option<Square> {
    sq.offset(df, dr).filter(|&to| variant.contains(to))
}

/// Whether a `kind` of `color` standing on `from` reaches `to` on `setup`'s board, blockers
/// included. What stands on `to` is not looked at.
pub fn reach(setup: &Setup, color: Color, kind: PieceKind, from: Square, to: Square) -> Reach {
    let sign = if color == Color::Black { 1 } else { -1 };
    let variant = setup.variant;
    for &(df, dr) in steps(variant, kind) {
        if offset(variant, from, df, dr * sign) == Some(to) {
            return Reach::Yes;
        }
    }
    for &(df, dr) in slides(variant, kind) {
        let mut blocker = None;
        let mut sq = from;
        while let Some(next) = offset(variant, sq, df, dr * sign) {
            if next == to {
                return blocker.map_or(Reach::Yes, Reach::BlockedAt);
            }
            if blocker.is_none() && setup.piece_at(next).is_some() {
                blocker = Some(next);
            }
            sq = next;
        }
    }
    Reach::No
}

/// The squares holding a `kind` of `color` that could move to `to`, ignoring pins and checks:
/// what a reader of notation calls "the pieces that could go there". In square order.
///
/// It looks back from `to` along the kind's moves rather than at every square, since reading
/// notation asks this for nearly every move.
pub fn movers_to(setup: &Setup, color: Color, kind: PieceKind, to: Square) -> Vec<Square> {
    let sign = if color == Color::Black { 1 } else { -1 };
    let variant = setup.variant;
    let mover = Some(Piece::new(color, kind));
    let mut found = Vec::new();
    for &(df, dr) in steps(variant, kind) {
        if let Some(from) = offset(variant, to, -df, -dr * sign).filter(|&from| setup.piece_at(from) == mover)
        {
            found.push(from);
        }
    }
    for &(df, dr) in slides(variant, kind) {
        let mut sq = to;
        while let Some(from) = offset(variant, sq, -df, -dr * sign) {
            match setup.piece_at(from) {
                None => sq = from,
                Some(piece) => {
                    if Some(piece) == mover {
                        found.push(from);
                    }
                    break;
                }
            }
        }
    }
    found.sort_unstable();
    found
}

/// Whether a piece of `by` could move to `sq` on `setup`'s board, pins and checks ignored:
/// whether `by` attacks the square.
pub(super) fn attacked(setup: &Setup, sq: Square, by: Color) -> bool {
    let sign = if by == Color::Black { 1 } else { -1 };
    let variant = setup.variant;
    variant.kinds().iter().any(|&kind| {
        let attacker = Some(Piece::new(by, kind));
        let stepped = steps(variant, kind).iter().any(|&(df, dr)| {
            offset(variant, sq, -df, -dr * sign).is_some_and(|from| setup.piece_at(from) == attacker)
        });
        stepped
            || slides(variant, kind).iter().any(|&(df, dr)| {
                let mut at = sq;
                while let Some(from) = offset(variant, at, -df, -dr * sign) {
                    match setup.piece_at(from) {
                        None => at = from,
                        Some(piece) => return Some(piece) == attacker,
                    }
                }
                false
            })
    })
}

/// Whether a move from `from` to `to` by `color` may promote: the piece must start or end in
/// the promotion zone (the three far ranks, in both games).
pub fn in_promotion_zone(color: Color, from: Square, to: Square) -> bool {
    from.rank().is_promotion_zone(color) || to.rank().is_promotion_zone(color)
}

/// Whether an unpromoted `kind` of `color` on `sq` would have no move left in `variant`.
pub fn is_dead(variant: Variant, color: Color, kind: PieceKind, sq: Square) -> bool {
    sq.rank().relative(color) <= variant.dead_ranks(kind)
}

/// The reasons a move is illegal that can be told from the board alone, before asking
/// whether it leaves the king in check or mates with a pawn. `None` means the move obeys
/// every rule of movement, promotion and drops.
pub fn movement_error(setup: &Setup, mv: Move) -> Option<IllegalMoveKind> {
    let us = setup.turn;
    match mv {
        Move::Normal { from, to, promote } => {
            if !setup.variant.contains(from) || !setup.variant.contains(to) {
                return Some(IllegalMoveKind::OffBoard);
            }
            let Some(piece) = setup.piece_at(from) else {
                return Some(IllegalMoveKind::NoPiece);
            };
            if piece.color != us {
                return Some(IllegalMoveKind::NotYourPiece);
            }
            if setup.piece_at(to).is_some_and(|p| p.color == us) {
                return Some(IllegalMoveKind::OwnPiece);
            }
            match reach(setup, us, piece.kind, from, to) {
                Reach::No => return Some(IllegalMoveKind::CannotReach),
                Reach::BlockedAt(at) => return Some(IllegalMoveKind::Blocked { at }),
                Reach::Yes => {}
            }
            if promote && (!piece.kind.can_promote() || !in_promotion_zone(us, from, to)) {
                return Some(IllegalMoveKind::CannotPromote);
            }
            if !promote && is_dead(setup.variant, us, piece.kind, to) {
                return Some(IllegalMoveKind::MustPromote);
            }
            None
        }
        Move::Drop { kind, to } => {
            if !setup.variant.hand_kinds().contains(&kind) || setup.hand(us).count(kind) == 0 {
                return Some(IllegalMoveKind::NotInHand);
            }
            if !setup.variant.contains(to) {
                return Some(IllegalMoveKind::OffBoard);
            }
            if setup.piece_at(to).is_some() {
                return Some(IllegalMoveKind::Occupied);
            }
            if is_dead(setup.variant, us, kind, to) {
                return Some(IllegalMoveKind::DeadPiece);
            }
            if kind == PieceKind::Pawn && has_pawn_on_file(setup, us, to) {
                return Some(IllegalMoveKind::TwoPawns);
            }
            None
        }
    }
}

pub(super) fn has_pawn_on_file(setup: &Setup, color: Color, on: Square) -> bool {
    super::Rank::all().any(|rank| {
        setup
            .piece_at(Square::new(on.file(), rank))
            .is_some_and(|p| p.color == color && p.kind == PieceKind::Pawn)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every square whose piece reaches `to`: the definition `movers_to` must agree with.
    fn movers_by_scan(setup: &Setup, color: Color, kind: PieceKind, to: Square) -> Vec<Square> {
        Square::all()
            .filter(|&from| {
                setup.piece_at(from) == Some(Piece::new(color, kind))
                    && reach(setup, color, kind, from, to) == Reach::Yes
            })
            .collect()
    }

    #[test]
    fn movers_to_agrees_with_a_scan_of_every_square() {
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for _ in 0..500 {
            let mut setup = Setup::default();
            for _ in 0..next(30) {
                let sq = Square::from_index(next(81)).expect("an index below 81");
                let color = Color::ALL[next(2)];
                setup.set(sq, Some(Piece::new(color, PieceKind::ALL[next(14)])));
            }
            for to in Square::all() {
                for color in Color::ALL {
                    for kind in PieceKind::ALL {
                        assert_eq!(
                            movers_to(&setup, color, kind, to),
                            movers_by_scan(&setup, color, kind, to)
                        );
                    }
                }
            }
        }
    }
}
