//! Reading JKF text into a game.

use serde::Deserialize;
use serde_json::{Map, Value, value::RawValue};

use super::preset_handicap;
use crate::{
    kifu::{
        Ending, Game, Header, MoveEntry, ReadProblem, Start, Variation, Warning,
        csa::EndingWord,
        game::comments_after,
        info,
        support::{
            MAX_DEPTH, RoundedTimes, TooManyMoves, Totals, UnknownVariant, VariantConflict, named_variant,
            quoted_comments, room_for_move, second_ending, turn_after,
        },
    },
    notation::{
        MoveToken,
        csa::{CsaMove, piece_from_code},
    },
    shogi::{Color, Piece, Setup, Square, Variant},
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
    #[error("the square ({0}, {1}) must have both a color and a kind, or neither")]
    Cell(u8, u8),
    #[error("hands must be two, black's and white's, not {0}")]
    Hands(usize),
    #[error("{0} cannot be held in hand")]
    InHand(String),
    #[error("the count of {code} in hand must be a whole number up to the pieces a set holds, not {count}")]
    HandCount { code: String, count: String },
    #[error("color must be 0 (black) or 1 (white), not {0}")]
    Color(i64),
    #[error("x and y must be 1 to 9, not ({0}, {1})")]
    Square(i64, i64),
    /// A move entry whose fields are not of JKF's types (a square's `"y": "6"`).
    #[error("a move not of JKF's shape: {0}")]
    MoveShape(String),
    #[error("a move without a destination ('to')")]
    NoDestination,
    #[error("a move without a piece")]
    NoPiece,
    #[error("a drop of {0}, which cannot be held in hand")]
    Drop(String),
    #[error("{0} cannot promote")]
    Promotion(String),
    /// An ending word JKF does not define: the game ends there, with a warning.
    #[error("unknown special '{0}'")]
    Special(String),
    #[error("a move after the end of the game")]
    AfterEnd,
    /// Forks nested deeper than variations may: they are left out, with a warning that says so.
    #[error("forks nested more than {MAX_DEPTH} deep")]
    TooDeep,
    /// An error in the `initial` object: the start position cannot be read.
    #[error(transparent)]
    Initial(Box<JkfError>),
    #[error(transparent)]
    UnknownVariant(#[from] UnknownVariant),
    #[error(transparent)]
    VariantConflict(#[from] VariantConflict),
    #[error(transparent)]
    TooManyMoves(#[from] TooManyMoves),
}

impl JkfError {
    /// The reject code (see [`ReadProblem`]'s module).
    pub fn code(&self) -> &'static str {
        match self {
            JkfError::Initial(_)
            | JkfError::Preset(_)
            | JkfError::NoData
            | JkfError::BoardShape
            | JkfError::Cell(..)
            | JkfError::Hands(_)
            | JkfError::InHand(_)
            | JkfError::HandCount { .. } => "bad_board",
            JkfError::Json(_) => "bad_json",
            JkfError::Piece(_)
            | JkfError::MoveShape(_)
            | JkfError::Color(_)
            | JkfError::Square(..)
            | JkfError::NoDestination
            | JkfError::NoPiece
            | JkfError::Drop(_)
            | JkfError::Promotion(_) => "bad_move_text",
            JkfError::Special(_) => "bad_ending",
            JkfError::AfterEnd => "move_after_end",
            JkfError::TooDeep => "bad_variation",
            JkfError::TooManyMoves(_) => "too_many_moves",
            JkfError::UnknownVariant(_) => "bad_header",
            JkfError::VariantConflict(_) => "wrong_variant",
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
    hands: Option<Vec<Map<String, Value>>>,
}

#[derive(Deserialize)]
struct Cell {
    color: Option<i64>,
    kind: Option<String>,
}

/// An entry of `moves` or of a fork. Every field may be null, as the schema allows.
#[derive(Deserialize)]
struct Entry<'a> {
    #[serde(rename = "move")]
    mv: Option<JkfMove>,
    /// Read apart (see [`part_seconds`]): a time that is no time leaves the move without one.
    #[serde(borrow)]
    time: Option<&'a RawValue>,
    comments: Option<Vec<String>>,
    /// The schema's form of the start's comment (its first entry), one string.
    comment: Option<String>,
    special: Option<String>,
    #[serde(borrow)]
    forks: Option<Vec<Vec<&'a RawValue>>>,
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

/// The seconds the part `key` of a move's `time` says (`now`, the time it took, or `total`,
/// the running total): its `h`, `m` and `s`, each absent or null for none, and whether a
/// fraction of a second was dropped from them (as CSA's `T1.250` is one second). `Err` names
/// what is no time: a `time` or part that is no object, a field that is no number of zero or
/// more, or a sum past what a time holds.
fn part_seconds(time: &Value, key: &str) -> Result<Option<(u32, bool)>, String> {
    let now = match time {
        Value::Null => return Ok(None),
        Value::Object(time) => match time.get(key) {
            None | Some(Value::Null) => return Ok(None),
            Some(Value::Object(now)) => now,
            Some(other) => return Err(format!("'{key}' is {}", excerpt(&other.to_string()))),
        },
        other => return Err(format!("'time' is {}", excerpt(&other.to_string()))),
    };
    let mut total = 0.0;
    for (key, unit) in [("h", 3600.0), ("m", 60.0), ("s", 1.0)] {
        let part = match now.get(key) {
            None | Some(Value::Null) => 0.0,
            Some(Value::Number(n)) => {
                n.as_f64().filter(|v| v.is_finite() && *v >= 0.0).ok_or_else(|| format!("'{key}' is {n}"))?
            }
            Some(other) => return Err(format!("'{key}' is {}", excerpt(&other.to_string()))),
        };
        total += part * unit;
    }
    if total >= f64::from(u32::MAX) {
        return Err(format!("{total} seconds is more than a time holds"));
    }
    // A total within a few units of float rounding of whole seconds is whole, the rest the
    // sum's own error (`"m": 0.1` is 6.000000000000001 s). In range and not negative, checked
    // above.
    let whole = total.round();
    if (total - whole).abs() <= 16.0 * f64::EPSILON * total.max(1.0) {
        return Ok(Some((whole as u32, false)));
    }
    Ok(Some((total.floor() as u32, true)))
}

/// Reads the game of a JKF text. A text that is not JKF gives one game holding only the
/// problem; a move of the main line that cannot be read stops the game there, and a fork that
/// cannot be read is cut there (a warning), the main line going on.
pub fn read(text: &str) -> Vec<Game> {
    read_as(text, None)
}

/// Reads the game of a JKF text as [`read`] does, as a game of `variant` when given: a game
/// whose record names no game is read as one of `variant`, and one whose record names
/// another is refused (`wrong_variant`).
pub fn read_as(text: &str, variant: Option<Variant>) -> Vec<Game> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = Reader {
        text,
        newlines: text.match_indices('\n').map(|(i, _)| i).collect(),
        warnings: Vec::new(),
        rounded: RoundedTimes::default(),
        totals: Totals::default(),
        unknown: UnknownKeys::default(),
    };
    let mut game = Game { line: 1, ..Game::default() };
    let record: Record = match serde_json::from_str(text) {
        Ok(r) => r,
        Err(e) => {
            let line = u32::try_from(e.line()).unwrap_or(u32::MAX).max(1);
            game.problem = Some(ReadProblem::new(line, JkfError::Json(e.to_string())));
            return vec![game];
        }
    };
    if let Ok(Value::Object(top)) = serde_json::from_str::<Value>(text) {
        reader.unknown_keys(&top, &["header", "initial", "moves"], None);
    }
    for (key, value) in &record.header {
        let value = match value {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        game.headers.push(Header { key: key.clone(), value });
    }
    game.info = info::normalize(&game.headers, info::Remarks::None);
    match game_variant(&game, record.initial, variant) {
        Ok(Variant::Standard) => {}
        Ok(yari) => game.start = Start::Custom(Setup::start(yari)),
        Err((in_header, error)) => {
            let line = match record.initial {
                Some(raw) if !in_header => reader.line_of(raw),
                _ => reader.line_of_text("\"手合割\""),
            };
            game.problem = Some(ReadProblem::new(line, error));
            return vec![game];
        }
    }
    if let Some(raw) = record.initial.filter(|_| game.start.variant() == Variant::Standard) {
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
    game.unread = line.unread;
    game.ending = line.ending;
    game.variations = line.variations;
    game.warnings = reader.warnings;
    game.warnings.extend(reader.unknown.warnings());
    game.warnings.extend(reader.rounded.warning());
    vec![game]
}

/// Whether `text` looks like JKF: a JSON object with a `moves` key.
pub fn looks_like(text: &str) -> bool {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    t.starts_with('{') && t.contains("\"moves\"")
}

fn initial(raw: &RawValue) -> Result<Start, JkfError> {
    let initial: Initial = serde_json::from_str(raw.get()).map_err(|e| JkfError::Json(e.to_string()))?;
    // The schema asks for a preset; board data without one can only be the start it shows.
    let preset = match (initial.preset.as_deref(), &initial.data) {
        (Some(preset), _) => preset,
        (None, Some(_)) => "OTHER",
        (None, None) => "HIRATE",
    };
    if preset != "OTHER" {
        return preset_handicap(preset).map(Start::Standard).ok_or_else(|| JkfError::Preset(excerpt(preset)));
    }
    let data = initial.data.ok_or(JkfError::NoData)?;
    if data.board.len() != 9 || data.board.iter().any(|column| column.len() != 9) {
        return Err(JkfError::BoardShape);
    }
    let mut setup = Setup::default();
    for (x, column) in (1..).zip(&data.board) {
        for (y, cell) in (1..).zip(column) {
            let (color, kind) = match (cell.color, cell.kind.as_deref()) {
                (None, None) => continue,
                (Some(color), Some(kind)) => (color, kind),
                _ => return Err(JkfError::Cell(x, y)),
            };
            let kind = piece_from_code(kind).ok_or_else(|| JkfError::Piece(excerpt(kind)))?;
            let sq = Square::from_numbers(x, y).expect("9x9 checked above");
            setup.set(sq, Some(Piece::new(color_of(color)?, kind)));
        }
    }
    setup.turn = color_of(data.color.unwrap_or(0))?;
    let hands = data.hands.unwrap_or_default();
    if hands.len() > 2 {
        return Err(JkfError::Hands(hands.len()));
    }
    for (hand, color) in hands.iter().zip(Color::ALL) {
        for (code, count) in hand {
            let kind = piece_from_code(code).ok_or_else(|| JkfError::Piece(excerpt(code)))?;
            let bad_count =
                || JkfError::HandCount { code: excerpt(code), count: excerpt(&count.to_string()) };
            let n = count.as_u64().ok_or_else(bad_count)?;
            // The schema lists every piece code as a key: a count of none holds no piece.
            if n == 0 {
                continue;
            }
            if kind.hand_index().is_none() {
                return Err(JkfError::InHand(excerpt(code)));
            }
            let n = u8::try_from(n).ok().filter(|&n| n <= kind.max_count()).ok_or_else(bad_count)?;
            setup.hand_mut(color).set(kind, n);
        }
    }
    Ok(Start::of(setup))
}

/// The game a JKF record is of: the one its `手合割` header or its `preset` names (`槍将棋`,
/// `YARI`), else `asked`, else shogi. A yari shogi game starts from the yari start, so its
/// `initial` may be only the even game's preset (`HIRATE`) or the game's name. `Err` says
/// whether the `手合割` header is at fault, and why.
fn game_variant(
    game: &Game,
    initial: Option<&RawValue>,
    asked: Option<Variant>,
) -> Result<Variant, (bool, JkfError)> {
    let preset =
        initial.and_then(|raw| serde_json::from_str::<Initial>(raw.get()).ok()).and_then(|i| i.preset);
    let mut fixed = asked;
    for (what, name) in [("its 手合割", game.header("手合割")), ("its preset", preset.as_deref())] {
        let in_header = what == "its 手合割";
        let Some(named) = name.and_then(named_variant) else { continue };
        let other = named.map_err(|e| (in_header, e.into()))?;
        match fixed {
            Some(fixed) if fixed != other => {
                return Err((in_header, VariantConflict { fixed, what, other }.into()));
            }
            _ => fixed = Some(other),
        }
    }
    let variant = fixed.unwrap_or_default();
    let even = |p: &str| p == "HIRATE" || named_variant(p).is_some();
    if variant != Variant::Standard && initial.is_some() && !preset.as_deref().is_some_and(even) {
        let conflict =
            VariantConflict { fixed: variant, what: "its initial position", other: Variant::Standard };
        return Err((false, conflict.into()));
    }
    Ok(variant)
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
/// drop), destination, the piece before the move and whether it promotes. It becomes a CSA
/// move, the token that carries the piece after the move, with the piece before it kept apart,
/// so replay checks the piece and the side too (a horse written where a bishop stands is no
/// move, though CSA's `UM` would be the bishop promoting).
fn token(m: &JkfMove) -> Result<CsaMove, JkfError> {
    let to = square(m.to.as_ref().ok_or(JkfError::NoDestination)?)?;
    let from = match &m.from {
        Some(p) if (p.x, p.y) != (0, 0) => Some(square(p)?),
        _ => None,
    };
    let code = m.piece.as_deref().ok_or(JkfError::NoPiece)?;
    let before = piece_from_code(code).ok_or_else(|| JkfError::Piece(excerpt(code)))?;
    if from.is_none() && (before.hand_index().is_none() || m.promote == Some(true)) {
        return Err(JkfError::Drop(excerpt(code)));
    }
    let piece = match m.promote {
        // A promoted piece has no promoted form: `promote()` is `None` for it too.
        Some(true) => before.promote().ok_or_else(|| JkfError::Promotion(excerpt(code)))?,
        _ => before,
    };
    let color = m.color.map(color_of).transpose()?;
    Ok(CsaMove { color, from, to, piece, before: from.map(|_| before) })
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
    /// Whether a `special` ended the line: its ending, or a word JKF does not define.
    ended: bool,
    /// For the main line stopped at a move it could not read: the moves the record goes on
    /// with from there, that one included (see [`Game::unread`]).
    unread: usize,
    variations: Vec<Variation>,
}

impl Line {
    /// The ending `word` (written `special`, on line `number`) states after the line's moves.
    fn ending_by(&self, word: EndingWord, special: &str, number: u32) -> Ending {
        let to_move = turn_after(self.start_turn, self.base + self.moves.len() + self.unread);
        Ending {
            termination: word.termination,
            side: word.side(to_move),
            stated: None,
            text: special.to_string(),
            line: number,
            seconds: None,
            comments: Vec::new(),
        }
    }

    fn new(start_turn: Color, base: usize) -> Line {
        Line {
            start_turn,
            base,
            depth: 0,
            comments: Vec::new(),
            moves: Vec::new(),
            ending: None,
            ended: false,
            unread: 0,
            variations: Vec::new(),
        }
    }
}

struct Reader<'t> {
    text: &'t str,
    newlines: Vec<usize>,
    /// What was read past: forks cut or left out, times that are no times.
    warnings: Vec<Warning>,
    rounded: RoundedTimes,
    /// The running totals of the main line's times, by the parity of their ply.
    totals: Totals,
    /// The keys JKF does not define, as met (see [`Reader::unknown_keys`]).
    unknown: UnknownKeys,
}

/// The keys a record uses that JKF does not define: the first [`UNKNOWN_KEYS`] of them by
/// name, each with where and how it first came and how often; then a count of the others.
#[derive(Default)]
struct UnknownKeys {
    /// (key, line, value, times met).
    named: Vec<(String, u32, String, usize)>,
    others: usize,
}

/// Keys JKF does not define that a game's warnings name, at most.
const UNKNOWN_KEYS: usize = 8;

impl UnknownKeys {
    /// One warning per key named, and one for the others.
    fn warnings(self) -> impl Iterator<Item = Warning> {
        let others = (self.others > 0).then(|| Warning {
            line: self.named.last().map_or(1, |k| k.1),
            ply: None,
            code: "unknown_line",
            message: format!("{} more keys JKF does not define are skipped", self.others),
        });
        self.named
            .into_iter()
            .map(|(key, line, value, times)| {
                let again = if times > 1 { format!(", and {} more times", times - 1) } else { String::new() };
                let message = format!("the key '{key}' ({value}{again}) is no part of JKF: it is skipped");
                Warning { line, ply: None, code: "unknown_line", message }
            })
            .chain(others)
    }
}

impl Reader<'_> {
    /// The 1-based line where `raw` starts in the text.
    fn line_of(&self, raw: &RawValue) -> u32 {
        let offset =
            (raw.get().as_ptr() as usize).wrapping_sub(self.text.as_ptr() as usize).min(self.text.len());
        let before = self.newlines.partition_point(|&i| i < offset);
        u32::try_from(before + 1).unwrap_or(u32::MAX)
    }

    /// The 1-based line of the first occurrence of `needle` in the text, or 1.
    fn line_of_text(&self, needle: &str) -> u32 {
        let offset = self.text.find(needle).unwrap_or(0);
        u32::try_from(self.newlines.partition_point(|&i| i < offset) + 1).unwrap_or(u32::MAX)
    }

    fn problem(&self, raw: &RawValue, error: JkfError) -> ReadProblem {
        ReadProblem::new(self.line_of(raw), error)
    }

    /// Warns of the keys of the object `object` (on line `line`; without one, on the line where
    /// the text first names the key) that JKF does not define in it, none of `known`: a
    /// tool's own key is skipped, and said so with its value.
    /// Said once for each key, with how often it came (a tool that writes its own key on
    /// every move gets one warning), and only so many keys by name.
    fn unknown_keys(&mut self, object: &Map<String, Value>, known: &[&str], line: Option<u32>) {
        for (key, value) in object.iter().filter(|(key, _)| !known.contains(&key.as_str())) {
            let key = excerpt(key);
            if let Some(named) = self.unknown.named.iter_mut().find(|k| k.0 == key) {
                named.3 += 1;
            } else if self.unknown.named.len() < UNKNOWN_KEYS {
                let line = line.unwrap_or_else(|| self.line_of_text(&format!("\"{key}\"")));
                self.unknown.named.push((key, line, excerpt(&value.to_string()), 1));
            } else {
                self.unknown.others += 1;
            }
        }
    }

    /// [`Reader::unknown_keys`] of an entry of `moves` or of a fork, and of its move.
    fn unknown_entry_keys(&mut self, raw: &RawValue) {
        let Ok(Value::Object(entry)) = serde_json::from_str::<Value>(raw.get()) else { return };
        let line = Some(self.line_of(raw));
        self.unknown_keys(&entry, &["move", "time", "comments", "comment", "special", "forks"], line);
        if let Some(Value::Object(mv)) = entry.get("move") {
            let known = ["from", "to", "piece", "color", "same", "promote", "capture", "relative"];
            self.unknown_keys(mv, &known, line);
        }
    }

    /// The seconds of `time`, the entry's at `line` that holds move `ply` or (`None`) the
    /// ending: none when it has none or holds no time (a `bad_time` warning: the move or
    /// ending is kept without it). A fraction of a second is rounded down, and told. Beside
    /// them, the running total it gives, if it gives one that is a time.
    fn time(&mut self, time: Option<&RawValue>, line: u32, ply: Option<usize>) -> (Option<u32>, Option<u32>) {
        let Some(raw) = time else { return (None, None) };
        let parsed: Result<Value, String> = serde_json::from_str(raw.get()).map_err(|e| e.to_string());
        let total =
            parsed.as_ref().ok().and_then(|t| part_seconds(t, "total").ok().flatten()).map(|(s, _)| s);
        let seconds = match parsed.and_then(|t| part_seconds(&t, "now")) {
            Ok(Some((seconds, rounded))) => {
                if rounded {
                    self.rounded.add(line, ply, raw.get());
                }
                Some(seconds)
            }
            Ok(None) => None,
            Err(why) => {
                let what = ply.map_or("the ending".to_string(), |p| format!("move {p}"));
                let kept = if ply.is_some() { "the move" } else { "the ending" };
                let message = format!("the time of {what} is no time ({why}): {kept} is kept without it");
                self.warn(line, ply, "bad_time", message);
                None
            }
        };
        (seconds, total)
    }

    /// Checks the running total `total` of the time of the main line's move `ply`
    /// (or of the ending, which stands at `ply`), whose own time is `seconds`, against the
    /// sum of its side's times (see [`Totals`]).
    fn total(&mut self, total: Option<u32>, seconds: Option<u32>, line: u32, ply: usize, what: &str) {
        if let Some(message) = self.totals.check(ply % 2, seconds, total, what) {
            self.warn(line, None, "time_totals", message);
        }
    }

    fn warn(&mut self, line: u32, ply: Option<usize>, code: &'static str, message: String) {
        let ply = ply.map(|p| u32::try_from(p).unwrap_or(u32::MAX));
        self.warnings.push(Warning { line, ply, code, message });
    }

    /// Reads the ending of the main line stopped at its move `entries[0]`, which could not
    /// be read: the first `special` from there, said by the side to move after the moves
    /// the record goes on with. So the record's result stands.
    ///
    /// The entries are read only for whether they hold a move and what their `special` says,
    /// so a move whose fields are of the wrong type still counts as one.
    fn ending_after(&self, entries: &[&RawValue], line: &mut Line) {
        for &raw in entries {
            let Ok(Value::Object(entry)) = serde_json::from_str::<Value>(raw.get()) else { return };
            line.unread += usize::from(entry.get("move").is_some_and(|m| !m.is_null()));
            match entry.get("special") {
                None | Some(Value::Null) => {}
                Some(Value::String(special)) => {
                    line.ending =
                        EndingWord::parse(special).map(|w| line.ending_by(w, special, self.line_of(raw)));
                    return;
                }
                Some(_) => return,
            }
        }
    }

    /// Reads the entries of a line (the main line's first entry holds only the start's
    /// comments). Returns the problem that stopped it, if one did.
    fn line(&mut self, entries: &[&RawValue], line: &mut Line) -> Option<ReadProblem> {
        for (i, &raw) in entries.iter().enumerate() {
            self.unknown_entry_keys(raw);
            let entry: Entry = match serde_json::from_str(raw.get()) {
                Ok(e) => e,
                Err(e) => {
                    let is_move = matches!(
                        serde_json::from_str::<Value>(raw.get()),
                        Ok(Value::Object(entry)) if entry.get("move").is_some_and(|m| !m.is_null())
                    );
                    if !is_move {
                        return Some(self.problem(raw, JkfError::Json(e.to_string())));
                    }
                    if line.ended {
                        return Some(self.problem(raw, JkfError::AfterEnd));
                    }
                    if line.depth == 0 {
                        self.ending_after(&entries[i..], line);
                    }
                    return Some(self.problem(raw, JkfError::MoveShape(e.to_string())));
                }
            };
            let number = self.line_of(raw);
            let mut comments: Vec<String> = entry.comment.into_iter().collect();
            comments.extend(entry.comments.unwrap_or_default());
            let forks = entry.forks.unwrap_or_default();
            if let Some(m) = &entry.mv {
                if line.ended {
                    return Some(self.problem(raw, JkfError::AfterEnd));
                }
                let token = match token(m) {
                    Ok(t) => t,
                    Err(error) => {
                        if line.depth == 0 {
                            self.ending_after(&entries[i..], line);
                        }
                        return Some(self.problem(raw, error));
                    }
                };
                let ply = line.base + line.moves.len() + 1;
                let (seconds, total) = self.time(entry.time, number, Some(ply));
                if line.depth == 0 && !line.ended {
                    self.total(total, seconds, number, ply, &format!("move {ply}"));
                }
                // Comments before a fork's first move are about that move (the main line's are
                // the start's).
                if let Err(error) = room_for_move(&line.moves) {
                    return Some(self.problem(raw, error.into()));
                }
                if line.depth > 0 && line.moves.is_empty() {
                    comments.splice(0..0, std::mem::take(&mut line.comments));
                }
                let comments = std::mem::take(&mut comments);
                line.moves.push(MoveEntry { token: MoveToken::Csa(token), line: number, seconds, comments });
                self.forks(raw, &forks, line.moves.len() - 1, line);
            }
            // A `special` after the main line's first that says something else is read past,
            // with a warning (the same word again says nothing new).
            if let (Some(special), Some(first), true) = (&entry.special, &line.ending, line.depth == 0) {
                if line.ended && *special != first.text {
                    self.warnings.push(second_ending(number, special, first));
                }
            }
            // The first `special` ends the line; a word JKF does not define ends it too, as an
            // unknown CSA ending does, without a stated ending.
            if let Some(special) = entry.special.as_ref().filter(|_| !line.ended) {
                line.ended = true;
                match EndingWord::parse(special) {
                    Some(word) => {
                        let mut ending = line.ending_by(word, special, number);
                        // The time of the entry that ends the line is the ending's.
                        if entry.mv.is_none() {
                            let (seconds, total) = self.time(entry.time, number, None);
                            ending.seconds = seconds;
                            if line.depth == 0 {
                                let ply = line.base + line.moves.len() + 1;
                                self.total(total, seconds, number, ply, "the ending");
                            }
                        }
                        line.ending = Some(ending);
                    }
                    None => {
                        let error = JkfError::Special(excerpt(special));
                        let message = format!("{error}: the game ends here, without a stated ending");
                        self.warn(number, None, "unknown_ending", message);
                    }
                }
            }
            // The comments of an entry with no move are the ending's once the line has one,
            // else the last move's.
            comments_after(&mut line.ending, &mut line.moves, &mut line.comments).append(&mut comments);
            // Forks on an entry with no move (the ending, or an entry of forks alone after the
            // last move) are moves played instead of the ending: they branch after the last
            // move.
            if entry.mv.is_none() {
                self.forks(raw, &forks, line.moves.len(), line);
            }
        }
        None
    }

    /// Reads `forks`, played instead of move `ply` of `line` (counted from 0), as variations
    /// of `line`. A fork that cannot be read to its end is kept up to there; forks nested too
    /// deep are left out. Either is a warning.
    fn forks(&mut self, raw: &RawValue, forks: &[Vec<&RawValue>], ply: usize, line: &mut Line) {
        if forks.iter().all(Vec::is_empty) {
            return;
        }
        if line.depth >= MAX_DEPTH {
            let message = format!("{}: they are left out", JkfError::TooDeep);
            self.warn(self.line_of(raw), None, "variation_left_out", message);
            return;
        }
        for fork in forks.iter().filter(|fork| !fork.is_empty()) {
            let mut branch = Line::new(line.start_turn, line.base + ply);
            branch.depth = line.depth + 1;
            if let Some(problem) = self.line(fork, &mut branch) {
                let message = format!("a variation is cut here: {}", problem.kind);
                self.warn(problem.line, None, "variation_cut", message);
            }
            if branch.moves.is_empty() && branch.ending.is_none() {
                // A fork of comments alone has no move to keep them on: a warning quotes them.
                if !branch.comments.is_empty() {
                    let message = format!(
                        "a fork holds no move: it is left out, with its comments ({})",
                        quoted_comments(&branch.comments)
                    );
                    self.warn(self.line_of(fork[0]), None, "variation_left_out", message);
                }
                continue;
            }
            line.variations.push(Variation {
                ply,
                moves: branch.moves,
                ending: branch.ending,
                variations: branch.variations,
            });
        }
    }
}
