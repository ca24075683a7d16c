//! Why reading a game stopped: the line, and a typed kind that keeps the format's own error.
//!
//! Policy: every kind has a short stable code ([`ReadProblem::code`]), the reject code and
//! stored status of a game that stops there. The codes say what could not be read, in the
//! same words whatever the format:
//! - `bad_move_text`: a move that is no move in the format's notation (or a row with none, or a JKF
//!   move whose fields are not of JKF's types);
//! - `bad_board`: a start position that cannot be read (a board diagram, CSA `P` lines, an
//!   SFEN, a JKF `initial`), or one set after the moves began;
//! - `bad_header`: a header whose value the game needs and cannot use (a Western tag that is
//!   no tag, an unknown handicap or variant, a 手合割 that needs a diagram and has none);
//! - `bad_variation`: a variation that branches from nowhere, is not closed, or nests too
//!   deep;
//! - `bad_comment`: a comment left open among a game's moves (a Western `{` with no `}`),
//!   which may hold the rest of them;
//! - `bad_ending`: an ending word the format does not define, where it ends the game;
//! - `move_after_end`: a move after the game's ending;
//! - `wrong_variant`: a position of one variant where the game is of the other;
//! - `bad_json`: a JKF text that is not JSON of JKF's shape;
//! - `bad_line`: a line that is no statement of the format, where it stops the game (a USI
//!   line that is no position, SFEN, move list or USEN; a stray CSA line is read past);
//! - `too_many_moves`: a move past the [`MAX_PLIES`](super::MAX_PLIES) a game's line may hold
//!   (in every format), where reading stops so that one endless game cannot take the
//!   machine's memory.
//!
//! The messages are the inner errors' own, so a kind shows what it wraps and nothing more.

use super::{
    bod::BodError,
    csa::CsaError,
    jkf::JkfError,
    kakinoki::KakinokiError,
    usi::{UsenError, UsiError},
    western::WesternError,
};

/// Why reading a game stopped before its end; the game holds what came before.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct ReadProblem {
    /// The 1-based line.
    pub line: u32,
    pub kind: ReadErrorKind,
}

impl ReadProblem {
    /// A problem at `line`.
    pub fn new(line: u32, kind: impl Into<ReadErrorKind>) -> ReadProblem {
        ReadProblem { line, kind: kind.into() }
    }

    /// The kind's code (see the module documentation).
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }

    /// Whether a game that stopped here before its first move has no start position read:
    /// what stopped it is what gives the start (`bad_board`, `bad_header`, `wrong_variant`),
    /// or a text read as nothing at all (`bad_json`, `bad_line`).
    pub fn leaves_start_unread(&self) -> bool {
        matches!(self.code(), "bad_board" | "bad_header" | "wrong_variant" | "bad_json" | "bad_line")
    }
}

/// What could not be read, as the format's reader said it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadErrorKind {
    #[error(transparent)]
    Board(#[from] BodError),
    #[error(transparent)]
    Kakinoki(#[from] KakinokiError),
    #[error(transparent)]
    Csa(#[from] CsaError),
    #[error(transparent)]
    Jkf(#[from] JkfError),
    #[error(transparent)]
    Usi(#[from] UsiError),
    #[error(transparent)]
    Usen(#[from] UsenError),
    #[error(transparent)]
    Western(#[from] WesternError),
}

impl ReadErrorKind {
    /// The short stable code (see the module documentation).
    pub fn code(&self) -> &'static str {
        match self {
            ReadErrorKind::Board(_) => "bad_board",
            ReadErrorKind::Kakinoki(e) => e.code(),
            ReadErrorKind::Csa(e) => e.code(),
            ReadErrorKind::Jkf(e) => e.code(),
            ReadErrorKind::Usi(e) => e.code(),
            ReadErrorKind::Usen(e) => e.code(),
            ReadErrorKind::Western(e) => e.code(),
        }
    }
}
