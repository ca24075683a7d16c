//! One CSA statement: a line, or one of the `,`-separated parts of a move line.
//!
//! Classifying a statement has no effect on any game, so detection can use it too.

use crate::{
    notation::{
        MoveSyntaxError,
        csa::{self, CsaMove, piece_from_code},
    },
    shogi::{Color, Piece, PieceKind, Square},
    text::{excerpt, trim_end_space, trim_start_space},
};

/// Why a line is not a CSA statement.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StatementError {
    #[error(transparent)]
    Move(#[from] MoveSyntaxError),
    #[error("'{0}' is not a CSA statement")]
    Unknown(String),
    #[error("board row P{row}: {why}")]
    Row { row: u8, why: &'static str },
    #[error("'{0}' is not a square and a piece code (like 82HI, or 00AL)")]
    Group(String),
    #[error("'{0}' is not a time (like T12)")]
    Time(String),
}

/// What a `P+`/`P-` group or a `PI` removal names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    /// A piece on a square.
    Board(Square, PieceKind),
    /// A piece in hand (`00FU`).
    Hand(PieceKind),
    /// `00AL`: every piece not yet placed, kings excepted, to this side's hand.
    Rest,
}

/// One statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Statement<'a> {
    /// `V2.2`: the version.
    Version(&'a str),
    /// `N+name`, `N-name`.
    Name(Color, &'a str),
    /// `$KEY:value`, the key without its `$`.
    Info(&'a str, &'a str),
    /// `'text`, without the quote.
    Comment(&'a str),
    /// `PI` with its removals.
    Even(Vec<Place>),
    /// `P1`…`P9`: rank and the nine cells from file 9 to file 1.
    Row(u8, [Option<Piece>; 9]),
    /// `P+…`, `P-…`: pieces of one side.
    Pieces(Color, Vec<Place>),
    /// `+` or `-` alone: the side to move.
    Turn(Color),
    Move(CsaMove),
    /// `T12`: seconds spent on the move before; `T12.345` (CSA V3) has a fraction of a
    /// second, which a time here does not hold: `rounded` says that one was dropped.
    Time {
        seconds: u32,
        rounded: bool,
    },
    /// `%TORYO`: the ending, without its `%`.
    End(&'a str),
    /// `#RESIGN`: a server message, without its `#`.
    Server(&'a str),
    /// `/`: the end of this game, another follows.
    Separator,
}

/// Reads one statement, already trimmed and not empty.
pub(super) fn parse(text: &str) -> Result<Statement<'_>, StatementError> {
    let unknown = || StatementError::Unknown(excerpt(text));
    let first = text.as_bytes()[0];
    Ok(match first {
        b'\'' => Statement::Comment(&text[1..]),
        b'/' if text == "/" => Statement::Separator,
        b'V' if text.len() > 1 && text[1..].bytes().all(|b| b.is_ascii_digit() || b == b'.') => {
            Statement::Version(&text[1..])
        }
        b'N' => match text.as_bytes().get(1) {
            Some(b'+') => Statement::Name(Color::Black, &text[2..]),
            Some(b'-') => Statement::Name(Color::White, &text[2..]),
            _ => return Err(unknown()),
        },
        b'$' => {
            let (key, value) = text[1..].split_once(':').unwrap_or((&text[1..], ""));
            if key.is_empty()
                || !key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'+' || b == b'-')
            {
                return Err(unknown());
            }
            Statement::Info(key, value.trim())
        }
        b'P' => position(text)?,
        b'+' | b'-' if text.len() == 1 => {
            Statement::Turn(if first == b'+' { Color::Black } else { Color::White })
        }
        b'+' | b'-' => Statement::Move(csa::parse(text)?),
        b'T' => time(text)?,
        b'%' if text.len() > 1
            && text[1..].bytes().all(|b| b.is_ascii_uppercase() || b"_+-".contains(&b)) =>
        {
            Statement::End(&text[1..])
        }
        b'#' => Statement::Server(&text[1..]),
        _ => return Err(unknown()),
    })
}

/// `T12`, or `T12.345` (CSA V3 writes fractions of a second: they are dropped, and a
/// fraction that is not zero is told).
fn time(text: &str) -> Result<Statement<'_>, StatementError> {
    let bad = || StatementError::Time(excerpt(text));
    let (whole, fraction) = text[1..].split_once('.').unwrap_or((&text[1..], "0"));
    if fraction.is_empty() || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let seconds = whole.parse().map_err(|_| bad())?;
    Ok(Statement::Time { seconds, rounded: fraction.bytes().any(|b| b != b'0') })
}

fn position(text: &str) -> Result<Statement<'_>, StatementError> {
    let rest = &text[1..];
    match rest.as_bytes().first() {
        Some(b'I') => Ok(Statement::Even(groups(&rest[1..])?)),
        Some(b'+') => Ok(Statement::Pieces(Color::Black, groups(&rest[1..])?)),
        Some(b'-') => Ok(Statement::Pieces(Color::White, groups(&rest[1..])?)),
        Some(&r @ b'1'..=b'9') => Ok(Statement::Row(r - b'0', row(r - b'0', &rest[1..])?)),
        _ => Err(StatementError::Unknown(excerpt(text))),
    }
}

/// The cells of a board row: `*` for an empty square, `+FU`/`-FU` for a piece. Cells are
/// usually three characters wide, but writers also use two (` *`) and pad with spaces or a
/// trailing `.`; only the cells themselves count.
fn row(rank: u8, text: &str) -> Result<[Option<Piece>; 9], StatementError> {
    let err = |why| StatementError::Row { row: rank, why };
    let mut cells = [None; 9];
    let mut count = 0;
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let cell = match b[i] {
            b' ' | b'\t' | b'.' => {
                i += 1;
                continue;
            }
            b'*' => {
                i += 1;
                None
            }
            sign @ (b'+' | b'-') => {
                let kind =
                    text.get(i + 1..i + 3).and_then(piece_from_code).ok_or(err("unknown piece code"))?;
                i += 3;
                let color = if sign == b'+' { Color::Black } else { Color::White };
                Some(Piece::new(color, kind))
            }
            _ => return Err(err("expected '*' or a piece like +FU")),
        };
        if count == 9 {
            return Err(err("more than nine cells"));
        }
        cells[count] = cell;
        count += 1;
    }
    if count < 9 {
        return Err(err("fewer than nine cells"));
    }
    Ok(cells)
}

/// Groups of four characters: a square (`00` for the hand) and a piece code.
fn groups(text: &str) -> Result<Vec<Place>, StatementError> {
    let text = text.trim_end();
    let mut places = Vec::with_capacity(text.len() / 4);
    let mut rest = text;
    while !rest.is_empty() {
        let group = rest.get(..4).ok_or_else(|| StatementError::Group(excerpt(rest)))?;
        let bad = || StatementError::Group(group.to_string());
        let b = group.as_bytes();
        if !b[0].is_ascii_digit() || !b[1].is_ascii_digit() {
            return Err(bad());
        }
        let (file, rank) = (b[0] - b'0', b[1] - b'0');
        let code = &group[2..];
        places.push(match (file, rank) {
            (0, 0) if code == "AL" => Place::Rest,
            (0, 0) => {
                Place::Hand(piece_from_code(code).filter(|k| k.hand_index().is_some()).ok_or_else(bad)?)
            }
            _ => {
                let sq = Square::from_numbers(file, rank).ok_or_else(bad)?;
                Place::Board(sq, piece_from_code(code).ok_or_else(bad)?)
            }
        });
        rest = &rest[4..];
    }
    Ok(places)
}

/// Splits a line into statements. Moves, times and endings may share a line, separated by
/// `,`; a part starting with `'` is a comment that runs to the end of the line (a comment
/// that itself holds `,'` is several comments, as padded server logs write them). Other lines
/// are one statement each.
pub(super) fn split(line: &str) -> impl Iterator<Item = &str> {
    let multi = matches!(line.as_bytes().first(), Some(b'+' | b'-' | b'T' | b'%'));
    let mut rest = Some(line);
    let mut in_comment = false;
    std::iter::from_fn(move || {
        loop {
            let text = trim_start_space(rest?);
            if text.is_empty() {
                rest = None;
                return None;
            }
            let cut = if in_comment || text.starts_with('\'') {
                in_comment = true;
                text.find(",'").map(|i| (i, i + 1))
            } else if multi {
                text.bytes().position(|b| b == b',').map(|i| (i, i + 1))
            } else {
                None
            };
            let part = match cut {
                Some((end, next)) => {
                    rest = Some(&text[next..]);
                    &text[..end]
                }
                None => {
                    rest = None;
                    text
                }
            };
            let part = trim_end_space(part);
            if !part.is_empty() {
                return Some(part);
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements() {
        assert_eq!(parse("V2.2"), Ok(Statement::Version("2.2")));
        assert_eq!(parse("N+NAKAHARA"), Ok(Statement::Name(Color::Black, "NAKAHARA")));
        assert_eq!(parse("$EVENT:13th WCSC"), Ok(Statement::Info("EVENT", "13th WCSC")));
        assert_eq!(parse("$END_TIME:"), Ok(Statement::Info("END_TIME", "")));
        assert_eq!(parse("-"), Ok(Statement::Turn(Color::White)));
        assert_eq!(parse("T12"), Ok(Statement::Time { seconds: 12, rounded: false }));
        assert_eq!(parse("T1.250"), Ok(Statement::Time { seconds: 1, rounded: true }));
        assert_eq!(parse("T7.000"), Ok(Statement::Time { seconds: 7, rounded: false }));
        assert_eq!(parse("%TORYO"), Ok(Statement::End("TORYO")));
        assert_eq!(parse("/"), Ok(Statement::Separator));
        assert!(matches!(parse("+7776FU"), Ok(Statement::Move(_))));
        for bad in [
            "X", "+7776", "T", "Tx", "T1.", "T.5", "T1.2x", "T-1", "P0", "P-7f", "N", "$:x", "P1 * *",
            "Very", "% off",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn rows_in_every_width() {
        let wide = parse("P8 * +KA *  *  *  *  * +HI * ").unwrap();
        let narrow = parse("P8 * +KA * * * * * +HI *").unwrap();
        let dotted = parse("P8 * +KA *  *  *  *  * +HI *.").unwrap();
        assert_eq!(wide, narrow);
        assert_eq!(wide, dotted);
        let Statement::Row(8, cells) = wide else { panic!("a row") };
        assert_eq!(cells[1], Some(Piece::new(Color::Black, PieceKind::Bishop)));
        assert_eq!(cells.iter().flatten().count(), 2);
    }

    #[test]
    fn piece_groups() {
        let Ok(Statement::Pieces(Color::White, places)) = parse("P-00GI00GI11OU00AL") else { panic!() };
        assert_eq!(places.len(), 4);
        assert_eq!(places[0], Place::Hand(PieceKind::Silver));
        assert_eq!(places[3], Place::Rest);
        assert!(parse("P+00TO").is_err());
        assert!(parse("P+00O").is_err());
        assert_eq!(parse("P+"), Ok(Statement::Pieces(Color::Black, Vec::new())));
    }

    #[test]
    fn lines_split_into_statements() {
        let parts: Vec<_> = split("+7776FU  ,T0       ,'T0      ,'7776   ,'   1手目").collect();
        assert_eq!(parts, ["+7776FU", "T0", "'T0", "'7776", "'   1手目"]);
        let parts: Vec<_> = split("%KACHI,'* -5000 win, really").collect();
        assert_eq!(parts, ["%KACHI", "'* -5000 win, really"]);
        let parts: Vec<_> = split("$EVENT:a, b").collect();
        assert_eq!(parts, ["$EVENT:a, b"]);
    }
}
