//! Reading CSA text into games.

use super::{
    ending::{EndingWord, summary_ending},
    statement::{self, Place, Statement, StatementError},
};
use crate::{
    kifu::{
        Ending, Game, Header, MoveEntry, ReadProblem, Start, Warning,
        encoding::{Lines, lines, lines_after},
        game::comments_after,
        info,
        support::{RoundedTimes, TooManyMoves, quoted_comments, room_for_move, second_ending, turn_after},
    },
    notation::{MoveToken, csa::CsaMove},
    shogi::{Color, Handicap, Piece, PieceKind, Setup, Square},
    text::{excerpt, trim_space},
};

/// Why a game stopped being read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CsaError {
    #[error(transparent)]
    Statement(#[from] StatementError),
    #[error("the position is set after the moves began")]
    LatePosition,
    #[error("a move after the end of the game ({0})")]
    AfterEnd(String),
    #[error("PI removes {0}, which the start position does not have there")]
    BadRemoval(String),
    #[error("{0} in hand is more than a full set holds")]
    TooMany(&'static str),
    #[error("unknown ending '%{0}'")]
    UnknownEnding(String),
    #[error("a game separator '/' must stand on a line of its own")]
    Separator,
    #[error("the time '{0}' goes with no move or ending read")]
    StrayTime(String),
    /// `ply` is the move's, `None` for the ending's time.
    #[error("the time '{text}' follows {}, which has one", timed(*.ply))]
    SecondTime { text: String, ply: Option<u32> },
    #[error(transparent)]
    TooManyMoves(#[from] TooManyMoves),
}

/// What a time follows: move `ply`, or the ending.
fn timed(ply: Option<u32>) -> String {
    ply.map_or_else(|| "the ending".to_string(), |ply| format!("move {ply}"))
}

impl CsaError {
    /// The reject code (see [`ReadProblem`]'s module).
    pub fn code(&self) -> &'static str {
        match self {
            CsaError::Statement(StatementError::Move(_)) => "bad_move_text",
            CsaError::Statement(StatementError::Row { .. } | StatementError::Group(_))
            | CsaError::LatePosition
            | CsaError::BadRemoval(_)
            | CsaError::TooMany(_) => "bad_board",
            CsaError::Statement(StatementError::Unknown(_) | StatementError::Time(_))
            | CsaError::Separator
            | CsaError::StrayTime(_)
            | CsaError::SecondTime { .. } => "bad_line",
            CsaError::AfterEnd(_) => "move_after_end",
            CsaError::UnknownEnding(_) => "bad_ending",
            CsaError::TooManyMoves(_) => "too_many_moves",
        }
    }

    /// The warning code of an error that reading goes on past (a line, or part of one, that
    /// holds no statement the game needs), `None` for one that stops the game.
    fn skipped(&self) -> Option<&'static str> {
        match self {
            CsaError::Statement(StatementError::Unknown(_) | StatementError::Time(_))
            | CsaError::Separator => Some("unknown_line"),
            CsaError::UnknownEnding(_) => Some("unknown_ending"),
            CsaError::StrayTime(_) | CsaError::SecondTime { .. } => Some("stray_time"),
            _ => None,
        }
    }
}

/// The most moves a game's list is made for before its moves are read (see [`read`]).
const MOVES_RESERVED: usize = 1024;

/// Reads every game of a CSA text. Games are separated by lines holding only `/`. A statement
/// the game does not need that cannot be read (text that is no CSA statement, a bad time) is
/// skipped with a warning; a game that cannot be read to its end keeps what came before the
/// bad line, and reading goes on with the next game.
pub fn read(text: &str) -> Vec<Game> {
    read_lines(lines(text), text.len())
}

/// Reads every game of `text`, a piece of a CSA text cut after a `/` line (see
/// [`Piece`](crate::kifu::Piece)) that follows its line `before`, as [`read`] reads them in the
/// whole text.
pub fn read_after(text: &str, before: u32) -> Vec<Game> {
    read_lines(lines_after(text, before), text.len())
}

fn read_lines(lines: Lines<'_>, len: usize) -> Vec<Game> {
    let mut games = Vec::new();
    // A move and its time, a line each, take some twelve bytes. A game after another is
    // guessed as long as the one before: the text's length would make a list that large for
    // each of a file's many short games.
    let moves = (len / 12).min(MOVES_RESERVED);
    let mut reader = GameReader { moves, ..GameReader::default() };
    // What parts that hold no game said, before the first game.
    let mut orphans = Vec::new();
    for (number, line) in lines {
        let line = trim_space(line);
        if line.is_empty() {
            continue;
        }
        if line == "/" {
            let moves = reader.game.moves.len();
            let part = std::mem::replace(&mut reader, GameReader { moves, ..GameReader::default() });
            add_part(&mut games, &mut orphans, part);
            continue;
        }
        if reader.failed {
            reader.after_failure(line, number);
            continue;
        }
        if reader.game.line == 0 {
            reader.game.line = number;
        }
        for part in statement::split(line) {
            let Err(error) = reader.statement(part, number) else { continue };
            if let Some(code) = error.skipped() {
                let (message, ply) = match error {
                    CsaError::UnknownEnding(_) => {
                        (format!("{error}: the game ends here, without a stated ending"), None)
                    }
                    CsaError::SecondTime { ply, .. } => (format!("{error}: it is skipped"), ply),
                    _ => (format!("{error}: it is skipped"), None),
                };
                reader.game.warnings.push(Warning { line: number, ply, code, message });
                continue;
            }
            // The moves the record goes on with after one it could not read still say which
            // side states the ending.
            if matches!(error, CsaError::Statement(StatementError::Move(_))) {
                reader.unread = Some(1);
            }
            reader.game.problem = Some(ReadProblem::new(number, error));
            reader.failed = true;
            reader.any = true;
            break;
        }
    }
    add_part(&mut games, &mut orphans, reader);
    games
}

/// Adds the game of a part of the text (between `/` lines), if it holds one. A part that
/// holds none loses nothing of what it does hold: its comments, quoted in a warning, and its
/// warnings go to the game before it (before the first game, to the first).
fn add_part(games: &mut Vec<Game>, orphans: &mut Vec<Warning>, mut part: GameReader) {
    if !part.any {
        let (line, comments) = (part.game.line, &part.game.comments);
        let mut warnings = std::mem::take(&mut part.game.warnings);
        if !comments.is_empty() {
            let message = format!(
                "a part between '/' lines holds no game: its comments ({}) are skipped",
                quoted_comments(comments)
            );
            warnings.insert(0, Warning { line, ply: None, code: "unknown_line", message });
        }
        match games.last_mut() {
            Some(before) => before.warnings.extend(warnings),
            None => orphans.extend(warnings),
        }
        return;
    }
    let Some(mut game) = part.finish() else { return };
    if !orphans.is_empty() {
        game.warnings.splice(0..0, std::mem::take(orphans));
    }
    games.push(game);
}

/// Whether `text` looks like CSA: its first statement (comments and blank lines aside) is one.
pub fn looks_like(text: &str) -> bool {
    lines(text)
        .take(200)
        .map(|(_, line)| line.trim())
        .find(|line| !line.is_empty() && !line.starts_with(['\'', '#']))
        .and_then(|line| statement::split(line).next().map(statement::parse))
        .is_some_and(|s| !matches!(s, Ok(Statement::Turn(_)) | Ok(Statement::Separator) | Err(_)))
}

#[derive(Default)]
struct GameReader {
    game: Game,
    /// The board the position statements build, once one was seen.
    board: Option<Setup>,
    turn: Option<Color>,
    /// The start was settled (by the first move, or the end).
    started: bool,
    /// The side to move at the start, once settled.
    start_turn: Option<Color>,
    ended: bool,
    failed: bool,
    /// Something other than comments was read: this is a game.
    any: bool,
    /// An ending told by a server line or a summary comment, used when no `%` line says it.
    told: Option<Ending>,
    /// A guess at the game's moves, for which its list is made at the first move.
    moves: usize,
    /// After a move that could not be read: the moves the record goes on with from there,
    /// that one included, until its ending.
    unread: Option<usize>,
    rounded: RoundedTimes,
}

impl GameReader {
    fn statement(&mut self, text: &str, line: u32) -> Result<(), CsaError> {
        let statement = statement::parse(text)?;
        if !matches!(statement, Statement::Comment(_) | Statement::Server(_)) {
            self.any = true;
        }
        match statement {
            Statement::Comment(c) => self.comment(c, line),
            Statement::Version(v) => self.header("V", v),
            Statement::Name(Color::Black, name) => self.header("N+", name),
            Statement::Name(Color::White, name) => self.header("N-", name),
            Statement::Info(key, value) => self.header(&format!("${key}"), value),
            Statement::Even(removals) => self.even(&removals, text)?,
            Statement::Row(rank, cells) => {
                let board = self.board()?;
                for (i, cell) in cells.into_iter().enumerate() {
                    let sq = Square::from_numbers(9 - i as u8, rank).expect("files 1-9");
                    board.set(sq, cell);
                }
            }
            Statement::Pieces(color, places) => self.pieces(color, &places)?,
            Statement::Turn(color) => {
                if self.started {
                    return Err(CsaError::LatePosition);
                }
                self.turn = Some(color);
            }
            Statement::Move(mv) => self.push_move(mv, text, line)?,
            Statement::Time { seconds, rounded } => self.time(seconds, rounded, text, line)?,
            Statement::End(word) => self.end(word, line)?,
            Statement::Server(message) => {
                self.add_comment(format!("#{message}"));
                if !self.ended && self.told.is_none() {
                    let word = if message == "RESIGN" { "TORYO" } else { message };
                    self.told = EndingWord::parse(word).map(|w| self.ending(w, format!("#{message}"), line));
                }
            }
            // A `/` on a line of its own is handled by the caller; after a `,` it is junk.
            Statement::Separator => return Err(CsaError::Separator),
        }
        Ok(())
    }

    fn header(&mut self, key: &str, value: &str) {
        self.game.headers.push(Header { key: key.to_string(), value: value.to_string() });
    }

    fn comment(&mut self, text: &str, line: u32) {
        // The encoding the bytes were in, which decoding has already dealt with: a declaration
        // comes before anything else of the game. Later, such a line is a comment like any.
        let declaration = text.starts_with("CSA encoding=") || text.starts_with("encoding=");
        if declaration && !self.any && self.game.comments.is_empty() {
            return;
        }
        if let Some(summary) = text.strip_prefix("summary:") {
            if self.told.is_none() {
                let to_move = self.to_move();
                self.told = summary_ending(summary, &self.game.headers, to_move, line);
            }
        }
        self.add_comment(text.trim_end().to_string());
    }

    /// Comments go with the ending before them, else with the move before them, or before
    /// the first move with the game.
    fn add_comment(&mut self, text: String) {
        let game = &mut self.game;
        comments_after(&mut game.ending, &mut game.moves, &mut game.comments).push(text);
    }

    fn board(&mut self) -> Result<&mut Setup, CsaError> {
        if self.started {
            return Err(CsaError::LatePosition);
        }
        Ok(self.board.get_or_insert_with(Setup::default))
    }

    fn even(&mut self, removals: &[Place], text: &str) -> Result<(), CsaError> {
        let board = self.board()?;
        *board = Handicap::Even.setup();
        for (i, place) in removals.iter().enumerate() {
            let group = || text.get(2 + 4 * i..6 + 4 * i).unwrap_or(text).to_string();
            let &Place::Board(sq, kind) = place else { return Err(CsaError::BadRemoval(group())) };
            if board.piece_at(sq).map(|p| p.kind) != Some(kind) {
                return Err(CsaError::BadRemoval(group()));
            }
            board.set(sq, None);
        }
        Ok(())
    }

    fn pieces(&mut self, color: Color, places: &[Place]) -> Result<(), CsaError> {
        let board = self.board()?;
        for &place in places {
            match place {
                Place::Board(sq, kind) => board.set(sq, Some(Piece::new(color, kind))),
                Place::Hand(kind) => {
                    board.hand_mut(color).add(kind).ok_or(CsaError::TooMany(kind.sfen()))?;
                }
                Place::Rest => {
                    for kind in PieceKind::HAND {
                        let on_board =
                            board.board.iter().flatten().filter(|p| p.kind.unpromote() == kind).count();
                        let in_hands = board.hands.iter().map(|h| usize::from(h.count(kind))).sum::<usize>();
                        let rest = usize::from(kind.max_count()).saturating_sub(on_board + in_hands);
                        let hand = board.hand_mut(color);
                        hand.set(kind, hand.count(kind) + rest as u8);
                    }
                }
            }
        }
        Ok(())
    }

    /// Settles the start position: the board the statements built (the even game when there
    /// were none) with the side to move the `+`/`-` line gives, else the first move's sign.
    fn start(&mut self, first_mover: Option<Color>) {
        if self.started {
            return;
        }
        self.started = true;
        let mut setup = self.board.take().unwrap_or_else(|| Handicap::Even.setup());
        setup.turn = self.turn.or(first_mover).unwrap_or(setup.turn);
        self.start_turn = Some(setup.turn);
        self.game.start = Start::of(setup);
    }

    /// The side to move after the moves read so far (and those that could not be).
    fn to_move(&self) -> Color {
        let start = self.start_turn.or(self.turn).unwrap_or(Color::Black);
        turn_after(start, self.game.moves.len() + self.unread.unwrap_or(0))
    }

    /// Reads a line after the game stopped at a move it could not read: its moves are
    /// counted, and its ending is the game's, so the record's result stands. The rest is
    /// left out.
    fn after_failure(&mut self, line: &str, number: u32) {
        if self.unread.is_none() || self.ended {
            return;
        }
        for part in statement::split(line) {
            if part.starts_with(['+', '-']) && part[1..].starts_with(|c: char| c.is_ascii_digit()) {
                self.unread = self.unread.map(|n| n + 1);
            } else if let Ok(Statement::End(word)) = statement::parse(part) {
                self.ended = true;
                if let Some(parsed) = EndingWord::parse(word) {
                    self.game.ending = Some(self.ending(parsed, format!("%{word}"), number));
                }
                return;
            }
        }
    }

    fn push_move(&mut self, mv: CsaMove, text: &str, line: u32) -> Result<(), CsaError> {
        if self.ended {
            return Err(CsaError::AfterEnd(excerpt(text)));
        }
        self.start(mv.color);
        room_for_move(&self.game.moves)?;
        if self.game.moves.capacity() == 0 {
            self.game.moves.reserve(self.moves);
        }
        self.game.moves.push(MoveEntry {
            token: MoveToken::Csa(mv),
            line,
            seconds: None,
            comments: Vec::new(),
        });
        Ok(())
    }

    /// The time of the move before, or after the `%` line the ending's (`%TORYO` then `T16`).
    fn time(&mut self, seconds: u32, rounded: bool, text: &str, line: u32) -> Result<(), CsaError> {
        let ply = self.game.moves.len();
        let (slot, ply) = match (&mut self.game.ending, self.game.moves.last_mut()) {
            (Some(e), _) => (&mut e.seconds, None),
            (None, Some(last)) if !self.ended => (&mut last.seconds, Some(ply)),
            _ => return Err(CsaError::StrayTime(excerpt(text))),
        };
        if slot.is_some() {
            let ply = ply.map(|p| u32::try_from(p).unwrap_or(u32::MAX));
            return Err(CsaError::SecondTime { text: excerpt(text), ply });
        }
        *slot = Some(seconds);
        if rounded {
            self.rounded.add(line, ply, text);
        }
        Ok(())
    }

    fn end(&mut self, word: &str, line: u32) -> Result<(), CsaError> {
        if self.ended {
            // A second ending: the first one stands. The same word again (a server's echo)
            // says nothing new; another contradicts it, which a warning says.
            let text = format!("%{word}");
            if let Some(first) = self.game.ending.as_ref().filter(|first| first.text != text) {
                let warning = second_ending(line, &text, first);
                self.game.warnings.push(warning);
            }
            return Ok(());
        }
        // An unknown word still ends the game (every `%` line does): the moves and the
        // final position are what is left to judge it by.
        self.start(None);
        self.ended = true;
        let parsed = EndingWord::parse(word).ok_or_else(|| CsaError::UnknownEnding(excerpt(word)))?;
        self.game.ending = Some(self.ending(parsed, format!("%{word}"), line));
        Ok(())
    }

    fn ending(&self, word: EndingWord, text: String, line: u32) -> Ending {
        let to_move = self.to_move();
        Ending {
            termination: word.termination,
            side: word.side(to_move),
            stated: None,
            text,
            line,
            seconds: None,
            comments: Vec::new(),
        }
    }

    fn finish(mut self) -> Option<Game> {
        if !self.any {
            return None;
        }
        self.start(None);
        if self.game.ending.is_none() {
            self.game.ending = self.told.take();
        }
        self.game.unread = self.unread.unwrap_or(0);
        self.game.warnings.extend(self.rounded.warning());
        self.game.info = info::normalize(&self.game.headers, info::Remarks::None);
        Some(self.game)
    }
}
