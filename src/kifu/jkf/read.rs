//! Reading JKF text into a game.

use serde::Deserialize;
use serde_json::{Map, Value, value::RawValue};

use super::preset_handicap;
use crate::{
    kifu::{
        Ending, Game, Header, MoveEntry, ReadProblem, Start, Variation,
        csa::EndingWord,
        info,
        support::{MAX_DEPTH, turn_after},
    },
    notation::{
        MoveToken,
        csa::{CsaMove, piece_from_code},
    },
    shogi::{Color, Piece, Setup, Square},
    text::excerpt,
};

/// Why a JKF game stopped being read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JkfError {
    #[error("not JKF: {0}")]
    Json(String),
    #[error("unknown preset '{0}'")]
    Preset(String),
    #[error("the preset is OTHER but no board data is given")]
    NoData,
    #[error("the board must be 9 columns of 9 cells")]
    BoardShape,
    #[error("'{0}' is not a piece code")]
    Piece(String),
    #[error("color must be 0 (black) or 1 (white), not {0}")]
    Color(i64),
    #[error("x and y must be 1 to 9, not ({0}, {1})")]
    Square(i64, i64),
    #[error("a move without a destination ('to')")]
    NoDestination,
    #[error("a move without a piece")]
    NoPiece,
    #[error("a drop of {0}, which cannot be held in hand")]
    Drop(String),
    #[error("{0} cannot promote")]
    Promotion(String),
    #[error("unknown special '{0}'")]
    Special(String),
    #[error("a move after the end of the game")]
    AfterEnd,
    #[error("forks nested more than {MAX_DEPTH} deep")]
    TooDeep,
    /// An error in the `initial` object: the start position cannot be read.
    #[error(transparent)]
    Initial(Box<JkfError>),
}

impl JkfError {
    /// The reject code (see [`ReadProblem`]'s module).
    pub fn code(&self) -> &'static str {
        match self {
            JkfError::Initial(_) | JkfError::Preset(_) | JkfError::NoData | JkfError::BoardShape => {
                "bad_board"
            }
            JkfError::Json(_) => "bad_json",
            JkfError::Piece(_)
            | JkfError::Color(_)
            | JkfError::Square(..)
            | JkfError::NoDestination
            | JkfError::NoPiece
            | JkfError::Drop(_)
            | JkfError::Promotion(_) => "bad_move_text",
            JkfError::Special(_) => "bad_ending",
            JkfError::AfterEnd => "move_after_end",
            JkfError::TooDeep => "bad_variation",
        }
    }
}

#[derive(Deserialize)]
struct Record<'a> {
    #[serde(default)]
    header: Map<String, Value>,
    #[serde(borrow)]
    initial: Option<&'a RawValue>,
    #[serde(borrow, default)]
    moves: Vec<&'a RawValue>,
}

#[derive(Deserialize)]
struct Initial {
    preset: Option<String>,
    data: Option<Data>,
}

#[derive(Deserialize)]
struct Data {
    board: Vec<Vec<Cell>>,
    color: Option<i64>,
    #[serde(default)]
    hands: Vec<Map<String, Value>>,
}

#[derive(Deserialize)]
struct Cell {
    color: Option<i64>,
    kind: Option<String>,
}

#[derive(Deserialize)]
struct Entry<'a> {
    #[serde(rename = "move")]
    mv: Option<JkfMove>,
    time: Option<Time>,
    #[serde(default)]
    comments: Vec<String>,
    special: Option<String>,
    #[serde(borrow, default)]
    forks: Vec<Vec<&'a RawValue>>,
}

#[derive(Deserialize)]
struct JkfMove {
    from: Option<Pos>,
    to: Option<Pos>,
    piece: Option<String>,
    color: Option<i64>,
    promote: Option<bool>,
}

#[derive(Deserialize)]
struct Pos {
    x: i64,
    y: i64,
}

#[derive(Deserialize)]
struct Time {
    now: Option<Clock>,
}

#[derive(Deserialize)]
struct Clock {
    #[serde(default)]
    h: u32,
    #[serde(default)]
    m: u32,
    #[serde(default)]
    s: u32,
}

impl Clock {
    fn seconds(&self) -> u32 {
        self.h.saturating_mul(3600).saturating_add(self.m.saturating_mul(60)).saturating_add(self.s)
    }
}

/// Reads the game of a JKF text. A text that is not JKF gives one game holding only the
/// problem; a move or fork that cannot be read stops its line there.
pub fn read(text: &str) -> Vec<Game> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let reader = Reader { text, newlines: text.match_indices('\n').map(|(i, _)| i).collect() };
    let mut game = Game { line: 1, ..Game::default() };
    let record: Record = match serde_json::from_str(text) {
        Ok(r) => r,
        Err(e) => {
            let line = u32::try_from(e.line()).unwrap_or(u32::MAX).max(1);
            game.problem = Some(ReadProblem::new(line, JkfError::Json(e.to_string())));
            return vec![game];
        }
    };
    for (key, value) in &record.header {
        let value = match value {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        game.headers.push(Header { key: key.clone(), value });
    }
    game.info = info::normalize(&game.headers);
    if let Some(raw) = record.initial {
        match initial(raw) {
            Ok(start) => game.start = start,
            Err(error) => {
                game.problem = Some(reader.problem(raw, JkfError::Initial(Box::new(error))));
                return vec![game];
            }
        }
    }
    let start_turn = game.start.setup().turn;
    let mut line = Line::new(start_turn, 0);
    let problem = reader.line(&record.moves, &mut line);
    game.problem = problem;
    game.comments = line.comments;
    game.moves = line.moves;
    game.ending = line.ending;
    game.variations = line.variations;
    vec![game]
}

/// Whether `text` looks like JKF: a JSON object with a `moves` key.
pub fn looks_like(text: &str) -> bool {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    t.starts_with('{') && t.contains("\"moves\"")
}

fn initial(raw: &RawValue) -> Result<Start, JkfError> {
    let initial: Initial = serde_json::from_str(raw.get()).map_err(|e| JkfError::Json(e.to_string()))?;
    let preset = initial.preset.as_deref().unwrap_or("HIRATE");
    if preset != "OTHER" {
        return preset_handicap(preset).map(Start::Standard).ok_or_else(|| JkfError::Preset(excerpt(preset)));
    }
    let data = initial.data.ok_or(JkfError::NoData)?;
    if data.board.len() != 9 || data.board.iter().any(|column| column.len() != 9) {
        return Err(JkfError::BoardShape);
    }
    let mut setup = Setup::default();
    for (x, column) in data.board.iter().enumerate() {
        for (y, cell) in column.iter().enumerate() {
            let (Some(color), Some(kind)) = (cell.color, cell.kind.as_deref()) else { continue };
            let kind = piece_from_code(kind).ok_or_else(|| JkfError::Piece(excerpt(kind)))?;
            let sq = Square::from_numbers(x as u8 + 1, y as u8 + 1).expect("9x9 checked above");
            setup.set(sq, Some(Piece::new(color_of(color)?, kind)));
        }
    }
    setup.turn = color_of(data.color.unwrap_or(0))?;
    for (hand, color) in data.hands.iter().zip(Color::ALL) {
        for (code, count) in hand {
            let kind = piece_from_code(code)
                .filter(|k| k.hand_index().is_some())
                .ok_or_else(|| JkfError::Piece(excerpt(code)))?;
            let n = count.as_u64().unwrap_or(0).min(u64::from(kind.max_count()));
            setup.hand_mut(color).set(kind, n as u8);
        }
    }
    Ok(Start::of(setup))
}

fn color_of(n: i64) -> Result<Color, JkfError> {
    match n {
        0 => Ok(Color::Black),
        1 => Ok(Color::White),
        _ => Err(JkfError::Color(n)),
    }
}

fn square(p: &Pos) -> Result<Square, JkfError> {
    u8::try_from(p.x)
        .ok()
        .zip(u8::try_from(p.y).ok())
        .and_then(|(x, y)| Square::from_numbers(x, y))
        .ok_or(JkfError::Square(p.x, p.y))
}

/// The exact token a JKF move names. A JKF move says everything: its color, origin (none for a
/// drop), destination, piece and promotion. It becomes a CSA move, the token that carries
/// exactly that (the piece after the move), so replay checks the piece and the side too.
fn token(m: &JkfMove) -> Result<CsaMove, JkfError> {
    let to = square(m.to.as_ref().ok_or(JkfError::NoDestination)?)?;
    let from = match &m.from {
        Some(p) if (p.x, p.y) != (0, 0) => Some(square(p)?),
        _ => None,
    };
    let code = m.piece.as_deref().ok_or(JkfError::NoPiece)?;
    let mut piece = piece_from_code(code).ok_or_else(|| JkfError::Piece(excerpt(code)))?;
    if from.is_none() && (piece.hand_index().is_none() || m.promote == Some(true)) {
        return Err(JkfError::Drop(excerpt(code)));
    }
    if m.promote == Some(true) && !piece.is_promoted() {
        piece = piece.promote().ok_or_else(|| JkfError::Promotion(excerpt(code)))?;
    }
    let color = m.color.map(color_of).transpose()?;
    Ok(CsaMove { color, from, to, piece })
}

/// A line of moves being read: the main line or a fork.
struct Line {
    start_turn: Color,
    /// Plies played before the line's first move.
    base: usize,
    /// How many forks this line is inside.
    depth: usize,
    comments: Vec<String>,
    moves: Vec<MoveEntry>,
    ending: Option<Ending>,
    variations: Vec<Variation>,
}

impl Line {
    fn new(start_turn: Color, base: usize) -> Line {
        Line {
            start_turn,
            base,
            depth: 0,
            comments: Vec::new(),
            moves: Vec::new(),
            ending: None,
            variations: Vec::new(),
        }
    }
}

struct Reader<'t> {
    text: &'t str,
    newlines: Vec<usize>,
}

impl Reader<'_> {
    /// The 1-based line where `raw` starts in the text.
    fn line_of(&self, raw: &RawValue) -> u32 {
        let offset =
            (raw.get().as_ptr() as usize).wrapping_sub(self.text.as_ptr() as usize).min(self.text.len());
        let before = self.newlines.partition_point(|&i| i < offset);
        u32::try_from(before + 1).unwrap_or(u32::MAX)
    }

    fn problem(&self, raw: &RawValue, error: JkfError) -> ReadProblem {
        ReadProblem::new(self.line_of(raw), error)
    }

    /// Reads the entries of a line (the main line's first entry holds only the start's
    /// comments). Returns the problem that stopped it, if one did.
    fn line(&self, entries: &[&RawValue], line: &mut Line) -> Option<ReadProblem> {
        for &raw in entries {
            let entry: Entry = match serde_json::from_str(raw.get()) {
                Ok(e) => e,
                Err(e) => return Some(self.problem(raw, JkfError::Json(e.to_string()))),
            };
            let number = self.line_of(raw);
            if let Some(m) = &entry.mv {
                if line.ending.is_some() {
                    return Some(self.problem(raw, JkfError::AfterEnd));
                }
                let token = match token(m) {
                    Ok(t) => t,
                    Err(error) => return Some(self.problem(raw, error)),
                };
                let seconds = entry.time.as_ref().and_then(|t| t.now.as_ref()).map(Clock::seconds);
                line.moves.push(MoveEntry {
                    token: MoveToken::Csa(token),
                    line: number,
                    seconds,
                    comments: entry.comments,
                });
                let ply = line.moves.len() - 1;
                if let Some(problem) = self.forks(raw, &entry.forks, ply, line) {
                    return Some(problem);
                }
                continue;
            }
            match line.moves.last_mut() {
                Some(last) => last.comments.extend(entry.comments),
                None => line.comments.extend(entry.comments),
            }
            if let Some(special) = &entry.special {
                let Some(word) = EndingWord::parse(special) else {
                    return Some(self.problem(raw, JkfError::Special(excerpt(special))));
                };
                if line.ending.is_none() {
                    let to_move = turn_after(line.start_turn, line.base + line.moves.len());
                    line.ending = Some(Ending {
                        termination: word.termination,
                        side: word.side(to_move),
                        stated: None,
                        text: special.clone(),
                        line: number,
                    });
                }
            }
            // Forks on an entry with no move (the ending, or an entry of forks alone after the
            // last move) are moves played instead of the ending: they branch after the last
            // move.
            if let Some(problem) = self.forks(raw, &entry.forks, line.moves.len(), line) {
                return Some(problem);
            }
        }
        None
    }

    /// Reads `forks`, played instead of move `ply` of `line` (counted from 0), as variations
    /// of `line`. Returns the problem that stopped one, if one did.
    fn forks(
        &self,
        raw: &RawValue,
        forks: &[Vec<&RawValue>],
        ply: usize,
        line: &mut Line,
    ) -> Option<ReadProblem> {
        if !forks.is_empty() && line.depth >= MAX_DEPTH {
            return Some(self.problem(raw, JkfError::TooDeep));
        }
        for fork in forks {
            let mut branch = Line::new(line.start_turn, line.base + ply);
            branch.depth = line.depth + 1;
            let problem = self.line(fork, &mut branch);
            line.variations.push(Variation {
                ply,
                moves: branch.moves,
                ending: branch.ending,
                variations: branch.variations,
            });
            if problem.is_some() {
                return problem;
            }
        }
        None
    }
}
