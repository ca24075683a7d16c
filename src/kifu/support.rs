//! Small pieces the CSA, JKF, USI and Western readers and writers share: numbered lines, the
//! side to move after some plies, which header keys feed [`Info`], and walking a replayed game
//! move by move for the writers.

use super::{
    DateTime, Game, Header, Info, MoveEntry, Variation,
    interim::{parse_date, parse_player},
};
use crate::{
    replay::{ReplayedGame, ReplayedVariation},
    shogi::{Color, Move, Position},
};

/// The lines of a text with their 1-based numbers. A line ends at `\n`, `\r\n` or a lone `\r`;
/// the end of the text ends the last line.
pub(crate) struct Lines<'a> {
    rest: &'a str,
    number: u32,
    done: bool,
}

impl<'a> Lines<'a> {
    pub(crate) fn new(text: &'a str) -> Lines<'a> {
        Lines { rest: text, number: 0, done: text.is_empty() }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = (u32, &'a str);

    fn next(&mut self) -> Option<(u32, &'a str)> {
        if self.done {
            return None;
        }
        self.number = self.number.saturating_add(1);
        match self.rest.find(['\n', '\r']) {
            Some(i) => {
                let line = &self.rest[..i];
                let skip = if self.rest[i..].starts_with("\r\n") { 2 } else { 1 };
                self.rest = &self.rest[i + skip..];
                self.done = self.rest.is_empty();
                Some((self.number, line))
            }
            None => {
                self.done = true;
                Some((self.number, self.rest))
            }
        }
    }
}

/// How deep variations may nest. No record nests nearly so deep; a deeper nesting is refused
/// rather than walked, since every walk over variations (replay, the writers) recurses.
pub(crate) const MAX_DEPTH: usize = 32;

/// Text quoted in an error: the first 32 characters, so that a huge bad line makes a short
/// message.
pub(crate) fn excerpt(text: &str) -> String {
    match text.char_indices().nth(32) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// The side to move after `plies` moves from a position where `start` moves.
pub(crate) fn turn_after(start: Color, plies: usize) -> Color {
    if plies % 2 == 0 { start } else { start.flip() }
}

/// What a header holds, when it feeds [`Info`] or the start and ending of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Field {
    Event,
    Site,
    Start,
    End,
    TimeControl,
    Black,
    White,
    Opening,
    /// The start position, the format version, or the result: held by the game itself.
    Structure,
}

/// The field a header with this key feeds, in any of the formats: KIF and JKF keys (棋戦, 先手,
/// 手合割 …), CSA keys (`$EVENT`, `N+`, `V` …) and Western tags (`Event`, `Sente`, `SFEN` …).
pub(crate) fn field_of(key: &str) -> Option<Field> {
    Some(match key {
        "棋戦" | "$EVENT" | "Event" => Field::Event,
        "場所" | "$SITE" | "Site" | "Venue" => Field::Site,
        "開始日時" | "$START_TIME" | "$START" | "Date" | "Time" => Field::Start,
        "終了日時" | "$END_TIME" => Field::End,
        "持ち時間" | "$TIME_LIMIT" | "$TIME" | "TimeControl" => Field::TimeControl,
        "先手" | "下手" | "N+" | "Sente" | "Black" => Field::Black,
        "後手" | "上手" | "N-" | "Gote" | "White" => Field::White,
        "戦型" | "$OPENING" | "Opening" => Field::Opening,
        "手合割" | "V" | "SFEN" | "FEN" | "Handicap" | "Result" | "Termination" => Field::Structure,
        _ => return None,
    })
}

/// The normalized headers: for each field, the first header that feeds it and is not empty.
/// CSA, JKF and Western keys never collide, so one table serves them all.
pub(crate) fn normalize(headers: &[Header]) -> Info {
    let mut info = Info::default();
    for h in headers {
        let value = h.value.trim();
        let Some(field) = field_of(&h.key).filter(|_| !value.is_empty()) else { continue };
        let text = || Some(value.to_string());
        match field {
            Field::Event => info.event = info.event.take().or_else(text),
            Field::Site => info.site = info.site.take().or_else(text),
            Field::Start => info.start = info.start.or_else(|| parse_date(value)),
            Field::End => info.end = info.end.or_else(|| parse_date(value)),
            Field::TimeControl => info.time_control = info.time_control.take().or_else(text),
            Field::Black => info.black = info.black.take().or_else(|| Some(parse_player(value))),
            Field::White => info.white = info.white.take().or_else(|| Some(parse_player(value))),
            Field::Opening => info.opening = info.opening.take().or_else(text),
            Field::Structure => {}
        }
    }
    info
}

/// Whether `info` holds a value for `field`.
fn holds(info: &Info, field: Field) -> bool {
    match field {
        Field::Event => info.event.is_some(),
        Field::Site => info.site.is_some(),
        Field::Start => info.start.is_some(),
        Field::End => info.end.is_some(),
        Field::TimeControl => info.time_control.is_some(),
        Field::Black => info.black.is_some(),
        Field::White => info.white.is_some(),
        Field::Opening => info.opening.is_some(),
        Field::Structure => true,
    }
}

/// The raw headers a writer must still write after the normalized ones: those that feed no
/// field, and those whose field stayed empty (a date that could not be read, say).
pub(crate) fn other_headers(game: &Game) -> impl Iterator<Item = &Header> {
    game.headers.iter().filter(|h| !field_of(&h.key).is_some_and(|f| holds(&game.info, f)))
}

/// `2003/05/03 10:30:00`, as precise as the date is: `2003/05/03`, `2003/05`, `2003`.
pub(crate) fn slash_date(date: &DateTime) -> String {
    let mut s = format!("{:04}", date.year);
    if let Some(m) = date.month {
        s.push_str(&format!("/{m:02}"));
        if let Some(d) = date.day {
            s.push_str(&format!("/{d:02}"));
            if let Some((h, mi, sec)) = date.time {
                s.push_str(&format!(" {h:02}:{mi:02}:{sec:02}"));
            }
        }
    }
    s
}

/// One move of a replayed line, for a writer: the position before it, the move, the
/// destination of the move before (for 同 and short captures), and the record's entry for it.
pub(crate) struct Step<'a> {
    pub pos: &'a Position,
    pub mv: Move,
    pub previous: Option<crate::shogi::Square>,
    pub entry: Option<&'a MoveEntry>,
}

/// Calls `each` for every move of `moves`, played from `pos`, which ends after the last one.
pub(crate) fn walk(
    pos: &mut Position,
    moves: &[Move],
    entries: &[MoveEntry],
    mut each: impl FnMut(Step<'_>),
) {
    for (i, &mv) in moves.iter().enumerate() {
        let previous = pos.last_move().map(Move::to);
        each(Step { pos, mv, previous, entry: entries.get(i) });
        pos.play_unchecked(mv);
    }
}

/// The start position of a replayed game, ready to play its moves. `None` when the start
/// itself is impossible (replay then has no moves either).
pub(crate) fn start_position(replayed: &ReplayedGame) -> Option<Position> {
    Position::from_setup(replayed.start.clone()).ok()
}

/// The game's variations paired with their replayed forms. Replay visits variations sorted by
/// their ply (stably) and stops at the first one it cannot reach; this pairs them the same way.
pub(crate) fn paired_variations<'a>(
    read: &'a [Variation],
    replayed: &'a [ReplayedVariation],
) -> Vec<(&'a Variation, &'a ReplayedVariation)> {
    let mut sorted: Vec<&Variation> = read.iter().collect();
    sorted.sort_by_key(|v| v.ply);
    sorted.into_iter().zip(replayed).collect()
}

/// Comment text split into single lines (writers put one line per comment line).
pub(crate) fn comment_lines(comments: &[String]) -> impl Iterator<Item = &str> {
    comments.iter().flat_map(|c| c.lines())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_end_at_any_line_break() {
        let lines: Vec<_> = Lines::new("a\r\nb\rc\n\nd").collect();
        assert_eq!(lines, [(1, "a"), (2, "b"), (3, "c"), (4, ""), (5, "d")]);
        let lines: Vec<_> = Lines::new("a\n").collect();
        assert_eq!(lines, [(1, "a")]);
        assert_eq!(Lines::new("").count(), 0);
    }

    #[test]
    fn turns_alternate() {
        assert_eq!(turn_after(Color::White, 3), Color::Black);
        assert_eq!(turn_after(Color::Black, 0), Color::Black);
    }

    #[test]
    fn dates_are_written_as_precise_as_known() {
        let d = DateTime { year: 2003, month: Some(5), day: Some(3), time: Some((10, 30, 0)) };
        assert_eq!(slash_date(&d), "2003/05/03 10:30:00");
        assert_eq!(slash_date(&DateTime { year: 2003, month: None, day: None, time: None }), "2003");
    }
}
