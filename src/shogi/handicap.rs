//! Standard start positions: the even game and the handicaps (駒落ち).
//!
//! In a handicap game the stronger player, 上手 (uwate), removes pieces and plays White; the
//! weaker, 下手 (shitate), plays Black. 上手 moves first. Left and right are the giver's own:
//! 上手 sits at the top of the diagram facing down, so its left is file 1. 香落ち removes the
//! lance on 1一, 右香落ち the one on 9一, 左五枚落ち the knight on 2一, and so on.

use std::{fmt, str::FromStr, sync::OnceLock};

use super::Setup;

/// A standard start position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Handicap {
    /// 平手: the even game.
    Even,
    /// 香落ち: 上手's left lance.
    Lance,
    /// 右香落ち: 上手's right lance.
    RightLance,
    /// 角落ち: the bishop.
    Bishop,
    /// 飛車落ち: the rook.
    Rook,
    /// 飛香落ち: the rook and the left lance.
    RookLance,
    /// 二枚落ち: rook and bishop.
    TwoPieces,
    /// 三枚落ち: rook, bishop and the left lance.
    ThreePieces,
    /// 四枚落ち: rook, bishop and both lances.
    FourPieces,
    /// 五枚落ち: rook, bishop, both lances and the right knight.
    FivePieces,
    /// 左五枚落ち: rook, bishop, both lances and the left knight.
    LeftFivePieces,
    /// 六枚落ち: rook, bishop, both lances and both knights.
    SixPieces,
    /// 左七枚落ち: the six pieces and the left silver.
    LeftSevenPieces,
    /// 右七枚落ち: the six pieces and the right silver.
    RightSevenPieces,
    /// 八枚落ち: the six pieces and both silvers.
    EightPieces,
    /// 十枚落ち: everything but the king and the pawns.
    TenPieces,
}

const BLACK_HALF: &str = "9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";

impl Handicap {
    /// Every standard start position, the even game first.
    pub const ALL: [Handicap; 16] = [
        Handicap::Even,
        Handicap::Lance,
        Handicap::RightLance,
        Handicap::Bishop,
        Handicap::Rook,
        Handicap::RookLance,
        Handicap::TwoPieces,
        Handicap::ThreePieces,
        Handicap::FourPieces,
        Handicap::FivePieces,
        Handicap::LeftFivePieces,
        Handicap::SixPieces,
        Handicap::LeftSevenPieces,
        Handicap::RightSevenPieces,
        Handicap::EightPieces,
        Handicap::TenPieces,
    ];

    /// The name Japanese records use in `手合割`.
    pub const fn japanese(self) -> &'static str {
        match self {
            Handicap::Even => "平手",
            Handicap::Lance => "香落ち",
            Handicap::RightLance => "右香落ち",
            Handicap::Bishop => "角落ち",
            Handicap::Rook => "飛車落ち",
            Handicap::RookLance => "飛香落ち",
            Handicap::TwoPieces => "二枚落ち",
            Handicap::ThreePieces => "三枚落ち",
            Handicap::FourPieces => "四枚落ち",
            Handicap::FivePieces => "五枚落ち",
            Handicap::LeftFivePieces => "左五枚落ち",
            Handicap::SixPieces => "六枚落ち",
            Handicap::LeftSevenPieces => "左七枚落ち",
            Handicap::RightSevenPieces => "右七枚落ち",
            Handicap::EightPieces => "八枚落ち",
            Handicap::TenPieces => "十枚落ち",
        }
    }

    /// A short ASCII name for command lines: `even`, `lance`, `2-piece`, `left-7-piece`, ….
    pub const fn slug(self) -> &'static str {
        match self {
            Handicap::Even => "even",
            Handicap::Lance => "lance",
            Handicap::RightLance => "right-lance",
            Handicap::Bishop => "bishop",
            Handicap::Rook => "rook",
            Handicap::RookLance => "rook-lance",
            Handicap::TwoPieces => "2-piece",
            Handicap::ThreePieces => "3-piece",
            Handicap::FourPieces => "4-piece",
            Handicap::FivePieces => "5-piece",
            Handicap::LeftFivePieces => "left-5-piece",
            Handicap::SixPieces => "6-piece",
            Handicap::LeftSevenPieces => "left-7-piece",
            Handicap::RightSevenPieces => "right-7-piece",
            Handicap::EightPieces => "8-piece",
            Handicap::TenPieces => "10-piece",
        }
    }

    /// White's two back ranks in SFEN; Black's side is always the full set.
    const fn white_half(self) -> &'static str {
        match self {
            Handicap::Even => "lnsgkgsnl/1r5b1",
            Handicap::Lance => "lnsgkgsn1/1r5b1",
            Handicap::RightLance => "1nsgkgsnl/1r5b1",
            Handicap::Bishop => "lnsgkgsnl/1r7",
            Handicap::Rook => "lnsgkgsnl/7b1",
            Handicap::RookLance => "lnsgkgsn1/7b1",
            Handicap::TwoPieces => "lnsgkgsnl/9",
            Handicap::ThreePieces => "lnsgkgsn1/9",
            Handicap::FourPieces => "1nsgkgsn1/9",
            Handicap::FivePieces => "2sgkgsn1/9",
            Handicap::LeftFivePieces => "1nsgkgs2/9",
            Handicap::SixPieces => "2sgkgs2/9",
            Handicap::LeftSevenPieces => "2sgkg3/9",
            Handicap::RightSevenPieces => "3gkgs2/9",
            Handicap::EightPieces => "3gkg3/9",
            Handicap::TenPieces => "4k4/9",
        }
    }

    /// The start position as SFEN. White moves first in every handicap.
    pub fn sfen(self) -> String {
        let turn = if self == Handicap::Even { 'b' } else { 'w' };
        format!("{}/ppppppppp/{BLACK_HALF} {turn} - 1", self.white_half())
    }

    /// The start position.
    pub fn setup(self) -> Setup {
        self.start().clone()
    }

    /// The start position, read from its SFEN once.
    fn start(self) -> &'static Setup {
        static STARTS: [OnceLock<Setup>; Handicap::ALL.len()] =
            [const { OnceLock::new() }; Handicap::ALL.len()];
        STARTS[self as usize]
            .get_or_init(|| self.sfen().parse().expect("the standard start positions are valid SFEN"))
    }

    /// The standard start position whose board, hands and side to move equal `setup`'s.
    pub fn find(setup: &Setup) -> Option<Handicap> {
        Handicap::ALL.into_iter().find(|h| {
            let start = h.start();
            start.variant == setup.variant
                && start.turn == setup.turn
                && start.hands == setup.hands
                && start.board == setup.board
        })
    }

    /// The handicap with this name: the Japanese name (with or without the trailing ち,
    /// 落 or 落ち, 平手), or the [`slug`](Handicap::slug). Digits and Latin letters may be
    /// of either width, and the number of pieces a digit (`２枚落ち` is `二枚落ち`).
    pub fn from_name(name: &str) -> Option<Handicap> {
        use unicode_normalization::UnicodeNormalization;
        let normal: String = name.trim().nfkc().collect();
        let name = match normal.split_once('枚') {
            Some((count, rest)) => {
                let (side, digits) =
                    count.split_at(count.len() - count.trim_start_matches(['左', '右']).len());
                let kanji = match digits {
                    "2" => "二",
                    "3" => "三",
                    "4" => "四",
                    "5" => "五",
                    "6" => "六",
                    "7" => "七",
                    "8" => "八",
                    "10" => "十",
                    other => other,
                };
                format!("{side}{kanji}枚{rest}")
            }
            None => normal,
        };
        let name = name.as_str();
        Handicap::ALL.into_iter().find(|h| {
            let ja = h.japanese();
            name == ja
                || name.eq_ignore_ascii_case(h.slug())
                || (ja.ends_with('ち') && name == ja.trim_end_matches('ち'))
        })
    }
}

impl fmt::Display for Handicap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.japanese())
    }
}

/// The error for a name that is no standard start position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown handicap '{0}' (expected a name like 平手, 香落ち, 二枚落ち or even, lance, 2-piece)")]
pub struct UnknownHandicap(pub String);

impl FromStr for Handicap {
    type Err = UnknownHandicap;

    fn from_str(s: &str) -> Result<Handicap, UnknownHandicap> {
        Handicap::from_name(s).ok_or_else(|| UnknownHandicap(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_start_is_read_from_its_own_sfen_and_found_again_whatever_its_move_number() {
        for h in Handicap::ALL {
            let start: Setup = h.sfen().parse().unwrap();
            assert_eq!(h.setup(), start, "{h:?}");
            let mut later = start.clone();
            later.move_number = 31;
            assert_eq!(Handicap::find(&later), Some(h), "{h:?}");
        }
        let mut no_start = Handicap::Even.setup();
        no_start.turn = crate::shogi::Color::White;
        assert_eq!(Handicap::find(&no_start), None);
    }
}
