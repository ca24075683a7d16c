//! Sides, piece kinds and pieces.

use std::fmt;

/// A side. Black (先手, sente) moves first in even games and sits at the bottom of diagrams;
/// White (後手, gote) is the handicap giver (上手) in handicap games and moves first there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// Both sides, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other side.
    #[must_use]
    pub const fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side with this index, as [`Color::index`] gives it.
    pub const fn from_index(index: usize) -> Option<Color> {
        match index {
            0 => Some(Color::Black),
            1 => Some(Color::White),
            _ => None,
        }
    }

    /// `b` or `w`, as SFEN writes the side to move.
    pub const fn sfen_char(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }

    /// `black` or `white`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A kind of piece, promoted kinds included.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PieceKind {
    Pawn,
    Lance,
    Knight,
    Silver,
    Gold,
    Bishop,
    Rook,
    King,
    /// と (tokin), a promoted pawn.
    ProPawn,
    /// 成香, a promoted lance.
    ProLance,
    /// 成桂, a promoted knight.
    ProKnight,
    /// 成銀, a promoted silver.
    ProSilver,
    /// 馬 (horse), a promoted bishop.
    Horse,
    /// 龍 (dragon), a promoted rook.
    Dragon,
}

impl PieceKind {
    /// Every kind, in declaration order.
    pub const ALL: [PieceKind; 14] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::King,
        PieceKind::ProPawn,
        PieceKind::ProLance,
        PieceKind::ProKnight,
        PieceKind::ProSilver,
        PieceKind::Horse,
        PieceKind::Dragon,
    ];

    /// The kinds a player can hold in hand, in [`Hand`](super::Hand) order.
    pub const HAND: [PieceKind; 7] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
    ];

    /// The position of the kind in [`PieceKind::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The position of the kind in [`PieceKind::HAND`], if it can be held in hand.
    pub const fn hand_index(self) -> Option<usize> {
        match self {
            PieceKind::Pawn => Some(0),
            PieceKind::Lance => Some(1),
            PieceKind::Knight => Some(2),
            PieceKind::Silver => Some(3),
            PieceKind::Gold => Some(4),
            PieceKind::Bishop => Some(5),
            PieceKind::Rook => Some(6),
            _ => None,
        }
    }

    /// The promoted kind, if this kind can promote.
    pub const fn promote(self) -> Option<PieceKind> {
        match self {
            PieceKind::Pawn => Some(PieceKind::ProPawn),
            PieceKind::Lance => Some(PieceKind::ProLance),
            PieceKind::Knight => Some(PieceKind::ProKnight),
            PieceKind::Silver => Some(PieceKind::ProSilver),
            PieceKind::Bishop => Some(PieceKind::Horse),
            PieceKind::Rook => Some(PieceKind::Dragon),
            _ => None,
        }
    }

    /// The kind before promotion; unpromoted kinds return themselves. A captured piece goes to
    /// the captor's hand as this kind.
    pub const fn unpromote(self) -> PieceKind {
        match self {
            PieceKind::ProPawn => PieceKind::Pawn,
            PieceKind::ProLance => PieceKind::Lance,
            PieceKind::ProKnight => PieceKind::Knight,
            PieceKind::ProSilver => PieceKind::Silver,
            PieceKind::Horse => PieceKind::Bishop,
            PieceKind::Dragon => PieceKind::Rook,
            other => other,
        }
    }

    /// Whether this kind can promote.
    pub const fn can_promote(self) -> bool {
        self.promote().is_some()
    }

    /// Whether this is a promoted kind.
    pub const fn is_promoted(self) -> bool {
        matches!(
            self,
            PieceKind::ProPawn
                | PieceKind::ProLance
                | PieceKind::ProKnight
                | PieceKind::ProSilver
                | PieceKind::Horse
                | PieceKind::Dragon
        )
    }

    /// Whether the kind moves like a gold: the gold itself and the four promoted minor pieces.
    pub const fn moves_like_gold(self) -> bool {
        matches!(
            self,
            PieceKind::Gold
                | PieceKind::ProPawn
                | PieceKind::ProLance
                | PieceKind::ProKnight
                | PieceKind::ProSilver
        )
    }

    /// How many ranks from the far edge an unpromoted piece of this kind needs to still have
    /// a move: 1 for pawns and lances, 2 for knights, 0 for every other kind.
    pub const fn dead_ranks(self) -> u8 {
        match self {
            PieceKind::Pawn | PieceKind::Lance => 1,
            PieceKind::Knight => 2,
            _ => 0,
        }
    }

    /// The most pieces of this kind (promoted or not) a full set holds.
    pub const fn max_count(self) -> u8 {
        match self.unpromote() {
            PieceKind::Pawn => 18,
            PieceKind::Lance | PieceKind::Knight | PieceKind::Silver | PieceKind::Gold => 4,
            _ => 2,
        }
    }

    /// The uppercase SFEN / Western letter with `+` for promoted kinds: `P`, `+R`.
    pub const fn sfen(self) -> &'static str {
        match self {
            PieceKind::Pawn => "P",
            PieceKind::Lance => "L",
            PieceKind::Knight => "N",
            PieceKind::Silver => "S",
            PieceKind::Gold => "G",
            PieceKind::Bishop => "B",
            PieceKind::Rook => "R",
            PieceKind::King => "K",
            PieceKind::ProPawn => "+P",
            PieceKind::ProLance => "+L",
            PieceKind::ProKnight => "+N",
            PieceKind::ProSilver => "+S",
            PieceKind::Horse => "+B",
            PieceKind::Dragon => "+R",
        }
    }

    /// The unpromoted kind with this SFEN letter, either case.
    pub const fn from_letter(c: char) -> Option<PieceKind> {
        match c.to_ascii_uppercase() {
            'P' => Some(PieceKind::Pawn),
            'L' => Some(PieceKind::Lance),
            'N' => Some(PieceKind::Knight),
            'S' => Some(PieceKind::Silver),
            'G' => Some(PieceKind::Gold),
            'B' => Some(PieceKind::Bishop),
            'R' => Some(PieceKind::Rook),
            'K' => Some(PieceKind::King),
            _ => None,
        }
    }
}

impl fmt::Display for PieceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.sfen())
    }
}

/// A piece of one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub kind: PieceKind,
}

impl Piece {
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// 0 to 27: the kind's index, plus 14 for White.
    pub const fn index(self) -> usize {
        self.color.index() * 14 + self.kind.index()
    }
}

/// SFEN form: uppercase for Black, lowercase for White, `+` before promoted kinds.
impl Piece {
    /// Appends the SFEN letters (`P`, `+p`, …) to `out`.
    pub fn push_sfen(self, out: &mut String) {
        for c in self.kind.sfen().chars() {
            out.push(match self.color {
                Color::Black => c,
                Color::White => c.to_ascii_lowercase(),
            });
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(2);
        self.push_sfen(&mut s);
        f.write_str(&s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promotion_round_trips() {
        for kind in PieceKind::ALL {
            match kind.promote() {
                Some(p) => {
                    assert!(p.is_promoted());
                    assert_eq!(p.unpromote(), kind);
                    assert!(!kind.is_promoted());
                }
                None => {
                    assert!(kind.is_promoted() || matches!(kind, PieceKind::Gold | PieceKind::King))
                }
            }
            assert_eq!(PieceKind::ALL[kind.index()], kind);
        }
    }

    #[test]
    fn hand_kinds_are_unpromoted_and_not_king() {
        for (i, kind) in PieceKind::HAND.into_iter().enumerate() {
            assert_eq!(kind.hand_index(), Some(i));
        }
        assert_eq!(PieceKind::King.hand_index(), None);
        assert_eq!(PieceKind::Dragon.hand_index(), None);
    }

    #[test]
    fn piece_indices_are_distinct() {
        let mut seen = [false; 28];
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let i = Piece::new(color, kind).index();
                assert!(!seen[i]);
                seen[i] = true;
            }
        }
        assert_eq!(Piece::new(Color::White, PieceKind::Dragon).to_string(), "+r");
    }
}
