//! Reading a whole sequence of moves, as people type them and texts print them.
//!
//! The moves may be in any notation, mixed (`7g7f △３四歩 P-26`), separated by spaces (ASCII or
//! full-width), newlines or commas. Around them the reader skips:
//! - move numbers, with or without dots: `1.P-76 P-34 2.P-26`, `1. P2g-2f`, `12 ▲２六歩` (a
//!   number without a dot only where a move's number can stand: the first, else the one after
//!   the number before, else the number of the next ply or of the next pair of moves, so that
//!   `7g7f 7776` and USI's null move `0000` are words that are no move, not numbers), and
//!   the ellipsis for a move not shown (`1...G-32` in a handicap game, `...P-55`), which Western
//!   texts write before White's moves only: a move after one must be White's;
//! - trailing annotations (`!`, `?`, `!?`, `?!`, check and mate marks), numeric annotation
//!   glyphs (`$2`), CSA's times after a move and a comma (`+7776FU,T10`), result marks (`1-0`, `0-1`,
//!   `1/2-1/2`, `*`) and the words that end a game (投了, 千日手, 持将棋, 反則負け, 中断, 詰み,
//!   … with or without a side mark, as in `△投了`; KIF's summary `まで77手で先手の勝ち`;
//!   CSA's `%TORYO`, `%SENNICHITE` …; USI's `resign`, `win`, `draw`);
//! - nothing else: any other word is a move, or an error naming its place.
//!
//! A result mark or a word that ends the game ends the sequence: a move written after one is
//! an error, not a move of the game.
//!
//! Japanese moves may run together with no space between them (`▲７六歩△３四歩▲２六歩`, and
//! even `７六歩３四歩`): each is read as far as it goes, and the next starts after it.
//!
//! A sequence of yari shogi moves (read from a yari position) is Western or USI-like:
//! `1. P-7f P-3d 2. P-2f YB2a-3b`, and `1... P-3d 2. P-7f` when White moves first.
//!
//! Places count moves from 1, in the order they are written.

use std::fmt;

use super::{
    MoveSyntaxError, MoveToken, Previous, ResolveError, Style,
    japanese::{self, Destination},
    western::{self, strip_annotations},
    write,
};
use crate::{
    kifu::csa::EndingWord,
    shogi::{Color, Move, PieceKind, Position, Square, Variant},
};

/// The moves in a text, one at a time, with the text each was read from.
///
/// A word that is not a move comes out as a [`MoveSyntaxError`] in its turn; reading goes on
/// after it.
#[derive(Clone, Debug)]
pub struct MoveTokens<'a> {
    rest: &'a str,
    ellipsis: bool,
    variant: Variant,
    /// Whether a result mark or a word that ends the game has been read.
    ended: bool,
    /// Whether the last word was a CSA move or ending, which a time may follow after a comma
    /// (`+7776FU,T10`).
    after_csa: bool,
    /// The words returned so far (moves, or words that are not).
    words: u64,
    /// The last move number read.
    number: Option<u64>,
}

impl<'a> MoveTokens<'a> {
    /// The standard shogi moves written in `text`.
    pub fn new(text: &'a str) -> MoveTokens<'a> {
        MoveTokens::in_variant(text, Variant::Standard)
    }

    /// The moves of `variant` written in `text` (see [`MoveToken::parse_in`]).
    pub fn in_variant(text: &'a str, variant: Variant) -> MoveTokens<'a> {
        MoveTokens {
            rest: text,
            ellipsis: false,
            variant,
            ended: false,
            after_csa: false,
            words: 0,
            number: None,
        }
    }

    /// Whether the move last returned came right after an ellipsis (`1...G-32`, `... P-55`),
    /// which Western texts write before White's moves only.
    pub fn after_ellipsis(&self) -> bool {
        self.ellipsis
    }

    /// Whether `digits`, a number written without a dot, stands where a move's number can.
    fn numbers_a_move(&self, digits: &str) -> bool {
        let Some(n) = digits.parse::<u64>().ok().filter(|_| !digits.starts_with('0')) else { return false };
        match self.number {
            Some(last) => last.checked_add(1) == Some(n),
            None => {
                self.words == 0 || n == self.words + 1 || (self.words % 2 == 0 && n == self.words / 2 + 1)
            }
        }
    }
}

fn is_side_mark(c: char) -> bool {
    matches!(c, '▲' | '△' | '☗' | '☖' | '▼' | '▽')
}

fn is_separator(c: char) -> bool {
    c.is_whitespace() || c == ','
}

fn is_kanji_number(c: char) -> bool {
    "一二三四五六七八九".contains(c)
}

/// Whether the text starts like a Japanese move: a side mark, 同, a full-width or kanji
/// number, or ASCII digits followed by Japanese (`7六`, `76歩`, `24同`).
fn starts_japanese(text: &str) -> bool {
    let mut chars = text.chars();
    let (a, b, c) = (chars.next(), chars.next(), chars.next());
    match a {
        Some(a) if is_side_mark(a) || matches!(a, '同' | '仝' | '１'..='９') || is_kanji_number(a) => {
            true
        }
        Some('1'..='9') => match b {
            Some(b) if is_kanji_number(b) || matches!(b, '１'..='９') => true,
            Some('1'..='9') => c.is_some_and(|c| !c.is_ascii() && !c.is_whitespace()),
            _ => false,
        },
        _ => false,
    }
}

/// The text after a move number or ellipsis at the start of `text`, if there is one.
fn skip_number(text: &str) -> Option<&str> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let after = &text[digits..];
    let dotted = after.trim_start_matches(['.', '…']);
    if dotted.len() < after.len() || (digits > 0 && (after.is_empty() || after.starts_with(is_separator))) {
        Some(dotted)
    } else {
        None
    }
}

/// Words that end a game: result marks and the words for how it ended, the Japanese ones
/// with or without a side mark (`△投了`), as records write them.
fn is_ending(word: &str) -> bool {
    let japanese = word.strip_prefix(is_side_mark).unwrap_or(word);
    matches!(word, "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*" | "resign" | "win" | "draw")
        || word.strip_prefix('%').is_some_and(|w| EndingWord::parse(w).is_some())
        || word.starts_with("まで")
        || matches!(
            japanese,
            "投了"
                | "詰み"
                | "詰"
                | "中断"
                | "千日手"
                | "連続王手の千日手"
                | "持将棋"
                | "反則手"
                | "反則負け"
                | "反則勝ち"
                | "切れ負け"
                | "時間切れ"
                | "時間切れ負け"
                | "入玉勝ち"
                | "宣言勝ち"
                | "入玉宣言"
                | "不戦勝"
                | "不戦敗"
                | "不詰"
                | "引き分け"
                | "封じ手"
                | "最大手数"
        )
}

fn digits(n: &str) -> bool {
    !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())
}

/// A numeric annotation glyph (`$2`), which carries nothing a move list needs.
fn is_glyph(word: &str) -> bool {
    word.strip_prefix('$').is_some_and(digits)
}

/// A CSA time (`T10`, `T9.5`). Only after a CSA move and a comma is it one: `T55` alone is a
/// Hosking move of a tokin.
fn is_csa_time(word: &str) -> bool {
    word.strip_prefix('T').is_some_and(|t| {
        let (whole, fraction) = t.split_once('.').unwrap_or((t, "0"));
        digits(whole) && digits(fraction)
    })
}

/// The end of the word at the start of `text`: a separator, or a side mark after the first
/// character (the start of the next Japanese move).
fn word_end(text: &str) -> usize {
    text.char_indices()
        .find(|&(i, c)| is_separator(c) || (i > 0 && is_side_mark(c)))
        .map_or(text.len(), |(i, _)| i)
}

impl<'a> Iterator for MoveTokens<'a> {
    type Item = (&'a str, Result<MoveToken, MoveSyntaxError>);

    fn next(&mut self) -> Option<Self::Item> {
        self.ellipsis = false;
        loop {
            let before = self.rest;
            self.rest = self.rest.trim_start_matches(is_separator);
            let after_comma = before[..before.len() - self.rest.len()].contains(',');
            if self.rest.is_empty() {
                return None;
            }
            if let Some(after) = skip_number(self.rest) {
                let skipped = &self.rest[..self.rest.len() - after.len()];
                let digits = skipped.trim_end_matches(['.', '…']);
                let dotted = digits.len() < skipped.len();
                if dotted || self.numbers_a_move(digits) {
                    self.ellipsis = skipped.contains("..") || skipped.contains('…');
                    self.number = digits.parse().ok().or(self.number);
                    self.rest = after;
                    continue;
                }
            }
            let end = word_end(self.rest);
            let word = &self.rest[..end];
            if self.after_csa && after_comma && is_csa_time(word) {
                (self.after_csa, self.rest) = (false, &self.rest[end..]);
                continue;
            }
            if is_ending(word) || is_glyph(word) {
                self.ended |= is_ending(word);
                self.after_csa = word.starts_with('%') && is_ending(word);
                self.rest = &self.rest[end..];
                continue;
            }
            self.words += 1;
            if self.ended {
                self.rest = &self.rest[end..];
                return Some((word, Err(MoveSyntaxError::new(word, "a move after the game ended"))));
            }
            if starts_japanese(self.rest) {
                if let Ok((mv, used)) = japanese::parse_prefix(self.rest) {
                    let text = &self.rest[..used];
                    self.rest = self.rest[used..].trim_start_matches(['!', '?', '#']);
                    self.after_csa = false;
                    return Some((text, Ok(MoveToken::Japanese(mv))));
                }
            }
            self.rest = &self.rest[end..];
            let token = MoveToken::parse_in(strip_annotations(word), self.variant)
                .map_err(|e| MoveSyntaxError::new(word, e.why));
            self.after_csa = matches!(token, Ok(MoveToken::Csa(_)));
            return Some((word, token));
        }
    }
}

/// A move of a sequence that cannot be read or played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {place} ({}, {turn} to move): {kind}", crate::text::excerpt(.text))]
pub struct SequenceError {
    /// The move's place in the sequence, from 1.
    pub place: usize,
    /// The move as written.
    pub text: String,
    /// The side to move when the move was read.
    pub turn: Color,
    pub kind: SequenceErrorKind,
}

/// Why a move of a sequence failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SequenceErrorKind {
    /// The text is not a move in any notation.
    Unreadable(MoveSyntaxError),
    /// The move does not name exactly one legal move. `candidates` holds, for an ambiguous
    /// move, each candidate; for a move that fits no legal move and gives no rules' reason,
    /// the legal moves of the written piece to the written square, which `target` names
    /// (`金 to ５八`). Candidates are written in the move's own notation (and USI). `variant`
    /// is the game, whose letters the message uses.
    Unplayable { error: ResolveError, candidates: Vec<String>, target: Option<String>, variant: Variant },
}

impl fmt::Display for SequenceErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SequenceErrorKind::Unreadable(e) => f.write_str(e.why),
            SequenceErrorKind::Unplayable { error: ResolveError::Ambiguous(_), candidates, .. } => {
                write!(f, "ambiguous: it could be {}", candidates.join(" or "))
            }
            SequenceErrorKind::Unplayable {
                error: ResolveError::NoSuchMove(None),
                candidates,
                target,
                ..
            } => match target {
                Some(target) if candidates.is_empty() => write!(f, "no such move: no legal {target}"),
                Some(target) => write!(
                    f,
                    "no such move as written: the legal {target} {} {}",
                    if candidates.len() == 1 { "is" } else { "are" },
                    candidates.join(" or ")
                ),
                None => f.write_str("no such move"),
            },
            SequenceErrorKind::Unplayable { error, .. } => error.fmt(f),
        }
    }
}

impl std::error::Error for SequenceErrorKind {}

/// The notation a token was written in, for writing its alternatives.
fn style_of(token: &MoveToken) -> Style {
    match token {
        MoveToken::Usi(_) => Style::Usi,
        MoveToken::Csa(_) => Style::Csa,
        MoveToken::Japanese(_) => Style::Japanese,
        MoveToken::Western(_) => Style::Western,
    }
}

/// The piece kind and destination a Japanese or Western move names, if it names them.
fn written_target(token: &MoveToken, previous: Previous) -> Option<(PieceKind, Square)> {
    match token {
        MoveToken::Japanese(m) => {
            let to = match m.destination {
                Destination::Square(sq) | Destination::SquareSame(sq) => Some(sq),
                Destination::Same => previous,
            };
            Some((m.piece?, to?))
        }
        MoveToken::Western(m) => Some((m.piece, m.destination.or(previous)?)),
        MoveToken::Usi(_) | MoveToken::Csa(_) => None,
    }
}

/// Why `token` names no one legal move in `pos` (`error`), in the words of its notation:
/// an ambiguous move's candidates, or for a move that fits none and gives no rules' reason,
/// the legal moves of the written piece to the written square.
pub(crate) fn unplayable(
    pos: &Position,
    token: &MoveToken,
    previous: Previous,
    error: ResolveError,
) -> SequenceErrorKind {
    let style = style_of(token);
    let list = |moves: &[Move]| -> Vec<String> {
        moves
            .iter()
            .map(|&m| match style {
                Style::Usi => m.to_string(),
                _ => format!("{} ({m})", write(pos, m, previous, style)),
            })
            .collect()
    };
    let (candidates, target) = match &error {
        ResolveError::Ambiguous(moves) => (list(moves), None),
        ResolveError::NoSuchMove(None) => match written_target(token, previous) {
            Some((kind, to)) => {
                let target = match style {
                    Style::Japanese => {
                        format!("{} to {}", japanese::piece_name(kind), japanese::square_text(to))
                    }
                    _ => format!("{} to {to}", western::letters(pos.variant(), kind)),
                };
                (list(&pos.legal_moves_of_kind_to(kind, to)), Some(target))
            }
            None => (Vec::new(), None),
        },
        _ => (Vec::new(), None),
    };
    SequenceErrorKind::Unplayable { error, candidates, target, variant: pos.variant() }
}

/// Reads a sequence of moves from `start` (see the module documentation for what it accepts)
/// and returns them as legal moves. The moves are read as moves of `start`'s game.
///
/// ```
/// use kifudex::{notation::read_sequence, shogi::Position};
///
/// let moves = read_sequence(&Position::startpos(), "1.P-76 △３四歩 2g2f").unwrap();
/// let usi: Vec<String> = moves.iter().map(ToString::to_string).collect();
/// assert_eq!(usi, ["7g7f", "3c3d", "2g2f"]);
/// ```
///
/// # Errors
///
/// The first move that cannot be read or played, with its place, its text and why.
pub fn read_sequence(start: &Position, text: &str) -> Result<Vec<Move>, SequenceError> {
    let mut pos = start.clone();
    let mut previous = start.last_move().map(Move::to);
    let mut moves = Vec::new();
    let mut tokens = MoveTokens::in_variant(text, start.variant());
    let mut place = 0;
    while let Some((word, token)) = tokens.next() {
        place += 1;
        let fail = |kind| SequenceError { place, text: word.trim().to_string(), turn: pos.turn(), kind };
        let token = token.map_err(|e| fail(SequenceErrorKind::Unreadable(e)))?;
        if tokens.after_ellipsis() && pos.turn() == Color::Black {
            let error = ResolveError::WrongSide { written: Color::White, to_move: Color::Black };
            let variant = pos.variant();
            return Err(fail(SequenceErrorKind::Unplayable {
                error,
                candidates: Vec::new(),
                target: None,
                variant,
            }));
        }
        let mv = token.resolve(&pos, previous).map_err(|e| fail(unplayable(&pos, &token, previous, e)))?;
        pos.play_unchecked(mv);
        previous = Some(mv.to());
        moves.push(mv);
    }
    Ok(moves)
}

/// A move written without a promotion mark where the piece could promote or not, which its
/// notation must then mark: read as not promoting. Its display is the warning's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnmarkedPromotion {
    /// The move's place in its sequence, counted from 1.
    pub place: usize,
    /// The move as written.
    pub text: String,
    /// The marks its notation writes: Western `+`/`=`, or Japanese 成/不成.
    western: bool,
}

impl fmt::Display for UnmarkedPromotion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (marks, notation) =
            if self.western { ("'+' nor '='", "Western") } else { ("成 nor 不成", "Japanese") };
        write!(
            f,
            "move {} ({}) could promote, and writes neither {marks} (as {notation} notation must there): read as \
             not promoting",
            self.place, self.text
        )
    }
}

/// The moves of `text`, read from `start` as [`read_sequence`] reads them, that write no
/// promotion mark where the piece could promote or not (see [`UnmarkedPromotion`]). Reading
/// stops at the first move that cannot be read or played.
pub fn unmarked_promotions(start: &Position, text: &str) -> Vec<UnmarkedPromotion> {
    let mut pos = start.clone();
    let mut previous = start.last_move().map(Move::to);
    let mut found = Vec::new();
    for (place, (word, token)) in (1..).zip(MoveTokens::in_variant(text, start.variant())) {
        let Ok(token) = token else { break };
        let Ok(mv) = token.resolve(&pos, previous) else { break };
        found.extend(unmarked_promotion(&pos, &token, mv, place, || word.trim().to_string()));
        pos.play_unchecked(mv);
        previous = Some(mv.to());
    }
    found
}

/// `mv`, read from `token` (the `place`th move, written as `text` gives: only asked for
/// when it is one) in `pos`, when it is a Western move that writes neither `+` nor `=`, or a
/// Japanese move without an origin that writes neither 成 nor 不成, where the piece could
/// promote. A KIF move names its origin (`(77)`), and its format reads no mark as no
/// promotion.
pub(crate) fn unmarked_promotion(
    pos: &Position,
    token: &MoveToken,
    mv: Move,
    place: usize,
    text: impl FnOnce() -> String,
) -> Option<UnmarkedPromotion> {
    let western = match token {
        MoveToken::Western(w) if w.promotion.is_none() => true,
        MoveToken::Japanese(j) if j.promotion.is_none() && j.origin.is_none() => false,
        _ => return None,
    };
    let Move::Normal { from, to, promote: false } = mv else { return None };
    pos.is_legal(Move::Normal { from, to, promote: true }).then(|| UnmarkedPromotion {
        place,
        text: text(),
        western,
    })
}
