//! The game model every reader produces and every writer consumes.
//!
//! A [`Game`] is what a record *says*: headers, the start position, the moves as written
//! (tokens, not yet checked against the rules), times, comments, variations and the ending.
//! Nothing here has been replayed; [`crate::replay`] does that.

use std::fmt;

use super::ReadProblem;
use crate::{
    notation::MoveToken,
    shogi::{Color, Handicap, Setup},
};

/// A record format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    /// Kakinoki KIF (`.kif`, `.kifu`): a numbered move table.
    Kif,
    /// Kakinoki KI2 (`.ki2`, `.ki2u`): moves in Japanese notation, several per line.
    Ki2,
    /// CSA (`.csa`), V2.2 and V3, one game or several separated by `/`.
    Csa,
    /// JSON Kifu Format (`.jkf`, `.json`).
    Jkf,
    /// USI position lines and SFEN (`.usi`, `.sfen`): `position startpos moves …`.
    Usi,
    /// Western game text (`.psn`): tags, numbered Hodges or Hosking moves, comments.
    Western,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 6] =
        [Format::Kif, Format::Ki2, Format::Csa, Format::Jkf, Format::Usi, Format::Western];

    /// The lowercase name used on the command line and in the database: `kif`, `ki2`, `csa`,
    /// `jkf`, `usi`, `western`.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Kif => "kif",
            Format::Ki2 => "ki2",
            Format::Csa => "csa",
            Format::Jkf => "jkf",
            Format::Usi => "usi",
            Format::Western => "western",
        }
    }

    /// The format with this name (see [`Format::name`]), in any case. (File extensions are
    /// [`NameKind`](super::NameKind)'s business.)
    pub fn from_name(name: &str) -> Option<Format> {
        let name = name.trim();
        Format::ALL.into_iter().find(|f| f.name().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A header as the record wrote it: `開始日時：2013/11/29`, `N+Habu`, `[Event "…"]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub key: String,
    pub value: String,
}

/// A date, or a date and time, as precise as the record gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DateTime {
    pub year: i32,
    pub month: Option<u8>,
    pub day: Option<u8>,
    /// Hours, minutes and seconds, when a time is given.
    pub time: Option<(u8, u8, u8)>,
}

/// ISO 8601, as precise as known: `2013`, `2013-11`, `2013-11-29`, `2013-11-29T09:00:00`.
impl fmt::Display for DateTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}", self.year)?;
        if let Some(m) = self.month {
            write!(f, "-{m:02}")?;
            if let Some(d) = self.day {
                write!(f, "-{d:02}")?;
                if let Some((h, mi, s)) = self.time {
                    write!(f, "T{h:02}:{mi:02}:{s:02}")?;
                }
            }
        }
        Ok(())
    }
}

/// A player as the record names them, split into the name and a title or rank written after
/// it (`羽生善治 名人` → `羽生善治`, `名人`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Player {
    /// The name as written, title included.
    pub full: String,
    /// The name without the title or rank.
    pub name: String,
    /// The title or rank (名人, 九段, 四段, 女流二段, アマ, …), if one was written.
    pub title: Option<String>,
}

/// The headers every format can carry, normalized. The raw headers are kept beside them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// 棋戦, `$EVENT`, `[Event]`.
    pub event: Option<String>,
    /// 場所, `$SITE`, `[Site]`.
    pub site: Option<String>,
    /// 開始日時, `$START_TIME`, `[Date]`.
    pub start: Option<DateTime>,
    /// 終了日時, `$END_TIME`.
    pub end: Option<DateTime>,
    /// 持ち時間, `$TIME_LIMIT`, `[TimeControl]`, as written.
    pub time_control: Option<String>,
    /// 先手 (下手 in handicap games), `N+`, `[Sente]`/`[Black]`.
    pub black: Option<Player>,
    /// 後手 (上手 in handicap games), `N-`, `[Gote]`/`[White]`.
    pub white: Option<Player>,
    /// 戦型, `$OPENING`, `[Opening]`.
    pub opening: Option<String>,
}

/// The position a game starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// One of the standard start positions (平手 or a handicap).
    Standard(Handicap),
    /// Any other position: a board diagram, a CSA `P1`…`P9` board, an SFEN.
    Custom(Setup),
}

impl Start {
    /// The start a record gives as `setup`: [`Start::Standard`] when it is a standard start
    /// position numbered from the first move, else [`Start::Custom`], which keeps the move
    /// number (the even start as the 31st move is no `平手` game from its first move).
    pub fn of(setup: Setup) -> Start {
        match Handicap::find(&setup) {
            Some(h) if setup.move_number == 1 => Start::Standard(h),
            _ => Start::Custom(setup),
        }
    }

    /// The number of the start's first move (1 for a standard start): an SFEN's last field.
    pub fn move_number(&self) -> u32 {
        match self {
            Start::Standard(_) => 1,
            Start::Custom(s) => s.move_number,
        }
    }

    /// The start position as a setup.
    pub fn setup(&self) -> Setup {
        match self {
            Start::Standard(h) => h.setup(),
            Start::Custom(s) => s.clone(),
        }
    }

    /// The game the start is a position of.
    pub fn variant(&self) -> crate::shogi::Variant {
        match self {
            Start::Standard(_) => crate::shogi::Variant::Standard,
            Start::Custom(s) => s.variant,
        }
    }

    /// The start as a standard handicap when it is one, whichever way the record wrote it.
    pub fn handicap(&self) -> Option<Handicap> {
        match self {
            Start::Standard(h) => Some(*h),
            Start::Custom(s) => Handicap::find(s),
        }
    }
}

impl Default for Start {
    fn default() -> Start {
        Start::Standard(Handicap::Even)
    }
}

/// One move of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveEntry {
    /// The move as read.
    pub token: MoveToken,
    /// The 1-based line it was read from.
    pub line: u32,
    /// The time spent on it, in seconds, when the record gives it.
    pub seconds: Option<u32>,
    /// Comments attached to the move (KIF `*` lines after it, CSA `'` comments, `{…}`).
    pub comments: Vec<String>,
}

/// How a game ended. The record's word for it is kept in [`Ending::text`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// 投了, `%TORYO`: the side to move resigned.
    Resign,
    /// 詰み, `%TSUMI`: the side to move is checkmated.
    Checkmate,
    /// The side to move is not in check and has no legal move (yari shogi, where it loses:
    /// see [`crate::shogi::yari`]). Records have no word for it; replay finds it in the moves.
    Stalemate,
    /// 切れ負け, 時間切れ, `%TIME_UP`: the side to move lost on time.
    Timeout,
    /// 反則勝ち, 反則負け, `%ILLEGAL_MOVE`, `%±ILLEGAL_ACTION`: a side lost by a foul.
    IllegalMove,
    /// 千日手, `%SENNICHITE`: a draw by repetition.
    Repetition,
    /// `%OUTE_SENNICHITE`: repetition by perpetual check, lost by the checking side.
    PerpetualCheck,
    /// 持将棋, `%JISHOGI`: an impasse.
    Impasse,
    /// 入玉勝ち, `%KACHI`: won by declaring the entering king.
    EnteringKing,
    /// 中断, `%CHUDAN`: interrupted.
    Interrupted,
    /// 封じ手: the game was adjourned with a sealed move.
    Sealed,
    /// 不戦勝, 不戦敗: decided without play.
    Forfeit,
    /// `%MAX_MOVES`: the move limit was reached.
    MaxMoves,
    /// 不詰, `%FUZUMI`: a tsume with no mate.
    NoMate,
    /// `%HIKIWAKE`: a draw agreed or declared.
    Draw,
    /// `%ERROR`: the server recorded an error.
    Error,
    /// `%MATTA` (待った): a move was taken back, and the record ends there. CSA and JKF give
    /// it no result.
    TakeBack,
    /// The record states the outcome (`まで77手で先手の勝ち`, `[Result "1-0"]`) but not how
    /// the game ended. Replay makes it checkmate or resignation when the final position says
    /// which.
    Unknown,
}

impl Termination {
    /// The lowercase name used in exports: `resign`, `checkmate`, `timeout`, ….
    pub const fn name(self) -> &'static str {
        match self {
            Termination::Resign => "resign",
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::Timeout => "timeout",
            Termination::IllegalMove => "illegal_move",
            Termination::Repetition => "repetition",
            Termination::PerpetualCheck => "perpetual_check",
            Termination::Impasse => "impasse",
            Termination::EnteringKing => "entering_king",
            Termination::Interrupted => "interrupted",
            Termination::Sealed => "sealed",
            Termination::Forfeit => "forfeit",
            Termination::MaxMoves => "max_moves",
            Termination::NoMate => "no_mate",
            Termination::Draw => "draw",
            Termination::Error => "error",
            Termination::TakeBack => "take_back",
            Termination::Unknown => "unknown",
        }
    }

    /// Every termination.
    pub const ALL: [Termination; 18] = [
        Termination::Resign,
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::Timeout,
        Termination::IllegalMove,
        Termination::Repetition,
        Termination::PerpetualCheck,
        Termination::Impasse,
        Termination::EnteringKing,
        Termination::Interrupted,
        Termination::Sealed,
        Termination::Forfeit,
        Termination::MaxMoves,
        Termination::NoMate,
        Termination::Draw,
        Termination::Error,
        Termination::TakeBack,
        Termination::Unknown,
    ];

    /// The termination with this name (see [`Termination::name`]).
    pub fn from_name(name: &str) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// The outcome of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This side won.
    Win(Color),
    Draw,
}

/// How a game ended, as the record says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub termination: Termination,
    /// The side the ending names, when the record names one: the side that lost by a foul
    /// (`%-ILLEGAL_ACTION`, `先手 反則負け`), that made the ending move, or that the ending is
    /// written for (KIF `反則勝ち` on the winner's turn).
    pub side: Option<Color>,
    /// The outcome the record states outright (`まで77手で先手の勝ち`, `[Result "1-0"]`),
    /// when it does.
    pub stated: Option<Outcome>,
    /// The record's own words: `投了`, `%TORYO`, `まで77手で先手の勝ち`.
    pub text: String,
    /// The 1-based line of the ending.
    pub line: u32,
    /// The time the record gives the ending, in seconds: what the side that resigned, or was
    /// mated, or ran out of time, spent before it (a KIF ending row's time, CSA's `T` line
    /// after the `%` word, a JKF `special` move's `time`).
    pub seconds: Option<u32>,
    /// Comments after the ending: KIF and KI2 `*` lines after the ending row or the `まで`
    /// line, CSA `'` lines after the `%` word, a JKF `special` move's `comments`.
    pub comments: Vec<String>,
}

impl Ending {
    /// An ending with no words of its own, for a game that ended by `termination` with
    /// `outcome` (as replay judged it, or as a database stored it). A foul, a forfeit or
    /// perpetual check names the side that lost by it. `None` when neither is known.
    pub fn judged(termination: Option<Termination>, outcome: Option<Outcome>) -> Option<Ending> {
        let termination = match termination {
            Some(t) => t,
            None if outcome.is_some() => Termination::Unknown,
            None => return None,
        };
        let side = match (termination, outcome) {
            (
                Termination::IllegalMove | Termination::Forfeit | Termination::PerpetualCheck,
                Some(Outcome::Win(winner)),
            ) => Some(winner.flip()),
            _ => None,
        };
        Some(Ending {
            termination,
            side,
            stated: outcome,
            text: String::new(),
            line: 0,
            seconds: None,
            comments: Vec::new(),
        })
    }
}

/// The comments a comment read after a line's `moves` joins: its ending's once the line has
/// one, else its last move's, else `before` (those before its first move).
pub(crate) fn comments_after<'a>(
    ending: &'a mut Option<Ending>,
    moves: &'a mut [MoveEntry],
    before: &'a mut Vec<String>,
) -> &'a mut Vec<String> {
    match (ending, moves.last_mut()) {
        (Some(e), _) => &mut e.comments,
        (None, Some(last)) => &mut last.comments,
        (None, None) => before,
    }
}

/// A variation: other moves from some point of the main line (or of another variation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Variation {
    /// The index, in the line it branches from, of the first move it replaces (0 replaces the
    /// first move).
    pub ply: usize,
    pub moves: Vec<MoveEntry>,
    pub ending: Option<Ending>,
    /// Variations of this variation.
    pub variations: Vec<Variation>,
}

/// Something a record holds that kifudex read past or judged against the record's own words,
/// while the game itself is kept: a line that is no part of the format, a variation that
/// could not be kept, an ending the moves contradict. Each has a stable code; the codes of
/// the readers are listed in [`crate::kifu`], those of replay in [`crate::replay`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct Warning {
    /// The 1-based line it is about.
    pub line: u32,
    /// The move it is about, counted from 1, when it is about one.
    pub ply: Option<u32>,
    /// A short stable code, for databases and CSV: `unknown_line`, `not_fourfold`, ….
    pub code: &'static str,
    pub message: String,
}

/// One game as a record writes it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Game {
    /// Every header, in file order, as written.
    pub headers: Vec<Header>,
    /// The headers that have a meaning, normalized.
    pub info: Info,
    pub start: Start,
    /// The main line.
    pub moves: Vec<MoveEntry>,
    pub ending: Option<Ending>,
    /// Comments before the first move.
    pub comments: Vec<String>,
    pub variations: Vec<Variation>,
    /// The 1-based line where the game starts in its file.
    pub line: u32,
    /// Set when reading stopped early: the moves before the problem are kept.
    pub problem: Option<ReadProblem>,
    /// When reading stopped at a move it could not read: the moves the record writes from
    /// there, that one included. They are not kept, but the record's ending is written after
    /// them, for the side to move then.
    pub unread: usize,
    /// What was read past while the main line goes on: lines that are no part of the format
    /// (skipped), an ending word the format does not define, a variation that branches from
    /// no move or is cut where it could not be read.
    pub warnings: Vec<Warning>,
}

impl Game {
    /// The first header with this key, if any.
    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers.iter().find(|h| h.key == key).map(|h| h.value.as_str())
    }
}
