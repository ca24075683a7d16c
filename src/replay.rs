//! Replay: a [`Game`] as read becomes the legal move list, the key of every position, and the
//! game's result and status.
//!
//! Replay never reads text: the record readers have already turned every move into a
//! [`MoveToken`](crate::notation::MoveToken). A game whose move N cannot be played keeps its
//! first N-1 moves and says why it stopped ([`Status::Stopped`]). A game that ended by a foul
//! (反則) keeps its final illegal move as the ending, not as a failure.
//!
//! # Results
//!
//! The moves decide the result where they can; the record's text decides only where they
//! cannot. For a game replayed to its end:
//!
//! 1. **Checkmate.** When the final position is checkmate, the side that gave mate wins and
//!    the termination is `checkmate`, whatever the ending line says, or when there is none.
//! 2. **千日手.** When a position (board, hands and side to move) occurs for the fourth time,
//!    the game is over: a draw (`repetition`), unless every move one side made since the first
//!    of those four occurrences gave check; that side then loses (連続王手の千日手,
//!    `perpetual_check`). Handicap games and set-up positions count from their start, whoever
//!    moves first. A board with no king at all is a notation drill, not a game: there the
//!    rule does not apply.
//! 3. **Moves after the end.** A record that goes on after a fourth occurrence, or after a
//!    checkmate (a move the mated side cannot make, a foul, a line that cannot be read), is
//!    cut there, as a foul ends a game at the illegal move: what it writes after the end (moves,
//!    a foul, an unreadable line, its ending) is not kept, and a `moves_after_end` warning
//!    names the first line of it. The game is complete, not a reject.
//! 4. **A written foul.** A last move that the rules refuse, followed by an ending that says a
//!    foul ended the game, is lost by the side that made it (`illegal_move`).
//! 5. **The record's text** decides everything else: resignation, time, a foul the record
//!    states but does not show, an impasse (持将棋) or an entering-king declaration (入玉宣言),
//!    which the moves cannot judge, an interruption. A `まで…` line or a result tag that names
//!    the winner without the cause gives `resign` when the loser is to move.
//!
//! Where the record's ending contradicts the moves, the game keeps its moves and replay adds a
//! [`Warning`] ([`ReplayedGame::warnings`]) with the ending's line and one of these codes:
//! - `ending_contradicts_mate`: the final position is checkmate, and the record states another
//!   result (the mated side winning on time, say); the mate's result is kept;
//! - `ending_contradicts_repetition`: a position occurred a fourth time, and the record states
//!   another result (a draw for a perpetual check, a later resignation); the repetition's
//!   result is kept;
//! - `not_mate`: the record, or one of its variations, says checkmate (`詰み`, `%TSUMI`) and
//!   the final position is not; the record's result is kept;
//! - `not_fourfold`: the record says 千日手 and no position occurred four times; the record's
//!   result is kept;
//! - `moves_after_end`: see 3 above.
//!
//! One more warning is about a move, not the ending: `promotion_unmarked`, a move of the main
//! line that could promote or not and writes no promotion mark where its notation must (a
//! Western move without `+` or `=`, a Japanese move without an origin and without 成 or
//! 不成), read as not promoting.
//!
//! A game that stops early (a move that cannot be read or played) does not reach its end, so
//! its result is the record's as far as the record states one, and nothing is checked. An
//! ending that means the side to move (`%TORYO`, `resign`) means the side to move after the
//! record's last move, not after the last move kept.
//! Positions are compared by their 64-bit keys ([`PositionKey`]).

use std::{cell::RefCell, fmt};

use crate::{
    kifu::{Ending, Game, MoveEntry, Outcome, ReadProblem, Termination, Variation, Warning},
    notation::{Previous, ResolveError},
    shogi::{Color, Move, PieceKind, Position, PositionError, PositionKey, Repetition, Setup, Variant},
};

/// A move that could promote or not and writes no promotion mark, which its notation makes
/// obligatory there (see [`crate::notation::UnmarkedPromotion`]): read as not promoting (see
/// [`crate::notation`]'s resolving), and said so. `pos` is the position before `mv`.
fn unmarked_promotion(pos: &Position, entry: &MoveEntry, mv: Move, ply: usize) -> Option<Warning> {
    // The move's text is made only for a warning: most moves have none.
    let found = crate::notation::sequence::unmarked_promotion(pos, &entry.token, mv, ply, || {
        entry.token.to_string()
    })?;
    Some(Warning {
        line: entry.line,
        ply: u32::try_from(ply).ok(),
        code: "promotion_unmarked",
        message: found.to_string(),
    })
}

/// Why replay stopped before the end of the record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StopReason {
    /// The record could not be read past this point.
    #[error("unreadable: {0}")]
    Read(ReadProblem),
    /// A move was read but cannot be played: `error`, which `why` says in the words of the
    /// move's notation (an ambiguous move's candidates written as it is, or the legal moves
    /// of the written piece to the written square).
    #[error("line {line}: move {ply} ({}): {why}", crate::text::excerpt(.text))]
    Move { ply: usize, line: u32, text: String, error: ResolveError, why: String },
    /// The start position itself is impossible.
    #[error("line {line}: impossible start position: {error}")]
    Start { line: u32, error: PositionError },
}

impl StopReason {
    /// A short stable code for the reason, for databases and CSV: for a record that cannot be
    /// read further, the [`ReadProblem::code`] (`bad_move_text`, `bad_board`, …: see
    /// [`crate::kifu::ReadProblem`]); for a move that cannot be played `no_such_move`,
    /// `ambiguous`, `wrong_side`, `no_previous_move`, `same_mismatch`, `piece_mismatch`,
    /// `nothing_to_capture`, `wrong_variant`; `bad_start` for an impossible start.
    pub fn code(&self) -> &'static str {
        match self {
            StopReason::Read(problem) => problem.code(),
            StopReason::Start { .. } => "bad_start",
            StopReason::Move { error, .. } => match error {
                ResolveError::NoPreviousMove => "no_previous_move",
                ResolveError::SameMismatch { .. } => "same_mismatch",
                ResolveError::WrongSide { .. } => "wrong_side",
                ResolveError::NoSuchMove(_) => "no_such_move",
                ResolveError::Ambiguous(_) => "ambiguous",
                ResolveError::PieceMismatch { .. } => "piece_mismatch",
                ResolveError::NothingToCapture(_) => "nothing_to_capture",
                ResolveError::WrongVariant { .. } => "wrong_variant",
            },
        }
    }

    /// The move of `entry`, move `ply` of the game, which cannot be played in `pos`.
    fn unplayable(
        pos: &Position,
        entry: &MoveEntry,
        previous: Previous,
        ply: usize,
        error: ResolveError,
    ) -> StopReason {
        let why =
            crate::notation::sequence::unplayable(pos, &entry.token, previous, error.clone()).to_string();
        StopReason::Move { ply, line: entry.line, text: entry.token.to_string(), error, why }
    }

    /// The 1-based line the reason points at.
    pub fn line(&self) -> u32 {
        match self {
            StopReason::Read(p) => p.line,
            StopReason::Move { line, .. } | StopReason::Start { line, .. } => *line,
        }
    }
}

/// Whether the whole record was replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Complete,
    /// Replay stopped; the moves before the problem are kept.
    Stopped(StopReason),
}

impl Status {
    pub fn is_complete(&self) -> bool {
        matches!(self, Status::Complete)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Complete => f.write_str("ok"),
            Status::Stopped(reason) => reason.fmt(f),
        }
    }
}

/// A replayed variation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReplayedVariation {
    /// The index, in the line it branches from, of the first move it replaces.
    pub ply: usize,
    /// The index of the variation it was replayed from in the list it was read in
    /// ([`Game::variations`], [`Variation::variations`]). Replay sorts that list by ply and
    /// drops what it cannot reach, so the two lists do not line up by position.
    pub source: usize,
    pub moves: Vec<Move>,
    pub variations: Vec<ReplayedVariation>,
    /// Set when the variation could not be replayed to its end.
    pub stopped: Option<StopReason>,
}

/// A game after replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayedGame {
    pub start: Setup,
    /// The legal main line. `moves[i]` was read from the record's move `i`.
    pub moves: Vec<Move>,
    /// The key of every position: `keys[i]` before `moves[i]`, the last one after every move.
    pub keys: Vec<PositionKey>,
    /// The position after the last legal move.
    pub end: Setup,
    pub outcome: Option<Outcome>,
    pub termination: Option<Termination>,
    /// The foul that ended the game, when it ended by an illegal move that was written down:
    /// the text of that move, without a side mark.
    pub illegal_ending: Option<String>,
    pub variations: Vec<ReplayedVariation>,
    pub status: Status,
    /// Where the record's ending contradicts the moves, or the record goes on after the game
    /// ended (see the module documentation for the codes). Warnings from reading are in the
    /// game's own [`Game::warnings`].
    pub warnings: Vec<Warning>,
}

impl ReplayedGame {
    /// The number of legal moves replayed.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// The move the game stopped at, counted from 1, when replay stopped early: the move that
    /// could not be played, or the one after the last read when reading stopped (the moves
    /// before it are kept). 0 when the game has no start position ([`Self::has_no_start`]).
    pub fn stopped_at(&self) -> Option<usize> {
        match &self.status {
            Status::Complete => None,
            _ if self.has_no_start() => Some(0),
            Status::Stopped(StopReason::Move { ply, .. }) => Some(*ply),
            Status::Stopped(StopReason::Read(_)) => Some(self.plies() + 1),
            Status::Stopped(StopReason::Start { .. }) => Some(0),
        }
    }

    /// Whether the game has no start position: the one it gives is impossible, or reading
    /// stopped before any move at what gives the start (a board diagram, an SFEN, a handicap
    /// or variant header; see [`ReadProblem::leaves_start_unread`]). The start it would be
    /// written or stored with is then one the record never gave, so such a game is only
    /// reported, never kept.
    pub fn has_no_start(&self) -> bool {
        match &self.status {
            Status::Stopped(StopReason::Start { .. }) => true,
            // Reading stopped, so every move read was replayed: none was read.
            Status::Stopped(StopReason::Read(problem)) => {
                self.moves.is_empty() && problem.leaves_start_unread()
            }
            _ => false,
        }
    }
}

/// Distinct start positions each thread keeps ready (see [`start_position`]).
const KNOWN_STARTS: usize = 16;

/// The start positions a thread has met lately, and a position whose memory the next replay
/// reuses.
struct Starts {
    known: Vec<Position>,
    spare: Option<Position>,
}

thread_local! {
    static STARTS: RefCell<Starts> = const { RefCell::new(Starts { known: Vec::new(), spare: None }) };
}

/// The position at `start`. Making a position from a setup costs as much as replaying
/// dozens of moves, and nearly every game starts from one of a few setups, so each thread
/// keeps the last [`KNOWN_STARTS`] it made and copies them into a reused position.
fn start_position(start: &Setup) -> Result<Position, PositionError> {
    STARTS.with_borrow_mut(|starts| {
        let i = match starts.known.iter().position(|p| p.setup() == start) {
            Some(i) => i,
            None => {
                let pos = Position::from_setup(start.clone())?;
                if starts.known.len() >= KNOWN_STARTS {
                    starts.known.remove(0);
                }
                starts.known.push(pos);
                starts.known.len() - 1
            }
        };
        let known = &starts.known[i];
        Ok(match starts.spare.take() {
            Some(mut pos) => {
                pos.clone_from(known);
                pos
            }
            None => known.clone(),
        })
    })
}

/// Hands a position back for the next [`start_position`] to reuse.
fn recycle(pos: Position) {
    STARTS.with_borrow_mut(|starts| starts.spare = Some(pos));
}

/// Replays `game`.
pub fn replay(game: &Game) -> ReplayedGame {
    let start = game.start.setup();
    let mut pos = match start_position(&start) {
        Ok(pos) => pos,
        Err(error) => {
            return ReplayedGame {
                keys: vec![PositionKey::of(&start)],
                end: start.clone(),
                start,
                moves: Vec::new(),
                outcome: None,
                termination: game.ending.as_ref().map(|e| e.termination),
                illegal_ending: None,
                variations: Vec::new(),
                status: Status::Stopped(StopReason::Start { line: game.line, error }),
                warnings: Vec::new(),
            };
        }
    };
    // Variations branch from the main line: they are replayed from a copy of the start (cheap
    // before the first move), not by taking a long main line back.
    let base = (!game.variations.is_empty()).then(|| pos.clone());
    let mut moves = Vec::with_capacity(game.moves.len());
    let mut keys = Vec::with_capacity(game.moves.len() + 1);
    keys.push(pos.key());
    let mut status = Status::Complete;
    let mut illegal_ending = None;
    let ends_by_foul = game.ending.as_ref().is_some_and(|e| e.termination == Termination::IllegalMove);
    let mut warnings = Vec::new();
    for (i, entry) in game.moves.iter().enumerate() {
        let previous = pos.last_move().map(Move::to);
        match entry.token.resolve(&pos, previous) {
            Ok(mv) => {
                warnings.extend(unmarked_promotion(&pos, entry, mv, i + 1));
                pos.play_unchecked(mv);
                moves.push(mv);
                keys.push(pos.key());
            }
            Err(error) => {
                let last = i + 1 == game.moves.len();
                if last && ends_by_foul && matches!(error, ResolveError::NoSuchMove(_)) {
                    // Without a KI2 record's side mark: the foul's text is the same from
                    // every format that writes it in Japanese.
                    illegal_ending = Some(entry.token.unmarked());
                } else {
                    status = Status::Stopped(StopReason::unplayable(&pos, entry, previous, i + 1, error));
                }
                break;
            }
        }
    }
    if status.is_complete() {
        if let Some(problem) = &game.problem {
            status = Status::Stopped(StopReason::Read(problem.clone()));
        }
    }
    // Where the rules ended the game before the record does: the line of what follows (a
    // move, a foul, a line that cannot be read), and how it ended.
    let mut after_end: Option<(u32, String)> = None;
    let mut repetition = None;
    // Kings are never taken, so a board without one stays so: a notation drill, not a game,
    // where positions may come back as often as the drill likes.
    let game_of_kings = start.board.iter().flatten().any(|p| p.kind == PieceKind::King);
    let beyond = |at: usize, status: &Status, foul: bool| match game.moves.get(at) {
        Some(entry) if at < moves.len() || foul => Some(entry.line),
        _ => match status {
            Status::Stopped(reason) => Some(reason.line()),
            Status::Complete => None,
        },
    };
    if let Some(at) = fourth_occurrence(&keys).filter(|_| game_of_kings) {
        let line = beyond(at, &status, illegal_ending.is_some());
        moves.truncate(at);
        keys.truncate(at + 1);
        rewind(&mut pos, at);
        let verdict = pos.repetition();
        repetition = Some(verdict);
        after_end = line.map(|line| (line, repetition_name(verdict)));
    } else if (!status.is_complete() || illegal_ending.is_some()) && pos.is_checkmate() {
        // A mated side has no move: whatever the record writes after the mate is past the end.
        after_end = beyond(moves.len(), &status, illegal_ending.is_some())
            .map(|line| (line, "checkmate".to_string()));
    } else if (!status.is_complete() || illegal_ending.is_some()) && stalemate_lost(&pos) {
        // So has a stalemated one, which yari shogi scores as lost.
        after_end = beyond(moves.len(), &status, illegal_ending.is_some())
            .map(|line| (line, "stalemate".to_string()));
    }
    let mut ending = game.ending.as_ref();
    if let Some((line, how)) = after_end {
        let at = moves.len();
        warnings.push(Warning {
            line,
            ply: Some(at as u32 + 1),
            code: "moves_after_end",
            message: format!(
                "the game ended by {how} after move {at}; what the record writes after it (from this line, \
                 {}{}) is not kept",
                match game.moves.len().saturating_sub(at) {
                    1 => "1 more move".to_string(),
                    n => format!("{n} more moves"),
                },
                if ending.is_some() { " and its ending" } else { "" },
            ),
        });
        status = Status::Complete;
        illegal_ending = None;
        ending = None;
    }
    // The record writes its ending after all its moves: in a game that stopped before them, it
    // means the side to move after the record's last move, not the side to move at the stop.
    let ending_turn = match status {
        Status::Complete => pos.turn(),
        Status::Stopped(_) if (game.moves.len() + game.unread) % 2 == 1 => start.turn.flip(),
        Status::Stopped(_) => start.turn,
    };
    let judged = judge(ending, &pos, ending_turn, illegal_ending.is_some(), &status, repetition);
    warnings.extend(judged.warning);
    let (termination, outcome) = (judged.termination, judged.outcome);
    let end = pos.setup().clone();
    recycle(pos);
    let variations = match base {
        Some(mut base) => replay_variations(&mut base, &moves, &game.variations, &mut warnings),
        None => Vec::new(),
    };
    ReplayedGame {
        start,
        end,
        moves,
        keys,
        outcome,
        termination,
        illegal_ending,
        variations,
        status,
        warnings,
    }
}

/// The ply at which `moves`, legal moves played from `start`, make some position occur for the
/// fourth time (千日手), when more moves follow it: by the rules the game ends there, so no
/// game plays those. (A game without kings, a tsume's, has no such end.)
pub fn ends_by_repetition_before(start: &Setup, moves: &[Move]) -> Option<usize> {
    if !start.board.iter().flatten().any(|p| p.kind == PieceKind::King) {
        return None;
    }
    let mut pos = Position::from_setup(start.clone()).ok()?;
    let mut keys = Vec::with_capacity(moves.len() + 1);
    keys.push(pos.key());
    for &mv in moves {
        pos.play(mv).ok()?;
        keys.push(pos.key());
    }
    fourth_occurrence(&keys).filter(|&at| at < moves.len())
}

thread_local! {
    /// The counting table of [`fourth_occurrence`], reused from game to game.
    static OCCURRENCES: RefCell<Vec<(u64, u32)>> = const { RefCell::new(Vec::new()) };
}

/// The first ply at which some position occurs for the fourth time, `keys` holding the key of
/// every position from the start. The keys are counted in an open-addressing table of at
/// least twice as many slots (the keys are hashes already, so their low bits index it): a
/// few nanoseconds a ply, whatever the length of the game.
fn fourth_occurrence(keys: &[PositionKey]) -> Option<usize> {
    if keys.len() < 9 {
        return None; // a position needs at least 8 plies to occur four times
    }
    OCCURRENCES.with_borrow_mut(|table| {
        let slots = (2 * keys.len()).next_power_of_two();
        table.clear();
        table.resize(slots, (0, 0));
        let mask = slots - 1;
        let mut found = None;
        for (ply, key) in keys.iter().enumerate() {
            let key = key.to_i64() as u64;
            let mut at = key as usize & mask;
            // A slot with a count of 0 is empty; the table is never full.
            while table[at].1 != 0 && table[at].0 != key {
                at = (at + 1) & mask;
            }
            table[at] = (key, table[at].1 + 1);
            if table[at].1 == 4 {
                found = Some(ply);
                break;
            }
        }
        if table.capacity() > 1 << 16 {
            *table = Vec::new();
        }
        found
    })
}

/// The result the moves decide, when they decide one.
struct ByMoves {
    termination: Termination,
    outcome: Outcome,
    /// The warning code when the record states another result, and what the moves say.
    code: &'static str,
    why: String,
}

/// What [`judge`] found.
struct Judged {
    termination: Option<Termination>,
    outcome: Option<Outcome>,
    warning: Option<Warning>,
}

/// The termination and outcome (see the module documentation): the moves decide where they
/// can (`repetition` is the verdict when the final position is a fourth occurrence), else the
/// ending the record states, for the side it means: the side to move when the record writes it
/// (`ending_turn`), unless the ending names one.
fn judge(
    ending: Option<&Ending>,
    pos: &Position,
    ending_turn: Color,
    foul_written: bool,
    status: &Status,
    repetition: Option<Repetition>,
) -> Judged {
    let (termination, outcome) = match ending {
        Some(ending) => stated_by(ending, ending_turn, foul_written, status.is_complete()),
        None => (None, None),
    };
    let judged = |warning| Judged { termination, outcome, warning };
    if !status.is_complete() {
        return judged(None);
    }
    let plies = pos.ply() as u32;
    let by_moves = if pos.is_checkmate() {
        let winner = pos.turn().flip();
        Some(ByMoves {
            termination: Termination::Checkmate,
            outcome: Outcome::Win(winner),
            code: "ending_contradicts_mate",
            why: format!("the final position is checkmate: {} wins", color_name(winner)),
        })
    } else if stalemate_lost(pos) {
        let winner = pos.turn().flip();
        Some(ByMoves {
            termination: Termination::Stalemate,
            outcome: Outcome::Win(winner),
            code: "ending_contradicts_stalemate",
            why: format!(
                "the side to move has no legal move and is not in check, which loses in yari shogi: {} wins",
                color_name(winner)
            ),
        })
    } else {
        repetition.map(|verdict| {
            let (termination, outcome) = match verdict {
                Repetition::PerpetualCheck { loser } => {
                    (Termination::PerpetualCheck, Outcome::Win(loser.flip()))
                }
                _ => (Termination::Repetition, Outcome::Draw),
            };
            ByMoves {
                termination,
                outcome,
                code: "ending_contradicts_repetition",
                why: format!(
                    "the position after move {plies} occurred for the fourth time: {} ({})",
                    repetition_name(verdict),
                    outcome_name(outcome)
                ),
            }
        })
    };
    let warning = |ending: &Ending, code, message: String| Warning {
        line: ending.line,
        ply: Some(plies),
        code,
        message,
    };
    if let Some(m) = by_moves {
        let warning = match (ending, outcome) {
            (Some(e), Some(said)) if said != m.outcome => Some(warning(
                e,
                m.code,
                format!(
                    "the record ends '{}' ({}), but {}; the moves decide",
                    e.text,
                    outcome_name(said),
                    m.why
                ),
            )),
            _ => None,
        };
        return Judged { termination: Some(m.termination), outcome: Some(m.outcome), warning };
    }
    // The text decides; a claim the final position does not bear out is noted.
    let Some(e) = ending else { return judged(None) };
    let note = match e.termination {
        Termination::Checkmate => Some(warning(
            e,
            "not_mate",
            format!(
                "the record ends '{}' (checkmate), but the final position is not checkmate; the record's result stands",
                e.text
            ),
        )),
        Termination::Repetition | Termination::PerpetualCheck => {
            let times = match pos.repetition() {
                Repetition::Repeated { times } => times,
                _ => 1,
            };
            Some(warning(
                e,
                "not_fourfold",
                format!(
                    "the record ends '{}' (千日手), but no position occurred four times (the final one {}); the record's result stands",
                    e.text,
                    if times == 1 {
                        "had not occurred before".to_string()
                    } else {
                        format!("occurred {times} times")
                    }
                ),
            ))
        }
        _ => None,
    };
    judged(note)
}

/// Whether the final position ends the game by stalemate: in yari shogi a side left with no
/// legal move and not in check loses, as Fairy-Stockfish scores it (the published rules say
/// nothing of it, and shogi has no draw by stalemate). Shogi's own stalemates, which games
/// do not reach, are left to the record's text.
fn stalemate_lost(pos: &Position) -> bool {
    pos.variant() == Variant::Yari && pos.is_stalemate()
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

fn outcome_name(o: Outcome) -> String {
    match o {
        Outcome::Win(c) => format!("a win for {}", color_name(c)),
        Outcome::Draw => "a draw".to_string(),
    }
}

fn repetition_name(verdict: Repetition) -> String {
    match verdict {
        Repetition::PerpetualCheck { loser } => {
            format!("連続王手の千日手 (every move of {} gave check)", color_name(loser))
        }
        _ => "千日手".to_string(),
    }
}

/// The termination and outcome `ending` states when it is written with `to_move` to move, for
/// the side it means (the side to move, unless the ending names one); `complete` when every
/// move of the line was replayed.
pub(crate) fn stated_by(
    ending: &Ending,
    to_move: Color,
    foul_written: bool,
    complete: bool,
) -> (Option<Termination>, Option<Outcome>) {
    let t = ending.termination;
    if let Some(stated) = ending.stated {
        // An outcome stated without the way it came about: a loser to move resigned (a mate
        // is the moves' to judge).
        let t = match (t, stated) {
            (Termination::Unknown, Outcome::Win(winner)) if to_move == winner.flip() && complete => {
                Termination::Resign
            }
            _ => t,
        };
        return (Some(t), Some(stated));
    }
    let loser = |side: Option<Color>| Some(Outcome::Win(side.unwrap_or(to_move).flip()));
    let outcome = match t {
        Termination::Resign | Termination::Timeout | Termination::Checkmate | Termination::Stalemate => {
            loser(ending.side)
        }
        // A written illegal move was made by the side to move, who loses; otherwise the record
        // names the side that fouled, or the foul was the previous move's.
        Termination::IllegalMove if foul_written => loser(None),
        Termination::IllegalMove => loser(Some(ending.side.unwrap_or(to_move.flip()))),
        Termination::PerpetualCheck => ending.side.map(|s| Outcome::Win(s.flip())),
        Termination::EnteringKing => Some(Outcome::Win(ending.side.unwrap_or(to_move))),
        Termination::Repetition | Termination::Impasse | Termination::Draw | Termination::MaxMoves => {
            Some(Outcome::Draw)
        }
        Termination::Forfeit => ending.side.map(|s| Outcome::Win(s.flip())),
        Termination::Interrupted
        | Termination::Sealed
        | Termination::NoMate
        | Termination::Error
        | Termination::TakeBack
        | Termination::Unknown => None,
    };
    (Some(t), outcome)
}

/// Replays `vars`, which branch from `line` (moves already replayed) played from `pos`. Every
/// variation is played on `pos` itself and taken back after, so the work is the number of
/// moves, however many variations branch however deep into a long game. `pos` ends at some
/// point of `line`; callers that go on from it rewind it first.
fn replay_variations(
    pos: &mut Position,
    line: &[Move],
    vars: &[Variation],
    warnings: &mut Vec<Warning>,
) -> Vec<ReplayedVariation> {
    let start = pos.ply();
    let mut out = Vec::with_capacity(vars.len());
    let mut sorted: Vec<(usize, &Variation)> = vars.iter().enumerate().collect();
    sorted.sort_by_key(|(_, v)| v.ply);
    for (source, var) in sorted {
        // A variation that replaces a move past the end of its line's legal moves cannot be
        // reached; neither can the later ones.
        if var.ply > line.len() {
            break;
        }
        rewind(pos, start + var.ply);
        while pos.ply() < start + var.ply {
            pos.play_unchecked(line[pos.ply() - start]);
        }
        out.push(replay_variation(pos, source, var, warnings));
    }
    out
}

/// Replays one variation from `pos`, and its own variations; `pos` ends where it was. Moves
/// are numbered from the game's start, as the record numbers them, however deep the variation
/// branches (`pos` is a position of the game's, so its ply is the number of moves before). A
/// variation played to its end that says checkmate where the position is not gets a
/// `not_mate` warning, as the main line does.
fn replay_variation(
    pos: &mut Position,
    source: usize,
    var: &Variation,
    warnings: &mut Vec<Warning>,
) -> ReplayedVariation {
    let base = pos.ply();
    let mut moves = Vec::with_capacity(var.moves.len());
    let mut stopped = None;
    for (i, entry) in var.moves.iter().enumerate() {
        let previous = pos.last_move().map(Move::to);
        match entry.token.resolve(pos, previous) {
            Ok(mv) => {
                pos.play_unchecked(mv);
                moves.push(mv);
            }
            Err(error) => {
                stopped = Some(StopReason::unplayable(pos, entry, previous, base + i + 1, error));
                break;
            }
        }
    }
    if let Some(ending) = var.ending.as_ref().filter(|e| e.termination == Termination::Checkmate) {
        if stopped.is_none() && !pos.is_checkmate() {
            let plies = pos.ply() as u32;
            warnings.push(Warning {
                line: ending.line,
                ply: Some(plies),
                code: "not_mate",
                message: format!(
                    "the variation from move {} ends '{}' (checkmate), but its final position (after move {plies}) is \
                     not checkmate",
                    base + 1,
                    ending.text
                ),
            });
        }
    }
    rewind(pos, base);
    let variations = replay_variations(pos, &moves, &var.variations, warnings);
    rewind(pos, base);
    ReplayedVariation { ply: var.ply, source, moves, variations, stopped }
}

/// Takes back moves until `pos` is `ply` plies from where it was made.
pub(crate) fn rewind(pos: &mut Position, ply: usize) {
    while pos.ply() > ply && pos.undo().is_some() {}
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(text: &str) -> Vec<PositionKey> {
        text.bytes().map(|b| PositionKey::from_i64(i64::from(b))).collect()
    }

    #[test]
    fn the_fourth_occurrence_of_any_position_is_found_first() {
        // a at 0, 4, 8, 12; b at 1, 5, 9, 13: a's fourth comes first.
        assert_eq!(fourth_occurrence(&keys("abcdabcdabcdab")), Some(12));
        // c at 1, 3, 5, 7 comes a fourth time before a (0, 4, 8, 11).
        assert_eq!(fourth_occurrence(&keys("acxcacycacza")), Some(7));
        assert_eq!(fourth_occurrence(&keys("abcdabcdabcd")), None);
        assert_eq!(fourth_occurrence(&keys("aaaa")), None, "too short to be a game's");
        assert_eq!(fourth_occurrence(&[]), None);
    }
}
