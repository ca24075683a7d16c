//! Western move notation: Hodges (`P-7f`, `Bx2b+`, `B*4e`, `G7g-7h`, `N-7c=`), Hosking
//! (`P76`, `B'56`, `G77-78`) and the letters 81Dojo uses for promoted pieces (D dragon,
//! H horse, T tokin).
//!
//! A move is `piece (origin) movement destination (promotion)`. This module reads the text into
//! a [`WesternMove`] without looking at any position.
//!
//! Yari shogi is written the same way, with its own pieces ([`parse_in`]): `P`, `YN` (yari
//! knight), `YB` (yari bishop), `YR` (yari rook) and `G` (general); promoted `+P` (yari
//! silver), `+YN` and `+YB` (yari golds) and `+YR` (rook); squares on files 1 to 7 only:
//! `P-7f`, `YNx7c=`, `YB6i-5h`, `YR*3e`, Hosking `YB6958`. A letter of the other game (`S`
//! in yari shogi, `YB` in shogi) is an error that says so, as is a square off the board.
//!
//! Accepted beyond the standard forms: ranks as letters (Hodges) or digits (Hosking); the
//! hyphen left out (`P2f`, `P76`); drops marked `*`, `'`, `’` or `@`; the short capture form
//! of some texts (`Px`, `Rx`: the destination is the previous move's); a leading move number
//! or ellipsis (`1.P-76`, `1...G-32`, `12…P-24`); trailing annotations (`!`, `?`, `!?`, `?!`,
//! `!!`, `??`), check and mate marks (`ch`, `#`, `†`) and numeric annotation glyphs (`$2`).

use super::MoveSyntaxError;
use crate::shogi::{PieceKind, Square, Variant};

/// What the movement symbol says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `-`, or no symbol (Hosking): a move that does not say whether it captures.
    Move,
    /// `x`: a capture.
    Capture,
    /// `*`, `'`, `’` or `@`: a drop.
    Drop,
}

/// A Western move as written, not yet resolved against a position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct WesternMove {
    /// The game whose letters the move is written in; it resolves in a position of that game
    /// only.
    pub variant: Variant,
    /// The piece as written (before the move), as [`crate::shogi::variant`] encodes the
    /// game's pieces (a yari knight is a [`PieceKind::Knight`]).
    pub piece: PieceKind,
    /// The origin, written only to tell pieces apart: `G7g-7h`.
    pub origin: Option<Square>,
    pub action: Action,
    /// The destination, or `None` in the short capture form `Px` (the previous destination).
    pub destination: Option<Square>,
    /// `+` is `Some(true)`, `=` is `Some(false)`, nothing is `None`.
    pub promotion: Option<bool>,
}

/// Strips a leading move number and dots or ellipsis: `12.`, `1...`, `3…`, `...`.
pub fn strip_move_number(text: &str) -> &str {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &text[digits..];
    let dotted = rest.trim_start_matches(['.', '…']);
    if dotted.len() < rest.len() || digits == 0 { dotted.trim_start() } else { text }
}

/// Strips trailing annotations: `!`, `?`, check and mate marks, `$n` glyphs, and the full stop
/// that ends a sentence (`… 15.P'8g.`).
pub fn strip_annotations(mut text: &str) -> &str {
    loop {
        let before = text.len();
        text = text.trim_end_matches(['!', '?', '#', '†', ' ', '.']);
        if let Some(i) = text.rfind('$') {
            if i > 0 && text[i + 1..].bytes().all(|b| b.is_ascii_digit()) && text.len() > i + 1 {
                text = &text[..i];
            }
        }
        if let Some(rest) = text.strip_suffix("ch") {
            text = rest;
        }
        if text.len() == before {
            return text;
        }
    }
}

fn square(f: u8, r: u8) -> Option<Square> {
    let file = f.checked_sub(b'0')?;
    let rank = match r {
        b'1'..=b'9' => r - b'0',
        b'a'..=b'i' => r - b'a' + 1,
        _ => return None,
    };
    Square::from_numbers(file, rank)
}

/// The letters of `kind` in `variant`'s Western notation: `P`, `+R`, `YN`, `+YB`, `G` (yari
/// shogi's general).
pub const fn letters(variant: Variant, kind: PieceKind) -> &'static str {
    match variant {
        Variant::Standard => kind.sfen(),
        Variant::Yari => match kind {
            PieceKind::Pawn => "P",
            PieceKind::Knight => "YN",
            PieceKind::Bishop => "YB",
            PieceKind::Rook => "YR",
            PieceKind::King => "G",
            PieceKind::ProPawn => "+P",
            PieceKind::ProKnight => "+YN",
            PieceKind::Horse => "+YB",
            PieceKind::Dragon => "+YR",
            // No yari piece: the standard letters, which no yari move reads back.
            other => other.sfen(),
        },
    }
}

/// Whether `word` is a Western move naming a yari shogi piece (`YN`, `YB` or `YR`, promoted or
/// not): the pieces that tell a yari shogi text from a shogi one.
pub fn names_yari_piece(word: &str) -> bool {
    let core = strip_move_number(word.trim());
    let core = core.strip_prefix('+').unwrap_or(core);
    matches!(core.as_bytes(), [b'Y', b'N' | b'B' | b'R', ..]) && parse_in(word, Variant::Yari).is_ok()
}

/// Reads one standard shogi Western move, with an optional leading move number and trailing
/// annotations.
///
/// # Errors
///
/// [`MoveSyntaxError`] when the text is not a Western move.
pub fn parse(text: &str) -> Result<WesternMove, MoveSyntaxError> {
    parse_in(text, Variant::Standard)
}

/// The piece a standard shogi move names, read from `b` at `i` (after any `+`); moves `i` past
/// its letter.
fn standard_piece(b: &[u8], i: &mut usize, promoted: bool) -> Result<PieceKind, &'static str> {
    let letter = *b.get(*i).ok_or("expected a piece letter")?;
    *i += 1;
    Ok(match (letter, promoted) {
        (b'D', false) => PieceKind::Dragon,
        (b'H', false) => PieceKind::Horse,
        (b'T', false) => PieceKind::ProPawn,
        (b'Y', _) if matches!(b.get(*i), Some(b'N' | b'B' | b'R')) => {
            return Err("YN, YB and YR are yari shogi pieces, not shogi's");
        }
        (l, _) if l.is_ascii_uppercase() => {
            let kind = PieceKind::from_letter(l as char).ok_or("unknown piece letter")?;
            if promoted { kind.promote().ok_or("this piece cannot be promoted")? } else { kind }
        }
        _ => return Err("expected a piece letter (P L N S G B R K, +P … +R, D H T)"),
    })
}

/// The piece a yari shogi move names, read from `b` at `i` (after any `+`); moves `i` past
/// its letters.
fn yari_piece(b: &[u8], i: &mut usize, promoted: bool) -> Result<PieceKind, &'static str> {
    let letter = *b.get(*i).ok_or("expected a piece letter")?;
    *i += 1;
    let kind = match letter {
        b'P' => PieceKind::Pawn,
        b'G' => PieceKind::King,
        b'Y' => {
            let second = b.get(*i).copied();
            *i += 1;
            match second {
                Some(b'N') => PieceKind::Knight,
                Some(b'B') => PieceKind::Bishop,
                Some(b'R') => PieceKind::Rook,
                _ => {
                    return Err(
                        "Y starts a yari piece: YN (yari knight), YB (yari bishop) or YR (yari rook)",
                    );
                }
            }
        }
        b'S' => return Err("yari shogi has no silver: its pieces are P, YN, YB, YR and G"),
        b'L' => return Err("yari shogi has no lance: its pieces are P, YN, YB, YR and G"),
        b'N' | b'B' | b'R' => {
            return Err("N, B and R are shogi's letters: yari shogi writes its pieces YN, YB and YR");
        }
        b'K' => return Err("yari shogi writes its general G, not K"),
        b'D' | b'H' | b'T' => {
            return Err("D, H and T are shogi's promoted pieces: yari shogi writes +P, +YN, +YB and +YR");
        }
        _ => return Err("expected a yari shogi piece (P YN YB YR G, +P +YN +YB +YR)"),
    };
    match (kind, promoted) {
        (PieceKind::King, true) => Err("the general does not promote"),
        (kind, true) => Ok(kind.promote().unwrap_or(kind)),
        (kind, false) => Ok(kind),
    }
}

/// Reads one Western move of `variant`, with an optional leading move number and trailing
/// annotations.
///
/// # Errors
///
/// [`MoveSyntaxError`] when the text is not a Western move of that game: a piece letter of
/// another game and a square off the board are said so.
pub fn parse_in(text: &str, variant: Variant) -> Result<WesternMove, MoveSyntaxError> {
    let err = |why| MoveSyntaxError::new(text, why);
    let core = strip_annotations(strip_move_number(text.trim()));
    let b = core.as_bytes();
    let mut i = 0;

    let promoted = b.first() == Some(&b'+');
    if promoted {
        i += 1;
    }
    let piece = match variant {
        Variant::Standard => standard_piece(b, &mut i, promoted),
        Variant::Yari => yari_piece(b, &mut i, promoted),
    }
    .map_err(err)?;

    // Up to two squares: origin and destination, or the destination alone.
    let mut squares = Vec::with_capacity(2);
    let mut action = None;
    let mut promotion = None;
    while i < b.len() {
        match b[i] {
            b'-' | b'x' | b'X' | b'*' | b'\'' | b'@' if action.is_none() => {
                action = Some(match b[i] {
                    b'-' => Action::Move,
                    b'x' | b'X' => Action::Capture,
                    _ => Action::Drop,
                });
                i += 1;
            }
            b'+' | b'=' if i + 1 == b.len() => {
                promotion = Some(b[i] == b'+');
                i += 1;
            }
            f @ b'1'..=b'9' if squares.len() < 2 => {
                let r = *b.get(i + 1).ok_or_else(|| err("a square needs a file and a rank"))?;
                let sq = square(f, r).ok_or_else(|| err("not a square (like 7f or 76)"))?;
                if !variant.contains(sq) {
                    return Err(err("a square off the 7×9 yari shogi board (files 1 to 7, ranks a to i)"));
                }
                squares.push(sq);
                i += 2;
            }
            _ if core[i..].starts_with('’') && action.is_none() => {
                action = Some(Action::Drop);
                i += '’'.len_utf8();
            }
            _ => return Err(err("unexpected character")),
        }
    }
    let (origin, destination) = match (squares.as_slice(), action) {
        ([], Some(Action::Capture)) => (None, None),
        ([to], _) => (None, Some(*to)),
        ([from, to], Some(Action::Move | Action::Capture) | None) => (Some(*from), Some(*to)),
        ([], _) => return Err(err("expected a destination square")),
        _ => return Err(err("a drop has no origin")),
    };
    let action = action.unwrap_or(Action::Move);
    if action == Action::Drop && promotion.is_some() {
        return Err(err("a drop cannot promote"));
    }
    Ok(WesternMove { variant, piece, origin, action, destination, promotion })
}

/// Writes the move back in Hodges form: `P-7f`, `S7bx8c+`, `B*4e`, `Px`, `YNx7c=`.
impl std::fmt::Display for WesternMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(letters(self.variant, self.piece))?;
        if let Some(origin) = self.origin {
            write!(f, "{origin}")?;
        }
        f.write_str(match self.action {
            Action::Move => "-",
            Action::Capture => "x",
            Action::Drop => "*",
        })?;
        if let Some(to) = self.destination {
            write!(f, "{to}")?;
        }
        match self.promotion {
            Some(true) => f.write_str("+"),
            Some(false) => f.write_str("="),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(text: &str) -> Square {
        text.parse().unwrap()
    }

    #[test]
    fn hodges_and_hosking_forms() {
        let hodges = parse("P-7f").unwrap();
        let hosking = parse("P76").unwrap();
        assert_eq!(hodges, hosking);
        assert_eq!(hodges.destination, Some(sq("7f")));
        assert_eq!(parse("P2f").unwrap().destination, Some(sq("2f")));

        let m = parse("S7bx8c+").unwrap();
        assert_eq!(m, parse("S72x83+").unwrap());
        assert_eq!((m.origin, m.action, m.promotion), (Some(sq("7b")), Action::Capture, Some(true)));
        assert_eq!(parse("S72-83+").unwrap().action, Action::Move);

        for drop in ["P*2c", "P'2c", "P’2c", "P@2c", "P'23"] {
            let m = parse(drop).unwrap();
            assert_eq!((m.action, m.destination), (Action::Drop, Some(sq("2c"))), "{drop}");
        }
        assert_eq!(parse("B'56").unwrap(), parse("B*5f").unwrap());
        assert_eq!(parse("N-7c=").unwrap().promotion, Some(false));
        assert_eq!(parse("G7g-7h").unwrap().origin, Some(sq("7g")));
        assert_eq!(parse("G77-78").unwrap(), parse("G7g-7h").unwrap());
    }

    #[test]
    fn promoted_pieces_and_81dojo_letters() {
        assert_eq!(parse("+P-5c").unwrap().piece, PieceKind::ProPawn);
        assert_eq!(parse("T-5c").unwrap().piece, PieceKind::ProPawn);
        assert_eq!(parse("+R-5c").unwrap().piece, PieceKind::Dragon);
        assert_eq!(parse("D-5c").unwrap().piece, PieceKind::Dragon);
        assert_eq!(parse("H-5c").unwrap().piece, PieceKind::Horse);
        assert!(parse("+G-5c").is_err());
    }

    #[test]
    fn numbers_annotations_and_short_captures() {
        assert_eq!(parse("1.P-76").unwrap().destination, Some(sq("7f")));
        assert_eq!(parse("1...G-32").unwrap().piece, PieceKind::Gold);
        assert_eq!(parse("...P-55").unwrap().destination, Some(sq("5e")));
        assert_eq!(parse("12…P-24").unwrap().destination, Some(sq("2d")));
        for annotated in
            ["P-7f!", "P-7f?", "P-7f!?", "P-7f?!", "P-7f!!", "P-7f $2", "P-7fch", "P-7f#", "P-7f."]
        {
            assert_eq!(parse(annotated).unwrap().destination, Some(sq("7f")), "{annotated}");
        }
        let short = parse("8.Px").unwrap();
        assert_eq!((short.action, short.destination), (Action::Capture, None));
        assert_eq!(parse("Rx").unwrap().piece, PieceKind::Rook);
    }

    #[test]
    fn not_western_moves() {
        for text in ["", "P", "P-", "p-7f", "P-7j", "P-0f", "P*7f+", "P7g*7f", "Q-7f", "P-7f7", "P-7f-"] {
            assert!(parse(text).is_err(), "{text:?}");
        }
    }
}
