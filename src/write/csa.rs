//! Writing a game as CSA, in UTF-8, which its first line says: V2.2, or V3.0 when the game
//! ends in a word only V3.0 defines or has a `$` line only V3.0 defines.

use std::fmt::Write as _;

use super::support::{comment_lines, foul_notes, other_headers, slash_date, start_position, walk};
use crate::{
    kifu::{
        Game, Header, Player,
        csa::word_for,
        info::{self, Field, Remarks},
    },
    notation::{self, Style, csa::piece_code},
    replay::ReplayedGame,
    shogi::{Color, Handicap, Setup, Square},
};

/// The name CSA writes: the full name, with a title that was given apart from it (a Western
/// grade tag) added, since CSA has only the one field.
fn name_with_title(p: &Player) -> String {
    match &p.title {
        Some(t) if !p.full.ends_with(t.as_str()) => format!("{} {t}", p.full),
        _ => p.full.clone(),
    }
}

/// The line that starts every CSA text written: the text is UTF-8, and a file without the
/// line is read as Shift_JIS (CSA V3.0, which defines the line; older readers skip it as a
/// comment). A file of several games has it once, before the first.
pub const ENCODING_LINE: &str = "'CSA encoding=UTF-8\n";

/// Writes `game` (replayed as `replayed`) as CSA after the [`ENCODING_LINE`]: the version
/// line (V2.2, or V3.0 when the ending or a `$` line needs it), names, the `$` headers CSA knows, the start
/// as `PI` (with removals for a handicap) or a `P1`–`P9` board with `P+`/`P-` hands, the
/// comments before the first move, the replayed moves with their `T` times and `'` comments,
/// and the `%` ending when CSA has a word for it. Headers CSA has no key for are kept as
/// `'key:value` comments after the start, except `$` headers read from CSA (or any with a
/// name CSA reads), which are written back as they were.
///
/// `replayed` is [`replay`](crate::replay::replay)`(game)`: the moves written are the replayed,
/// legal ones, and the result is the one replay judged.
///
/// # Panics
///
/// If `replayed` holds a move that is not legal from its start (it did not come from replay).
pub fn write(game: &Game, replayed: &ReplayedGame) -> String {
    let mut out = String::with_capacity(256 + replayed.moves.len() * 16);
    let ending = replayed.termination.and_then(|t| word_for(t, replayed.outcome, replayed.end.turn));
    let info = &game.info;
    let time = info.time_control.as_deref().map(|tc| time_line(game, tc));
    // A time control in a comment, which reads back as no header, leaves no other header of
    // the field a line either: read back, that line would be the game's time control.
    let time_in_comment = matches!(time, Some(TimeLine::Comment(_)));
    let line_header = |h: &Header| {
        as_line(h) && !(time_in_comment && Field::of(&h.key).is_some_and(|(f, _)| f == Field::TimeControl))
    };
    // A V3.0 line, written here (`$TIME`) or kept from the record.
    let v3_line = matches!(time, Some(TimeLine::Time(_)))
        || other_headers(game).any(|h| line_header(h) && V3_KEYS.contains(&h.key.trim()));
    out.push_str(ENCODING_LINE);
    out.push_str(version(ending, v3_line));
    let mut line = |prefix: &str, value: &str| {
        out.push_str(prefix);
        out.push_str(&one_line(value));
        out.push('\n');
    };
    if let Some(p) = &info.black {
        line("N+", &name_with_title(p));
    }
    if let Some(p) = &info.white {
        line("N-", &name_with_title(p));
    }
    // A date line kept as it was, since its text says more than the date (`Z` after the time),
    // is written below with the other kept lines: when the kept lines of its key alone read
    // back as the date, it is not written a second time here.
    let kept = |key: &str| {
        let lines: Vec<Header> =
            other_headers(game).filter(|h| line_header(h) && h.key.trim() == key).cloned().collect();
        info::normalize(&lines, Remarks::None)
    };
    let dates = [
        ("$START_TIME", info.start, kept("$START_TIME").start),
        ("$END_TIME", info.end, kept("$END_TIME").end),
    ];
    for (key, date, kept) in dates {
        if let Some(date) = date.filter(|&d| kept != Some(d)) {
            line(&format!("{key}:"), &slash_date(&date));
        }
    }
    let texts = [("$EVENT:", &info.event), ("$SITE:", &info.site)];
    for (key, value) in texts {
        if let Some(value) = value {
            line(key, value);
        }
    }
    match &time {
        Some(TimeLine::Limit(tc)) => line("$TIME_LIMIT:", tc),
        Some(TimeLine::Time(tc)) => line("$TIME:", tc),
        _ => {}
    }
    if let Some(value) = &info.opening {
        line("$OPENING:", value);
    }
    for h in other_headers(game).filter(|h| line_header(h)) {
        let limit = (h.key.trim() == "$TIME_LIMIT").then(|| time_limit(h.value.trim())).flatten();
        // The time control's own line, read in another form (` 0:25+00`), is written once:
        // read back, a second one would be the field's, and no header of its own.
        if matches!((&time, &limit), (Some(TimeLine::Limit(tc)), Some(l)) if tc == l) {
            continue;
        }
        line(&format!("{}:", h.key), limit.as_deref().unwrap_or(&h.value));
    }
    write_start(&mut out, &replayed.start);
    // Every comment that is not a move's follows the start (headers CSA has no key for
    // among them): read back, a comment before the first move is one of the game's, wherever
    // it was written (the note on an illegal first move, say), and is written here again.
    if let Some(TimeLine::Comment(tc)) = time {
        comment_line(&mut out, &format!("{TIME_COMMENT}:{tc}"));
    }
    for h in other_headers(game).filter(|h| !line_header(h)) {
        comment_line(&mut out, &format!("{}:{}", h.key, h.value));
    }
    for c in comment_lines(&game.comments) {
        comment_line(&mut out, c);
    }
    if let Some(mut pos) = start_position(replayed) {
        walk(&mut pos, &replayed.moves, &game.moves, |step| {
            out.push_str(&notation::write(step.pos, step.mv, step.previous, Style::Csa));
            out.push('\n');
            if let Some(entry) = step.entry {
                if let Some(t) = entry.seconds {
                    let _ = writeln!(out, "T{t}");
                }
                for c in comment_lines(&entry.comments) {
                    comment_line(&mut out, c);
                }
            }
        });
    }
    for note in foul_notes(game, replayed) {
        comment_line(&mut out, &note);
    }
    // The record's time and comments for its ending follow the `%` word. With no word for
    // the ending (which is then named as left out), the comments are still written: they
    // read back as the last move's.
    let own = game.ending.as_ref();
    if let Some(word) = ending {
        let _ = writeln!(out, "%{word}");
        if let Some(t) = own.and_then(|e| e.seconds) {
            let _ = writeln!(out, "T{t}");
        }
    }
    for c in comment_lines(own.map_or(&[][..], |e| &e.comments)) {
        comment_line(&mut out, c);
    }
    out
}

const V2_2: &str = "V2.2\n";
const V3_0: &str = "V3.0\n";

/// The `$` lines V3.0 defines and V2.2 does not: the time controls of the game and of each
/// side, the move limit, the rule for an entering king.
const V3_KEYS: [&str; 7] = ["$TIME", "$TIME+", "$TIME-", "$TIMET+", "$TIMET-", "$MAX_MOVES", "$JISHOGI"];

/// The version line for a game that ends in the `%` word `ending`, with a `$` line of
/// [`V3_KEYS`] or not: `V3.0` for what V2.2 does not define (`MAX_MOVES`, the move limit, and
/// those lines), so that a reader of the older version is not handed a word it does not know
/// under its own number; `V2.2` otherwise, which every reader of either version takes.
fn version(ending: Option<&str>, v3_line: bool) -> &'static str {
    match ending {
        Some("MAX_MOVES") => V3_0,
        _ if v3_line => V3_0,
        _ => V2_2,
    }
}

/// The key of the comment that holds a time control CSA has no line for, as the format's own
/// example gives the time control in words beside its `$TIME_LIMIT` line.
const TIME_COMMENT: &str = "持ち時間";

/// Where a game's time control `tc` goes in CSA.
#[derive(Clone, Debug, PartialEq, Eq)]
enum TimeLine<'a> {
    /// `$TIME_LIMIT:`, which holds hours and minutes and the seconds of byoyomi (`00:25+00`),
    /// each of two digits at least (`1:30+60` is written `01:30+60`).
    Limit(String),
    /// `$TIME:` (V3.0), which holds seconds, byoyomi and increment (`600+10+0`).
    Time(&'a str),
    /// A header of the record that says it, written back as it was read (as a `$` line, or in
    /// a comment when the line's form does not hold it).
    Kept,
    /// Any other text (`各8時間`), which neither line may hold: a `'持ち時間:` comment.
    Comment(&'a str),
}

fn time_line<'a>(game: &Game, tc: &'a str) -> TimeLine<'a> {
    // Written as it was read, as a line or (out of its line's form) as a comment.
    let kept = other_headers(game)
        .any(|h| Field::of(&h.key).is_some_and(|(f, _)| f == Field::TimeControl) && h.value.trim() == tc);
    if kept {
        TimeLine::Kept
    } else if let Some(limit) = time_limit(tc) {
        TimeLine::Limit(limit)
    } else if is_time(tc) {
        TimeLine::Time(tc)
    } else {
        TimeLine::Comment(tc)
    }
}

/// `text` as a V2.2 `$TIME_LIMIT` value, `hh:mm+ss` (`00:25+00`), if it gives hours, `:`,
/// minutes (one digit or two), `+` and seconds: each number written with two digits at least,
/// as the format's form has them (`1:30+60` is `01:30+60`).
fn time_limit(text: &str) -> Option<String> {
    let number = |s: &str| s.bytes().all(|b| b.is_ascii_digit()).then(|| s.parse::<u32>().ok()).flatten();
    let (clock, byoyomi) = text.split_once('+')?;
    let (hours, minutes) = clock.split_once(':')?;
    if minutes.len() > 2 {
        return None;
    }
    Some(format!("{:02}:{:02}+{:02}", number(hours)?, number(minutes)?, number(byoyomi)?))
}

/// Whether `text` is a V3.0 `$TIME` value: three numbers of seconds, each with or without a
/// decimal fraction, joined by `+` (`600+10+0`, `300.5+0+10`).
fn is_time(text: &str) -> bool {
    let seconds = |s: &str| {
        let (whole, fraction) = s.split_once('.').unwrap_or((s, "0"));
        [whole, fraction].iter().all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    };
    let parts: Vec<&str> = text.split('+').collect();
    parts.len() == 3 && parts.iter().all(|p| seconds(p))
}

/// Games written by [`write()`] as one CSA text: the [`ENCODING_LINE`] and the version line
/// once, at the top (`V3.0` if any game needs it), then the games, a `/` line between
/// two, as CSA separates them (what follows a `/` is a game's names, headers, start and
/// moves, never a version).
pub fn join(texts: &[String]) -> String {
    let mut version = V2_2;
    let mut games = String::new();
    for (i, text) in texts.iter().enumerate() {
        let text = text.strip_prefix(ENCODING_LINE).unwrap_or(text);
        let body = match text.strip_prefix(V3_0) {
            Some(body) => {
                version = V3_0;
                body
            }
            None => text.strip_prefix(V2_2).unwrap_or(text),
        };
        if i > 0 {
            if !games.ends_with('\n') {
                games.push('\n');
            }
            games.push_str("/\n");
        }
        games.push_str(body);
    }
    format!("{ENCODING_LINE}{version}{games}")
}

/// Whether header `h` is written as a `$` line: its key is a `$` and a name CSA readers take
/// for one (ASCII letters, digits, `_`, `+`, `-`), and a time control's value is in the form
/// its line holds. Any other header (a `$` key from another format with spaces or a line break
/// in it, a `$TIME:各8時間`) is kept in a comment, which every text fits.
fn as_line(h: &Header) -> bool {
    let key = h.key.trim();
    let named = key.strip_prefix('$').is_some_and(|name| {
        !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"_+-".contains(&b))
    });
    let value = h.value.trim();
    named
        && match key {
            "$TIME_LIMIT" => time_limit(value).is_some(),
            "$TIME" | "$TIME+" | "$TIME-" | "$TIMET+" | "$TIMET-" => is_time(value),
            _ => true,
        }
}

/// Header values and comments are one line each in CSA.
fn one_line(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
}

/// Writes `text` as a comment line. Read back, `,'` in a comment starts another (as server
/// logs pad theirs); a space after the comma keeps the text one comment.
fn comment_line(out: &mut String, text: &str) {
    let _ = writeln!(out, "'{}", one_line(text).replace(",'", ", '"));
}

fn write_start(out: &mut String, start: &Setup) {
    match Handicap::find(start) {
        // A standard start is the even game less the pieces the handicap removes.
        Some(_) => {
            out.push_str("PI");
            let even = Handicap::Even.setup();
            for sq in Square::all() {
                if let (Some(piece), None) = (even.piece_at(sq), start.piece_at(sq)) {
                    let _ = write!(out, "{}{}{}", sq.file().get(), sq.rank().get(), piece_code(piece.kind));
                }
            }
            out.push('\n');
        }
        None => {
            for rank in 1..=9 {
                let _ = write!(out, "P{rank}");
                for file in (1..=9).rev() {
                    let sq = Square::from_numbers(file, rank).expect("files and ranks 1-9");
                    match start.piece_at(sq) {
                        None => out.push_str(" * "),
                        Some(p) => {
                            out.push(sign(p.color));
                            out.push_str(piece_code(p.kind));
                        }
                    }
                }
                out.push('\n');
            }
            for color in Color::ALL {
                let hand = start.hand(color);
                if hand.is_empty() {
                    continue;
                }
                let _ = write!(out, "P{}", sign(color));
                for (kind, n) in hand.iter() {
                    for _ in 0..n {
                        let _ = write!(out, "00{}", piece_code(kind));
                    }
                }
                out.push('\n');
            }
        }
    }
    out.push(sign(start.turn));
    out.push('\n');
}

fn sign(color: Color) -> char {
    match color {
        Color::Black => '+',
        Color::White => '-',
    }
}
