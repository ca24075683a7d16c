//! The Kakinoki formats: [`kif`] (the numbered move table), [`ki2`] (Japanese notation, several
//! moves a line) and the board diagrams ([`bod`]) both carry.
//!
//! This module holds what KIF and KI2 share: the header section, the words that end
//! a game, the `まで…` summary line, `変化：N手` lines, and the tree of variations.
//!
//! Header section policy: `key：value` lines become headers, raw and in file order (the value
//! is everything after the first full-width colon); board diagram lines go to [`Bod`];
//! `*` lines are comments on the start position, and so are `&` lines (bookmarks), kept as
//! written; `#` lines (remarks on the file) and blank lines are skipped. The start is the diagram when there is one (it overrides
//! 手合割), else the 手合割 handicap, else the even game; an unknown 手合割 name is read as
//! the even game (the raw header keeps it), with an `unknown_handicap` warning.
//!
//! Variation policy: `変化：N手` starts an alternative to move N of the nearest line, in file
//! order, that has a move N after its own first move (the writers of these files list
//! variations depth first, latest branch first). A variation that fits no line is left out,
//! and so is the rest of a variation that cannot be read further; both are named in the
//! game's warnings.
//!
//! Several games policy: a file holds one game as a rule, and several when files were put one
//! after the other. The next game starts at KIF's `手数----指手--` line after a game's moves (or
//! after a first such line), or at a header that opens a game after a game's end; its header
//! section starts at its first `#` line or header that is no footer (`終了日時`, `消費時間`).
//!
//! Ending policy: the first terminal word of a line ends it (a second is read past, with a
//! `second_ending` warning on the main line, as is a `まで` line that says another kind of
//! end); a `まで` line adds the outcome it states, and is the ending when no terminal word was
//! written. A
//! line with neither whose last move carries a comment about a foul (`*反則手にて終局`) ended
//! by that foul. The side of an ending is worked out from the moves counted, not from the
//! numbers written.

pub mod bod;
pub mod ki2;
pub mod kif;

use bod::Bod;

use crate::{
    kifu::{
        Ending, Format, Game, Header, MoveEntry, Outcome, Piece, ReadProblem, Start, Termination, Variation,
        Warning,
        encoding::{Lines, head_lines, lines, lines_after},
        game::comments_after,
        info,
        support::{
            TooManyMoves, Totals, UnknownVariant, VariantConflict, named_variant, quoted_comments,
            room_for_move, second_ending,
        },
    },
    notation::{MoveSyntaxError, MoveToken, japanese::Destination},
    shogi::{Color, Handicap, Setup, Square, Variant},
    text::{ascii_digit, excerpt, is_space, trim_space, trim_start_space},
};

/// Why a KIF or KI2 line stopped reading (a board diagram's own errors are [`bod::BodError`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KakinokiError {
    /// A move that is no Japanese move.
    #[error(transparent)]
    Move(#[from] MoveSyntaxError),
    /// A KIF move row whose move is no Japanese move; `number` is the row's number as written.
    #[error("move {number}: {error}")]
    Row { number: String, error: MoveSyntaxError },
    /// A KIF move row with its number and nothing readable after it.
    #[error("move {number}: a move row without a move")]
    EmptyRow { number: String },
    #[error("a move after the end of the game")]
    AfterEnd,
    /// A 手合割 name that gives no standard start, with no board diagram to give one.
    #[error("手合割 {name} needs a board diagram, and there is none")]
    NeedsDiagram { name: String },
    #[error(transparent)]
    UnknownVariant(#[from] UnknownVariant),
    #[error(transparent)]
    VariantConflict(#[from] VariantConflict),
    /// A yari shogi game with a board diagram: a diagram draws shogi's nine files.
    #[error("a board diagram draws a shogi board; a yari shogi game starts from its 手合割 alone")]
    YariDiagram,
    #[error(transparent)]
    TooManyMoves(#[from] TooManyMoves),
}

impl KakinokiError {
    /// The reject code (see [`ReadProblem`]'s module).
    pub fn code(&self) -> &'static str {
        match self {
            KakinokiError::Move(_) | KakinokiError::Row { .. } | KakinokiError::EmptyRow { .. } => {
                "bad_move_text"
            }
            KakinokiError::AfterEnd => "move_after_end",
            KakinokiError::NeedsDiagram { .. } | KakinokiError::UnknownVariant(_) => "bad_header",
            KakinokiError::VariantConflict(_) | KakinokiError::YariDiagram => "wrong_variant",
            KakinokiError::TooManyMoves(_) => "too_many_moves",
        }
    }
}

/// The games of a KIF or KI2 text, each a [`Piece`] with its lines numbered as in the whole
/// text. A file holds one game as a rule; it holds more when one game's header section
/// follows another's (files put one after the other). The next game starts at KIF's
/// `手数----指手--` met after moves or after a first such line, or at a header that opens a
/// game (see [`opens_game`]) met after a game's end (a `まで` line, or a word that ends the
/// game in a move row: `is_end`); a header among the moves of a game not ended is a stray line
/// of that game. The new game takes the lines from the first `#` line, header other than a
/// footer ([`FOOTERS`]) or `手数----` line after the previous game's last move row (`is_move`),
/// `まで` line or `変化` line: the lines before it (comments, a footer such as `終了日時：…`)
/// stay with that game. A `まで` line is a summary where the format's reader takes it for one:
/// KI2 anywhere (its moves start there), KIF only after the game's `手数----` line or a move
/// (before them it is a line of the header section); `まで…：…` is a header in both.
pub(crate) fn games(
    text: &str,
    format: Format,
    is_move: impl Fn(&str) -> bool,
    is_end: impl Fn(&str) -> bool,
) -> Vec<Piece<'_>> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let mut out = Vec::new();
    let mut start = Piece { text, lines_before: 0 };
    // Whether the current game has a move line, has ended, and has its `手数----` line; and
    // where the next game would start (its byte offset and the number of the line before).
    let (mut moved, mut ended, mut table) = (false, false, false);
    let mut opening: Option<(usize, u32)> = None;
    let mut rest = lines(text);
    loop {
        let at = text.len() - rest.rest().len();
        let Some((n, line)) = rest.next() else { break };
        // Most lines are moves, told first and at the least cost: a move line starts (after
        // spaces) with a digit or a side mark, so it is no `まで` line.
        if is_move(line) {
            (moved, opening) = (true, None);
            ended = ended || is_end(line);
            continue;
        }
        // A file put after another may bring its byte order mark along.
        let t = trim_space(line.trim_start_matches('\u{FEFF}'));
        // `まで…：…` is a header (KIF and KI2 write one so), never a summary.
        let summary = t.starts_with("まで") && !t.contains('：') && (format == Format::Ki2 || moved || table);
        if summary || variation_start(t).is_some() {
            (moved, opening) = (true, None);
            ended = ended || summary || is_end(line);
            continue;
        }
        let is_table = t.starts_with("手数--");
        let header = opens_game(t);
        if opening.is_none()
            && (is_table || t.starts_with('#') || header_key(t).is_some_and(|k| !FOOTERS.contains(&k)))
        {
            opening = Some((at, n - 1));
        }
        if (is_table && (moved || table)) || (header && ended) {
            let (cut, lines_before) = opening.unwrap_or((at, n - 1));
            let from = text.len() - start.text.len();
            out.push(Piece { text: &start.text[..cut - from], lines_before: start.lines_before });
            let next = &text[cut..];
            start = Piece { text: next.strip_prefix('\u{FEFF}').unwrap_or(next), lines_before };
            (moved, ended, table) = (false, false, false);
        }
        if is_table {
            // The header section ends here: what follows is the game's.
            (table, opening) = (true, None);
        }
    }
    out.push(start);
    out
}

/// Reads each of `games`, the games of a piece of a record after its line `lines_before`, with
/// `read`, numbering their lines as in the whole record.
pub(crate) fn read_pieces<'a>(
    games: Vec<Piece<'a>>,
    lines_before: u32,
    read: impl Fn(Piece<'a>) -> Option<Game>,
) -> Vec<Game> {
    games
        .into_iter()
        .filter_map(|game| read(Piece { lines_before: game.lines_before + lines_before, ..game }))
        .collect()
}

/// Headers written after a game's moves, which stay with it: the end time, the time each side
/// used.
const FOOTERS: [&str; 2] = ["終了日時", "消費時間"];

/// The key of a header line (trimmed): the text before its full-width or half-width colon.
/// (Comments, `*`, and remarks, `#` and `&`, are no headers.)
fn header_key(t: &str) -> Option<&str> {
    if t.starts_with(['*', '#', '&']) {
        return None;
    }
    t.split_once(['：', ':'])
        .map(|(key, _)| key.trim_matches(is_space))
        .filter(|k| !k.is_empty() && !k.is_ascii())
}

/// Whether a line (trimmed) is a header that opens a game: `開始日時`, `手合割`, `棋戦`,
/// `表題`, `先手`, `後手`, `上手`, `下手`, a problem's `作者`, `作品名` or `発表誌`, or the
/// hand of a board diagram (`後手の持駒`), with a full-width or a half-width colon.
fn opens_game(t: &str) -> bool {
    const KEYS: [&str; 15] = [
        "開始日時",
        "手合割",
        "棋戦",
        "表題",
        "作者",
        "作品名",
        "発表誌",
        "先手",
        "後手",
        "上手",
        "下手",
        "先手の持駒",
        "後手の持駒",
        "上手の持駒",
        "下手の持駒",
    ];
    header_key(t).is_some_and(|key| KEYS.contains(&key))
}

/// The part of a line before a trailing `#` remark (a dialect some tools write).
pub(crate) fn strip_remark(line: &str) -> &str {
    line.as_bytes().iter().position(|&b| b == b'#').map_or(line, |i| &line[..i])
}

/// The header section of a KIF or KI2 file.
#[derive(Debug, Default)]
pub(crate) struct Preamble {
    pub headers: Vec<Header>,
    pub comments: Vec<String>,
    bod: Bod,
    handicap: Option<(u32, String)>,
    /// The variant the reader was told the game is, if it was (see [`kif::read_as`]).
    pub variant: Option<Variant>,
    problem: Option<ReadProblem>,
    /// Lines of the header section that are none of its kinds, skipped.
    warnings: Vec<Warning>,
    /// The game's first line that is not blank.
    line: u32,
}

/// Where the header section ends, as a format sees a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Boundary {
    /// Still the header section.
    Header,
    /// A line that closes the header section and belongs to neither (KIF's `手数----指手--`).
    Closing,
    /// The first line of the move section.
    Body,
}

impl Preamble {
    /// Reads the header section of `piece`, one game of a text (see [`games`]), which ends
    /// where `boundary` says; returns it with the lines after it, or `None` for text that is
    /// blank.
    pub fn read(piece: Piece<'_>, boundary: impl Fn(&str) -> Boundary) -> Option<(Preamble, Lines<'_>)> {
        if piece.text.trim().is_empty() {
            return None;
        }
        let mut preamble = Preamble::default();
        let mut rest = lines_after(piece.text, piece.lines_before);
        preamble.line = rest.clone().find(|(_, l)| !l.trim().is_empty()).map_or(1, |(n, _)| n);
        loop {
            let before = rest.clone();
            let Some((n, line)) = rest.next() else { break };
            match boundary(line) {
                Boundary::Header => {
                    if !preamble.feed(n, line) {
                        preamble.warnings.push(unknown_line(n, line));
                    }
                }
                Boundary::Closing => {
                    // The line's words and dashes say nothing; other text on it (a remark
                    // aside, a note on the file) is no part of the record, and said so.
                    let words = ['手', '数', '指', '消', '費', '時', '間', '-', '－', 'ー'];
                    let heading = strip_remark(line);
                    if heading.chars().any(|c| !words.contains(&c) && !is_space(c)) {
                        let message = format!(
                            "'{}' is more than the move table's heading: the rest of the line is skipped",
                            excerpt(heading.trim_matches(is_space))
                        );
                        preamble.warnings.push(Warning { line: n, ply: None, code: "unknown_line", message });
                    }
                    break;
                }
                Boundary::Body => {
                    rest = before;
                    break;
                }
            }
        }
        Some((preamble, rest))
    }

    /// Offers a line of the header section. Returns `false` for a line that is none of the
    /// header section's kinds, leaving it to the caller.
    pub fn feed(&mut self, n: u32, line: &str) -> bool {
        let t = trim_space(line);
        if t.is_empty() || t.starts_with('#') {
            return true;
        }
        if t.starts_with('&') {
            // A bookmark on the start position: kept as the comment it reads as (see
            // [`shared_body_line`]).
            self.comments.push(t.to_string());
            return true;
        }
        if t.starts_with('*') {
            // As in the move section: the comment is everything after the `*`, as written.
            let raw = line.trim_start_matches(is_space);
            self.comments.push(raw[1..].to_string());
            return true;
        }
        match self.bod.feed(n, line) {
            Ok(true) => return true,
            Ok(false) => {}
            Err(e) => {
                self.problem.get_or_insert(ReadProblem::new(n, e));
                return true;
            }
        }
        if let Some((key, value)) = line.split_once('：') {
            self.header(n, key.trim_matches(is_space), value);
            return true;
        }
        // `先手: 先手 / 後手: 後手`: half-width colons, several headers on a line.
        if !t.contains(':') {
            return false;
        }
        let pairs: Option<Vec<(&str, &str)>> = t
            .split(" / ")
            .map(|part| part.split_once(':').filter(|(k, _)| !k.is_empty() && !k.is_ascii()))
            .collect();
        match pairs {
            Some(pairs) if !pairs.is_empty() => {
                for (key, value) in pairs {
                    self.header(n, key.trim(), value.trim());
                }
                true
            }
            _ => false,
        }
    }

    fn header(&mut self, n: u32, key: &str, value: &str) {
        if key == "手合割" {
            self.handicap = Some((n, value.to_string()));
        }
        self.headers.push(Header { key: key.to_string(), value: value.to_string() });
    }

    /// The game the record is of: the one its 手合割 names (`槍将棋`), else the one the reader
    /// was told, else shogi. `Err` with the 手合割's line when it names a game kifudex does not
    /// play, or a game other than the one the reader was told; or when the reader was told yari
    /// shogi and the 手合割 is a shogi handicap (the even game's name, `平手`, is written on
    /// records of any game).
    fn variant(&self) -> Result<Variant, (u32, KakinokiError)> {
        let named =
            self.handicap.as_ref().map(|(line, value)| (*line, strip_remark(value).trim_matches(is_space)));
        let conflict = |line, other| {
            let fixed = self.variant.unwrap_or_default();
            Err((line, VariantConflict { fixed, what: "its 手合割", other }.into()))
        };
        match named.map(|(line, name)| (line, named_variant(name), handicap_of_name(name))) {
            Some((line, Some(Err(e)), _)) => Err((line, e.into())),
            Some((line, Some(Ok(v)), _)) if self.variant.is_some_and(|asked| asked != v) => conflict(line, v),
            Some((_, Some(Ok(v)), _)) => Ok(v),
            Some((line, None, Some(h)))
                if h != Some(Handicap::Even) && self.variant == Some(Variant::Yari) =>
            {
                conflict(line, Variant::Standard)
            }
            _ => Ok(self.variant.unwrap_or_default()),
        }
    }

    /// The game so far: headers, normalized info, start position and comments.
    ///
    /// A diagram without a side-to-move line takes the side from the moves: `first_turn`
    /// when the first move says who makes it (KI2's ▲△), else the number of the first move
    /// row (`first_number`: even means White, as in a diagram after one move), else the
    /// diagram's `手数＝N` (odd N means White), else Black. Also returns the square a
    /// first-move 同 refers to, when the diagram says.
    pub fn finish(mut self, first_number: Option<u32>, first_turn: Option<Color>) -> (Game, Option<Square>) {
        let mut game = Game {
            info: info::normalize(&self.headers, info::Remarks::AfterHash),
            line: self.line,
            ..Game::default()
        };
        let variant = self.variant();
        let mut problem = self.problem;
        let mut previous = None;
        match variant {
            Ok(Variant::Standard) => {}
            Ok(variant) => {
                game.start = Start::Custom(Setup::start(variant));
                if self.bod.has_board() {
                    let line = self.handicap.as_ref().map_or(self.line, |(line, _)| *line);
                    problem.get_or_insert(ReadProblem::new(line, KakinokiError::YariDiagram));
                }
            }
            Err((line, e)) => {
                problem.get_or_insert(ReadProblem::new(line, e));
            }
        }
        if game.start.variant() != Variant::Standard || problem.is_some() {
            // The start is the variant's; a diagram or a handicap has nothing to add.
        } else if self.bod.has_board() {
            let explicit_turn = self.bod.turn();
            previous = self.bod.previous_destination();
            match self.bod.finish() {
                Ok(mut setup) => {
                    if let Some(first) = first_number {
                        setup.move_number = first.max(1);
                    }
                    if explicit_turn.is_none() {
                        let by_number = if setup.move_number % 2 == 0 { Color::White } else { Color::Black };
                        setup.turn = first_turn.unwrap_or(by_number);
                    }
                    game.start = Start::Custom(setup);
                }
                Err(e) => {
                    problem.get_or_insert(ReadProblem::new(e.line().unwrap_or(1), e));
                }
            }
        } else if let Some((line, value)) = &self.handicap {
            let name = strip_remark(value).trim_matches(is_space);
            match handicap_of_name(name) {
                Some(Some(h)) => game.start = Start::Standard(h),
                Some(None) => {
                    problem.get_or_insert(ReadProblem::new(
                        *line,
                        KakinokiError::NeedsDiagram { name: name.to_string() },
                    ));
                }
                None if name.is_empty() => {}
                None => {
                    let message =
                        format!("手合割 '{name}' is no handicap kifudex knows: read as the even game");
                    self.warnings.push(Warning { line: *line, ply: None, code: "unknown_handicap", message });
                }
            }
        }
        game.headers = self.headers;
        game.comments = self.comments;
        game.problem = problem;
        game.warnings = self.warnings;
        (game, previous)
    }
}

/// Whether `text` is a Kakinoki record with no moves: only header section lines (headers, a
/// board diagram and its side-to-move line, `*` comments, `#` remarks, `&` bookmarks) and
/// `まで…` summaries, with at least one header or diagram line. KIF and KI2 write such a
/// record alike, so both formats accept it. Only the lines that start in its first [`LOOK_BYTES`](crate::kifu::encoding::LOOK_BYTES) are looked at.
pub(crate) fn without_moves(text: &str) -> bool {
    let mut preamble = Preamble::default();
    let mut any = false;
    for (n, line) in head_lines(text) {
        let t = line.trim_matches(is_space);
        if t.is_empty() || t.starts_with(['#', '*', '&']) || summary(t).is_some() {
            continue;
        }
        if !preamble.feed(n, line) {
            return false;
        }
        any = true;
    }
    any
}

/// The side to move and the move number at a game's start.
pub(crate) fn start_turn(start: &Start) -> (Color, u32) {
    match start {
        Start::Custom(s) => (s.turn, s.move_number),
        Start::Standard(Handicap::Even) => (Color::Black, 1),
        Start::Standard(_) => (Color::White, 1),
    }
}

/// The start a 手合割 value gives: `Some(Some(h))` for a standard one, `Some(None)` for a
/// custom start (その他), `None` for a name nobody defines (read as the even game). Spaces
/// and a trailing `#` remark are ignored.
pub(crate) fn handicap_of_name(value: &str) -> Option<Option<Handicap>> {
    let name = strip_remark(value).trim_matches(is_space);
    if name.is_empty() {
        return None;
    }
    if name.starts_with("その他") {
        return Some(None);
    }
    let alias = match name.trim_end_matches('ち').trim_end_matches('落') {
        "飛" => Some(Handicap::Rook),
        "左香" => Some(Handicap::Lance),
        _ => None,
    };
    alias.or_else(|| Handicap::from_name(name)).map(Some)
}

/// Who the `side` of an ending is, relative to the side the word is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SideRule {
    /// The side the word is about: the one who resigned, lost on time, fouled, declared.
    Actor,
    /// Its opponent: the word is a win (`反則勝ち`, `不戦勝`), `side` names the loser.
    Opponent,
}

/// A word that ends a game, as a KIF move row or a KI2 token writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Terminal {
    pub termination: Termination,
    pub rule: SideRule,
    /// The side written before the word (`先手 反則負け`); otherwise the side to move.
    pub named: Option<Color>,
}

/// The words that name a side before a word that ends a game (`先手 反則負け`), and in a
/// `まで` line.
const SIDES: [(&str, Color); 4] =
    [("先手", Color::Black), ("下手", Color::Black), ("後手", Color::White), ("上手", Color::White)];

/// The words that end a game, as a KIF move row or a KI2 token writes them, with what each
/// means.
const TERMINALS: [(&str, Termination, SideRule); 24] = [
    ("投了", Termination::Resign, SideRule::Actor),
    ("詰み", Termination::Checkmate, SideRule::Actor),
    ("詰", Termination::Checkmate, SideRule::Actor),
    ("中断", Termination::Interrupted, SideRule::Actor),
    ("千日手", Termination::Repetition, SideRule::Actor),
    ("持将棋", Termination::Impasse, SideRule::Actor),
    ("切れ負け", Termination::Timeout, SideRule::Actor),
    ("時間切れ", Termination::Timeout, SideRule::Actor),
    ("時間切れ負け", Termination::Timeout, SideRule::Actor),
    ("Time-up", Termination::Timeout, SideRule::Actor),
    ("Time-Up", Termination::Timeout, SideRule::Actor),
    ("反則負け", Termination::IllegalMove, SideRule::Actor),
    ("反則勝ち", Termination::IllegalMove, SideRule::Opponent),
    // The illegal move itself: the side that played it loses.
    ("反則手", Termination::IllegalMove, SideRule::Actor),
    ("入玉勝ち", Termination::EnteringKing, SideRule::Actor),
    ("宣言勝ち", Termination::EnteringKing, SideRule::Actor),
    ("入玉宣言", Termination::EnteringKing, SideRule::Actor),
    ("封じ手", Termination::Sealed, SideRule::Actor),
    ("不戦勝", Termination::Forfeit, SideRule::Opponent),
    ("不戦敗", Termination::Forfeit, SideRule::Actor),
    ("不詰", Termination::NoMate, SideRule::Actor),
    ("引き分け", Termination::Draw, SideRule::Actor),
    ("連続王手の千日手", Termination::PerpetualCheck, SideRule::Actor),
    ("最大手数", Termination::MaxMoves, SideRule::Actor),
];

/// Whether a text that starts with `c` is a move rather than a word that ends a game: `c`
/// is a digit (half- or full-width), a kanji numeral or 同, as a move's destination starts.
/// No word of [`TERMINALS`] or [`SIDES`] starts so, so [`terminal`] is `None` for such a
/// text, told without reading it further.
pub(crate) fn starts_as_move(c: char) -> bool {
    c.is_ascii_digit()
        || ('０'..='９').contains(&c)
        || matches!(c, '一' | '二' | '三' | '四' | '五' | '六' | '七' | '八' | '九' | '同' | '仝')
}

/// The side a `先手`/`後手`/`下手`/`上手` prefix names, and the rest.
fn side_prefix(text: &str) -> Option<(Color, &str)> {
    SIDES.iter().find_map(|&(word, color)| text.strip_prefix(word).map(|rest| (color, rest)))
}

/// The terminal a word is: `投了`, `詰み`, `先手 反則負け`, `Time-up`, ….
pub(crate) fn terminal(text: &str) -> Option<Terminal> {
    // Most texts offered are moves: they are told by their first character.
    if text.chars().next().is_some_and(starts_as_move) {
        return None;
    }
    let text = trim_space(text);
    let (named, word) = match side_prefix(text) {
        Some((color, rest)) => (Some(color), rest.trim_start_matches(is_space).trim_start_matches('の')),
        None => (None, text),
    };
    let &(_, termination, rule) = TERMINALS.iter().find(|(w, ..)| *w == word)?;
    Some(Terminal { termination, rule, named })
}

/// A `まで…` summary line, read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Summary {
    pub terminal: Terminal,
    pub stated: Option<Outcome>,
}

/// Whether `line` is a summary (`まで64手で先手の勝ち`) where the header section ends: a
/// record without moves (or a KI2 record) may write one with no move row before it. `まで…：…`
/// is a header, as the KIF and KI2 writers write a header of that key.
pub(crate) fn opens_summary(line: &str) -> bool {
    let t = trim_space(line);
    t.starts_with("まで") && !t.contains('：')
}

/// Reads `まで77手で先手の勝ち`, `まで3手で時間切れにより先手の勝ち`, `まで2手で先手の反則負け`,
/// `まで25手で中断`, `まで61手詰`, …. The move count is not trusted (records get it wrong).
pub(crate) fn summary(line: &str) -> Option<Summary> {
    let rest = strip_remark(line).trim_matches(is_space).strip_prefix("まで")?;
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit() || ('０'..='９').contains(&c));
    let rest = rest.strip_prefix('手')?;
    let rest = rest.strip_prefix('で').unwrap_or(rest).trim_matches(is_space);
    if rest.is_empty() || rest.starts_with('詰') {
        let terminal = Terminal { termination: Termination::Checkmate, rule: SideRule::Actor, named: None };
        return Some(Summary { terminal, stated: None });
    }
    let (timeout, rest) = match rest.strip_prefix("時間切れにより") {
        Some(r) => (true, r),
        None => (false, rest),
    };
    if let Some((winner_or_actor, word)) = side_prefix(rest) {
        let word = word.strip_prefix('の').unwrap_or(word);
        let (termination, rule) = match word {
            "勝ち" if timeout => (Termination::Timeout, SideRule::Opponent),
            "勝ち" => (Termination::Unknown, SideRule::Opponent),
            "負け" => (Termination::Unknown, SideRule::Actor),
            _ => {
                let t = terminal(word)?;
                (t.termination, t.rule)
            }
        };
        let winner = match (termination, rule) {
            (Termination::EnteringKing, _) | (_, SideRule::Opponent) => Some(winner_or_actor),
            (
                Termination::Resign
                | Termination::Unknown
                | Termination::Timeout
                | Termination::IllegalMove
                | Termination::Forfeit
                | Termination::Checkmate,
                SideRule::Actor,
            ) => Some(winner_or_actor.flip()),
            _ => None,
        };
        let terminal = Terminal { termination, rule, named: Some(winner_or_actor) };
        return Some(Summary { terminal, stated: winner.map(Outcome::Win) });
    }
    let terminal = terminal(rest)?;
    let stated = match terminal.termination {
        Termination::Repetition | Termination::Impasse | Termination::Draw => Some(Outcome::Draw),
        _ => None,
    };
    Some(Summary { terminal, stated })
}

/// The move number a `変化：N手` line names (also `変化：   3手`, `変化：3手目` and the broken
/// `変化：変化：3手`).
pub(crate) fn variation_start(line: &str) -> Option<u32> {
    let mut rest = trim_start_space(line).strip_prefix("変化")?;
    rest = strip_remark(rest).trim_end_matches(is_space);
    while let Some(r) = rest.strip_prefix(['：', ':']) {
        rest = r.trim_start_matches(is_space);
        rest = rest.strip_prefix("変化").unwrap_or(rest);
    }
    let digits = rest.trim_end_matches(is_space).trim_end_matches('目').trim_end_matches('手');
    let digits: String = digits.trim_matches(is_space).chars().map(ascii_digit).collect();
    digits.parse().ok()
}

/// Reads the lines both formats have in their move section: `*` comments, `#` remarks, `&`
/// bookmarks, blank lines, `変化：N手` and `まで…`. Returns `false` for any other line.
///
/// A bookmark (`&読み込み時表示`, a name its tool gives the position after the move before)
/// is kept as a comment of that move holding the line as written, `&` and all, which the
/// writers of KIF and KI2 write back as the bookmark line. A `まで` line that is not read as
/// the line's summary (its words are not known, or the line has one already) is kept as a
/// comment holding it as written. A `#` remark is a note on the file, which the formats define
/// as read by no program.
pub(crate) fn shared_body_line(tree: &mut Tree, n: u32, line: &str) -> bool {
    let t = trim_space(line);
    if t.starts_with('*') {
        let raw = line.trim_start_matches(is_space);
        tree.comment(&raw[1..]);
        return true;
    }
    if t.starts_with('&') {
        tree.comment(t);
        return true;
    }
    if t.is_empty() || t.starts_with('#') {
        return true;
    }
    if let Some(number) = variation_start(t) {
        tree.variation(number, n);
        keep_remark(tree, t);
        return true;
    }
    if t.starts_with("まで") {
        let text = strip_remark(t).trim_matches(is_space);
        let taken = summary(t).is_some_and(|s| tree.summary(s, n, text));
        if taken {
            keep_remark(tree, t);
        } else if !tree.has_summary(text) {
            // A summary in words not read (`まで2手で何か`), or a second one that is not the
            // first written again: kept as written, as a comment, so that nothing of the
            // record is lost.
            tree.comment(t);
        }
        return true;
    }
    false
}

/// Keeps the remark after a `#` at the end of line `t` (`まで3手で先手の勝ち#note`) as a comment
/// where the line leaves the reader: before the first move of the variation a `変化` line
/// starts, after the game a `まで` line ends.
fn keep_remark(tree: &mut Tree, t: &str) {
    if let Some(at) = t.find('#').filter(|&at| at + 1 < t.len()) {
        tree.comment(&t[at..]);
    }
}

/// One line of play (the main line or a variation) while it is being read.
#[derive(Debug)]
struct Line {
    /// The index, in the parent, of the move this line replaces.
    at: usize,
    /// Plies from the game's start to this line's first move.
    abs: usize,
    /// The number of this line's first move as the record numbers moves.
    first: u32,
    /// The record's line that starts this line (a variation's `変化` line; 0 for the main line).
    opened_at: u32,
    moves: Vec<MoveEntry>,
    ending: Option<Ending>,
    summary: Option<(Summary, u32, String)>,
    /// Comments read after the `まで` line of a line that has no ending row: the ending's,
    /// once the summary makes one.
    after_summary: Vec<String>,
    /// Comments read before this line's first move.
    pending: Vec<String>,
    children: Vec<usize>,
    /// No more moves are taken: the line ended, or could not be read further.
    closed: bool,
    /// The line fits no other line and is dropped at the end.
    detached: bool,
    /// For the main line stopped at a move it could not read: the moves the record goes on
    /// with from there, that one included. Its ending is still read, said by the side to
    /// move after them.
    unread: Option<usize>,
    /// The number of the line's last row read (a move or an ending).
    last_row: Option<u32>,
    /// A row numbered back from the one before was met: the rows after it, up to the next
    /// `変化` line, are read past.
    read_past: bool,
}

impl Line {
    /// Whether the line has ended: it takes no more moves, or a word or a `まで` line ended
    /// it (the rows after which are a move after the end).
    fn ended(&self) -> bool {
        self.closed || self.ending.is_some() || self.summary.is_some()
    }

    /// The side to move after the line's moves, those it could not read included, from a
    /// start with `start_turn` to move.
    fn to_move(&self, start_turn: Color) -> Color {
        let plies = self.abs + self.moves.len() + self.unread.unwrap_or(0);
        if plies % 2 == 0 { start_turn } else { start_turn.flip() }
    }

    fn new(at: usize, abs: usize, first: u32) -> Line {
        Line {
            at,
            abs,
            first,
            opened_at: 0,
            moves: Vec::new(),
            ending: None,
            summary: None,
            after_summary: Vec::new(),
            pending: Vec::new(),
            children: Vec::new(),
            closed: false,
            detached: false,
            unread: None,
            last_row: None,
            read_past: false,
        }
    }
}

/// The most moves a main line's list is made for before its moves are read: a guess from the
/// length of the text, which a long file of something else must not turn into much memory.
const MOVES_RESERVED: usize = 1024;

/// The moves, endings and variations of a game, built as the lines come.
#[derive(Debug)]
pub(crate) struct Tree {
    lines: Vec<Line>,
    stack: Vec<usize>,
    start_turn: Color,
    /// The destination of the move before the start position, which a first-move 同 means.
    previous: Option<Square>,
    problem: Option<ReadProblem>,
    warnings: Vec<Warning>,
    /// Whether a time that is no time was warned of (once a game).
    time_unread: bool,
    /// The running totals of the main line's times.
    totals: Totals,
}

impl Tree {
    /// A tree whose main line starts with move number `first`, `turn` to move; `previous` is
    /// the destination of the move that led to the start position, when the record says.
    /// `moves` is a guess at the main line's length, so that its list is made once.
    pub fn new(turn: Color, first: u32, previous: Option<Square>, moves: usize) -> Tree {
        let mut main = Line::new(0, 0, first);
        main.moves.reserve(moves.min(MOVES_RESERVED));
        Tree {
            lines: vec![main],
            stack: vec![0],
            start_turn: turn,
            previous,
            problem: None,
            warnings: Vec::new(),
            time_unread: false,
            totals: Totals::default(),
        }
    }

    fn current(&mut self) -> &mut Line {
        let i = *self.stack.last().expect("the main line is never popped");
        &mut self.lines[i]
    }

    /// The side to move after the current line's moves so far.
    pub fn to_move(&self) -> Color {
        self.lines[*self.stack.last().expect("the main line is never popped")].to_move(self.start_turn)
    }

    /// Whether the current line takes no more moves.
    pub fn closed(&self) -> bool {
        self.lines[*self.stack.last().expect("the main line is never popped")].closed
    }

    /// Whether the row numbered `number`, on line `line_no`, is read into the current line.
    /// A row numbered back from the row before it (`4` after `5`) starts moves of another
    /// line, a variation whose `変化` line is missing or could not be read: it is no move of
    /// this one, nor are the rows after it up to the next `変化` line, which are read past with
    /// a warning at the first (`row_out_of_order`). A row numbered as the one before is read,
    /// as the rows of a record that numbers two moves alike are. A line that has ended (a word
    /// that ends it, a `まで` line) takes its rows as [`Tree::push`] and [`Tree::end`] say.
    pub fn row_in_order(&mut self, line_no: u32, number: u32) -> bool {
        let line = self.current();
        if line.read_past {
            return false;
        }
        if line.ended() {
            return true;
        }
        match line.last_row {
            Some(last) if number < last => {
                line.read_past = true;
                let message = format!(
                    "row {number} comes after row {last}: it and the rows after it, up to the next 変化 \
                     line, are read past (the moves of a variation whose 変化 line is missing or could \
                     not be read)"
                );
                self.warnings.push(Warning { line: line_no, ply: None, code: "row_out_of_order", message });
                false
            }
            _ => {
                line.last_row = Some(number);
                true
            }
        }
    }

    /// Adds a move to the current line. A move after the line's end (a word that ends it, or a
    /// `まで` line) stops the line there. A
    /// 同 as the game's first move is given the square it refers to, when the record says.
    pub fn push(&mut self, mut entry: MoveEntry) {
        let previous = self.previous;
        let in_variation = self.stack.len() > 1;
        let line = self.current();
        if let (MoveToken::Japanese(m), Some(sq)) = (&mut entry.token, previous) {
            if m.destination == Destination::Same && line.abs + line.moves.len() == 0 {
                m.destination = Destination::Square(sq);
            }
        }
        if line.closed {
            return;
        }
        // A `まで` line ends the game as a word that ends it does.
        if line.ending.is_some() || line.summary.is_some() {
            let at = entry.line;
            self.fail(at, KakinokiError::AfterEnd);
            return;
        }
        if let Err(error) = room_for_move(&line.moves) {
            let at = entry.line;
            self.fail(at, error.into());
            return;
        }
        if in_variation && line.moves.is_empty() && !line.pending.is_empty() {
            let mut comments = std::mem::take(&mut line.pending);
            comments.append(&mut entry.comments);
            entry.comments = comments;
        }
        line.moves.push(entry);
    }

    /// Warns of the time block `( block )` of the row `text` on line `line_no`, which holds no
    /// time: the move or ending is kept without one. Once a game, at the first: a writer that
    /// writes one such time writes them all.
    pub fn unread_time(&mut self, line_no: u32, text: &str, block: &str) {
        if std::mem::replace(&mut self.time_unread, true) {
            return;
        }
        let message = format!(
            "the time ({block}) of {text} is no time: the row is read without it, and so is any later row \
             whose time is none"
        );
        self.warnings.push(Warning { line: line_no, ply: None, code: "bad_time", message });
    }

    /// Checks the running total `total` of the row `text` on line `line_no`, a main-line move
    /// or ending whose own time is `seconds`, against the sum of its side's times (see
    /// [`Totals`]).
    pub fn time_total(&mut self, line_no: u32, text: &str, seconds: Option<u32>, total: Option<u32>) {
        if self.stack.len() != 1 || self.lines[0].ended() {
            return;
        }
        let side = usize::from(self.to_move() == Color::White);
        if let Some(message) = self.totals.check(side, seconds, total, text) {
            self.warnings.push(Warning { line: line_no, ply: None, code: "time_totals", message });
        }
    }

    /// Attaches a comment to the last move of the current line (before its first move: to
    /// the start position for the main line, to the first move for a variation), or, once
    /// the line has ended, to its ending.
    pub fn comment(&mut self, text: &str) {
        let line = self.current();
        let text = text.to_string();
        match (&mut line.ending, &line.summary, line.moves.last_mut()) {
            (Some(e), _, _) => e.comments.push(text),
            (None, Some(_), _) => line.after_summary.push(text),
            (None, None, Some(m)) => m.comments.push(text),
            (None, None, None) => line.pending.push(text),
        }
    }

    /// Ends the current line with a terminal word, written with the time `seconds` (a KIF
    /// ending row's); a second end is read past (the first wins), with a warning on the main
    /// line.
    /// Whether the ending was taken (not read past).
    pub fn end(&mut self, terminal: Terminal, text: &str, line_no: u32, seconds: Option<u32>) -> bool {
        let to_move = self.to_move();
        let is_main = self.stack.len() == 1;
        let line = self.current();
        if line.closed && line.unread.is_none() {
            return false;
        }
        if let Some(first) = &line.ending {
            if is_main {
                let warning = second_ending(line_no, text, first);
                self.warnings.push(warning);
            }
            return false;
        }
        line.ending = Some(Ending { seconds, ..ending(terminal, to_move, text, line_no) });
        true
    }

    /// Whether the current line's summary is `text` (a `まで` line written again).
    pub fn has_summary(&mut self, text: &str) -> bool {
        self.current().summary.as_ref().is_some_and(|(_, _, first)| first == text)
    }

    /// Records the current line's `まで` summary (the first one counts); whether it was this one.
    pub fn summary(&mut self, summary: Summary, line_no: u32, text: &str) -> bool {
        let line = self.current();
        let first = line.summary.is_none();
        if first {
            line.summary = Some((summary, line_no, text.to_string()));
        }
        first
    }

    /// Stops the current line: the main line's problem becomes the game's; a variation is
    /// cut where it could not be read. The main line stopped at a move it could not read
    /// counts the moves the record goes on with ([`Tree::unread_move`]), and still takes its
    /// ending: the record's result stands.
    pub fn fail(&mut self, line_no: u32, error: KakinokiError) {
        let is_main = self.stack.len() == 1;
        let line = self.current();
        let (already, detached) = (line.closed, line.detached);
        line.closed = true;
        if is_main && !already && error.code() == "bad_move_text" {
            line.unread = Some(1);
        }
        if is_main && self.problem.is_none() {
            self.problem = Some(ReadProblem::new(line_no, error));
        } else if !is_main && !already && !detached {
            let message = format!("a variation is cut here: {error}");
            self.warnings.push(Warning { line: line_no, ply: None, code: "variation_cut", message });
        }
    }

    /// Notes a move the current line does not take, once it is closed: after a move the main
    /// line could not read, it counts towards the side that states the ending.
    pub fn unread_move(&mut self) {
        let line = self.current();
        if let (true, Some(n)) = (line.ending.is_none() && line.summary.is_none(), &mut line.unread) {
            *n += 1;
        }
    }

    /// Notes a line of the move section that is none of its kinds: it is skipped, and reading
    /// goes on. Once the main line could not be read further, later lines are not looked at.
    pub fn skip(&mut self, line_no: u32, line: &str) {
        if self.problem.is_none() {
            self.warnings.push(unknown_line(line_no, line));
        }
    }

    /// Starts a variation for move `n`, written on line `line_no` (see the module
    /// documentation).
    pub fn variation(&mut self, n: u32, line_no: u32) {
        // A variation's line must have a move `n` after its first; the main line may also be
        // extended or have its ending replaced.
        while self.stack.len() > 1 {
            let line = self.current();
            if line.first < n && (n as usize) < line.first as usize + line.moves.len() {
                break;
            }
            self.stack.pop();
        }
        let parent = *self.stack.last().expect("the main line is never popped");
        let p = &self.lines[parent];
        let fits = n >= p.first && (n - p.first) as usize <= p.moves.len() && !p.detached;
        let at = n.saturating_sub(p.first) as usize;
        let mut line = Line::new(at, p.abs + at, n);
        line.detached = !fits;
        line.opened_at = line_no;
        let index = self.lines.len();
        self.lines.push(line);
        if fits {
            self.lines[parent].children.push(index);
        } else {
            let message = format!(
                "変化：{n}手 branches from no move of the lines before it: the variation is left out"
            );
            self.warnings.push(Warning { line: line_no, ply: None, code: "variation_left_out", message });
        }
        self.stack.push(index);
    }

    /// The main line, its ending, its variations and the read problem, into `game`.
    pub fn finish(mut self, game: &mut Game) {
        for i in 0..self.lines.len() {
            let line = &mut self.lines[i];
            let turn = line.to_move(self.start_turn);
            if let Some((summary, line_no, text)) = line.summary.take() {
                match &mut line.ending {
                    Some(e) => {
                        // One that says another kind of end is read past, with what it says.
                        let said = summary.terminal.termination;
                        if said != Termination::Unknown && said != e.termination {
                            if i == 0 {
                                self.warnings.push(second_ending(line_no, &text, e));
                            }
                        } else {
                            e.stated = e.stated.or(summary.stated);
                        }
                    }
                    None if !line.closed || line.unread.is_some() => {
                        let mut e = ending(summary.terminal, turn, &text, line_no);
                        e.stated = summary.stated;
                        line.ending = Some(e);
                    }
                    None => {}
                }
            }
            // The comments after a `まで` line are the ending's; with none, the last move's.
            let after = std::mem::take(&mut line.after_summary);
            comments_after(&mut line.ending, &mut line.moves, &mut line.pending).extend(after);
            // Only the game's own line: a variation is a what-if, and its comments discuss it;
            // one cut where it could not be read is written back without its cut, and would
            // read back with an ending it never had.
            if i == 0 && line.ending.is_none() && !line.closed {
                line.ending = foul_comment(&line.moves, turn);
            }
            if i > 0 && !line.pending.is_empty() && line.moves.is_empty() {
                // A variation's comments before an ending and no move are the ending's; a
                // variation of comments alone has nothing to keep them on: a warning quotes
                // them (one left out already was said to be).
                let comments = std::mem::take(&mut line.pending);
                if let Some(e) = &mut line.ending {
                    e.comments.splice(0..0, comments);
                } else if !line.detached {
                    let message = format!(
                        "変化：{}手 holds no move: the variation is left out, with its comments ({})",
                        line.first,
                        quoted_comments(&comments)
                    );
                    let warning =
                        Warning { line: line.opened_at, ply: None, code: "variation_left_out", message };
                    self.warnings.push(warning);
                }
            }
        }
        let main = std::mem::replace(&mut self.lines[0], Line::new(0, 0, 1));
        game.comments.extend(main.pending);
        game.moves = main.moves;
        game.unread = main.unread.unwrap_or(0);
        game.ending = main.ending;
        game.variations = main.children.iter().filter_map(|&c| take_variation(&mut self.lines, c)).collect();
        if game.problem.is_none() {
            game.problem = self.problem;
        }
        game.warnings.append(&mut self.warnings);
    }
}

/// The warning for a line that is no part of the format, which reading skips.
pub(crate) fn unknown_line(line_no: u32, line: &str) -> Warning {
    let message = format!("'{}' is not part of the record: the line is skipped", excerpt(line.trim()));
    Warning { line: line_no, ply: None, code: "unknown_line", message }
}

/// An ending for a line that states none but whose last move carries a comment about a foul
/// (`*反則手にて終局`): the last move was the foul, made by the side not to move now. A bookmark
/// or a remark kept as a comment (`&反則`, `#反則`) is a name or a note, and says no end.
fn foul_comment(moves: &[MoveEntry], to_move: Color) -> Option<Ending> {
    let last = moves.last()?;
    let comment = last.comments.iter().find(|c| c.contains("反則") && !c.starts_with(['&', '#']))?;
    let terminal = Terminal { termination: Termination::IllegalMove, rule: SideRule::Opponent, named: None };
    Some(ending(terminal, to_move, comment.trim_matches(is_space), last.line))
}

/// The variation read as line `i`, `None` for one with neither a move nor an ending (what it
/// held, comments alone, was said in a warning).
fn take_variation(lines: &mut [Line], i: usize) -> Option<Variation> {
    let moves = std::mem::take(&mut lines[i].moves);
    let ending = lines[i].ending.take();
    if moves.is_empty() && ending.is_none() {
        return None;
    }
    let children = std::mem::take(&mut lines[i].children);
    let variations = children.iter().filter_map(|&c| take_variation(lines, c)).collect();
    Some(Variation { ply: lines[i].at, moves, ending, variations })
}

/// The ending a terminal word makes, `to_move` being the side to move when it is written.
fn ending(terminal: Terminal, to_move: Color, text: &str, line: u32) -> Ending {
    let actor = terminal.named.unwrap_or(to_move);
    let side = match terminal.rule {
        SideRule::Actor => actor,
        SideRule::Opponent => actor.flip(),
    };
    Ending {
        termination: terminal.termination,
        side: Some(side),
        stated: None,
        text: text.to_string(),
        line,
        seconds: None,
        comments: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn win(c: Color) -> Option<Outcome> {
        Some(Outcome::Win(c))
    }

    #[test]
    fn summaries_in_every_form_seen() {
        use Termination::*;
        let cases = [
            ("まで77手で先手の勝ち", Unknown, Some(Color::White), win(Color::Black)),
            ("まで142手で下手の勝ち", Unknown, Some(Color::White), win(Color::Black)),
            ("まで117手で上手の勝ち", Unknown, Some(Color::Black), win(Color::White)),
            ("まで3手で時間切れにより先手の勝ち", Timeout, Some(Color::White), win(Color::Black)),
            ("まで2手で先手の反則負け", IllegalMove, Some(Color::Black), win(Color::White)),
            ("まで3手で後手の反則勝ち", IllegalMove, Some(Color::Black), win(Color::White)),
            ("まで3手で先手の反則負け#コメント11", IllegalMove, Some(Color::Black), win(Color::White)),
            ("まで4手で後手の反則手", IllegalMove, Some(Color::White), win(Color::Black)),
            ("まで2手で反則手", IllegalMove, None, None),
            ("まで0手で後手の入玉勝ち", EnteringKing, Some(Color::White), win(Color::White)),
            ("まで96手で千日手", Repetition, None, Some(Outcome::Draw)),
            ("まで258手で持将棋", Impasse, None, Some(Outcome::Draw)),
            ("まで25手で中断", Interrupted, None, None),
            ("まで52手で封じ手", Sealed, None, None),
            ("まで3手で不詰", NoMate, None, None),
            ("まで7手で詰み", Checkmate, None, None),
            ("まで3手で詰", Checkmate, None, None),
            ("まで61手詰", Checkmate, None, None),
        ];
        for (text, termination, side, stated) in cases {
            let s = summary(text).unwrap_or_else(|| panic!("{text}"));
            let e = ending(s.terminal, Color::Black, text, 1);
            let side = side.or(Some(Color::Black));
            assert_eq!((s.terminal.termination, e.side, s.stated), (termination, side, stated), "{text}");
        }
        assert_eq!(summary("まで"), None);
        assert_eq!(summary("までもない"), None);
        assert_eq!(summary("まで3手で何か"), None);
    }

    #[test]
    fn terminal_words_name_their_side() {
        let t = terminal("先手 反則負け").unwrap();
        assert_eq!(
            (t.termination, t.named, t.rule),
            (Termination::IllegalMove, Some(Color::Black), SideRule::Actor)
        );
        let e = ending(terminal("反則勝ち").unwrap(), Color::White, "反則勝ち", 1);
        assert_eq!(e.side, Some(Color::Black));
        assert_eq!(terminal("Time-up").unwrap().termination, Termination::Timeout);
        assert_eq!(terminal("７六歩"), None);
    }

    #[test]
    fn no_word_that_ends_a_game_starts_as_a_move() {
        let words = TERMINALS.iter().map(|(w, ..)| *w).chain(SIDES.iter().map(|(w, _)| *w));
        for word in words {
            let first = word.chars().next().unwrap();
            assert!(!starts_as_move(first), "{word}");
        }
        // Every word is read, alone and after each side.
        for (word, termination, rule) in TERMINALS {
            assert_eq!(terminal(word), Some(Terminal { termination, rule, named: None }), "{word}");
            for (side, color) in SIDES {
                let t = terminal(&format!("{side} {word}")).unwrap_or_else(|| panic!("{side} {word}"));
                assert_eq!((t.termination, t.named), (termination, Some(color)), "{side} {word}");
            }
        }
        for c in ['7', '７', '七', '同', '仝', '1', '１', '一', '九', '９'] {
            assert!(starts_as_move(c), "{c}");
        }
        for c in ['投', '先', 'T', '　', ' ', '(', '▲', '&', '*', '上', '下', '不', '中'] {
            assert!(!starts_as_move(c), "{c}");
        }
        for text in ["７六歩(77)", "同　歩", "2四同歩", "七六歩"] {
            assert_eq!(terminal(text), None, "{text}");
        }
    }

    #[test]
    fn variation_lines() {
        assert_eq!(variation_start("変化：3手"), Some(3));
        assert_eq!(variation_start("変化：   3手"), Some(3));
        assert_eq!(variation_start("変化：3手目"), Some(3));
        assert_eq!(variation_start("変化：変化：5手"), Some(5));
        assert_eq!(variation_start("変化：1手#コメント13"), Some(1));
        assert_eq!(variation_start("変化：１２手"), Some(12));
        assert_eq!(variation_start("変化：x手"), None);
    }

    #[test]
    fn handicap_names() {
        assert_eq!(handicap_of_name("平手　　"), Some(Some(Handicap::Even)));
        assert_eq!(handicap_of_name("平手#コメント2"), Some(Some(Handicap::Even)));
        assert_eq!(handicap_of_name("香落"), Some(Some(Handicap::Lance)));
        assert_eq!(handicap_of_name("飛落ち"), Some(Some(Handicap::Rook)));
        assert_eq!(handicap_of_name("左七枚落ち"), Some(Some(Handicap::LeftSevenPieces)));
        assert_eq!(handicap_of_name("その他　"), Some(None));
        assert_eq!(handicap_of_name("handicap"), None);
    }
}
