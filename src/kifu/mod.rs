//! Whole records: format detection, decoding, and the readers and writers of every format.
//!
//! Readers check syntax only: a move that is well written but illegal is the replay's
//! business ([`crate::replay`]). Every reader returns every game it finds; a game it cannot
//! read to the end keeps what came before and says where and why it stopped
//! ([`Game::problem`]).
//!
//! A game stops only where a move (or the start position) cannot be read. What the game does
//! not need is read past, and each such place is a [`Warning`] in [`Game::warnings`], with its
//! line and one of these codes:
//! - `unknown_line`: a line that is no part of the format (a CSA engine comment that lost its
//!   `'`, a stray HTML tag, a line of mojibake, a KIF header among the moves), skipped;
//! - `unknown_ending`: a CSA ending word the format does not define (`%GOTE_WIN_CHECKMATE`):
//!   the game ends there without a stated ending, and replay judges it by its moves;
//! - `variation_left_out`: a KIF or KI2 variation that branches from no move;
//! - `variation_cut`: a variation that could not be read to its end, kept up to there.

pub mod bod;
pub mod csa;
pub mod encoding;
pub mod eval;
mod game;
pub mod info;
pub mod jkf;
mod kakinoki;
pub mod ki2;
pub mod kif;
pub mod name_key;
mod names;
mod support;
pub mod usi;
pub mod western;
pub mod write;

use std::path::Path;

pub use game::{
    DateTime, Ending, Format, Game, Header, Info, MoveEntry, Outcome, Player, ReadProblem, Start,
    Termination, Variation, Warning,
};
pub use names::NameKind;

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
    #[error("not text in UTF-8, Shift_JIS (CP932) or EUC-JP: {0}")]
    Decode(String),
    /// The text is no record format kifudex knows.
    #[error("not a game record in any supported format")]
    UnknownFormat,
    /// The file is empty (or only white space).
    #[error("empty file")]
    Empty,
}

impl FileError {
    /// A short stable code: `decode`, `unknown_format`, `empty`.
    pub fn code(&self) -> &'static str {
        match self {
            FileError::Decode(_) => "decode",
            FileError::UnknownFormat => "unknown_format",
            FileError::Empty => "empty",
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
    let decoded = encoding::decode(bytes).map_err(|e| FileError::Decode(e.to_string()))?;
    let text: &str = &decoded.text;
    if text.trim().is_empty() {
        return Err(FileError::Empty);
    }
    let format = detect(path, text).ok_or(FileError::UnknownFormat)?;
    let games = read(format, text);
    if games.is_empty() {
        return Err(FileError::UnknownFormat);
    }
    Ok(ParsedFile { format, encoding: decoded.encoding.name(), games })
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
        match head.iter().rposition(|&b| b == b'\n') {
            Some(end) => &head[..=end],
            // A character is at most four bytes in every encoding read here.
            None => match (0..4.min(head.len())).find(|&n| encoding::decode(&head[..head.len() - n]).is_ok())
            {
                Some(n) => &head[..head.len() - n],
                None => return false,
            },
        }
    };
    match encoding::decode(cut) {
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
    match format {
        Format::Kif => kif::read(text),
        Format::Ki2 => ki2::read(text),
        Format::Csa => csa::read(text),
        Format::Jkf => jkf::read(text),
        Format::Usi => usi::read(text),
        Format::Western => western::read(text),
    }
}

/// Writes `game`, replayed as `replayed`, in `format` (UTF-8 text; see
/// [`encoding::encode_cp932`] for Shift_JIS files).
pub fn write(format: Format, game: &Game, replayed: &crate::replay::ReplayedGame) -> String {
    match format {
        Format::Kif => write::kif::write(game, replayed),
        Format::Ki2 => write::ki2::write(game, replayed),
        Format::Csa => csa::write(game, replayed),
        Format::Jkf => jkf::write(game, replayed),
        Format::Usi => usi::write(game, replayed),
        Format::Western => western::write(game, replayed),
    }
}

impl Format {
    /// Whether a file of this format can hold several games (CSA with `/`, USI lines,
    /// Western text); KIF, KI2 and JKF hold one.
    pub const fn holds_several_games(self) -> bool {
        matches!(self, Format::Csa | Format::Usi | Format::Western)
    }
}
