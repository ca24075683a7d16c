//! The games kifudex plays: standard shogi and yari shogi.
//!
//! # One vocabulary, two games
//!
//! Both games use the same types: [`Square`], [`Piece`](super::Piece),
//! [`PieceKind`], [`Hand`](super::Hand), [`Move`](super::Move),
//! [`Setup`](super::Setup), [`Position`](super::Position) and
//! [`PositionKey`](super::PositionKey). What differs is carried by the [`Variant`] a setup
//! holds, and every rule, text form and key table asks it:
//! - the board: 9 × 9 squares, or 7 files × 9 ranks. Squares keep the shared coordinates
//!   (file 1 on Black's right, rank a at the top), so a yari square is simply a square on
//!   files 1 to 7, and the 63 yari squares are the first 63 of [`Square::index`];
//! - the pieces: yari shogi's pieces are written with the standard kinds whose letters its
//!   machine forms use (see [`crate::shogi::yari`]): the pawn is [`PieceKind::Pawn`], the
//!   yari knight, bishop and rook are [`PieceKind::Knight`], [`PieceKind::Bishop`] and
//!   [`PieceKind::Rook`], the general is [`PieceKind::King`], and their promoted forms are
//!   [`PieceKind::ProPawn`] (yari silver), [`PieceKind::ProKnight`] and [`PieceKind::Horse`]
//!   (the two yari golds, which differ in what they turn back into when captured) and
//!   [`PieceKind::Dragon`] (the rook). How each moves is the variant's business;
//! - the start position, the SFEN width, the piece letters of Western notation, the frozen
//!   key table.

use std::fmt;

use super::{PieceKind, Square};

/// A game kifudex knows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Variant {
    /// Shogi (本将棋): 9 × 9, twenty pieces a side.
    #[default]
    Standard,
    /// Yari shogi (槍将棋), Christian Freeling's variant of 1981: 7 files × 9 ranks, fourteen
    /// pieces a side. Its rules are in [`crate::shogi::yari`].
    Yari,
}

impl Variant {
    /// Both games.
    pub const ALL: [Variant; 2] = [Variant::Standard, Variant::Yari];

    /// The name used on the command line and in databases: `standard`, `yari`.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Yari => "yari",
        }
    }

    /// The game's name as a record's `[Variant]` tag writes it: `Shogi`, `Yari shogi`.
    pub const fn title(self) -> &'static str {
        match self {
            Variant::Standard => "Shogi",
            Variant::Yari => "Yari shogi",
        }
    }

    /// What the game calls the piece that must not be taken, [`PieceKind::King`]: `king`, or
    /// yari shogi's `general`.
    pub const fn king_name(self) -> &'static str {
        match self {
            Variant::Standard => "king",
            Variant::Yari => "general",
        }
    }

    /// The game's name in Japanese, as a KIF record's `手合割` writes it: `平手` for shogi's
    /// even game, `槍将棋`.
    pub const fn japanese(self) -> &'static str {
        match self {
            Variant::Standard => "平手",
            Variant::Yari => "槍将棋",
        }
    }

    /// The game with this name, as [`Variant::name`] or [`Variant::title`] give it or as
    /// records write it (`yari`, `Yari shogi`, `yari-shogi`, `yarishogi`, `槍将棋`; `shogi`,
    /// `standard`, `本将棋`), in any case.
    pub fn from_name(name: &str) -> Option<Variant> {
        let slug: String = name
            .trim()
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '_'))
            .flat_map(char::to_lowercase)
            .collect();
        match slug.as_str() {
            "yari" | "yarishogi" | "槍将棋" => Some(Variant::Yari),
            "standard" | "shogi" | "standardshogi" | "本将棋" | "将棋" => Some(Variant::Standard),
            _ => None,
        }
    }

    /// The number of files: 9, or 7 for yari shogi.
    pub const fn files(self) -> u8 {
        match self {
            Variant::Standard => 9,
            Variant::Yari => 7,
        }
    }

    /// The number of ranks: 9 in both games.
    pub const fn ranks(self) -> u8 {
        9
    }

    /// The number of squares.
    pub const fn square_count(self) -> usize {
        self.files() as usize * self.ranks() as usize
    }

    /// Whether `sq` is on this game's board.
    pub const fn contains(self, sq: Square) -> bool {
        sq.file().get() <= self.files()
    }

    /// The board's squares in index order. For yari shogi these are the first 63 indices.
    pub fn squares(self) -> impl DoubleEndedIterator<Item = Square> + Clone {
        let count = self.square_count();
        Square::all().filter(move |sq| sq.index() < count)
    }

    /// The kinds a player can hold in hand, pawn first.
    pub const fn hand_kinds(self) -> &'static [PieceKind] {
        match self {
            Variant::Standard => &PieceKind::HAND,
            Variant::Yari => &[PieceKind::Pawn, PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook],
        }
    }

    /// Every kind a piece of this game can be, unpromoted kinds first.
    pub const fn kinds(self) -> &'static [PieceKind] {
        match self {
            Variant::Standard => &PieceKind::ALL,
            Variant::Yari => &[
                PieceKind::Pawn,
                PieceKind::Knight,
                PieceKind::Bishop,
                PieceKind::Rook,
                PieceKind::King,
                PieceKind::ProPawn,
                PieceKind::ProKnight,
                PieceKind::Horse,
                PieceKind::Dragon,
            ],
        }
    }

    /// Whether a piece of `kind` exists in this game.
    pub fn has_kind(self, kind: PieceKind) -> bool {
        self.kinds().contains(&kind)
    }

    /// The most pieces of `kind` (promoted or not) a full set of this game holds: for yari
    /// shogi 14 pawns, 4 yari knights, 4 yari bishops, 4 yari rooks, 2 generals.
    pub const fn max_count(self, kind: PieceKind) -> u8 {
        match self {
            Variant::Standard => kind.max_count(),
            Variant::Yari => match kind.unpromote() {
                PieceKind::Pawn => 14,
                PieceKind::Knight | PieceKind::Bishop | PieceKind::Rook => 4,
                PieceKind::King => 2,
                _ => 0,
            },
        }
    }

    /// How many ranks from the far edge an unpromoted piece of `kind` needs to still have a
    /// move. Standard: 1 for pawns and lances, 2 for knights. Yari: 1 for pawns, yari knights
    /// and yari bishops (a yari knight still moves forward one square from the second-to-last
    /// rank), 0 for the yari rook, which always moves sideways.
    pub const fn dead_ranks(self, kind: PieceKind) -> u8 {
        match self {
            Variant::Standard => kind.dead_ranks(),
            Variant::Yari => match kind {
                PieceKind::Pawn | PieceKind::Knight | PieceKind::Bishop => 1,
                _ => 0,
            },
        }
    }

    /// The SFEN of the start position. Yari shogi's: `rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR
    /// b - 1`, Black's back rank reading, from file 7 to file 1, yari rook, yari bishop, yari
    /// bishop, general, yari knight, yari knight, yari rook.
    pub const fn start_sfen(self) -> &'static str {
        match self {
            Variant::Standard => super::STARTPOS_SFEN,
            Variant::Yari => YARI_START_SFEN,
        }
    }
}

/// The SFEN of the yari shogi start position.
pub const YARI_START_SFEN: &str = "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1";

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for v in Variant::ALL {
            assert_eq!(Variant::from_name(v.name()), Some(v));
            assert_eq!(Variant::from_name(v.title()), Some(v));
        }
        assert_eq!(Variant::from_name("Yari-Shogi"), Some(Variant::Yari));
        assert_eq!(Variant::from_name("chu shogi"), None);
    }

    #[test]
    fn yari_squares_are_the_first_63() {
        let yari: Vec<Square> = Variant::Yari.squares().collect();
        assert_eq!(yari.len(), 63);
        assert!(yari.iter().all(|&sq| Variant::Yari.contains(sq)));
        assert!(Square::all().skip(63).all(|sq| !Variant::Yari.contains(sq)));
        assert_eq!(Variant::Standard.squares().count(), 81);
    }

    #[test]
    fn full_sets() {
        let count = |v: Variant| v.hand_kinds().iter().map(|&k| u32::from(v.max_count(k))).sum::<u32>();
        assert_eq!(count(Variant::Yari), 26);
        assert_eq!(count(Variant::Standard), 38);
    }
}
