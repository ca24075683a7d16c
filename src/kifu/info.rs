//! The headers every format carries, normalized into [`Info`]: event, site, dates, time
//! control, players, opening.
//!
//! Policy: the raw headers stay in [`Game::headers`](super::Game::headers); normalization only
//! reads them. Keys are recognized from every format (`棋戦`, `$EVENT`, `[Event]`, …: see
//! [`Field::of`]); when several keys name the same field, the more specific one wins (`棋戦`
//! over `表題`, `開始日時` over `対局日`), and otherwise the first in file order. Empty values
//! count as absent. Dates are kept as precise as they are written ([`parse_date`]), and only
//! dates the calendar has, read in one order ([`read_date`]); player
//! names keep their full text beside the split into name and title ([`parse_player`]).

use std::borrow::Cow;

use super::{DateTime, Header, Info, Player, Warning};
use crate::{
    name_key::split_title,
    text::{ascii_digit, is_space, trim_space},
};

/// Header keys that describe another format's file rather than the game, or that the game
/// itself holds (the start position, the result): `V` (the CSA version), SFEN tags, a
/// Western `Handicap`, `Result` and `Termination`. Writers of another format leave them out;
/// they write the start and the ending their own way.
pub(crate) const STRUCTURE_KEYS: &[&str] = &["V", "SFEN", "FEN", "Handicap", "Result", "Termination"];

/// The longest header value, in characters, that is stored as a name, an event, a site, a
/// time control or an opening: far past any real one. A longer value (a broken file whose one
/// line is a header, say) is left out of those fields, with a warning
/// ([`long_value_warnings`]); the raw headers keep it.
pub const LONGEST_VALUE: usize = 1_000;

/// Whether `value` is longer than [`LONGEST_VALUE`] characters.
fn too_long(value: &str) -> bool {
    value.len() > LONGEST_VALUE && value.chars().count() > LONGEST_VALUE
}

/// A normalized header field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    Event,
    Site,
    Start,
    End,
    TimeControl,
    Black,
    White,
    Opening,
    /// A grade written apart from the name (`[SenteGrade "3dan"]`): the title when the name
    /// has none.
    BlackGrade,
    WhiteGrade,
}

/// The header keys in Latin letters, in lower case (they are matched ignoring ASCII case),
/// with the field each names and its rank.
const LATIN_KEYS: [(&str, Field, u8); 21] = [
    ("event", Field::Event, 0),
    ("site", Field::Site, 0),
    ("venue", Field::Site, 1),
    ("start_time", Field::Start, 0),
    ("start", Field::Start, 0),
    ("date", Field::Start, 0),
    ("utcdate", Field::Start, 1),
    // `EndDate` is the tag Western text is written with.
    ("end_time", Field::End, 0),
    ("enddate", Field::End, 0),
    ("time_limit", Field::TimeControl, 0),
    ("timecontrol", Field::TimeControl, 0),
    ("time", Field::TimeControl, 1),
    ("sente", Field::Black, 0),
    ("black", Field::Black, 0),
    ("gote", Field::White, 0),
    ("white", Field::White, 0),
    ("opening", Field::Opening, 0),
    ("sentegrade", Field::BlackGrade, 0),
    ("blackgrade", Field::BlackGrade, 0),
    ("gotegrade", Field::WhiteGrade, 0),
    ("whitegrade", Field::WhiteGrade, 0),
];

impl Field {
    /// The field a header key names in any format, with its rank (0 wins over 1). Keys are
    /// matched after trimming, without a leading `$` and ignoring ASCII case.
    pub fn of(key: &str) -> Option<(Field, u8)> {
        let key = trim_space(key);
        // A Western `Time` tag is the start time that completes `Date`; CSA's `$TIME` is a
        // time control.
        if key == "Time" {
            return Some((Field::Start, 2));
        }
        let key = key.trim_start_matches('$').trim_start_matches('[');
        let field = match key {
            "棋戦" | "棋戦名" => (Field::Event, 0),
            "表題" | "大会" => (Field::Event, 1),
            "場所" => (Field::Site, 0),
            "開始日時" | "対局日時" => (Field::Start, 0),
            "対局日" | "開始日" => (Field::Start, 1),
            "終了日時" => (Field::End, 0),
            "持ち時間" | "持時間" => (Field::TimeControl, 0),
            "先手" | "下手" | "N+" | "+" => (Field::Black, 0),
            "後手" | "上手" | "N-" | "-" => (Field::White, 0),
            "戦型" | "戦法" => (Field::Opening, 0),
            _ => {
                return LATIN_KEYS
                    .iter()
                    .find(|(name, ..)| key.eq_ignore_ascii_case(name))
                    .map(|&(_, f, r)| (f, r));
            }
        };
        Some(field)
    }

    /// The key a KIF or KI2 file writes for the field; `handicap` selects 下手/上手 for the
    /// players. `None` for the grades, which KIF writes inside the name.
    pub const fn kif_key(self, handicap: bool) -> Option<&'static str> {
        Some(match self {
            Field::Event => "棋戦",
            Field::Site => "場所",
            Field::Start => "開始日時",
            Field::End => "終了日時",
            Field::TimeControl => "持ち時間",
            Field::Black if handicap => "下手",
            Field::Black => "先手",
            Field::White if handicap => "上手",
            Field::White => "後手",
            Field::Opening => "戦型",
            Field::BlackGrade | Field::WhiteGrade => return None,
        })
    }
}

/// Whether a header's value may end in a remark, which is no part of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Remarks {
    /// A `#` and what follows it are a remark (`棋戦：名人戦 #観戦記`), as some tools write
    /// KIF and KI2 headers; a `#` in an address (`https://…#…`) is not.
    AfterHash,
    /// The value is the whole text: in CSA, JKF, USI and Western records a `#` is part of it
    /// (`N+user#1234`, `$EVENT:Cup #3`).
    None,
}

impl Remarks {
    /// The remarks of the records of `format`.
    pub fn of(format: super::Format) -> Remarks {
        match format {
            super::Format::Kif | super::Format::Ki2 => Remarks::AfterHash,
            _ => Remarks::None,
        }
    }
}

/// Normalizes the headers of a game (see the module documentation), whose values end in
/// remarks as `remarks` says.
pub fn normalize(headers: &[Header], remarks: Remarks) -> Info {
    let mut ranked: Vec<(u8, Field, &str)> = headers
        .iter()
        .filter_map(|h| Field::of(&h.key).map(|(f, rank)| (rank, f, h.value.as_str())))
        .collect();
    // Stable: equal ranks keep file order, and the first value of a field wins.
    ranked.sort_by_key(|&(rank, ..)| rank);
    let mut info = Info::default();
    let mut grades = [None, None];
    for (_, field, value) in ranked {
        let value = clean(value, remarks);
        if value.is_empty() || too_long(value) {
            continue;
        }
        match field {
            Field::BlackGrade => grades[0] = grades[0].or(Some(value)),
            Field::WhiteGrade => grades[1] = grades[1].or(Some(value)),
            _ => apply_clean(&mut info, field, value),
        }
    }
    for (player, grade) in [(&mut info.black, grades[0]), (&mut info.white, grades[1])] {
        if let (Some(p), Some(g)) = (player.as_mut(), grade) {
            if p.title.is_none() {
                p.title = Some(g.to_string());
            }
        }
    }
    info
}

/// Sets `field` from `value` unless it is set already. A date that cannot be read, or that is
/// impossible or ambiguous ([`read_date`]), leaves the field unset (the raw header keeps the
/// text, and [`date_warnings`] says why).
pub fn apply(info: &mut Info, field: Field, value: &str, remarks: Remarks) {
    let value = clean(value, remarks);
    if value.is_empty() || too_long(value) {
        return;
    }
    apply_clean(info, field, value);
}

/// [`apply`] for a value that is [`clean`] already, not empty and not too long: what
/// [`normalize`] has made of each header, which it need not clean again.
fn apply_clean(info: &mut Info, field: Field, value: &str) {
    let text = || Some(value.to_string());
    match field {
        Field::Event => info.event = info.event.take().or_else(text),
        Field::Site => info.site = info.site.take().or_else(text),
        Field::TimeControl => info.time_control = info.time_control.take().or_else(text),
        Field::Opening => info.opening = info.opening.take().or_else(text),
        Field::Start => info.start = info.start.or_else(|| parse_date(value)),
        Field::End => info.end = info.end.or_else(|| parse_date(value)),
        Field::Black => info.black = info.black.take().or_else(|| Some(player(value))),
        Field::White => info.white = info.white.take().or_else(|| Some(player(value))),
        Field::BlackGrade | Field::WhiteGrade => {}
    }
}

/// Whether `value` written in a KIF or KI2 header reads back shorter: a `#` in it starts a
/// remark there (`user#1234` reads as `user`).
pub fn cut_by_remark(value: &str) -> bool {
    clean(value, Remarks::AfterHash) != clean(value, Remarks::None)
}

/// A value without surrounding spaces (full-width ones too), nor a trailing remark where
/// `remarks` says there may be one.
pub(crate) fn clean(value: &str, remarks: Remarks) -> &str {
    let value = match value.find('#') {
        Some(i) if remarks == Remarks::AfterHash && !value[..i].contains("://") => &value[..i],
        _ => value,
    };
    trim_space(value)
}

/// Reads a date, or a date and time, in the forms records use: `2013/11/29 09:00:00`,
/// `2013/11/29(金) 9:00`, `2013年11月29日`, `2017-03-22T01:00:00.000Z`, `19970822`,
/// `12/30/2018 10:29:48 PM`, `30/12/2018`, `平成25年11月29日`, full-width digits and colons,
/// and partial dates (`2013/11`, `2004年4月`, `2013`). A time is kept only with a full date.
/// `None` where [`read_date`] finds no date that can be stored.
///
/// ```
/// use kifudex::kifu::info::parse_date;
/// assert_eq!(parse_date("2013/11/29(金) 9:00").unwrap().to_string(), "2013-11-29T09:00:00");
/// assert_eq!(parse_date("2004年4月").unwrap().to_string(), "2004-04");
/// assert_eq!(parse_date("慶応2年9月"), None);
/// assert_eq!(parse_date("2020/02/30"), None);
/// ```
pub fn parse_date(text: &str) -> Option<DateTime> {
    read_date(text).ok()
}

/// Why a date header gives no date to store.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DateProblem {
    /// No date in a form records write (`慶応2年9月`, `?`, `hello`).
    #[error("no date in a form records write")]
    Unreadable,
    /// A date no calendar has: a 13th month, 30 February, 29 February of a common year, year 0.
    #[error("no such day in the calendar")]
    Impossible,
    /// Two numbers and a year (`1/2/2020`) that are a date both as day/month/year and as
    /// month/day/year: records of either kind exist, and the text does not say which it is.
    #[error("a date both as day/month/year and as month/day/year, and the record does not say which")]
    Ambiguous,
}

impl DateProblem {
    /// A short stable code, for warnings: `date_unreadable`, `date_impossible`,
    /// `date_ambiguous`.
    pub const fn code(self) -> &'static str {
        match self {
            DateProblem::Unreadable => "date_unreadable",
            DateProblem::Impossible => "date_impossible",
            DateProblem::Ambiguous => "date_ambiguous",
        }
    }
}

/// Reads a date as [`parse_date`] does, and says why there is none. Year, month and day are
/// read in that order, but for two numbers and a year written with slashes (`30/12/2018`,
/// `12/30/2018`), which are read in the one order that gives a date: day/month/year and
/// month/day/year are both written, and where both orders give a date (`1/2/2020`, unless
/// the two numbers are equal) the date is [`DateProblem::Ambiguous`], never guessed.
///
/// # Errors
///
/// [`DateProblem::Unreadable`] for a text with no date in a form records write,
/// [`DateProblem::Impossible`] for a date that no calendar has (`2020/02/30`, `2013/13/01`),
/// [`DateProblem::Ambiguous`] as above.
pub fn read_date(text: &str) -> Result<DateTime, DateProblem> {
    use DateProblem::{Ambiguous, Impossible, Unreadable};
    let text = ascii_forms(trim_space(text));
    let nums = numbers(&text);
    let first = nums.first().ok_or(Unreadable)?;
    let era = era_offset(&text[..first.start]);
    let year_of = |n: u32| i32::try_from(n).map_err(|_| Impossible);
    let (year, month, day, used) = if let Some(offset) = era {
        let year = offset + year_of(first.value)?;
        let (m, d) = (nums.get(1).map(|n| n.value), nums.get(2).map(|n| n.value));
        (year, m, d.filter(|_| m.is_some()), 1 + usize::from(m.is_some()) + usize::from(d.is_some()))
    } else if first.len == 8 && (nums.len() == 1 || text[first.end..].starts_with('T')) {
        let v = first.value;
        (year_of(v / 10000)?, Some(v / 100 % 100), Some(v % 100), 1)
    } else if first.len == 4 {
        let mut m = None;
        let mut d = None;
        let mut used = 1;
        if let Some(n) = nums.get(1).filter(|n| date_separator(&text[first.end..n.start])) {
            m = Some(n.value);
            used = 2;
            if let Some(n2) = nums.get(2).filter(|n2| date_separator(&text[n.end..n2.start])) {
                d = Some(n2.value);
                used = 3;
            }
        }
        (year_of(first.value)?, m, d, used)
    } else if nums.len() >= 3
        && nums[2].len == 4
        && text[first.end..nums[1].start] == *"/"
        && text[nums[1].end..nums[2].start] == *"/"
    {
        let (a, b, year) = (first.value, nums[1].value, year_of(nums[2].value)?);
        match (is_day(year, a, b), is_day(year, b, a)) {
            (true, true) if a != b => return Err(Ambiguous),
            (true, _) => (year, Some(a), Some(b), 3),
            (false, true) => (year, Some(b), Some(a), 3),
            (false, false) => return Err(Impossible),
        }
    } else {
        return Err(Unreadable);
    };
    if !(1..=9999).contains(&year) {
        return Err(Impossible);
    }
    let month = match month {
        Some(m) if (1..=12).contains(&m) => Some(m as u8),
        Some(_) => return Err(Impossible),
        None => None,
    };
    let day = match (month, day) {
        (Some(m), Some(d)) if is_day(year, u32::from(m), d) => Some(d as u8),
        (_, Some(_)) => return Err(Impossible),
        (_, None) => None,
    };
    let rest_start = nums.get(used - 1).map_or(0, |n| n.end);
    let time = day.and_then(|_| parse_time(&text[rest_start..]));
    Ok(DateTime { year, month, day, time })
}

/// Whether day `day` of month `month` of `year` is in the (proleptic Gregorian) calendar.
fn is_day(year: i32, month: u32, day: u32) -> bool {
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// The warnings about the date headers of a game whose record starts at `line` (the headers
/// carry no line of their own): one for each header that names a start or end date
/// (`開始日時`, `$START_TIME`, `[Date]`, …) and holds text that gives no date to store, with
/// the header and its text. The game is stored without that date; its headers keep the text.
/// An empty date, or one written as unknown (`????.??.??`, `--/--/--`), says nothing to warn
/// about; nor does the Western `Time` tag, a time of day that completes `Date`. Values end in
/// remarks as `remarks` says.
pub fn date_warnings(headers: &[Header], line: u32, remarks: Remarks) -> Vec<Warning> {
    let unknown = |value: &str| value.chars().all(|c| matches!(c, '?' | '-' | '.' | '/') || is_space(c));
    headers
        .iter()
        // Rank 2 is the Western `Time` tag.
        .filter(|h| matches!(Field::of(&h.key), Some((Field::Start | Field::End, 0 | 1))))
        .filter_map(|h| {
            let value = clean(&h.value, remarks);
            // One too long to be a date has its own warning (`long_value_warnings`).
            if unknown(value) || too_long(value) {
                return None;
            }
            let problem = match read_date(value) {
                Err(problem) => problem,
                // The day is stored, but not a time of day no clock shows (`25:61`).
                Ok(date) if date.day.is_some() && date.time.is_none() && writes_time(value) => {
                    let message = format!(
                        "the time of day in '{value}' of the header {} was not stored: no clock shows it \
                         (the day was stored)",
                        h.key.trim()
                    );
                    return Some(Warning { line, ply: None, code: "time_impossible", message });
                }
                Ok(_) => return None,
            };
            let message =
                format!("the date '{value}' of the header {} was not stored: {problem}", h.key.trim());
            Some(Warning { line, ply: None, code: problem.code(), message })
        })
        .collect()
}

/// Whether a date's text writes a time of day: two numbers with a colon between (no date
/// is written with one).
fn writes_time(text: &str) -> bool {
    let text = ascii_forms(text);
    let nums = numbers(&text);
    nums.windows(2).any(|w| &text[w[0].end..w[1].start] == ":")
}

/// A warning for each header whose value is too long to be stored as the field it names
/// ([`LONGEST_VALUE`]), with the header, the value's length and its start. The game is
/// stored without that field; its headers keep the text. Values end in remarks as `remarks`
/// says.
pub fn long_value_warnings(headers: &[Header], line: u32, remarks: Remarks) -> Vec<Warning> {
    headers
        .iter()
        // A value no longer than the longest in bytes is none too long in characters.
        .filter(|h| {
            h.value.len() > LONGEST_VALUE && Field::of(&h.key).is_some() && too_long(clean(&h.value, remarks))
        })
        .map(|h| {
            let value = clean(&h.value, remarks);
            let start: String = value.chars().take(20).collect();
            let message = format!(
                "the header {} was not stored as a field: its value ('{start}…') is {} characters long, \
                 and at most {LONGEST_VALUE} are",
                h.key.trim(),
                value.chars().count()
            );
            Warning { line, ply: None, code: "value_too_long", message }
        })
        .collect()
}

/// A run of ASCII digits in a string.
struct Number {
    value: u32,
    len: usize,
    start: usize,
    end: usize,
}

fn numbers(text: &str) -> Vec<Number> {
    // A date and time has six: one allocation for most texts.
    let mut out = Vec::with_capacity(8);
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let digits = &text[start..i];
            let value = digits.parse().unwrap_or(u32::MAX);
            out.push(Number { value, len: i - start, start, end: i });
        } else {
            i += 1;
        }
    }
    out
}

fn date_separator(between: &str) -> bool {
    matches!(between.trim(), "/" | "-" | "." | "年" | "月")
}

/// The year before year 1 of a Japanese era named at the end of `prefix`.
fn era_offset(prefix: &str) -> Option<i32> {
    let prefix = prefix.trim_end();
    [("明治", 1867), ("大正", 1911), ("昭和", 1925), ("平成", 1988), ("令和", 2018)]
        .into_iter()
        .find(|(name, _)| prefix.ends_with(name))
        .map(|(_, offset)| offset)
}

/// `H:M[:S]` somewhere in `rest`, with an optional AM/PM after it.
fn parse_time(rest: &str) -> Option<(u8, u8, u8)> {
    let nums = numbers(rest);
    let i = nums.windows(2).position(|w| &rest[w[0].end..w[1].start] == ":")?;
    let (h, m) = (nums[i].value, nums[i + 1].value);
    let s = nums.get(i + 2).filter(|n| &rest[nums[i + 1].end..n.start] == ":").map_or(0, |n| n.value);
    let has = |mark: &[u8]| rest.as_bytes().windows(2).any(|w| w.eq_ignore_ascii_case(mark));
    let h = match (has(b"PM"), has(b"AM")) {
        (true, _) if h < 12 => h + 12,
        (_, true) if h == 12 => 0,
        _ => h,
    };
    (h <= 24 && m < 60 && s <= 60).then_some((h as u8, m as u8, s as u8))
}

/// `text` with its characters in [`ascii_form`]: borrowed when it is ASCII, which most dates
/// are and which that form leaves as it is.
fn ascii_forms(text: &str) -> Cow<'_, str> {
    if text.is_ascii() { Cow::Borrowed(text) } else { Cow::Owned(text.chars().map(ascii_form).collect()) }
}

/// Full-width digits, colons and slashes as ASCII; 元 (an era's first year) as 1.
fn ascii_form(c: char) -> char {
    match c {
        '０'..='９' => ascii_digit(c),
        '：' => ':',
        '／' => '/',
        '元' => '1',
        _ => c,
    }
}

/// Splits a player's name from a title or rank written after it (see
/// [`crate::name_key::split_title`]): `羽生善治 名人`, `渡辺明竜王`, `藤井聡太七段`, as a KIF
/// header writes it. The full text is always kept, without the spaces around it and a
/// trailing `#` remark.
///
/// ```
/// use kifudex::kifu::info::parse_player;
/// let p = parse_player("羽生 善治竜王");
/// assert_eq!((p.name.as_str(), p.title.as_deref()), ("羽生 善治", Some("竜王")));
/// assert_eq!(parse_player("加藤一二三").title, None);
/// ```
pub fn parse_player(text: &str) -> Player {
    player(clean(text, Remarks::AfterHash))
}

/// [`parse_player`] for a name that is [`clean`] already.
fn player(full: &str) -> Player {
    let (name, title) = split_title(full);
    Player { full: full.to_string(), name: name.to_string(), title: title.map(str::to_string) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(text: &str) -> String {
        parse_date(text).map_or_else(|| "-".to_string(), |d| d.to_string())
    }

    #[test]
    fn dates_in_every_form_seen() {
        assert_eq!(date("2013/11/29 09:00:00"), "2013-11-29T09:00:00");
        assert_eq!(date("2013/11/29(金) 9:00"), "2013-11-29T09:00:00");
        assert_eq!(date("2013年11月29日"), "2013-11-29");
        assert_eq!(date("2022年01月09日(日) 14:48:46"), "2022-01-09T14:48:46");
        assert_eq!(date("2017-03-22T01:00:00.000Z"), "2017-03-22T01:00:00");
        assert_eq!(date("2014/09/13 14：59"), "2014-09-13T14:59:00");
        assert_eq!(date("２０１４／０９／１３"), "2014-09-13");
        assert_eq!(date("2005/11/29･30日"), "2005-11-29");
        assert_eq!(date("12/30/2018 10:29:48 PM"), "2018-12-30T22:29:48");
        assert_eq!(date("12/30/2018 12:05:00 AM"), "2018-12-30T00:05:00");
        assert_eq!(date("12/30/2018 10:29:48 pm"), "2018-12-30T22:29:48");
        assert_eq!(date("12/30/2018 12:05:00 Am"), "2018-12-30T00:05:00");
        assert_eq!(date("2018/12/30 10:29:48 ＰＭ"), "2018-12-30T10:29:48");
        assert_eq!(date("2020/08/04 0:25:37"), "2020-08-04T00:25:37");
        assert_eq!(date("19970822"), "1997-08-22");
        assert_eq!(date("1997.08.22"), "1997-08-22");
        assert_eq!(date("平成25年11月29日"), "2013-11-29");
        assert_eq!(date("令和元年5月1日"), "2019-05-01");
        assert_eq!(date("2013/11"), "2013-11");
        assert_eq!(date("1967年2月号"), "1967-02");
        assert_eq!(date("2013"), "2013");
        for bad in ["", "?", " 15:35:06", "慶応2年9月", "2013/13/01", "2013/12/32", "hello"] {
            assert_eq!(date(bad), "-", "{bad:?}");
        }
    }

    #[test]
    fn impossible_and_ambiguous_dates_are_no_dates() {
        use DateProblem::*;
        let cases: &[(&str, Result<&str, DateProblem>)] = &[
            // 30 February never is; 29 February is in leap years only (2000, not 1900 or 2019).
            ("2020/02/30", Err(Impossible)),
            ("2019/02/29", Err(Impossible)),
            ("1900/02/29", Err(Impossible)),
            ("2000/02/29", Ok("2000-02-29")),
            ("2020/04/31 10:00", Err(Impossible)),
            ("20200230", Err(Impossible)),
            ("平成31年2月29日", Err(Impossible)),
            ("0000/01/01", Err(Impossible)),
            ("2013/13/01", Err(Impossible)),
            // Day and month in the one order that gives a date; both orders: not read.
            ("30/12/2018", Ok("2018-12-30")),
            ("12/30/2018", Ok("2018-12-30")),
            ("13/01/2020", Ok("2020-01-13")),
            ("1/2/2020", Err(Ambiguous)),
            ("01/02/2020 10:00", Err(Ambiguous)),
            ("12/11/2020", Err(Ambiguous)),
            ("5/5/2020", Ok("2020-05-05")),
            ("31/02/2020", Err(Impossible)),
            ("13/13/2020", Err(Impossible)),
            ("慶応2年9月", Err(Unreadable)),
            ("hello", Err(Unreadable)),
        ];
        for &(text, want) in cases {
            let got = read_date(text).map(|d| d.to_string());
            assert_eq!(got.as_deref().map_err(|e| *e), want, "{text}");
        }
    }

    #[test]
    fn date_headers_that_give_no_date_are_warnings() {
        let h = |k: &str, v: &str| Header { key: k.to_string(), value: v.to_string() };
        let headers = [
            h("開始日時", "2020/02/30 10:00"),
            h("終了日時", "2020/03/01"),
            h("対局日", "1/2/2020"),
            h("Date", "????.??.??"),
            h("Time", "10:00"),
            h("$END_TIME", " "),
            h("棋戦", "1/2/2020"),
            h("$START_TIME", "慶応2年"),
            h("終了日時", "2019/06/30 25:61"),
            h("終了日時", "2019/06/30 ２４：００"),
            h("$END_TIME", "2019/06/30 23:59:61"),
        ];
        let got: Vec<(u32, &str)> =
            date_warnings(&headers, 7, Remarks::AfterHash).iter().map(|w| (w.line, w.code)).collect();
        assert_eq!(
            got,
            [
                (7, "date_impossible"),
                (7, "date_ambiguous"),
                (7, "date_unreadable"),
                (7, "time_impossible"),
                (7, "time_impossible")
            ]
        );
        let named =
            date_warnings(&headers, 7, Remarks::AfterHash).into_iter().map(|w| w.message).collect::<Vec<_>>();
        for (message, (key, value)) in named.iter().zip([
            ("開始日時", "2020/02/30 10:00"),
            ("対局日", "1/2/2020"),
            ("$START_TIME", "慶応2年"),
        ]) {
            assert!(message.contains(&format!("'{value}' of the header {key} ")), "{message}");
        }
    }

    fn split(text: &str) -> (String, Option<String>) {
        let p = parse_player(text);
        assert_eq!(p.full, text.split('#').next().unwrap().trim());
        (p.name, p.title)
    }

    #[test]
    fn players_split_into_name_and_title() {
        let cases: &[(&str, &str, Option<&str>)] = &[
            ("羽生善治 名人", "羽生善治", Some("名人")),
            ("渡辺明竜王", "渡辺明", Some("竜王")),
            ("藤井聡太七段", "藤井聡太", Some("七段")),
            ("羽生 善治竜王", "羽生 善治", Some("竜王")),
            ("西尾　明五段", "西尾　明", Some("五段")),
            ("深浦康市 九段", "深浦康市", Some("九段")),
            ("加藤一二三九段", "加藤一二三", Some("九段")),
            ("加藤一二三", "加藤一二三", None),
            ("里見香奈女流名人", "里見香奈", Some("女流名人")),
            ("中井広恵女流六段", "中井広恵", Some("女流六段")),
            ("藤井聡太竜王・名人", "藤井聡太", Some("竜王・名人")),
            ("羽生善治永世竜王", "羽生善治", Some("永世竜王")),
            ("中原誠十六世名人", "中原誠", Some("十六世名人")),
            ("藤井聡太七冠", "藤井聡太", Some("七冠")),
            ("羽生善治永世七冠", "羽生善治", Some("永世七冠")),
            ("羽生善治 永世七冠", "羽生善治", Some("永世七冠")),
            ("中原誠永世十段", "中原誠", Some("永世十段")),
            ("羽生善治九段・永世七冠", "羽生善治", Some("九段・永世七冠")),
            ("羽生善治七冠王", "羽生善治", Some("七冠王")),
            ("羽生善治(九段)", "羽生善治", Some("(九段)")),
            ("羽生善治（名人）", "羽生善治", Some("（名人）")),
            ("秋元五段", "秋元", Some("五段")),
            ("Team (Japan)", "Team (Japan)", None),
            ("稲葉聡アマ", "稲葉聡", Some("アマ")),
            ("山田太郎アマ四段", "山田太郎", Some("アマ四段")),
            ("surokiti0510 初段", "surokiti0510", Some("初段")),
            ("muzudho 1級", "muzudho", Some("1級")),
            ("田中十五級", "田中", Some("十五級")),
            ("bob 十段", "bob", Some("十段")),
            ("Hosking Tony 3dan", "Hosking Tony", Some("3dan")),
            ("名人", "名人", None),
            ("alice(414)", "alice(414)", None),
            ("Mate in 13", "Mate in 13", None),
            ("先手", "先手", None),
            ("Sente-san#コメント3", "Sente-san", None),
        ];
        for &(text, name, title) in cases {
            let (n, t) = split(text);
            assert_eq!((n.as_str(), t.as_deref()), (name, title), "{text}");
        }
    }

    #[test]
    fn values_too_long_are_counted_in_characters() {
        let h = |k: &str, v: String| Header { key: k.to_string(), value: v };
        let headers = [
            h("棋戦", "a".repeat(LONGEST_VALUE + 1)),
            // 1,000 characters in 3,000 bytes, and spaces around them: not too long.
            h("場所", format!("  {}\u{3000}", "東".repeat(LONGEST_VALUE))),
            h("先手", "東".repeat(LONGEST_VALUE + 1)),
            // Not a field.
            h("手合割", "a".repeat(LONGEST_VALUE + 1)),
            // A remark cut off leaves 1,000 characters.
            h("後手", format!("{}#{}", "b".repeat(LONGEST_VALUE), "c".repeat(10))),
        ];
        let warnings = long_value_warnings(&headers, 3, Remarks::AfterHash);
        let got: Vec<&str> = warnings.iter().map(|w| w.message.split(' ').nth(2).unwrap()).collect();
        assert_eq!(got, ["棋戦", "先手"]);
    }

    #[test]
    fn headers_normalize_with_priorities() {
        let h = |k: &str, v: &str| Header { key: k.to_string(), value: v.to_string() };
        let info = normalize(
            &[
                h("表題", "竜王戦"),
                h("棋戦", "第２７期竜王戦"),
                h("開始日時", "2014/09/02 10:00"),
                h("先手", "糸谷哲郎"),
                h("後手", ""),
                h("上手", "森内俊之竜王"),
                h("戦型", "　"),
                h("持ち時間", "各５時間"),
                h("場所", "東京"),
            ],
            Remarks::AfterHash,
        );
        assert_eq!(info.event.as_deref(), Some("第２７期竜王戦"));
        assert_eq!(info.start.unwrap().to_string(), "2014-09-02T10:00:00");
        assert_eq!(info.black.unwrap().name, "糸谷哲郎");
        assert_eq!(info.white.unwrap().title.as_deref(), Some("竜王"));
        assert_eq!(info.opening, None);
        assert_eq!(info.time_control.as_deref(), Some("各５時間"));
        let info =
            normalize(&[h("$EVENT", "floodgate"), h("N+", "alice"), h("Sentegrade", "3dan")], Remarks::None);
        assert_eq!(info.event.as_deref(), Some("floodgate"));
        assert_eq!(info.black.unwrap().title.as_deref(), Some("3dan"));
    }
}
