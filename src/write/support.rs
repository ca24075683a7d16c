//! Small pieces the writers share: which raw headers still need writing, dates in the slash
//! form, pairing variations with their replays, and walking a replayed line move by move.

use crate::{
    kifu::{
        DateTime, Game, Header, Info, MoveEntry, Player, Variation,
        encoding::lines_after,
        info::{self, Field, Remarks, STRUCTURE_KEYS},
    },
    replay::{ReplayedGame, ReplayedVariation},
    shogi::{Move, Position, Square},
};

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
        // No writer has a place for a grade apart from the name: keep the raw tag.
        Field::BlackGrade | Field::WhiteGrade => false,
        Field::Opening => info.opening.is_some(),
    }
}

/// Whether header `key` names the game played, which every writer writes from the start
/// (KIF's 手合割, a Western `Variant` tag): a record's own may be wrong.
pub(crate) fn names_the_game(key: &str) -> bool {
    key == "手合割" || is_variant_tag(key)
}

/// Whether header `key` is a Western `Variant` tag, which KIF writes as its 手合割.
pub(crate) fn is_variant_tag(key: &str) -> bool {
    key.trim().eq_ignore_ascii_case("Variant")
}

/// The raw headers a writer must still write after the normalized ones: those that feed no
/// field, those that only stand in for a field's main key (表題 for 棋戦), those whose field
/// stayed empty (a date that could not be read, say), and those that say another value than
/// the field's (a `棋戦名` after a `棋戦`, of which the first is the event).
pub(crate) fn other_headers(game: &Game) -> impl Iterator<Item = &Header> {
    // A Western `Time` tag is part of the start the writer writes from the date.
    let time_in_start = game.info.start.as_ref().is_some_and(|d| d.time.is_some());
    game.headers.iter().filter(move |h| {
        let written_apart = names_the_game(&h.key)
            || STRUCTURE_KEYS.contains(&h.key.as_str())
            || Field::of(&h.key)
                .is_some_and(|(f, rank)| rank == 0 && holds(&game.info, f) && says_no_more(&game.info, h, f))
            || (time_in_start && h.key.trim() == "Time");
        !written_apart
    })
}

/// Whether the value `info` holds for `field` says all that `header`, one of its keys, says:
/// the header is empty, or alone it is read as that value (a Japanese key's with or without a
/// `#` remark, as KIF writes them and JKF does not; another key's, CSA's and Western's, whole).
/// A date without a time says no more than the same day with one.
fn says_no_more(info: &Info, header: &Header, field: Field) -> bool {
    if header.value.trim().is_empty() {
        return true;
    }
    let remarks: &[Remarks] =
        if header.key.is_ascii() { &[Remarks::None] } else { &[Remarks::None, Remarks::AfterHash] };
    remarks.iter().any(|&remarks| {
        let alone = info::normalize(std::slice::from_ref(header), remarks);
        match field {
            Field::Event => alone.event == info.event,
            Field::Site => alone.site == info.site,
            Field::Start => {
                same_day(alone.start, info.start)
                    && !says_more_than_its_date(info::clean(&header.value, remarks), alone.start)
            }
            Field::End => {
                same_day(alone.end, info.end)
                    && !says_more_than_its_date(info::clean(&header.value, remarks), alone.end)
            }
            Field::TimeControl => alone.time_control == info.time_control,
            Field::Black => same_player(alone.black.as_ref(), info.black.as_ref()),
            Field::White => same_player(alone.white.as_ref(), info.white.as_ref()),
            Field::Opening => alone.opening == info.opening,
            Field::BlackGrade | Field::WhiteGrade => false,
        }
    })
}

/// How many of a date's `parts` (year, month, day, hours, minutes, seconds, from one of them
/// on) the number `n` writes: the first alone (`2005`, `08`, `8`), or several run together,
/// each after a year with two digits (`19970822`, `20170302210003`). `None` if it writes
/// another number.
fn parts_written(n: &str, parts: &[u32], year_first: bool) -> Option<usize> {
    let first = *parts.first()?;
    if n.parse::<u64>().ok() == Some(first.into()) {
        return Some(1);
    }
    let mut joined = if year_first { first.to_string() } else { format!("{first:02}") };
    for (k, part) in parts.iter().enumerate().skip(1) {
        joined.push_str(&format!("{part:02}"));
        if joined == n {
            return Some(k + 1);
        }
        if joined.len() >= n.len() {
            break;
        }
    }
    None
}

/// Whether the text of a date header says more than the date `read` from it: a number past
/// its year, month, day and time or other than theirs (a second day, `2005/11/29･30日`; a
/// fraction of a second; an offset from UTC, `+09:00`; an era's year), or a Latin letter
/// other than the `T` before a time (`Z`, a zone's name). Written as the date alone, it
/// would lose that.
pub(crate) fn says_more_than_its_date(text: &str, read: Option<DateTime>) -> bool {
    let Some(d) = read else { return false };
    let time = |i: usize| d.time.map(|t| u32::from([t.0, t.1, t.2][i]));
    let parts = [
        Some(d.year.unsigned_abs()),
        d.month.map(u32::from),
        d.day.map(u32::from),
        time(0),
        time(1),
        time(2),
    ];
    let parts: Vec<u32> = parts.iter().map_while(|p| *p).collect();
    let mut at = 0;
    let mut numbers = text.split(|c: char| !c.is_ascii_digit()).filter(|n| !n.is_empty());
    let more_numbers = numbers.any(|n| match parts_written(n, &parts[at..], at == 0) {
        Some(k) => {
            at += k;
            false
        }
        None => true,
    });
    more_numbers || text.chars().any(|c| c.is_ascii_alphabetic() && c != 'T')
}

fn same_day(alone: Option<DateTime>, held: Option<DateTime>) -> bool {
    match (alone, held) {
        (Some(a), Some(h)) => a == h || (a.time.is_none() && a == DateTime { time: None, ..h }),
        _ => false,
    }
}

/// The same name as written (a grade written apart, `[SenteGrade]`, may have given the held
/// one a title, which its written name does not hold).
fn same_player(alone: Option<&Player>, held: Option<&Player>) -> bool {
    alone.zip(held).is_some_and(|(a, h)| a.full == h.full)
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
/// A writer may play a variation on the position, as long as it takes it back
/// ([`rewind`](crate::replay::rewind)) before returning.
pub(crate) struct Step<'a> {
    pub pos: &'a mut Position,
    pub mv: Move,
    pub previous: Option<Square>,
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

/// The variations, of a list sorted by ply, that replace move `ply` and were replayed in
/// part at least; `next` is where the search starts and moves on to, so that walking a line
/// visits every variation once however many there are.
pub(crate) fn branching_at<'a, 'b>(
    pairs: &'b [(&'a Variation, &'a ReplayedVariation)],
    next: &mut usize,
    ply: usize,
) -> &'b [(&'a Variation, &'a ReplayedVariation)] {
    while pairs.get(*next).is_some_and(|(v, _)| v.ply < ply) {
        *next += 1;
    }
    let start = *next;
    while pairs.get(*next).is_some_and(|(v, _)| v.ply == ply) {
        *next += 1;
    }
    &pairs[start..*next]
}

/// The game's variations paired with their replayed forms, in replay's order (sorted by the
/// ply they branch at); a variation replay could not reach has no replayed form and is left
/// out. Each replayed variation names the variation it was read from.
pub(crate) fn paired_variations<'a>(
    read: &'a [Variation],
    replayed: &'a [ReplayedVariation],
) -> Vec<(&'a Variation, &'a ReplayedVariation)> {
    replayed.iter().filter_map(|r| read.get(r.source).map(|v| (v, r))).collect()
}

/// Comment text split into single lines (writers put one line per comment line), at every
/// line break the readers split at: CRLF, LF and a lone CR, which left inside a comment line
/// would end it on reading and make the rest a line of its own (a move, say). An empty
/// comment (a blank line between paragraphs) is one empty line, not none.
pub(crate) fn comment_lines(comments: &[String]) -> impl Iterator<Item = &str> {
    comments.iter().flat_map(|c| {
        std::iter::once("").filter(|_| c.is_empty()).chain(lines_after(c, 0).map(|(_, line)| line))
    })
}

/// The note on a written foul that ended the game (`illegal move: ４五桂(37)`, with its time
/// when the record gives one: `illegal move: ４五桂(37) (33 s)`) and the record's own comments
/// on that move, for the formats that write the foul as a comment: it is no legal move, so it
/// has no move of theirs to stand on, nor a time.
pub(crate) fn foul_notes<'a>(game: &'a Game, replayed: &'a ReplayedGame) -> Vec<String> {
    let Some(text) = &replayed.illegal_ending else { return Vec::new() };
    foul_note(text, game.moves.get(replayed.moves.len()))
}

/// The note on the foul `text`, written as [`foul_notes`] says, with the time and comments of
/// its `entry`.
pub(crate) fn foul_note(text: &str, entry: Option<&MoveEntry>) -> Vec<String> {
    let time = entry.and_then(|e| e.seconds).map_or(String::new(), |t| format!(" ({t} s)"));
    let own = entry.map_or(&[][..], |e| &e.comments[..]);
    std::iter::once(format!("illegal move: {text}{time}"))
        .chain(comment_lines(own).map(str::to_string))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_written_as_precise_as_known() {
        let d = DateTime { year: 2003, month: Some(5), day: Some(3), time: Some((10, 30, 0)) };
        assert_eq!(slash_date(&d), "2003/05/03 10:30:00");
        assert_eq!(slash_date(&DateTime { year: 2003, month: None, day: None, time: None }), "2003");
    }

    #[test]
    fn a_date_s_text_says_more_when_it_holds_what_the_date_does_not() {
        let day = Some(DateTime { year: 2005, month: Some(11), day: Some(29), time: None });
        let at = Some(DateTime { year: 2017, month: Some(3), day: Some(22), time: Some((1, 0, 0)) });
        // By hand: the numbers of each text against the year, month, day and time.
        assert!(!says_more_than_its_date("2005/11/29", day));
        assert!(!says_more_than_its_date("2005年11月29日(火)", day));
        assert!(says_more_than_its_date("2005/11/29･30日", day));
        assert!(says_more_than_its_date("平成17年11月29日", day));
        assert!(!says_more_than_its_date("2017-03-22T01:00:00", at));
        assert!(!says_more_than_its_date("2017/03/22 01:00", at));
        assert!(says_more_than_its_date("2017-03-22T01:00:00Z", at));
        assert!(says_more_than_its_date("2017-03-22T01:00:00.000", at));
        assert!(says_more_than_its_date("2017/03/22 01:00 +0900", at));
        assert!(!says_more_than_its_date("anything", None));
        // The numbers run together, each past the year with two digits.
        assert!(!says_more_than_its_date("20051129", day));
        assert!(!says_more_than_its_date("20170322010000", at));
        assert!(!says_more_than_its_date("20170322 0100", at));
        assert!(says_more_than_its_date("20051128", day));
        assert!(says_more_than_its_date("2005112930", day));
        assert!(says_more_than_its_date("051129", day));
        assert!(says_more_than_its_date("2005 1129 30", day));
    }
}
