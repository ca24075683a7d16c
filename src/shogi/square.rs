//! Files, ranks and squares.
//!
//! Coordinates follow the Japanese convention that every notation shares: files are numbered
//! 1–9 from Black's right to left, ranks 1–9 from White's side (the top of the diagram) down.
//! Square 11 (USI `1a`) is the top right corner as Black sees the board, 99 (`9i`) the bottom
//! left.

use std::{fmt, str::FromStr};

use super::Color;

/// A file (筋), 1 to 9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct File(u8);

/// A rank (段), 1 to 9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

impl File {
    /// The file with this number, if it is 1 to 9.
    pub const fn new(n: u8) -> Option<File> {
        if n >= 1 && n <= 9 { Some(File(n)) } else { None }
    }

    /// The file's number, 1 to 9.
    pub const fn get(self) -> u8 {
        self.0
    }

    /// All files, 1 to 9.
    pub fn all() -> impl DoubleEndedIterator<Item = File> + Clone {
        (1..=9).map(File)
    }
}

impl Rank {
    /// The rank with this number, if it is 1 to 9.
    pub const fn new(n: u8) -> Option<Rank> {
        if n >= 1 && n <= 9 { Some(Rank(n)) } else { None }
    }

    /// The rank's number, 1 to 9.
    pub const fn get(self) -> u8 {
        self.0
    }

    /// All ranks, 1 to 9.
    pub fn all() -> impl DoubleEndedIterator<Item = Rank> + Clone {
        (1..=9).map(Rank)
    }

    /// The USI letter of the rank, `a` to `i`.
    pub const fn letter(self) -> char {
        (b'a' + self.0 - 1) as char
    }

    /// The rank as `color` counts it: 1 is the far rank (the opponent's back rank).
    pub const fn relative(self, color: Color) -> u8 {
        match color {
            Color::Black => self.0,
            Color::White => 10 - self.0,
        }
    }

    /// Whether the rank lies in `color`'s promotion zone (the three far ranks).
    pub const fn is_promotion_zone(self, color: Color) -> bool {
        self.relative(color) <= 3
    }
}

/// One of the 81 squares.
///
/// Stored as `(file - 1) * 9 + (rank - 1)`, so every value the type can hold is a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The number of squares.
    pub const COUNT: usize = 81;

    /// The square on `file` and `rank`.
    pub const fn new(file: File, rank: Rank) -> Square {
        Square((file.0 - 1) * 9 + (rank.0 - 1))
    }

    /// The square with file and rank numbers, if both are 1 to 9.
    ///
    /// ```
    /// use kifudex::shogi::Square;
    /// assert_eq!(Square::from_numbers(7, 6).unwrap().to_string(), "7f");
    /// assert!(Square::from_numbers(0, 6).is_none());
    /// ```
    pub const fn from_numbers(file: u8, rank: u8) -> Option<Square> {
        match (File::new(file), Rank::new(rank)) {
            (Some(f), Some(r)) => Some(Square::new(f, r)),
            _ => None,
        }
    }

    /// The square with this index (0 to 80), as [`Square::index`] gives it.
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < Self::COUNT { Some(Square(index as u8)) } else { None }
    }

    /// The index of the square, 0 to 80.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square's file.
    pub const fn file(self) -> File {
        File(self.0 / 9 + 1)
    }

    /// The square's rank.
    pub const fn rank(self) -> Rank {
        Rank(self.0 % 9 + 1)
    }

    /// The square seen from the other side of the board (rotated 180 degrees).
    pub const fn flip(self) -> Square {
        Square(80 - self.0)
    }

    /// The square `df` files and `dr` ranks away, if it is on the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file().0 as i8 + df;
        let r = self.rank().0 as i8 + dr;
        if f >= 1 && f <= 9 && r >= 1 && r <= 9 { Some(Square(((f - 1) * 9 + (r - 1)) as u8)) } else { None }
    }

    /// All 81 squares in index order (file 1 first, rank 1 to 9 in each file).
    pub fn all() -> impl DoubleEndedIterator<Item = Square> + Clone {
        (0..81).map(Square)
    }
}

/// USI form: file digit and rank letter, `7f`.
impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().0, self.rank().letter())
    }
}

/// The error for text that is not a USI square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a square (expected a file digit 1-9 and a rank letter a-i, as in 7f)")]
pub struct ParseSquareError;

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match s.as_bytes() {
            &[f @ b'1'..=b'9', r @ b'a'..=b'i'] => Ok(Square::new(File(f - b'0'), Rank(r - b'a' + 1))),
            _ => Err(ParseSquareError),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_file_rank_agree() {
        for sq in Square::all() {
            assert_eq!(Square::new(sq.file(), sq.rank()), sq);
            assert_eq!(Square::from_index(sq.index()), Some(sq));
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(sq.flip().flip(), sq);
        }
        assert_eq!(Square::all().count(), 81);
    }

    #[test]
    fn corners() {
        let top_right = Square::from_numbers(1, 1).unwrap();
        assert_eq!(top_right.to_string(), "1a");
        assert_eq!(top_right.flip().to_string(), "9i");
        assert_eq!("5e".parse::<Square>().unwrap().flip().to_string(), "5e");
        assert!("0a".parse::<Square>().is_err());
        assert!("1j".parse::<Square>().is_err());
        assert!("11".parse::<Square>().is_err());
    }

    #[test]
    fn offsets_stay_on_board() {
        let sq = Square::from_numbers(1, 1).unwrap();
        assert_eq!(sq.offset(-1, 0), None);
        assert_eq!(sq.offset(0, -1), None);
        assert_eq!(sq.offset(1, 1), Square::from_numbers(2, 2));
    }

    #[test]
    fn promotion_zone_is_relative() {
        let r3 = Rank::new(3).unwrap();
        let r7 = Rank::new(7).unwrap();
        assert!(r3.is_promotion_zone(Color::Black));
        assert!(!r3.is_promotion_zone(Color::White));
        assert!(r7.is_promotion_zone(Color::White));
        assert_eq!(r7.relative(Color::White), 3);
    }
}
