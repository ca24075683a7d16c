//! Replay: a [`Game`] as read becomes the legal move list, the key of every position, and the
//! game's result and status.
//!
//! Replay never reads text: the record readers have already turned every move into a
//! [`MoveToken`](crate::notation::MoveToken). A game whose move N cannot be played keeps its
//! first N-1 moves and says why it stopped ([`Status::Stopped`]). A game that ended by a foul
//! (反則) keeps its final illegal move as the ending, not as a failure.

use std::{cell::RefCell, fmt};

use crate::{
    kifu::{Ending, Game, Outcome, ReadProblem, Termination, Variation},
    notation::ResolveError,
    shogi::{Color, Move, Position, PositionError, PositionKey, Repetition, Setup},
};

/// Why replay stopped before the end of the record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StopReason {
    /// The record could not be read past this point.
    #[error("unreadable: {0}")]
    Read(ReadProblem),
    /// A move was read but cannot be played.
    #[error("line {line}: move {ply} ({text}): {error}")]
    Move { ply: usize, line: u32, text: String, error: ResolveError },
    /// The start position itself is impossible.
    #[error("line {line}: impossible start position: {error}")]
    Start { line: u32, error: PositionError },
}

impl StopReason {
    /// A short stable code for the reason, for databases and CSV: `unreadable`, `no_such_move`,
    /// `ambiguous`, `wrong_side`, `no_previous_move`, `same_mismatch`, `piece_mismatch`,
    /// `nothing_to_capture`, `wrong_variant`, `bad_start`.
    pub fn code(&self) -> &'static str {
        match self {
            StopReason::Read(_) => "unreadable",
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
    /// the text of that move.
    pub illegal_ending: Option<String>,
    pub variations: Vec<ReplayedVariation>,
    pub status: Status,
}

impl ReplayedGame {
    /// The number of legal moves replayed.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// The move the game stopped at, counted from 1, when replay stopped early: the move that
    /// could not be played, or the one after the last read when reading stopped (the moves
    /// before it are kept). 0 when the start position itself is impossible.
    pub fn stopped_at(&self) -> Option<usize> {
        match &self.status {
            Status::Complete => None,
            Status::Stopped(StopReason::Move { ply, .. }) => Some(*ply),
            Status::Stopped(StopReason::Read(_)) => Some(self.plies() + 1),
            Status::Stopped(StopReason::Start { .. }) => Some(0),
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
    for (i, entry) in game.moves.iter().enumerate() {
        let previous = pos.last_move().map(Move::to);
        match entry.token.resolve(&pos, previous) {
            Ok(mv) => {
                pos.play_unchecked(mv);
                moves.push(mv);
                keys.push(pos.key());
            }
            Err(error) => {
                let last = i + 1 == game.moves.len();
                if last && ends_by_foul && matches!(error, ResolveError::NoSuchMove(_)) {
                    illegal_ending = Some(entry.token.to_string());
                } else {
                    status = Status::Stopped(StopReason::Move {
                        ply: i + 1,
                        line: entry.line,
                        text: entry.token.to_string(),
                        error,
                    });
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
    let (termination, outcome) = judge(game.ending.as_ref(), &pos, illegal_ending.is_some(), &status);
    let end = pos.setup().clone();
    recycle(pos);
    let variations = match base {
        Some(mut base) => replay_variations(&mut base, &moves, &game.variations),
        None => Vec::new(),
    };
    ReplayedGame { start, end, moves, keys, outcome, termination, illegal_ending, variations, status }
}

/// The termination and outcome, from the ending the record states and the final position.
fn judge(
    ending: Option<&Ending>,
    pos: &Position,
    foul_written: bool,
    status: &Status,
) -> (Option<Termination>, Option<Outcome>) {
    let to_move = pos.turn();
    let Some(ending) = ending else {
        // No ending written: a final checkmate speaks for itself.
        if status.is_complete() && pos.is_checkmate() {
            return (Some(Termination::Checkmate), Some(Outcome::Win(to_move.flip())));
        }
        return (None, None);
    };
    let t = ending.termination;
    if let Some(stated) = ending.stated {
        // An outcome stated without the way it came about: the final position tells whether
        // the loser was mated or, being to move, resigned.
        let t = match (t, stated) {
            (Termination::Unknown, Outcome::Win(winner))
                if to_move == winner.flip() && status.is_complete() =>
            {
                if pos.is_checkmate() {
                    Termination::Checkmate
                } else {
                    Termination::Resign
                }
            }
            _ => t,
        };
        return (Some(t), Some(stated));
    }
    let loser = |side: Option<Color>| Some(Outcome::Win(side.unwrap_or(to_move).flip()));
    let outcome = match t {
        Termination::Resign | Termination::Timeout | Termination::Checkmate => loser(ending.side),
        // A written illegal move was made by the side to move, who loses; otherwise the record
        // names the side that fouled, or the foul was the previous move's.
        Termination::IllegalMove if foul_written => loser(None),
        Termination::IllegalMove => loser(Some(ending.side.unwrap_or(to_move.flip()))),
        Termination::PerpetualCheck => match pos.repetition() {
            Repetition::PerpetualCheck { loser: l } => Some(Outcome::Win(l.flip())),
            _ => ending.side.map(|s| Outcome::Win(s.flip())),
        },
        Termination::EnteringKing => Some(Outcome::Win(ending.side.unwrap_or(to_move))),
        Termination::Repetition | Termination::Impasse | Termination::Draw | Termination::MaxMoves => {
            Some(Outcome::Draw)
        }
        Termination::Forfeit => ending.side.map(|s| Outcome::Win(s.flip())),
        Termination::Interrupted
        | Termination::Sealed
        | Termination::NoMate
        | Termination::Error
        | Termination::Unknown => None,
    };
    (Some(t), outcome)
}

/// Replays `vars`, which branch from `line` (moves already replayed) played from `pos`. Every
/// variation is played on `pos` itself and taken back after, so the work is the number of
/// moves, however many variations branch however deep into a long game. `pos` ends at some
/// point of `line`; callers that go on from it rewind it first.
fn replay_variations(pos: &mut Position, line: &[Move], vars: &[Variation]) -> Vec<ReplayedVariation> {
    let start = pos.ply();
    let mut out = Vec::with_capacity(vars.len());
    let mut sorted: Vec<&Variation> = vars.iter().collect();
    sorted.sort_by_key(|v| v.ply);
    for var in sorted {
        // A variation that replaces a move past the end of its line's legal moves cannot be
        // reached; neither can the later ones.
        if var.ply > line.len() {
            break;
        }
        rewind(pos, start + var.ply);
        while pos.ply() < start + var.ply {
            pos.play_unchecked(line[pos.ply() - start]);
        }
        out.push(replay_variation(pos, var));
    }
    out
}

/// Replays one variation from `pos`, and its own variations; `pos` ends where it was.
fn replay_variation(pos: &mut Position, var: &Variation) -> ReplayedVariation {
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
                stopped = Some(StopReason::Move {
                    ply: var.ply + i + 1,
                    line: entry.line,
                    text: entry.token.to_string(),
                    error,
                });
                break;
            }
        }
    }
    rewind(pos, base);
    let variations = replay_variations(pos, &moves, &var.variations);
    rewind(pos, base);
    ReplayedVariation { ply: var.ply, moves, variations, stopped }
}

/// Takes back moves until `pos` is `ply` plies from where it was made.
pub(crate) fn rewind(pos: &mut Position, ply: usize) {
    while pos.ply() > ply && pos.undo().is_some() {}
}
