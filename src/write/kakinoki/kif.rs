//! The KIF writer: headers, a board diagram for a custom start, the move table with times,
//! comments as `*` lines, the ending row and `まで…` line, and `変化：N手` blocks.
//!
//! The text is UTF-8; `.kif` files are CP932, which
//! [`encode_cp932`](crate::kifu::encoding::encode_cp932) makes. Moves are written the way
//! Kifu for Windows writes them: `７六歩(77)`, `同　歩(23)`, `５五角打`, `２二角成(88)`,
//! `３三桂不成(25)`, with the time used and the running total per side when the record gives
//! times, and a `+` on a move that has a variation.

use std::fmt::Write as _;

use super::{
    Sink, ending_row, is_handicap, pad, piece_name, summary_line, walk, write_comments, write_headers,
};
use crate::{
    kifu::{Ending, Game, MoveEntry, Outcome},
    notation::japanese::square_text,
    replay::ReplayedGame,
    shogi::{Color, Move, Position, rules},
};

/// Writes `game` as KIF, from its replay (see the module documentation).
pub fn write(game: &Game, replayed: &ReplayedGame) -> String {
    let mut out = String::with_capacity(1024 + 40 * replayed.moves.len());
    write_headers(game, &mut out);
    out.push_str("手数----指手---------消費時間--\n");
    write_comments(&mut out, &game.comments);
    let mut sink = KifSink { out, totals: [0; 2], handicap: is_handicap(game) };
    walk(game, replayed, &mut sink);
    sink.out
}

/// A move as a KIF row writes it: `７六歩(77)`, `同　銀成(22)`, `５五角打`.
pub fn move_text(pos: &Position, mv: Move) -> String {
    match mv {
        Move::Normal { from, to, promote } => {
            let kind = pos.piece_at(from).map_or(crate::shogi::PieceKind::Pawn, |p| p.kind);
            let same = pos.last_move().map(Move::to) == Some(to);
            let dest = if same { "同　".to_string() } else { square_text(to) };
            let promotion = if promote {
                "成"
            } else if kind.can_promote() && rules::in_promotion_zone(pos.turn(), from, to) {
                "不成"
            } else {
                ""
            };
            format!("{dest}{}{promotion}({}{})", piece_name(kind), from.file().get(), from.rank().get())
        }
        Move::Drop { kind, to } => format!("{}{}打", square_text(to), piece_name(kind)),
    }
}

struct KifSink {
    out: String,
    /// Seconds used so far by each side, for the running totals.
    totals: [u32; 2],
    handicap: bool,
}

impl KifSink {
    fn row(&mut self, number: u32, text: &str, turn: Color, entry: Option<&MoveEntry>, branches: bool) {
        self.timed_row(number, text, turn, entry.and_then(|e| e.seconds), branches);
        if let Some(e) = entry {
            write_comments(&mut self.out, &e.comments);
        }
    }

    /// A row, with the time spent and the running total of `turn` when `seconds` is given.
    fn timed_row(&mut self, number: u32, text: &str, turn: Color, seconds: Option<u32>, branches: bool) {
        let _ = write!(self.out, "{number:>4} ");
        match seconds {
            Some(s) => {
                let total = &mut self.totals[turn.index()];
                *total = total.saturating_add(s);
                let t = *total;
                pad(&mut self.out, text, 13);
                let _ = write!(
                    self.out,
                    "({:>2}:{:02}/{:02}:{:02}:{:02})",
                    s / 60,
                    s % 60,
                    t / 3600,
                    t / 60 % 60,
                    t % 60
                );
            }
            None => self.out.push_str(text),
        }
        if branches {
            self.out.push('+');
        }
        self.out.push('\n');
    }
}

impl Sink for KifSink {
    fn play(&mut self, pos: &Position, mv: Move, number: u32, entry: Option<&MoveEntry>, branches: bool) {
        self.row(number, &move_text(pos, mv), pos.turn(), entry, branches);
    }

    fn foul(&mut self, pos: &Position, text: &str, number: u32, entry: Option<&MoveEntry>) -> bool {
        self.row(number, text, pos.turn(), entry, false);
        true
    }

    fn ending(&mut self, ending: &Ending, number: u32, turn: Color, outcome: Option<Outcome>) {
        // The ending's comments follow its row, as a move's do; with no row, the `まで` line,
        // which they read back after just the same.
        let row = ending_row(ending, turn, self.handicap);
        if let Some(row) = &row {
            self.timed_row(number, row, turn, ending.seconds, false);
            write_comments(&mut self.out, &ending.comments);
        }
        let plies = number.saturating_sub(1);
        let _ = writeln!(self.out, "{}", summary_line(plies, ending, turn, outcome, self.handicap));
        if row.is_none() {
            write_comments(&mut self.out, &ending.comments);
        }
    }

    fn variation(&mut self, number: u32) {
        let _ = write!(self.out, "\n変化：{number}手\n");
    }

    fn clock(&self) -> [u32; 2] {
        self.totals
    }

    fn set_clock(&mut self, clock: [u32; 2]) {
        self.totals = clock;
    }
}
