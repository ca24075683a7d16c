//! Writing a game as Western game text, in Hodges or Hosking style, for shogi or yari shogi.

use super::support::{
    branching_at, comment_lines, foul_notes, other_headers, paired_variations, start_position, walk,
};
use crate::{
    kifu::{DateTime, Game, MoveEntry, Termination, Variation, western::result_word},
    notation::{self, Style},
    replay::{ReplayedGame, ReplayedVariation, rewind},
    shogi::{Color, Handicap, Move, Position, Setup, Variant},
};

/// Lines of move text are wrapped before this width.
const WIDTH: usize = 80;

/// Writes `game` (replayed as `replayed`) as Western game text: tags for the normalized
/// headers (`Event`, `Site`, `Date` and `Time`, `EndDate`, `Sente`, `Gote`, `TimeControl`,
/// `Opening`),
/// the start (`Handicap` for a standard handicap, `SFEN` for any other position or a standard
/// one numbered from another move than the first), every other raw header, `Result` and
/// `Termination`; then the numbered moves in Hodges notation (`1. P-7f P-3d 2. …`, `1... `
/// when White moves first; numbered on from the start's move number), comments in braces with `~` between
/// their lines, variations in parentheses, and the result.
///
/// `replayed` is [`replay`](crate::replay::replay)`(game)`: the moves written are the replayed,
/// legal ones, and the result is the one replay judged.
///
/// A yari shogi game is written as [`write_in`] says.
///
/// # Panics
///
/// If `replayed` holds a move that is not legal from its start (it did not come from replay).
pub fn write(game: &Game, replayed: &ReplayedGame) -> String {
    write_in(game, replayed, Style::Western)
}

/// Writes the game as [`write()`] does, its moves in `style`: [`Style::Western`] (Hodges,
/// `P-7f`) or [`Style::Hosking`] (`P76`); any other style is taken as Hodges.
///
/// A yari shogi game starts with `[Variant "Yari shogi"]`, names its players in `Black` and
/// `White` tags, gives an `[SFEN]` (seven squares wide) only when it does not start from the
/// yari start position, and writes its moves with yari letters (`YB6i-5h`, `YNx7c=`).
///
/// # Panics
///
/// If `replayed` holds a move that is not legal from its start (it did not come from replay).
pub fn write_in(game: &Game, replayed: &ReplayedGame, style: Style) -> String {
    let style = if style == Style::Hosking { Style::Hosking } else { Style::Western };
    let variant = replayed.start.variant;
    let mut out = String::with_capacity(512 + replayed.moves.len() * 8);
    let info = &game.info;
    let mut tag = |key: &str, value: &str| {
        // A tag name is one word; an empty one would not read back.
        let mut key: String =
            key.chars().map(|c| if c.is_whitespace() || "\"[]{}".contains(c) { '_' } else { c }).collect();
        if key.is_empty() {
            key.push('_');
        }
        let value = value.replace('\\', "\\\\").replace('"', "\\\"").replace(['\r', '\n'], " ");
        out.push_str(&format!("[{key} \"{value}\"]\n"));
    };
    if variant != Variant::Standard {
        tag("Variant", variant.title());
    }
    if let Some(v) = &info.event {
        tag("Event", v);
    }
    if let Some(v) = &info.site {
        tag("Site", v);
    }
    let day = |date: &DateTime| {
        let part = |n: Option<u8>| n.map_or("??".to_string(), |n| format!("{n:02}"));
        format!("{:04}.{}.{}", date.year, part(date.month), part(date.day))
    };
    let time = |(h, m, s): (u8, u8, u8)| format!("{h:02}:{m:02}:{s:02}");
    if let Some(date) = &info.start {
        tag("Date", &day(date));
        if let Some(t) = date.time {
            tag("Time", &time(t));
        }
    }
    // No Western tag names the end: `EndDate` holds it, the time after the day.
    if let Some(date) = &info.end {
        match date.time {
            Some(t) => tag("EndDate", &format!("{} {}", day(date), time(t))),
            None => tag("EndDate", &day(date)),
        }
    }
    let (black, white) = if variant == Variant::Standard { ("Sente", "Gote") } else { ("Black", "White") };
    if let Some(p) = &info.black {
        tag(black, &p.full);
    }
    if let Some(p) = &info.white {
        tag(white, &p.full);
    }
    if let Some(v) = &info.time_control {
        tag("TimeControl", v);
    }
    if let Some(v) = &info.opening {
        tag("Opening", v);
    }
    // A standard start numbered from another move than the first is an SFEN, which keeps the
    // number.
    let numbered = replayed.start.move_number != 1;
    match Handicap::find(&replayed.start).filter(|_| !numbered) {
        Some(Handicap::Even) => {}
        Some(h) => tag("Handicap", h.slug()),
        None if variant != Variant::Standard && replayed.start == Setup::start(variant) => {}
        None => tag("SFEN", &replayed.start.to_string()),
    }
    for h in other_headers(game) {
        tag(&h.key, &h.value);
    }
    tag("Result", result_word(replayed.outcome));
    // A result whose manner no record said (`Unknown`) has no tag: `[Result]` says it all.
    if let Some(t) = replayed.termination.filter(|&t| t != Termination::Unknown) {
        tag("Termination", t.name());
    }
    out.push('\n');

    let mut text = Movetext { out, column: 0, glue: false, style };
    if !game.comments.is_empty() {
        text.push(&comment(&game.comments));
    }
    if let Some(mut pos) = start_position(replayed) {
        let first = Numbering {
            start: replayed.start.move_number,
            white_first: replayed.start.turn == Color::White,
            ply: 0,
        };
        let pairs = paired_variations(&game.variations, &replayed.variations);
        text.line(&mut pos, first, &replayed.moves, &game.moves, &pairs);
    }
    let foul = foul_notes(game, replayed);
    if !foul.is_empty() {
        text.push(&comment(&foul));
    }
    text.push(result_word(replayed.outcome));
    // The record's comments on its ending follow the result; with no ending written (no
    // result), they read back as the last move's.
    if let Some(e) = game.ending.as_ref().filter(|e| !e.comments.is_empty()) {
        text.push(&comment(&e.comments));
    }
    let mut out = text.out;
    out.push('\n');
    out
}

/// A comment in braces; its lines (those of each comment, line breaks inside one included)
/// are joined by `~`, which the reader takes for a line break.
fn comment(comments: &[String]) -> String {
    let lines: Vec<&str> = comment_lines(comments).collect();
    format!("{{{}}}", lines.join("~").replace('}', ")"))
}

/// Where a line's numbering starts.
#[derive(Clone, Copy)]
struct Numbering {
    /// The start's move number (an SFEN's last field): the number of the game's first move
    /// counted one a ply, as Japanese records count.
    start: u32,
    /// White moved first in the game.
    white_first: bool,
    /// The ply, from the start of the game, of the line's first move.
    ply: usize,
}

impl Numbering {
    /// The Western number of ply `ply` of the game, where Black's move and White's next one
    /// share a number: 1 for the first of each side's (`1. P-7f P-3d`, or `1... G-3b 2. P-7f`
    /// when White moves first). From a start numbered `n`, the pairs go on from those moves:
    /// Black's `n`th move is pair `n / 2 + 1` and White's pair `(n + 1) / 2` (the even start as
    /// the 31st move begins `16. `), so a start numbered 1 keeps the numbering above.
    fn number(self, ply: usize) -> usize {
        let n = self.start.max(1) as usize + ply;
        let black = (ply % 2 == 0) != self.white_first;
        if black { n / 2 + 1 } else { n.div_ceil(2) }
    }
}

struct Movetext {
    out: String,
    column: usize,
    /// The next token follows the last one without a space (after an opening parenthesis).
    glue: bool,
    /// Hodges or Hosking.
    style: Style,
}

impl Movetext {
    /// Adds a token, wrapping the line before it when it would pass [`WIDTH`].
    fn push(&mut self, token: &str) {
        let width = token.chars().count();
        if self.column > 0 && self.column + 1 + width > WIDTH {
            self.out.push('\n');
            self.column = 0;
        } else if self.column > 0 && !self.glue {
            self.out.push(' ');
            self.column += 1;
        }
        self.glue = false;
        self.out.push_str(token);
        self.column += width;
    }

    /// Adds a closing parenthesis right after the last token.
    fn close(&mut self) {
        self.out.push(')');
        self.column += 1;
    }

    fn line(
        &mut self,
        pos: &mut Position,
        numbering: Numbering,
        moves: &[Move],
        entries: &[MoveEntry],
        variations: &[(&Variation, &ReplayedVariation)],
    ) {
        let mut numbered = false;
        let mut i = 0;
        let mut next = 0;
        walk(pos, moves, entries, |step| {
            let ply = numbering.ply + i;
            let n = numbering.number(ply);
            let mv = notation::write(step.pos, step.mv, step.previous, self.style);
            // A number stays on the line of its move.
            if step.pos.turn() == Color::Black {
                self.push(&format!("{n}. {mv}"));
            } else if !numbered {
                self.push(&format!("{n}... {mv}"));
            } else {
                self.push(&mv);
            }
            numbered = true;
            if let Some(entry) = step.entry.filter(|e| !e.comments.is_empty()) {
                self.push(&comment(&entry.comments));
                numbered = false;
            }
            for (read, replayed) in
                branching_at(variations, &mut next, i).iter().filter(|(_, r)| !r.moves.is_empty())
            {
                let base = step.pos.ply();
                let nested = paired_variations(&read.variations, &replayed.variations);
                self.push("(");
                self.glue = true;
                self.line(step.pos, Numbering { ply, ..numbering }, &replayed.moves, &read.moves, &nested);
                rewind(step.pos, base);
                self.close();
                numbered = false;
            }
            i += 1;
        });
    }
}
