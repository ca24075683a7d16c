//! The KI2 writer: headers, a board diagram for a custom start, the moves in Japanese
//! notation six a line (a comment ends the line: it follows its move as a `*` line), the
//! ending as a `まで…` line, and `変化：N手` blocks.
//!
//! Moves are written by [`notation::write`] in the Japanese style, with
//! the side mark (▲ for Black, △ for White) in front.

use std::fmt::Write as _;

use super::{Sink, is_handicap, pad, summary_line, walk, write_comments, write_headers};
use crate::{
    kifu::{Ending, Game, MoveEntry, Outcome},
    notation::{self, MoveToken, ResolveError, Style},
    replay::ReplayedGame,
    shogi::{Color, Move, Position},
    write::support::foul_note,
};

/// Moves on one line of the move list.
const PER_LINE: usize = 6;

/// Writes `game` as KI2, from its replay (see the module documentation).
pub fn write(game: &Game, replayed: &ReplayedGame) -> String {
    let mut out = String::with_capacity(1024 + 16 * replayed.moves.len());
    write_headers(game, &mut out);
    write_comments(&mut out, &game.comments);
    let mut sink = Ki2Sink { out, on_line: 0, handicap: is_handicap(game) };
    walk(game, replayed, &mut sink);
    sink.break_line();
    sink.out
}

fn mark(color: Color) -> char {
    if color == Color::Black { '▲' } else { '△' }
}

struct Ki2Sink {
    out: String,
    /// Moves written on the current line.
    on_line: usize,
    handicap: bool,
}

impl Ki2Sink {
    fn break_line(&mut self) {
        if self.on_line > 0 {
            // The padding after the last move is not wanted.
            let trimmed = self.out.trim_end_matches(' ').len();
            self.out.truncate(trimmed);
            self.out.push('\n');
            self.on_line = 0;
        }
    }

    fn token(&mut self, text: &str, entry: Option<&MoveEntry>) {
        pad(&mut self.out, text, 12);
        self.on_line += 1;
        let comments = entry.map_or(&[][..], |e| e.comments.as_slice());
        if self.on_line == PER_LINE || !comments.is_empty() {
            self.break_line();
        }
        write_comments(&mut self.out, comments);
    }
}

impl Sink for Ki2Sink {
    fn play(&mut self, pos: &Position, mv: Move, _number: u32, entry: Option<&MoveEntry>, _branches: bool) {
        let previous = pos.last_move().map(Move::to);
        let text = notation::write(pos, mv, previous, Style::Japanese);
        let marked = if text.starts_with(['▲', '△', '☗', '☖']) {
            text
        } else {
            format!("{}{text}", mark(pos.turn()))
        };
        self.token(&marked, entry);
    }

    fn foul(&mut self, pos: &Position, text: &str, _number: u32, entry: Option<&MoveEntry>) -> bool {
        // KI2 names no origin: `５七歩(56)` is written `５七歩`, unless that names a move it may
        // play, which the foul would read back as.
        let written = foul_token(pos, text);
        if !reads_back_as_foul(pos, &written) {
            self.break_line();
            write_comments(&mut self.out, &foul_note(text, entry));
            return false;
        }
        self.token(&written, entry);
        true
    }

    fn ending(&mut self, ending: &Ending, number: u32, turn: Color, outcome: Option<Outcome>) {
        self.break_line();
        let plies = number.saturating_sub(1);
        let _ = writeln!(self.out, "{}", summary_line(plies, ending, turn, outcome, self.handicap));
        write_comments(&mut self.out, &ending.comments);
    }

    fn variation(&mut self, number: u32) {
        self.break_line();
        let _ = write!(self.out, "\n変化：{number}手\n");
    }
}

/// Whether `written`, a foul played in `pos` as KI2 writes it, reads back as no move there:
/// without its origin, `７五歩` may name a pawn that can go there.
fn reads_back_as_foul(pos: &Position, written: &str) -> bool {
    let Ok(mv) = notation::japanese::parse(written) else { return false };
    let previous = pos.last_move().map(Move::to);
    matches!(MoveToken::Japanese(mv).resolve(pos, previous), Err(ResolveError::NoSuchMove(_)))
}

/// Whether a KI2 text of a game replayed as `replayed` writes the foul that ended it as a comment, as
/// the KI2 writer does when the foul written without its origin would read back as a move.
pub fn writes_foul_as_comment(replayed: &ReplayedGame) -> bool {
    let Some(text) = &replayed.illegal_ending else { return false };
    let Ok(mut pos) = Position::from_setup(replayed.start.clone()) else { return false };
    for &mv in &replayed.moves {
        pos.play_unchecked(mv);
    }
    !reads_back_as_foul(&pos, &foul_token(&pos, text))
}

/// The foul `text` played in `pos` as KI2 writes it: marked, without its origin.
fn foul_token(pos: &Position, text: &str) -> String {
    format!("{}{}", mark(pos.turn()), without_origin(text))
}

/// A Japanese move without the KIF origin after it: `５七歩(56)` is `５七歩`.
fn without_origin(text: &str) -> &str {
    match text.strip_suffix(')').and_then(|t| t.rsplit_once('(')) {
        Some((move_text, origin))
            if !move_text.is_empty() && origin.len() == 2 && origin.bytes().all(|b| b.is_ascii_digit()) =>
        {
            move_text
        }
        _ => text,
    }
}
