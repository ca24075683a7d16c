//! The position a query asks about, from the ways a user can give it: moves in any notation
//! from a start, an SFEN, a board diagram, or a game of a record file and a ply.
//!
//! Wherever moves or an SFEN are taken, so is a USI position command, as engines and
//! `kifudex show --to usi` write them: `position startpos moves 7g7f 3c3d`, `startpos moves …`,
//! `sfen SFEN moves …` (with or without `position`), which names its own start; an ending
//! word after the moves (`resign`, `win`, `draw`) is skipped.

use crate::text::path_text;
use std::path::Path;

use super::{NamesOptions, QueryOption};
use crate::{
    kifu::{self, FileError, bod, grid},
    notation::{SequenceError, read_sequence},
    replay,
    shogi::{Handicap, Move, Position, PositionError, Setup, SfenError},
};

/// The position asked about, and the moves that led to it when they are known.
#[derive(Clone, Debug)]
pub struct Target {
    pub position: Position,
    /// The start and the moves from it, when the position was given by moves.
    pub sequence: Option<(Setup, Vec<Move>)>,
    /// Whether the moves start from the start a query's start option names (or the even
    /// start, by default), not from one the position's own text names (an SFEN, a USI
    /// command, a record).
    pub from_start_option: bool,
}

/// Why the position of a query cannot be found.
#[derive(Debug, thiserror::Error)]
pub enum TargetError {
    #[error("'{0}' is no SFEN, startpos or handicap name")]
    Start(String),
    /// A start that reads as an SFEN (it has a board, rows split by `/`) with a mistake.
    #[error("'{0}' is not an SFEN: {1}")]
    StartSfen(String, SfenError),
    #[error("not an SFEN: {0}")]
    Sfen(SfenError),
    #[error("not a board diagram: {error}{}", .line.map(|l| format!(" (line {l})")).unwrap_or_default())]
    Bod { error: bod::BodError, line: Option<u32> },
    #[error("not a board diagram: {error}{}", .line.map(|l| format!(" (line {l})")).unwrap_or_default())]
    Grid { error: grid::GridError, line: Option<u32> },
    #[error("not a legal position: {0}")]
    Position(PositionError),
    #[error(transparent)]
    Moves(#[from] SequenceError),
    #[error("{path}: {error}")]
    File { path: String, error: FileError },
    /// The moves are a USI command that names its own start (`given`), and the query's start
    /// option names another.
    #[error("{}", two_starts(given, &QueryOption::Start.plain()))]
    TwoStarts { given: String },
    #[error("{path}: there is no game {game}: the file holds {count} (game 0 is the first)")]
    NoGame { path: String, game: usize, count: usize },
    #[error("{path}: game {game} has {plies} moves{why}, so there is no ply {ply}")]
    NoPly { path: String, game: usize, plies: usize, ply: usize, why: String },
    #[error(
        "{path}: game {game} cannot be played to its end: it stops after {plies} moves ({why}); \
         {path}:{plies} is the position there"
    )]
    Stopped { path: String, game: usize, plies: usize, why: String },
}

/// The query's start option is named in [`TargetError::TwoStarts`].
impl NamesOptions for TargetError {
    fn message(&self, name: &dyn Fn(QueryOption) -> String) -> String {
        match self {
            TargetError::TwoStarts { given } => two_starts(given, &name(QueryOption::Start)),
            other => other.to_string(),
        }
    }
}

/// The message of [`TargetError::TwoStarts`], the start option named `start`.
fn two_starts(given: &str, start: &str) -> String {
    format!("the moves name their own start ({given}), and {start} names another")
}

impl From<SfenError> for TargetError {
    fn from(e: SfenError) -> TargetError {
        TargetError::Sfen(e)
    }
}

impl From<PositionError> for TargetError {
    fn from(e: PositionError) -> TargetError {
        TargetError::Position(e)
    }
}

/// The text before and after the word `moves` in `text`, if it is there.
fn split_moves(text: &str) -> (&str, Option<&str>) {
    let mut at = 0;
    for word in text.split_ascii_whitespace() {
        // The offset of this word in `text` (words are slices of it, in order).
        let start = text[at..].find(word).map_or(at, |i| at + i);
        at = start + word.len();
        if word == "moves" {
            return (text[..start].trim(), Some(text[at..].trim()));
        }
    }
    (text.trim(), None)
}

/// The start and the moves (as text) of a USI position command: `[position] startpos
/// [moves …]` or `[position] sfen SFEN [moves …]`. `None` when `text` is no such command.
fn usi_command(text: &str) -> Option<Result<(Position, &str), TargetError>> {
    let text = text.trim();
    let text = text.strip_prefix("position").filter(|t| t.starts_with(char::is_whitespace)).unwrap_or(text);
    let (head, moves) = split_moves(text);
    let start = if head == "startpos" {
        Ok(Position::startpos())
    } else {
        let sfen = head.strip_prefix("sfen")?.trim();
        sfen.parse::<Setup>().map_err(TargetError::from).and_then(|s| Ok(Position::from_setup(s)?))
    };
    Some(start.map(|start| (start, moves.unwrap_or(""))))
}

/// The start position named by `text`: an SFEN, `startpos` (or nothing), or a handicap name
/// (平手, 香落ち, `lance`, …).
///
/// # Errors
///
/// [`TargetError::Start`] when the text is none of those, [`TargetError::StartSfen`] when it
/// is an SFEN with a mistake, [`TargetError::Position`] when the SFEN is not a legal position.
pub fn start_position(text: &str) -> Result<Position, TargetError> {
    let text = text.trim();
    let text = text.strip_prefix("position").map(str::trim_start).unwrap_or(text);
    let text = text.strip_prefix("sfen").map(str::trim_start).unwrap_or(text);
    if text.is_empty() || text == "startpos" {
        return Ok(Position::startpos());
    }
    if let Some(handicap) = Handicap::from_name(text) {
        return Ok(Position::handicap(handicap));
    }
    let setup: Setup = text.parse().map_err(|e| match text.contains('/') {
        true => TargetError::StartSfen(crate::text::excerpt(text), e),
        false => TargetError::Start(crate::text::excerpt(text)),
    })?;
    Ok(Position::from_setup(setup)?)
}

impl Target {
    /// The position after `moves` (any notation, see [`read_sequence`]) from `start`.
    ///
    /// # Errors
    ///
    /// The first move that cannot be read or played.
    pub fn from_moves(start: &Position, moves: &str) -> Result<Target, TargetError> {
        if let Some(command) = usi_command(moves) {
            let (own, moves) = command?;
            return Target::from_moves(&own, moves);
        }
        let played = read_sequence(start, moves)?;
        let mut position = start.clone();
        for &mv in &played {
            position.play_unchecked(mv);
        }
        Ok(Target { position, sequence: Some((start.setup().clone(), played)), from_start_option: false })
    }

    /// The position after `moves` from `start` when `given` says the start was chosen (the
    /// query's start option); otherwise from the start a USI command in `moves` names, or the
    /// even start.
    ///
    /// # Errors
    ///
    /// [`TargetError::TwoStarts`] when `moves` is a USI command naming another start than
    /// the one given; the first move that cannot be read or played.
    pub fn from_moves_given(start: &Position, given: bool, moves: &str) -> Result<Target, TargetError> {
        if given {
            if let Some(command) = usi_command(moves) {
                let (own, _) = command?;
                if own.setup().position_text() != start.setup().position_text() {
                    return Err(TargetError::TwoStarts { given: own.sfen() });
                }
            }
        }
        let mut target = Target::from_moves(start, moves)?;
        target.from_start_option = usi_command(moves).is_none();
        Ok(target)
    }

    /// The position an SFEN gives (`sfen` and `position` prefixes allowed, and `startpos`),
    /// or, when it is followed by `moves …`, the position after them.
    ///
    /// # Errors
    ///
    /// Not an SFEN, not a legal position, or a move that cannot be read or played.
    pub fn from_sfen(text: &str) -> Result<Target, TargetError> {
        let text = text.trim();
        let text = text.strip_prefix("position").map(str::trim_start).unwrap_or(text);
        let text = text.strip_prefix("sfen").map(str::trim_start).unwrap_or(text);
        let (head, moves) = split_moves(text);
        let position =
            if head == "startpos" { Position::startpos() } else { Position::from_setup(head.parse()?)? };
        match moves {
            Some(moves) if !moves.is_empty() => Target::from_moves(&position, moves),
            _ => Ok(Target { position, sequence: None, from_start_option: false }),
        }
    }

    /// The position a board diagram shows: a BOD, or, for yari shogi (whose pieces have no
    /// Japanese names), the lettered diagram `query` draws ([`grid`]).
    ///
    /// # Errors
    ///
    /// Not a diagram, or not a legal position.
    pub fn from_bod(text: &str) -> Result<Target, TargetError> {
        let setup = if grid::is_grid(text) {
            grid::parse_grid(text).map_err(|error| TargetError::Grid { line: error.line(), error })?
        } else {
            bod::parse_bod(text.lines()).map_err(|error| TargetError::Bod { line: error.line(), error })?
        };
        Ok(Target { position: Position::from_setup(setup)?, sequence: None, from_start_option: false })
    }

    /// The position after `ply` moves (all of them when `None`) of game `game` (from 0) of the
    /// record file `path` holding `bytes`.
    ///
    /// # Errors
    ///
    /// The file holds no record, no such game, or the game has fewer legal moves; without
    /// `ply`, the game stops before its end (an illegal or unreadable move).
    pub fn from_record(
        path: &Path,
        bytes: &[u8],
        game: usize,
        ply: Option<usize>,
    ) -> Result<Target, TargetError> {
        let shown = path_text(path);
        let parsed = kifu::read_file(Some(path), bytes)
            .map_err(|error| TargetError::File { path: shown.clone(), error })?;
        let count = parsed.games.len();
        let record =
            parsed.games.get(game).ok_or(TargetError::NoGame { path: shown.clone(), game, count })?;
        let replayed = replay::replay(record);
        let plies = replayed.moves.len();
        // The end asked for is not the position where a game that stops early stops.
        if let (None, replay::Status::Stopped(reason)) = (ply, &replayed.status) {
            return Err(TargetError::Stopped { path: shown, game, plies, why: reason.to_string() });
        }
        let ply = ply.unwrap_or(plies);
        if ply > plies {
            let why = match &replayed.status {
                replay::Status::Complete => String::new(),
                replay::Status::Stopped(reason) => format!(" that can be played (it stops: {reason})"),
            };
            return Err(TargetError::NoPly { path: shown, game, plies, ply, why });
        }
        let mut position = Position::from_setup(replayed.start.clone())?;
        for &mv in &replayed.moves[..ply] {
            position.play_unchecked(mv);
        }
        Ok(Target {
            position,
            sequence: Some((replayed.start, replayed.moves[..ply].to_vec())),
            from_start_option: false,
        })
    }
}
