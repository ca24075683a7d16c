//! The lettered board diagram of a yari shogi position: drawn by `query`, and read back by
//! `query --bod` and the web page's jump box.
//!
//! Yari shogi's pieces have no Japanese names, so a yari position has no BOD
//! ([`super::bod`]). Its diagram is a grid of SFEN letters under Western coordinates: files 7
//! to 1 from left to right, the rank letter after each row, `.` for an empty square, `+` before
//! a promoted piece, uppercase for Black and lowercase for White:
//!
//! ```text
//! White in hand: -
//!    7  6  5  4  3  2  1
//!    r  n  n  k  b  b  r  a
//!    .  .  .  .  .  .  .  b
//!    p  p  p  p  .  p  p  c
//!    .  .  .  .  p  .  .  d
//!    .  .  .  .  .  .  .  e
//!    P  .  .  .  .  .  .  f
//!    .  P  P  P  P  P  P  g
//!    .  .  .  .  .  .  .  h
//!    R  B  B  K  N  N  R  i
//! Black in hand: 2P N
//! Black to move
//! ```
//!
//! Reading policy: the board starts at the column line (the file numbers, in ASCII digits,
//! from the widest file down to 1) and is the nine rows after it, each ending in its rank
//! letter; the hands are `-` or pieces with a count before each (`2P N`), in either case; the
//! side to move is Black unless a `White to move` line says otherwise, and the move number is
//! the first (a diagram has none). Lines that are not part of the diagram are ignored, so the
//! whole output of `query` can be given. The board's width says the game, as an SFEN's does.

use crate::shogi::{Color, Setup, SfenError};

/// Why a lettered diagram cannot be read. The messages leave the line out;
/// [`GridError::line`] has it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GridError {
    #[error("the column line must number the files from the widest down to 1 (like 7 6 5 4 3 2 1)")]
    BadColumns { line: u32 },
    #[error(
        "'{text}' is not a square: a square is '.', or a piece's SFEN letter with '+' before it when promoted"
    )]
    BadCell { line: u32, text: String },
    #[error("the row has {found} squares, the column line numbers {expected} files")]
    RowWidth { line: u32, found: usize, expected: usize },
    #[error("the row of rank {expected} must end with its letter '{expected}'")]
    BadRank { line: u32, expected: char },
    #[error("the board stops at rank {last}: it needs the nine ranks a to i")]
    MissingRanks { line: u32, last: char },
    #[error("the hand is not pieces with counts (like 2P N, or -)")]
    BadHand { line: u32 },
    #[error("{0}")]
    Position(SfenError),
}

impl GridError {
    /// The 1-based line the error is about, when there is one.
    pub fn line(&self) -> Option<u32> {
        match *self {
            GridError::BadColumns { line }
            | GridError::BadCell { line, .. }
            | GridError::RowWidth { line, .. }
            | GridError::BadRank { line, .. }
            | GridError::MissingRanks { line, .. }
            | GridError::BadHand { line } => Some(line),
            GridError::Position(_) => None,
        }
    }
}

/// The number of ranks of every board kifudex plays.
const RANKS: u8 = 9;

/// The files a column line numbers (`7 6 5 4 3 2 1` is 7), if the line is one: ASCII numbers
/// alone. `Err` when it is numbers, but not the files from the widest down to 1.
fn column_line(t: &str) -> Option<Result<usize, ()>> {
    let numbers: Vec<&str> = t.split_ascii_whitespace().collect();
    if numbers.len() < 2 || !numbers.iter().all(|n| n.bytes().all(|b| b.is_ascii_digit())) {
        return None;
    }
    let files = numbers.len();
    let counted = numbers.iter().enumerate().all(|(i, n)| n.parse::<usize>().ok() == Some(files - i));
    Some(if counted && files <= 9 { Ok(files) } else { Err(()) })
}

/// Whether `text` holds a lettered diagram: a column line in ASCII digits, and no row of a
/// BOD (which starts with `|`).
pub fn is_grid(text: &str) -> bool {
    text.lines().any(|l| column_line(l.trim()).is_some())
        && !text.lines().any(|l| l.trim_start().starts_with('|'))
}

/// The position the lettered diagram in `text` shows.
///
/// # Errors
///
/// [`GridError`]: no column line, a malformed row or hand, or a board that is no position of
/// either game.
pub fn parse_grid(text: &str) -> Result<Setup, GridError> {
    let mut board: Vec<String> = Vec::new();
    let mut files: Option<usize> = None;
    let mut last_line = 0;
    let mut hands = [String::new(), String::new()];
    let mut turn = Color::Black;
    for (index, raw) in text.lines().enumerate() {
        let line = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let t = raw.trim();
        if let Some(rest) = t.strip_prefix("Black in hand:") {
            hands[Color::Black.index()] = hand(rest, Color::Black).ok_or(GridError::BadHand { line })?;
            continue;
        }
        if let Some(rest) = t.strip_prefix("White in hand:") {
            hands[Color::White.index()] = hand(rest, Color::White).ok_or(GridError::BadHand { line })?;
            continue;
        }
        match t {
            "Black to move" => turn = Color::Black,
            "White to move" => turn = Color::White,
            _ => {}
        }
        match files {
            None => {
                if let Some(columns) = column_line(t) {
                    files = Some(columns.map_err(|()| GridError::BadColumns { line })?);
                    last_line = line;
                }
            }
            Some(width) if board.len() < usize::from(RANKS) => {
                let rank = char::from(b'a' + board.len() as u8);
                board.push(row(line, t, width, rank)?);
                last_line = line;
            }
            Some(_) => {}
        }
    }
    if files.is_none() {
        return Err(GridError::BadColumns { line: 1 });
    }
    if board.len() < usize::from(RANKS) {
        let last = char::from(b'a' + board.len().saturating_sub(1) as u8);
        return Err(GridError::MissingRanks { line: last_line, last });
    }
    let hands = match hands.concat() {
        h if h.is_empty() => "-".to_string(),
        h => h,
    };
    let side = if turn == Color::Black { 'b' } else { 'w' };
    format!("{} {side} {hands} 1", board.join("/")).parse().map_err(GridError::Position)
}

/// The SFEN rank of a board row, which must hold `width` squares and end with `rank`.
fn row(line: u32, t: &str, width: usize, rank: char) -> Result<String, GridError> {
    let mut cells: Vec<&str> = t.split_ascii_whitespace().collect();
    if cells.pop() != Some(rank.to_string().as_str()) {
        return Err(GridError::BadRank { line, expected: rank });
    }
    if cells.len() != width {
        return Err(GridError::RowWidth { line, found: cells.len(), expected: width });
    }
    let mut sfen = String::new();
    let mut empty = 0;
    for cell in cells {
        if cell == "." {
            empty += 1;
            continue;
        }
        let letter = cell.strip_prefix('+').unwrap_or(cell);
        if letter.len() != 1 || !letter.bytes().all(|b| b.is_ascii_alphabetic()) {
            return Err(GridError::BadCell { line, text: crate::text::excerpt(cell) });
        }
        if empty > 0 {
            sfen.push_str(&empty.to_string());
            empty = 0;
        }
        sfen.push_str(cell);
    }
    if empty > 0 {
        sfen.push_str(&empty.to_string());
    }
    Ok(sfen)
}

/// One side's hand in SFEN letters (`2P N` for Black is `2PN`), from what follows its colon.
fn hand(text: &str, color: Color) -> Option<String> {
    let text = text.trim();
    if text == "-" || text.is_empty() {
        return Some(String::new());
    }
    let mut out = String::new();
    for piece in text.split_ascii_whitespace() {
        let digits = piece.bytes().take_while(u8::is_ascii_digit).count();
        let (count, letter) = piece.split_at(digits);
        let mut letters = letter.chars();
        let (Some(c), None) = (letters.next(), letters.next()) else { return None };
        if !c.is_ascii_alphabetic() || count.starts_with('0') {
            return None;
        }
        out.push_str(count);
        out.push(if color == Color::Black { c.to_ascii_uppercase() } else { c.to_ascii_lowercase() });
    }
    Some(out)
}

/// The lettered diagram of `setup` (see the module documentation).
pub fn write_grid(setup: &Setup) -> String {
    let sfen = setup.to_string();
    let mut fields = sfen.split(' ');
    let (board, hands) = (fields.next().unwrap_or(""), fields.nth(1).unwrap_or("-"));
    let files = setup.variant.files();
    let mut out = format!("White in hand: {}\n", hand_text(hands, char::is_ascii_lowercase));
    out.push(' ');
    for file in (1..=files).rev() {
        out.push_str(&format!("{file:>3}"));
    }
    out.push('\n');
    for (rank, row) in board.split('/').enumerate() {
        out.push(' ');
        let mut promoted = false;
        for c in row.chars() {
            match c {
                '+' => promoted = true,
                '1'..='9' => {
                    for _ in 0..c.to_digit(10).unwrap_or(0) {
                        out.push_str("  .");
                    }
                }
                _ => {
                    let piece = format!("{}{c}", if promoted { "+" } else { "" });
                    out.push_str(&format!("{piece:>3}"));
                    promoted = false;
                }
            }
        }
        out.push_str(&format!("  {}\n", char::from(b'a' + rank as u8)));
    }
    out.push_str(&format!("Black in hand: {}\n", hand_text(hands, char::is_ascii_uppercase)));
    out.push_str(&format!("{} to move\n", if setup.turn == Color::Black { "Black" } else { "White" }));
    out
}

/// One side's pieces in hand, from an SFEN hand field: `2P N`, or `-`.
fn hand_text(field: &str, side: fn(&char) -> bool) -> String {
    let mut pieces = Vec::new();
    let mut count = String::new();
    for c in field.chars() {
        if c.is_ascii_digit() {
            count.push(c);
        } else {
            if side(&c) {
                pieces.push(format!("{count}{}", c.to_ascii_uppercase()));
            }
            count.clear();
        }
    }
    if pieces.is_empty() { "-".to_string() } else { pieces.join(" ") }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::Variant;

    #[test]
    fn a_drawn_position_reads_back() {
        for sfen in [
            "rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1",
            "1+B+n4/3r2+P/1P1p3/4+R+BP/p2+r1p1/1kPP1+P1/1+np1+pPK/2+b4/+r+p+n+n+p+b1 w 2PN3pr 1",
        ] {
            let setup: Setup = sfen.parse().unwrap();
            assert_eq!(setup.variant, Variant::Yari);
            assert_eq!(parse_grid(&write_grid(&setup)), Ok(setup));
        }
    }

    #[test]
    fn malformed_diagrams_are_refused_with_their_line() {
        let good = write_grid(&Setup::start(Variant::Yari));
        let cases = [
            (good.replace("   7  6", "   6  7"), GridError::BadColumns { line: 2 }),
            (good.replace("r  a", "r  x"), GridError::BadRank { line: 3, expected: 'a' }),
            (
                good.replace("  .  .  .  .  .  .  .  b", "  .  .  .  .  .  .  b"),
                GridError::RowWidth { line: 4, found: 6, expected: 7 },
            ),
            (good.replace("R  B  B", "R  BB B"), GridError::BadCell { line: 11, text: "BB".into() }),
            (good.replace("Black in hand: -", "Black in hand: P2"), GridError::BadHand { line: 12 }),
            (
                good.lines().take(6).collect::<Vec<_>>().join("\n"),
                GridError::MissingRanks { line: 6, last: 'd' },
            ),
        ];
        for (text, error) in cases {
            assert_eq!(parse_grid(&text), Err(error), "{text}");
        }
        assert!(matches!(parse_grid(&good.replace("K  N", "S  N")), Err(GridError::Position(_))));
        assert!(is_grid(&good));
        assert!(!is_grid("|v香v桂|一\n  9 8 7 6 5 4 3 2 1\n"));
    }
}
