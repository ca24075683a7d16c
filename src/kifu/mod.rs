//! Whole records: format detection, decoding, the readers of every format, and the game model
//! they produce.
//!
//! Readers check syntax only: a move that is well written but illegal is the replay's
//! business ([`crate::replay`]); writing a record, which needs the positions replay finds,
//! is [`crate::write`]'s. This module reaches nothing above [`crate::notation`]. Every reader returns every game it finds; a game it cannot
//! read to the end keeps what came before and says where and why it stopped
//! ([`Game::problem`]).
//!
//! A game stops only where a move (or the start position) cannot be read. What the game does
//! not need is read past, and each such place is a [`Warning`] in [`Game::warnings`], with its
//! line and one of these codes:
//! - `unknown_line`: a line that is no part of the format (a CSA engine comment that lost its
//!   `'`, a stray HTML tag, a line of mojibake, a KIF header among the moves, a key JKF does
//!   not define), skipped;
//! - `unknown_ending`: a CSA ending word the format does not define (`%GOTE_WIN_CHECKMATE`):
//!   the game ends there without a stated ending, and replay judges it by its moves; a
//!   Western `[Termination]` that names no ending (`adjudication`): the game ends as its
//!   `[Result]` says;
//! - `second_ending`: a KIF or KI2 ending after the game's first, a CSA `%` word or a JKF
//!   `special` after the first that says something else, a Western `[Result]` tag that contradicts the result
//!   after the moves: read past, the first stands;
//! - `variation_left_out`: a KIF or KI2 variation that branches from no move, a variation or
//!   JKF fork of comments alone (quoted), JKF forks nested too deep;
//! - `variation_cut`: a variation that could not be read to its end, kept up to there;
//! - `bad_time`: a JKF move's `time` that is no time, left out (the move is kept);
//! - `time_totals`: a KIF or JKF running total that is not the sum of the side's times read
//!   so far: the totals are not kept (one warning a game, at the first);
//! - `time_rounded`: times that held fractions of a second (CSA V3's `T1.250`, a JKF
//!   `"s": 1.25`), kept in whole seconds, rounded down: one warning a game, at the first;
//! - `stray_time`: a CSA time that follows no move or ending, or one that already has its
//!   time, skipped (the warning names the move, when the time follows one);
//! - `unknown_handicap`: a KIF or KI2 手合割 that names no handicap, read as the even game;
//! - `row_out_of_order`: a KIF row numbered back from the row before it, read past with the
//!   rows after it up to the next 変化 line (a variation whose 変化 line was lost);
//! - `undecodable_bytes`: a line with bytes that are text in no encoding read here, read
//!   with U+FFFD in their place (a move so read stops its game there, as any unreadable move);
//! - `mixed_encoding`: a line in another encoding than the rest of the file, read in its own
//!   (see [`encoding::decode_lossy`]).
//!
//! Yari shogi games ([`Variant::Yari`]) are read from Western text and USI-like lines only,
//! the formats that can write its pieces; a game's variant is its start's
//! ([`Start::variant`]). [`read_file`] finds it in the record (a `[Variant]` tag, a seven-file
//! SFEN, a move naming a yari piece); [`read_file_as`] is told it.

pub mod csa;
pub mod encoding;
pub mod eval;
mod game;
pub mod grid;
pub mod info;
pub mod jkf;
pub(crate) mod kakinoki;
mod names;
mod problem;
pub(crate) mod support;
pub mod usi;
pub mod western;

use std::path::Path;

use crate::shogi::{Setup, Variant};

pub use game::{
    DateTime, Ending, Format, Game, Header, Info, MoveEntry, Outcome, Player, Start, Termination, Variation,
    Warning,
};
pub use kakinoki::{bod, ki2, kif};
pub use names::NameKind;
pub use problem::{ReadErrorKind, ReadProblem};
pub use support::{MAX_PLIES, TooManyMoves, UnknownVariant, VariantConflict};

/// A record file read into games.
#[derive(Clone, Debug)]
pub struct ParsedFile {
    pub format: Format,
    /// The encoding the bytes were decoded from: `utf-8`, `utf-8-bom`, `cp932`, `euc-jp`.
    pub encoding: &'static str,
    /// Every game in the file, in file order.
    pub games: Vec<Game>,
}

/// Why a file yields no games at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    /// The bytes are text in none of the supported encodings.
    #[error("not text in a supported encoding: {0}")]
    Decode(String),
    /// The text is no record format kifudex knows.
    #[error("not a game record in any supported format")]
    UnknownFormat,
    /// The file is empty (or only white space).
    #[error("empty file")]
    Empty,
    /// The file's format cannot hold a game of the variant asked for.
    #[error("a {} file cannot hold {} games (they are read from KIF, KI2, JKF, Western text or USI-like lines)", .format.name().to_uppercase(), .variant.title().to_lowercase())]
    WrongVariant { format: Format, variant: Variant },
}

impl FileError {
    /// A short stable code: `decode`, `unknown_format`, `empty`.
    pub fn code(&self) -> &'static str {
        match self {
            FileError::Decode(_) => "decode",
            FileError::UnknownFormat => "unknown_format",
            FileError::Empty => "empty",
            FileError::WrongVariant { .. } => "wrong_variant",
        }
    }
}

/// Decodes `bytes`, detects the format (by content; the path's extension is only a hint) and
/// reads every game.
///
/// # Errors
///
/// A [`FileError`] when the file yields no game at all. Games that are broken part-way are
/// returned with [`Game::problem`] set, not as errors.
pub fn read_file(path: Option<&Path>, bytes: &[u8]) -> Result<ParsedFile, FileError> {
    read_file_as(path, bytes, None)
}

/// Reads a file as [`read_file`] does, its games as games of `variant` when given (see
/// [`read_as`]).
///
/// # Errors
///
/// As [`read_file`]; and [`FileError::WrongVariant`] for yari shogi asked of a format that
/// cannot hold it.
pub fn read_file_as(
    path: Option<&Path>,
    bytes: &[u8],
    variant: Option<Variant>,
) -> Result<ParsedFile, FileError> {
    let opened = open_file(path, bytes)?;
    if variant.is_some_and(|v| !opened.format.holds_variant(v)) {
        return Err(FileError::WrongVariant { format: opened.format, variant: variant.unwrap_or_default() });
    }
    let mut games = read_as(opened.format, &opened.text, variant);
    tell_decoding(&mut games, &opened.fixes, opened.encoding);
    if games.is_empty() {
        return Err(FileError::UnknownFormat);
    }
    Ok(ParsedFile { format: opened.format, encoding: opened.encoding, games })
}

/// A file decoded, its format known, its games not read yet.
#[derive(Debug)]
pub struct OpenedFile<'a> {
    pub format: Format,
    /// As in [`ParsedFile::encoding`].
    pub encoding: &'static str,
    pub text: std::borrow::Cow<'a, str>,
    /// The lines not read in `encoding` (see [`encoding::decode_lossy`]); for
    /// [`tell_decoding`].
    pub fixes: Vec<encoding::LineFix>,
}

impl<'a> OpenedFile<'a> {
    /// The file, as one that borrows nothing, when its text was decoded into a string of its
    /// own (from Shift_JIS, EUC-JP or UTF-16): the bytes it was read from may then be let go
    /// of. `Err` gives back a file whose text is its bytes (UTF-8).
    pub fn detached(self) -> Result<OpenedFile<'static>, OpenedFile<'a>> {
        match self.text {
            std::borrow::Cow::Owned(text) => Ok(OpenedFile {
                format: self.format,
                encoding: self.encoding,
                text: std::borrow::Cow::Owned(text),
                fixes: self.fixes,
            }),
            std::borrow::Cow::Borrowed(_) => Err(self),
        }
    }
}

/// Decodes `bytes` and detects the format, as [`read_file`] does before it reads the games.
///
/// # Errors
///
/// [`FileError::Decode`], [`FileError::Empty`], or [`FileError::UnknownFormat`] when no reader
/// recognizes the text.
pub fn open_file<'a>(path: Option<&Path>, bytes: &'a [u8]) -> Result<OpenedFile<'a>, FileError> {
    let encoding::Lossy { text, encoding, fixes } =
        encoding::decode_lossy(bytes).map_err(|e| FileError::Decode(e.to_string()))?;
    if text.trim().is_empty() {
        return Err(FileError::Empty);
    }
    let format = detect(path, &text).ok_or(FileError::UnknownFormat)?;
    Ok(OpenedFile { format, encoding: encoding.name(), text, fixes })
}

/// Tells each game of `games` (read from a text of which they are all the games from some
/// line on) the lines among `fixes` that it holds, as at most one warning of each kind:
/// `undecodable_bytes` and `mixed_encoding`, at the first such line. A line before the
/// first game's is the first game's. `encoding` is the name of the rest of the file's.
pub fn tell_decoding(games: &mut [Game], fixes: &[encoding::LineFix], encoding: &str) {
    use encoding::LineFix;
    if games.is_empty() || fixes.is_empty() {
        return;
    }
    let mut told: Vec<[(Option<LineFix>, usize); 2]> = vec![[(None, 0); 2]; games.len()];
    for &fix in fixes {
        let game = games.partition_point(|g| g.line <= fix.line()).saturating_sub(1);
        let slot = &mut told[game][usize::from(matches!(fix, LineFix::Other { .. }))];
        slot.0.get_or_insert(fix);
        slot.1 += 1;
    }
    for (game, kinds) in games.iter_mut().zip(told) {
        for (fix, count) in kinds {
            let Some(fix) = fix else { continue };
            let (code, mut message) = match fix {
                LineFix::Replaced { column, byte, .. } if encoding.starts_with("utf-16") => (
                    "undecodable_bytes",
                    format!(
                        "the {encoding} unit at column {column} (first byte 0x{byte:02X}) is no text, half \
                         of a surrogate pair or a last odd byte: such units are read as U+FFFD"
                    ),
                ),
                LineFix::Replaced { column, byte, .. } => (
                    "undecodable_bytes",
                    format!(
                        "byte 0x{byte:02X} at column {column} is text in none of UTF-8, CP932 and EUC-JP: \
                         the line's bytes that are not text are read as U+FFFD"
                    ),
                ),
                LineFix::Other { encoding: other, .. } => (
                    "mixed_encoding",
                    format!(
                        "the line is {} and is read so, where the rest of the file is {encoding}",
                        other.name()
                    ),
                ),
            };
            if count > 1 {
                let _ = std::fmt::Write::write_fmt(
                    &mut message,
                    format_args!(" (and {} other lines of this game)", count - 1),
                );
            }
            game.warnings.push(Warning { line: fix.line(), ply: None, code, message });
        }
    }
}

/// A part of a text of many games, cut between two of them, so that a large file can be read
/// a part at a time: reading its pieces one after the other ([`read_piece`]) gives the games
/// that reading it whole gives, with the same line numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece<'a> {
    pub text: &'a str,
    /// The number of the whole text's line before the piece (0 for the first piece).
    pub lines_before: u32,
}

/// Cuts `text`, in `format`, into pieces of at least `bytes` bytes (the last one may be
/// shorter), each ending where a game does: after a `/` line in CSA, after any line in USI
/// lines (a game a line), before a line where the next game starts in Western, KIF and KI2
/// text (where their readers start one). JKF, and a text too short to cut, make one piece.
pub fn pieces(format: Format, text: &str, bytes: usize) -> Vec<Piece<'_>> {
    let mut lines = encoding::lines(text);
    let whole = Piece { text: lines.rest(), lines_before: 0 };
    let ends_game: fn(&str) -> bool = match format {
        _ if text.len() <= bytes => return vec![whole],
        Format::Csa => |line| line.trim() == "/",
        Format::Usi => |_| true,
        Format::Western => return western_pieces(text, bytes),
        Format::Kif => return grouped(text, kif::game_pieces(text), bytes),
        Format::Ki2 => return grouped(text, ki2::game_pieces(text), bytes),
        Format::Jkf => return vec![whole],
    };
    let (mut start, mut lines_before) = (whole.text, 0);
    let mut out = Vec::new();
    while let Some((number, line)) = lines.next() {
        let len = start.len() - lines.rest().len();
        if len >= bytes && ends_game(line) {
            out.push(Piece { text: &start[..len], lines_before });
            (start, lines_before) = (lines.rest(), number);
        }
    }
    if !start.is_empty() || out.is_empty() {
        out.push(Piece { text: start, lines_before });
    }
    out
}

/// `text` cut where some of `games` (its games, in order) start, into pieces of at least
/// `bytes` bytes but the last: each piece runs from the start of its first game to that of
/// the next piece's (the first from the start of the text, the last to its end), so that no
/// byte is left out. A game's text starts after the byte order mark that a file put after
/// another brought along; the piece it starts takes the mark, which its reader drops as the
/// whole text's does (left at the end of the piece before, it would be a line of that piece's
/// last game).
fn grouped<'a>(text: &'a str, games: Vec<Piece<'a>>, bytes: usize) -> Vec<Piece<'a>> {
    let offset = |p: &Piece<'_>| {
        let at = p.text.as_ptr() as usize - text.as_ptr() as usize;
        match text[..at].ends_with('\u{FEFF}') {
            true => at - '\u{FEFF}'.len_utf8(),
            false => at,
        }
    };
    let mut out = Vec::new();
    let (mut from, mut lines_before) = (0, 0);
    for game in games.iter().skip(1) {
        let at = offset(game);
        if at - from >= bytes {
            out.push(Piece { text: &text[from..at], lines_before });
            (from, lines_before) = (at, game.lines_before);
        }
    }
    out.push(Piece { text: &text[from..], lines_before });
    out
}

/// Western text cut where games start (found by reading it, a game at a time: a game's end
/// depends on what its tokens are).
fn western_pieces(text: &str, bytes: usize) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let (mut from, mut lines_before) = (0, 0);
    for (at, before) in western::cuts(text, bytes, None) {
        out.push(Piece { text: &text[from..at], lines_before });
        (from, lines_before) = (at, before);
    }
    out.push(Piece { text: &text[from..], lines_before });
    out
}

/// Reads every game of `piece`, a piece of a text in `format` (see [`pieces`]), as
/// [`read_as`] reads them in the whole text.
pub fn read_piece(format: Format, piece: Piece<'_>, variant: Option<Variant>) -> Vec<Game> {
    match format {
        Format::Csa => csa::read_after(piece.text, piece.lines_before),
        Format::Usi => usi::read_after(piece.text, piece.lines_before, variant),
        Format::Western => western::read_after(piece.text, piece.lines_before, variant),
        Format::Kif => kif::read_after(piece.text, piece.lines_before, variant),
        Format::Ki2 => ki2::read_after(piece.text, piece.lines_before, variant),
        // Never cut: the piece is the whole text.
        Format::Jkf => read_as(format, piece.text, variant),
    }
}

/// The format of `text`, decided by its content. The extension of `path` breaks ties: when the
/// content fits the format the extension names ([`NameKind`]), that format wins; otherwise the
/// first format whose reader recognizes the content, in the order of [`Format::ALL`].
pub fn detect(path: Option<&Path>, text: &str) -> Option<Format> {
    let hinted = path.and_then(NameKind::of).and_then(NameKind::format).filter(|&f| looks_like(f, text));
    hinted.or_else(|| Format::ALL.into_iter().find(|&f| looks_like(f, text)))
}

/// Whether `head`, the first bytes of a file (all of it when `whole`), looks like a record:
/// it is text, and some reader recognizes it. A head that is not the whole file is cut at its
/// last line break first (or, with none, at the end of its last whole character), so that a
/// line or character cut in two does not count against it. Reading more than the head is
/// then needed to know whether the file holds a game.
pub fn looks_like_record(path: Option<&Path>, head: &[u8], whole: bool) -> bool {
    let cut = if whole {
        head
    } else {
        match head.iter().rposition(|&b| b == b'\n' || b == b'\r') {
            Some(end) => &head[..=end],
            // A character is at most four bytes in every encoding read here.
            None => match (0..4.min(head.len())).find(|&n| encoding::decode(&head[..head.len() - n]).is_ok())
            {
                Some(n) => &head[..head.len() - n],
                None => return false,
            },
        }
    };
    // Read as the file itself is, a bad line or two included.
    match encoding::decode_lossy(cut) {
        Ok(decoded) => !decoded.text.trim().is_empty() && detect(path, &decoded.text).is_some(),
        Err(_) => false,
    }
}

/// Whether `text` looks like a record in `format`.
pub fn looks_like(format: Format, text: &str) -> bool {
    match format {
        Format::Kif => kif::looks_like(text),
        Format::Ki2 => ki2::looks_like(text),
        Format::Csa => csa::looks_like(text),
        Format::Jkf => jkf::looks_like(text),
        Format::Usi => usi::looks_like(text),
        Format::Western => western::looks_like(text),
    }
}

/// Reads every game of `text` as `format`.
pub fn read(format: Format, text: &str) -> Vec<Game> {
    read_as(format, text, None)
}

/// Reads every game of `text` as `format`, as games of `variant` when given: a game whose
/// record names no game is read as one of `variant`, and one whose record names another is
/// stopped with the reason ([`western::read_as`], [`usi::read_as`], [`kif::read_as`],
/// [`ki2::read_as`], [`jkf::read_as`]). CSA holds shogi games only.
pub fn read_as(format: Format, text: &str, variant: Option<Variant>) -> Vec<Game> {
    match format {
        Format::Kif => kif::read_as(text, variant),
        Format::Ki2 => ki2::read_as(text, variant),
        Format::Csa => csa::read(text),
        Format::Jkf => jkf::read_as(text, variant),
        Format::Usi => usi::read_as(text, variant),
        Format::Western => western::read_as(text, variant),
    }
}

/// Why a format cannot hold a yari shogi game ([`Format::holds_start`]), as messages say it.
pub const WHY_NOT_HELD: &str =
    "CSA holds no yari shogi game, and KIF, KI2 and JKF only one from the yari start position";

impl Format {
    /// Whether a file of this format can hold several games (CSA with `/`, USI lines,
    /// Western text); KIF, KI2 and JKF hold one.
    pub const fn holds_several_games(self) -> bool {
        matches!(self, Format::Csa | Format::Usi | Format::Western)
    }

    /// Whether the format can hold variations (moves played instead of the main line's).
    pub const fn holds_variations(self) -> bool {
        !matches!(self, Format::Csa | Format::Usi)
    }

    /// Whether the format can hold games of `variant`: every format holds shogi; all but CSA,
    /// which has no way to name a game, hold yari shogi too.
    pub const fn holds_variant(self, variant: Variant) -> bool {
        matches!(variant, Variant::Standard) || !matches!(self, Format::Csa)
    }

    /// Whether a text of this format can hold a game from `start`: every shogi game; a yari
    /// shogi game in Western text and USI lines from any start, in KIF, KI2 and JKF from the
    /// yari start only (they name the game by their `手合割` and draw no seven-file board),
    /// in CSA never.
    pub fn holds_start(self, start: &Setup) -> bool {
        start.variant == Variant::Standard
            || matches!(self, Format::Usi | Format::Western)
            || (self.holds_variant(start.variant) && *start == Setup::start(start.variant))
    }
}
