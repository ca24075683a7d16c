//! Unvalidated positions and their SFEN text form.
//!
//! A [`Setup`] is what a record or a query says the position is: the game, pieces on squares,
//! hands, side to move. It may be impossible (two kings, two pawns on a file);
//! [`Position::from_setup`](super::Position::from_setup) decides.
//!
//! SFEN is as wide as the board: nine squares a rank for shogi, seven for yari shogi
//! (`rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1`, the board Fairy-Stockfish's FEN
//! draws, read in the letters [`crate::shogi::yari`] gives). Reading tells the games apart
//! by the width of the first rank.

use std::{fmt, str::FromStr};

use super::{Color, Hand, Piece, PieceKind, Square, Variant};

/// The SFEN of the even-game start position.
pub const STARTPOS_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// A position as written: game, board, hands, side to move and move number, not yet checked.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The game. Its board is the squares [`Variant::contains`]; the others stay empty.
    pub variant: Variant,
    /// The piece on each square, by [`Square::index`].
    pub board: [Option<Piece>; 81],
    /// The hands, by [`Color::index`].
    pub hands: [Hand; 2],
    /// The side to move.
    pub turn: Color,
    /// The move number SFEN carries (1 at the start of a game; the ply number plus one).
    pub move_number: u32,
}

impl Default for Setup {
    /// A standard shogi setup: empty board, empty hands, Black to move.
    fn default() -> Setup {
        Setup::empty(Variant::Standard)
    }
}

impl Setup {
    /// An empty board of `variant`, empty hands, Black to move.
    pub const fn empty(variant: Variant) -> Setup {
        Setup { variant, board: [None; 81], hands: [Hand::EMPTY; 2], turn: Color::Black, move_number: 1 }
    }

    /// The start position of `variant` (for standard shogi, the even game).
    pub fn start(variant: Variant) -> Setup {
        variant.start_sfen().parse().expect("the start positions are valid SFEN")
    }

    /// The piece on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Puts `piece` on `sq` (or clears it).
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        self.board[sq.index()] = piece;
    }

    /// The hand of `color`.
    pub fn hand(&self, color: Color) -> &Hand {
        &self.hands[color.index()]
    }

    /// The hand of `color`, to change.
    pub fn hand_mut(&mut self, color: Color) -> &mut Hand {
        &mut self.hands[color.index()]
    }

    /// The SFEN without its move number: board, side to move and hands. Two setups with the
    /// same position text are the same position.
    pub fn position_text(&self) -> String {
        let mut s = self.sfen();
        if let Some(i) = s.rfind(' ') {
            s.truncate(i);
        }
        s
    }

    /// The SFEN of the setup, as [`fmt::Display`] writes it. Every stored game has its end
    /// position written so, and this writes its bytes without the formatting machinery.
    pub fn sfen(&self) -> String {
        let mut out = Vec::with_capacity(96);
        self.write_board(&mut out);
        out.extend_from_slice(&[b' ', self.turn.sfen_char() as u8, b' ']);
        self.write_hands(&mut out);
        out.push(b' ');
        push_number(&mut out, self.move_number);
        String::from_utf8(out).expect("SFEN is ASCII")
    }

    fn write_board(&self, out: &mut Vec<u8>) {
        for rank in 1..=9 {
            if rank > 1 {
                out.push(b'/');
            }
            let mut empty = 0;
            for file in (1..=self.variant.files()).rev() {
                let sq = Square::from_numbers(file, rank).expect("files and ranks 1-9");
                match self.piece_at(sq) {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            out.push(b'0' + empty);
                            empty = 0;
                        }
                        push_piece(out, piece);
                    }
                }
            }
            if empty > 0 {
                out.push(b'0' + empty);
            }
        }
    }

    fn write_hands(&self, out: &mut Vec<u8>) {
        let start = out.len();
        for color in Color::ALL {
            // SFEN lists hands rook first, in the order R B G S N L P.
            for (kind, n) in self.hand(color).iter().rev() {
                if n > 1 {
                    push_number(out, u32::from(n));
                }
                push_piece(out, Piece::new(color, kind));
            }
        }
        if out.len() == start {
            out.push(b'-');
        }
    }
}

/// Appends the SFEN letters of `piece` (`P`, `+p`, …), as [`Piece::push_sfen`] writes them.
fn push_piece(out: &mut Vec<u8>, piece: Piece) {
    let letters = piece.kind.sfen().bytes();
    match piece.color {
        Color::Black => out.extend(letters),
        Color::White => out.extend(letters.map(|b| b.to_ascii_lowercase())),
    }
}

/// Appends `n` in decimal digits.
fn push_number(out: &mut Vec<u8>, n: u32) {
    let mut digits = [0u8; 10];
    let mut at = digits.len();
    let mut left = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (left % 10) as u8;
        left /= 10;
        if left == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

/// SFEN: `lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1`, or seven squares
/// wide for yari shogi.
impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.sfen())
    }
}

/// Why text is not an SFEN.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SfenError {
    #[error("the board has {0} ranks; SFEN needs 9 separated by '/'")]
    RankCount(usize),
    #[error("rank {rank} covers {squares} squares; it must cover {width}")]
    RankWidth { rank: usize, squares: usize, width: usize },
    #[error("'{0}' is not a piece letter")]
    BadPiece(char),
    #[error("'{letter}' is not a piece of {}", .variant.title().to_lowercase())]
    NotInVariant { letter: String, variant: Variant },
    #[error("'+{0}' is not a piece that can be promoted")]
    BadPromotion(char),
    #[error("the side to move must be 'b' or 'w', not '{0}'")]
    BadTurn(String),
    #[error("the hands '{0}' are not SFEN hands (like '-' or 'RG2Pb')")]
    BadHands(String),
    #[error("the move number '{0}' is not a number from 1 to {max}", max = u32::MAX)]
    BadMoveNumber(String),
    #[error("SFEN has board, side to move, hands and move number; '{0}' is extra")]
    Extra(String),
    #[error("SFEN is missing its {0}")]
    Missing(&'static str),
}

impl FromStr for Setup {
    type Err = SfenError;

    /// Reads an SFEN. The move number may be left out (it is then 1); a leading `sfen` word is
    /// accepted.
    fn from_str(text: &str) -> Result<Setup, SfenError> {
        let mut fields = text.split_ascii_whitespace().peekable();
        if fields.peek() == Some(&"sfen") {
            fields.next();
        }
        let board = fields.next().ok_or(SfenError::Missing("board"))?;
        let turn = fields.next().ok_or(SfenError::Missing("side to move"))?;
        let hands = fields.next().ok_or(SfenError::Missing("hands"))?;
        let move_number = fields.next();
        if let Some(extra) = fields.next() {
            return Err(SfenError::Extra(extra.to_string()));
        }
        let mut setup = Setup::default();
        parse_board(board, &mut setup)?;
        setup.turn = match turn {
            "b" => Color::Black,
            "w" => Color::White,
            other => return Err(SfenError::BadTurn(other.to_string())),
        };
        parse_hands(hands, &mut setup)?;
        if let Some(n) = move_number {
            setup.move_number = n
                .parse::<u32>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| SfenError::BadMoveNumber(n.to_string()))?;
        }
        Ok(setup)
    }
}

/// The number of squares an SFEN rank covers, as far as it can be told (digits count their
/// squares, letters one each).
fn rank_width(text: &str) -> usize {
    text.chars()
        .map(|c| match c {
            '1'..='9' => c as usize - '0' as usize,
            '+' => 0,
            _ => 1,
        })
        .sum()
}

fn parse_board(board: &str, setup: &mut Setup) -> Result<(), SfenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 9 {
        return Err(SfenError::RankCount(ranks.len()));
    }
    // Seven squares a rank is yari shogi's board; anything else is read as shogi's, and a
    // wrong width is reported against nine.
    let variant = if rank_width(ranks[0]) == usize::from(Variant::Yari.files()) {
        Variant::Yari
    } else {
        Variant::Standard
    };
    setup.variant = variant;
    let width = usize::from(variant.files());
    for (r, text) in ranks.iter().enumerate() {
        let mut file: usize = width;
        let mut squares = 0usize;
        let mut promoted = false;
        for c in text.chars() {
            if promoted && !c.is_ascii_alphabetic() {
                return Err(SfenError::BadPromotion(c));
            }
            match c {
                '1'..='9' => {
                    squares += c as usize - '0' as usize;
                    file = file.saturating_sub(c as usize - '0' as usize);
                }
                '+' => promoted = true,
                _ => {
                    let kind = PieceKind::from_letter(c).ok_or(SfenError::BadPiece(c))?;
                    let kind =
                        if promoted { kind.promote().ok_or(SfenError::BadPromotion(c))? } else { kind };
                    if !variant.has_kind(kind) {
                        let letter = if promoted { format!("+{c}") } else { c.to_string() };
                        return Err(SfenError::NotInVariant { letter, variant });
                    }
                    promoted = false;
                    squares += 1;
                    if squares <= width {
                        let color = if c.is_ascii_uppercase() { Color::Black } else { Color::White };
                        let sq = Square::from_numbers(file as u8, r as u8 + 1).expect("file 1-9");
                        setup.set(sq, Some(Piece::new(color, kind)));
                    }
                    file = file.saturating_sub(1);
                }
            }
        }
        if promoted {
            return Err(SfenError::BadPromotion('+'));
        }
        if squares != width {
            return Err(SfenError::RankWidth { rank: r + 1, squares, width });
        }
    }
    Ok(())
}

fn parse_hands(text: &str, setup: &mut Setup) -> Result<(), SfenError> {
    if text == "-" {
        return Ok(());
    }
    let bad = || SfenError::BadHands(text.to_string());
    let mut count: Option<u32> = None;
    for c in text.chars() {
        if let Some(d) = c.to_digit(10) {
            // A count is at most what a hand can hold (u8), so that every hand written reads
            // back: repeated letters add up (`PP` is `2P`), and their total is written as one
            // count.
            let n = count.unwrap_or(0) * 10 + d;
            if n > u32::from(u8::MAX) {
                return Err(bad());
            }
            count = Some(n);
            continue;
        }
        let kind = PieceKind::from_letter(c).filter(|k| k.hand_index().is_some()).ok_or_else(bad)?;
        if !setup.variant.hand_kinds().contains(&kind) {
            return Err(SfenError::NotInVariant { letter: c.to_string(), variant: setup.variant });
        }
        let color = if c.is_ascii_uppercase() { Color::Black } else { Color::White };
        let n = count.take().unwrap_or(1);
        if n == 0 {
            return Err(bad());
        }
        let hand = setup.hand_mut(color);
        let total = u32::from(hand.count(kind)) + n;
        // Counts past a full set are refused later, by position validation; here they only
        // need to fit.
        hand.set(kind, u8::try_from(total).map_err(|_| bad())?);
    }
    if count.is_some() {
        return Err(bad());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_round_trips() {
        let setup: Setup = STARTPOS_SFEN.parse().unwrap();
        assert_eq!(setup.to_string(), STARTPOS_SFEN);
        let king = setup.piece_at(Square::from_numbers(5, 9).unwrap()).unwrap();
        assert_eq!(king, Piece::new(Color::Black, PieceKind::King));
        let rook = setup.piece_at(Square::from_numbers(8, 2).unwrap()).unwrap();
        assert_eq!(rook, Piece::new(Color::White, PieceKind::Rook));
    }

    #[test]
    fn hands_are_written_in_sfen_order() {
        let setup: Setup = "4k4/9/9/9/9/9/9/9/4K4 w P2GRb10p 12".parse().unwrap();
        assert_eq!(setup.to_string(), "4k4/9/9/9/9/9/9/9/4K4 w R2GPb10p 12");
        assert_eq!(setup.hand(Color::White).count(PieceKind::Pawn), 10);
        assert_eq!(setup.position_text(), "4k4/9/9/9/9/9/9/9/4K4 w R2GPb10p");
    }

    /// SFEN written with the formatting machinery, square by square: the form [`Setup::sfen`]
    /// must give.
    fn sfen_by_format(setup: &Setup) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        for rank in 1..=9 {
            if rank > 1 {
                out.push('/');
            }
            let mut empty = 0;
            for file in (1..=setup.variant.files()).rev() {
                match setup.piece_at(Square::from_numbers(file, rank).unwrap()) {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            write!(out, "{empty}").unwrap();
                            empty = 0;
                        }
                        piece.push_sfen(&mut out);
                    }
                }
            }
            if empty > 0 {
                write!(out, "{empty}").unwrap();
            }
        }
        write!(out, " {} ", setup.turn.sfen_char()).unwrap();
        let mut hands = String::new();
        for color in Color::ALL {
            for &kind in PieceKind::HAND.iter().rev() {
                match setup.hand(color).count(kind) {
                    0 => {}
                    1 => write!(hands, "{}", Piece::new(color, kind)).unwrap(),
                    n => write!(hands, "{n}{}", Piece::new(color, kind)).unwrap(),
                }
            }
        }
        out.push_str(if hands.is_empty() { "-" } else { &hands });
        write!(out, " {}", setup.move_number).unwrap();
        out
    }

    #[test]
    fn sfen_is_written_as_the_format_says() {
        let mut seed = 5u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        let numbers = [1, 9, 10, 99, 100, 12_345, u32::MAX];
        let mut compared = 0;
        for variant in [Variant::Standard, Variant::Yari] {
            let kinds: Vec<PieceKind> = PieceKind::ALL.into_iter().filter(|&k| variant.has_kind(k)).collect();
            for round in 0..300 {
                let mut setup = Setup::empty(variant);
                // From an empty board to a full one.
                let fill = round % 10;
                for sq in variant.squares() {
                    if next() % 10 < fill {
                        let color = if next() % 2 == 0 { Color::Black } else { Color::White };
                        setup.set(sq, Some(Piece::new(color, kinds[next() % kinds.len()])));
                    }
                }
                for _ in 0..next() % 40 {
                    let color = if next() % 2 == 0 { Color::Black } else { Color::White };
                    let kind = PieceKind::HAND[next() % PieceKind::HAND.len()];
                    setup.hand_mut(color).add_in(variant, kind);
                }
                setup.turn = if round % 2 == 0 { Color::Black } else { Color::White };
                setup.move_number = numbers[round % numbers.len()];
                assert_eq!(setup.sfen(), sfen_by_format(&setup));
                assert_eq!(setup.to_string(), setup.sfen());
                compared += 1;
            }
        }
        assert_eq!(compared, 600);
        let setup: Setup = "4k4/9/9/9/9/9/9/9/4K4 b 18P2L 4294967295".parse().unwrap();
        assert_eq!(setup.sfen(), "4k4/9/9/9/9/9/9/9/4K4 b 2L18P 4294967295");
    }

    #[test]
    fn move_number_is_optional_and_prefix_accepted() {
        let a: Setup = "sfen 4k4/9/9/9/9/9/9/9/4K4 b -".parse().unwrap();
        assert_eq!(a.move_number, 1);
        let b: Setup = "+P3k4/9/9/9/9/9/9/9/4K4 b - 3".parse().unwrap();
        let tokin = b.piece_at(Square::from_numbers(9, 1).unwrap()).unwrap();
        assert_eq!(tokin.kind, PieceKind::ProPawn);
    }

    #[test]
    fn malformed_sfens_are_refused() {
        for bad in [
            "",
            "9/9/9/9/9/9/9/9 b -",
            "10/9/9/9/9/9/9/9/9 b -",
            "8/9/9/9/9/9/9/9/9 b -",
            "9/9/9/9/9/9/9/9/9 x -",
            "x8/9/9/9/9/9/9/9/9 b -",
            "+G8/9/9/9/9/9/9/9/9 b -",
            "+8/9/9/9/9/9/9/9/9 b -",
            "9/9/9/9/9/9/9/9/9 b K",
            "9/9/9/9/9/9/9/9/9 b 0P",
            "9/9/9/9/9/9/9/9/9 b 2",
            "9/9/9/9/9/9/9/9/9 b 999P",
            "9/9/9/9/9/9/9/9/9 b - 0",
            "9/9/9/9/9/9/9/9/9 b - 1 2",
            "kkkkkkkkkk/9/9/9/9/9/9/9/9 b -",
        ] {
            assert!(bad.parse::<Setup>().is_err(), "{bad:?}");
        }
    }
}
