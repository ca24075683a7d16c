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
    notation::{self, Style},
    replay::ReplayedGame,
    shogi::{Color, Move, Position},
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

    fn foul(&mut self, text: &str, _number: u32, turn: Color, entry: Option<&MoveEntry>) {
        // KI2 names no origin: `５七歩(56)` is written `５七歩`.
        self.token(&format!("{}{}", mark(turn), without_origin(text)), entry);
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
