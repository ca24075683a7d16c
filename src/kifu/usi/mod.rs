//! USI position lines, SFEN and USEN: reading and detection (the writer is
//! [`crate::write::usi`]).
//!
//! One game per line: `position startpos moves 7g7f …`, `position sfen <sfen> moves …`, the
//! same without the `position` word, a bare SFEN (a position with no moves), a bare move list
//! (from the even start), or a USEN line (Shogi Playground's URL-safe form, described in the
//! `usen` module). Blank lines and `#` comment lines between games are skipped. The tokens
//! `resign`, `win` (an entering-king declaration) and `draw` end a game's moves.
//!
//! Policy: a start that equals a standard one is read as that standard start. A line that is
//! none of the above gives a game holding only the problem; a token that is not a move stops
//! its game there, keeping the moves before it.
//!
//! Yari shogi games are the same lines in the USI-like form: a seven-file SFEN
//! (`position sfen rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1 moves 7g7f …`), or, read
//! with [`read_as`] for yari shogi, `startpos` (the yari start) and bare move lists.

mod usen;

pub use usen::UsenError;

use crate::{
    kifu::{
        Ending, Game, MoveEntry, ReadProblem, Start, Termination,
        encoding::{Lines, lines, lines_after},
        support::{TooManyMoves, room_for_move},
    },
    notation::MoveToken,
    shogi::{Move, Setup, SfenError, Variant},
    text::excerpt,
};

/// Why a USI line cannot be read (to its end).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UsiError {
    #[error("not a USI position, SFEN or move list")]
    NotUsi,
    #[error("bad SFEN: {0}")]
    Sfen(SfenError),
    #[error("'{0}' is not a USI move")]
    Move(String),
    #[error("'{0}' after the end of the game")]
    AfterEnd(String),
    #[error("the SFEN is a position of {}, but the game is {}", .found.title().to_lowercase(), .asked.title().to_lowercase())]
    Variant { found: Variant, asked: Variant },
    #[error(transparent)]
    TooManyMoves(#[from] TooManyMoves),
}

impl UsiError {
    /// The reject code (see [`ReadProblem`]'s module).
    pub fn code(&self) -> &'static str {
        match self {
            UsiError::NotUsi => "bad_line",
            UsiError::Sfen(_) => "bad_board",
            UsiError::Move(_) => "bad_move_text",
            UsiError::AfterEnd(_) => "move_after_end",
            UsiError::Variant { .. } => "wrong_variant",
            UsiError::TooManyMoves(_) => "too_many_moves",
        }
    }
}

impl From<SfenError> for UsiError {
    fn from(e: SfenError) -> UsiError {
        UsiError::Sfen(e)
    }
}

/// Reads every game of a USI/SFEN/USEN text, one per line.
pub fn read(text: &str) -> Vec<Game> {
    read_as(text, None)
}

/// Reads every game of a USI/SFEN text as games of `variant`, when given: `startpos` and a bare
/// move list then start from that game's start, and an SFEN of the other game is a problem.
/// USEN lines are shogi's only.
pub fn read_as(text: &str, variant: Option<Variant>) -> Vec<Game> {
    read_lines(lines(text), variant)
}

/// Reads every game of `text`, a piece of a text of USI lines (see
/// [`Piece`](crate::kifu::Piece)) that follows its line `before`, as [`read_as`] reads them in
/// the whole text.
pub fn read_after(text: &str, before: u32, variant: Option<Variant>) -> Vec<Game> {
    read_lines(lines_after(text, before), variant)
}

fn read_lines(lines: Lines<'_>, variant: Option<Variant>) -> Vec<Game> {
    lines
        .filter_map(|(number, line)| {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                return None;
            }
            Some(if usen::is_usen(line) {
                usen::read_line(line, number)
            } else {
                read_line(line, number, variant)
            })
        })
        .collect()
}

/// Whether `text` looks like USI, SFEN or USEN: its first line (blank and `#` lines aside)
/// reads as one of them.
pub fn looks_like(text: &str) -> bool {
    let Some(line) = lines(text).map(|(_, l)| l.trim()).find(|l| !l.is_empty() && !l.starts_with('#')) else {
        return false;
    };
    if usen::is_usen(line) {
        return true;
    }
    let game = read_line(line, 1, None);
    // A USI position command whose SFEN cannot be read is one too, so that the SFEN's fault
    // is named, at its line, rather than the file being no record.
    let position_sfen = line.split_ascii_whitespace().take(2).eq(["position", "sfen"]);
    let bad_sfen = position_sfen && game.problem.as_ref().is_some_and(|p| p.code() == "bad_board");
    game.problem.is_none() || !game.moves.is_empty() || bad_sfen
}

fn read_line(line: &str, number: u32, variant: Option<Variant>) -> Game {
    let mut game = Game { line: number, ..Game::default() };
    if variant == Some(Variant::Yari) {
        game.start = Start::Custom(Setup::start(Variant::Yari));
    }
    if let Err(error) = read_into(line, number, variant, &mut game) {
        game.problem = Some(ReadProblem::new(number, error));
    }
    game
}

fn read_into(line: &str, number: u32, variant: Option<Variant>, game: &mut Game) -> Result<(), UsiError> {
    let mut tokens = line.split_ascii_whitespace().peekable();
    if tokens.peek() == Some(&"position") {
        tokens.next();
    }
    match tokens.peek().copied() {
        Some("startpos") => {
            tokens.next();
        }
        Some(first) if first == "sfen" || first.contains('/') => {
            if first == "sfen" {
                tokens.next();
            }
            let mut sfen = String::with_capacity(96);
            for _ in 0..3 {
                sfen.extend(tokens.next());
                sfen.push(' ');
            }
            if let Some(n) = tokens.next_if(|t| t.bytes().all(|b| b.is_ascii_digit())) {
                sfen.push_str(n);
            }
            let setup: Setup = sfen.trim_end().parse()?;
            match variant {
                Some(asked) if asked != setup.variant => {
                    return Err(UsiError::Variant { found: setup.variant, asked });
                }
                _ => {}
            }
            game.start = Start::of(setup);
        }
        Some("moves") => {}
        Some(first) if first.parse::<Move>().is_ok() => {}
        _ => return Err(UsiError::NotUsi),
    }
    tokens.next_if_eq(&"moves");
    // The first token that is no move, and the moves from it on: the ending after them is
    // still the game's, for the side to move after them all.
    let mut unread: Option<(&str, usize)> = None;
    for token in tokens {
        if game.ending.is_some() {
            if unread.is_some() {
                break;
            }
            return Err(UsiError::AfterEnd(excerpt(token)));
        }
        let termination = match token {
            "resign" => Termination::Resign,
            "win" => Termination::EnteringKing,
            "draw" => Termination::Draw,
            _ => {
                if let Some((_, n)) = &mut unread {
                    *n += 1;
                    continue;
                }
                let Ok(mv) = token.parse::<Move>() else {
                    unread = Some((token, 1));
                    continue;
                };
                room_for_move(&game.moves)?;
                game.moves.push(MoveEntry {
                    token: MoveToken::Usi(mv),
                    line: number,
                    seconds: None,
                    comments: Vec::new(),
                });
                continue;
            }
        };
        game.ending = Some(Ending {
            termination,
            side: None,
            stated: None,
            text: token.to_string(),
            line: number,
            seconds: None,
            comments: Vec::new(),
        });
    }
    if let Some((token, n)) = unread {
        game.unread = n;
        return Err(UsiError::Move(excerpt(token)));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::Handicap;

    #[test]
    fn every_line_form() {
        let games = read(concat!(
            "position startpos moves 7g7f 3c3d\n",
            "\n# a comment\n",
            "startpos moves 7g7f\n",
            "sfen lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 5a4b\n",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n",
            "7g7f 3c3d resign\n",
        ));
        let plies: Vec<usize> = games.iter().map(|g| g.moves.len()).collect();
        assert_eq!(plies, [2, 1, 1, 0, 2]);
        assert_eq!(games.iter().map(|g| g.line).collect::<Vec<_>>(), [1, 4, 5, 6, 7]);
        assert!(games.iter().all(|g| g.problem.is_none()));
        assert_eq!(games[2].start, Start::Standard(Handicap::TwoPieces));
        assert!(matches!(games[3].start, Start::Custom(ref s) if s.move_number == 2));
        assert_eq!(games[4].ending.as_ref().map(|e| e.termination), Some(Termination::Resign));
    }

    #[test]
    fn bad_tokens_stop_the_line() {
        let game = &read("position startpos moves 7g7f 3c3x 2g2f")[0];
        assert_eq!(game.moves.len(), 1);
        assert_eq!(game.problem.as_ref().map(|p| p.line), Some(1));
        let game = &read("hello world")[0];
        assert!(game.problem.is_some());
        let game = &read("7g7f resign 3c3d")[0];
        assert!(game.problem.is_some());
        assert!(!looks_like("P-7f P-8d"));
        assert!(looks_like("\n7g7f 3c3d"));
    }
}
