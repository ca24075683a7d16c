//! Query options given as text, as the command line's flags and the HTTP API's parameters
//! give them. They are checked here, once, so every front end accepts the same input and
//! refuses it with the same words.
//!
//! Policy: a refusal says what is wrong, and names the options it concerns as data
//! ([`QueryOption`]), never as a front end spells them. [`NamesOptions::message`] words it
//! with the names a front end gives (the command line's `--since`); shown alone, it names
//! each option plainly (`since`, the same name the HTTP API's parameter has).

use std::fmt;

use super::{Target, TargetError, start_position};
use crate::{
    db::{GameFilter, GameResult},
    notation::{MoveTokens, western},
    shogi::{Handicap, Position, Variant},
};

/// An option of a query, which every front end takes under the same name: the command line
/// as a flag (`--since`), the HTTP API as a parameter (`since`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryOption {
    Moves,
    Sfen,
    Start,
    Since,
    Until,
    Result,
    Handicap,
    Variant,
    By,
    ExactSequence,
    Limit,
    Offset,
}

impl QueryOption {
    /// The option's name: `since`, `exact-sequence`.
    pub fn name(self) -> &'static str {
        match self {
            QueryOption::Moves => "moves",
            QueryOption::Sfen => "sfen",
            QueryOption::Start => "start",
            QueryOption::Since => "since",
            QueryOption::Until => "until",
            QueryOption::Result => "result",
            QueryOption::Handicap => "handicap",
            QueryOption::Variant => "variant",
            QueryOption::By => "by",
            QueryOption::ExactSequence => "exact-sequence",
            QueryOption::Limit => "limit",
            QueryOption::Offset => "offset",
        }
    }

    /// The option's plain name, as a message shown alone gives it.
    pub(super) fn plain(self) -> String {
        self.name().to_string()
    }
}

impl fmt::Display for QueryOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A number of things a query is given (a limit, an offset, a game of a file, a ply): 0 or more,
/// written with digits. The error says what is wrong with `text`, in words that follow its
/// option's name and the text: `not a number`, `below 0: give 0 or more`.
///
/// ```
/// use kifudex::query::parse_count;
///
/// assert_eq!(parse_count::<usize>("20"), Ok(20));
/// assert_eq!(parse_count::<usize>("-1").unwrap_err(), "below 0: give 0 or more");
/// assert_eq!(parse_count::<u32>("ten").unwrap_err(), "not a number");
/// ```
///
/// # Errors
///
/// The reason, when `text` is no such number.
pub fn parse_count<T: std::str::FromStr>(text: &str) -> Result<T, String> {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err("not a number".to_string());
    }
    if text.starts_with('-') && digits.bytes().any(|b| b != b'0') {
        return Err("below 0: give 0 or more".to_string());
    }
    digits.parse().map_err(|_| "too large a number".to_string())
}

/// An error whose message names query options, worded with a front end's names for them.
pub trait NamesOptions {
    /// The message, with each option named as `name` gives it (a front end's spelling: the
    /// command line's `--since`).
    fn message(&self, name: &dyn Fn(QueryOption) -> String) -> String;
}

/// Why query options are refused: each refusal with the text refused and the option that gave
/// it. [`NamesOptions::message`] words it; `Display` gives the options' plain names.
#[derive(Debug)]
pub enum OptionError {
    /// A date that is none (`option` is [`QueryOption::Since`] or [`QueryOption::Until`]);
    /// `why` says what is wrong with it.
    Date {
        option: QueryOption,
        value: String,
        why: String,
    },
    Handicap(String),
    Result(String),
    By(String),
    Variant(String),
    /// The game asked for is not the game of the position (`what`: which position).
    OtherVariant {
        asked: Variant,
        what: &'static str,
        found: Variant,
    },
    /// A handicap filter for a game that has no handicaps (yari shogi).
    NoHandicaps {
        handicap: Handicap,
        variant: Variant,
    },
    /// `since` is after `until`: no date is both.
    DatesReversed {
        since: String,
        until: String,
    },
    /// Both moves and an SFEN give the position.
    MovesAndSfen,
    /// A start was given with an SFEN: a start is where moves start, and an SFEN is the
    /// position itself.
    StartAndSfen,
    /// The start of the moves cannot be read.
    Start(TargetError),
    Target(TargetError),
    /// A move cannot be played from the start, and all of them can from the other start a
    /// handicap gives (`hint`): the handicap's start, or the even game's.
    OtherStart {
        error: TargetError,
        hint: StartHint,
    },
}

/// Where moves that cannot be played from the start they were given can be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartHint {
    /// The moves start from the even game's (no start was given), and can be played from the
    /// start of the handicap the filter keeps.
    Handicap(Handicap),
    /// The moves start from the position of this handicap (the start given), and can be played
    /// from the even game's.
    Even(Handicap),
}

impl NamesOptions for OptionError {
    fn message(&self, name: &dyn Fn(QueryOption) -> String) -> String {
        match self {
            OptionError::Date { option, value, why } => format!(
                "{} '{value}' is not a date: {why} (dates are like 2019, 2019-04 or 2019-04-01)",
                name(*option)
            ),
            OptionError::DatesReversed { since, until } => format!(
                "{} {since} is after {} {until}: no game is dated both",
                name(QueryOption::Since),
                name(QueryOption::Until)
            ),
            OptionError::Handicap(text) => format!(
                "{} '{text}' is not a handicap; the names are {}",
                name(QueryOption::Handicap),
                handicap_names()
            ),
            OptionError::Result(text) => {
                format!(
                    "{} '{text}' is not one of black, white, draw, other (or unknown)",
                    name(QueryOption::Result)
                )
            }
            OptionError::By(text) => {
                format!("{} '{text}' is not a breakdown; the only one is year", name(QueryOption::By))
            }
            OptionError::Variant(text) => {
                format!(
                    "{} '{text}' is not a game kifudex knows: standard or yari",
                    name(QueryOption::Variant)
                )
            }
            OptionError::OtherVariant { asked, what, found } => format!(
                "{} {asked} was given, but {what} is a position of {}",
                name(QueryOption::Variant),
                found.title().to_lowercase()
            ),
            OptionError::NoHandicaps { handicap, variant } => format!(
                "{} {} was given, but {} has no handicaps: its games all start from its one start",
                name(QueryOption::Handicap),
                handicap.japanese(),
                variant.title().to_lowercase()
            ),
            OptionError::MovesAndSfen => {
                format!(
                    "{} and {} cannot be given together",
                    name(QueryOption::Moves),
                    name(QueryOption::Sfen)
                )
            }
            OptionError::StartAndSfen => format!(
                "{} is where moves start, and {} is the position itself: they cannot be given together",
                name(QueryOption::Start),
                name(QueryOption::Sfen)
            ),
            OptionError::Start(e) => format!("{} {}", name(QueryOption::Start), e.message(name)),
            OptionError::Target(e) => e.message(name),
            OptionError::OtherStart { error, hint: StartHint::Handicap(handicap) } => {
                let handicap = handicap.japanese();
                format!(
                    "{}. The moves start from the even game's start, and {} {handicap} games start \
                     from their own position, from which these moves can be played: give {} \
                     {handicap} to start them there",
                    error.message(name),
                    name(QueryOption::Handicap),
                    name(QueryOption::Start)
                )
            }
            OptionError::OtherStart { error, hint: StartHint::Even(handicap) } => format!(
                "{}. {} {} starts the moves from that handicap's position; from the even game's \
                 start they can be played: leave out {} to start them there",
                error.message(name),
                name(QueryOption::Start),
                handicap.japanese(),
                name(QueryOption::Start)
            ),
        }
    }
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(&QueryOption::plain))
    }
}

impl std::error::Error for OptionError {}

impl From<TargetError> for OptionError {
    fn from(e: TargetError) -> OptionError {
        OptionError::Target(e)
    }
}

/// The result names a filter takes, and the result each keeps (`other`: no winner recorded
/// and no draw).
pub const RESULT_NAMES: [(&str, GameResult); 5] = [
    ("black", GameResult::BlackWin),
    ("white", GameResult::WhiteWin),
    ("draw", GameResult::Draw),
    ("other", GameResult::Unknown),
    // What the exports and tables write for those games.
    ("unknown", GameResult::Unknown),
];

/// The result a filter's result name keeps (in any case and either width, as a handicap's
/// name is read); nothing but spaces, as a form's empty field, names none.
///
/// # Errors
///
/// [`OptionError::Result`] for a name not in [`RESULT_NAMES`].
pub fn parse_result(text: &str) -> Result<Option<GameResult>, OptionError> {
    use unicode_normalization::UnicodeNormalization;
    let name: String = text.trim().nfkc().collect();
    if name.is_empty() {
        return Ok(None);
    }
    RESULT_NAMES
        .iter()
        .find(|(known, _)| known.eq_ignore_ascii_case(&name))
        .map(|&(_, result)| Some(result))
        .ok_or_else(|| OptionError::Result(text.to_string()))
}

/// Whether a breakdown's name asks for the breakdown by year (the only one there is).
///
/// # Errors
///
/// [`OptionError::By`] for any other text.
pub fn parse_by(text: &str) -> Result<bool, OptionError> {
    match text {
        "year" => Ok(true),
        other => Err(OptionError::By(other.to_string())),
    }
}

/// A handicap's Japanese or English name (香落ち, `lance`).
///
/// # Errors
///
/// [`OptionError::Handicap`] for a name no handicap has.
pub fn parse_handicap(text: &str) -> Result<Handicap, OptionError> {
    Handicap::from_name(text).ok_or_else(|| OptionError::Handicap(text.to_string()))
}

/// A game's name (`standard`, `yari`, as [`Variant::from_name`] reads it); nothing but spaces
/// names none.
///
/// # Errors
///
/// [`OptionError::Variant`] for a name no game has.
pub fn parse_variant(text: &str) -> Result<Option<Variant>, OptionError> {
    match text {
        blank if blank.trim().is_empty() => Ok(None),
        name => Variant::from_name(name).map(Some).ok_or_else(|| OptionError::Variant(name.to_string())),
    }
}

/// The game filter whose texts are given as they came (`given`), checked: an empty text does
/// not filter, dates must be a year, a month or a day in ISO 8601's form (`2019`,
/// `2019-04`, `2019-04-01`), and `handicap` and `variant`, when given, name the start and the game
/// ([`parse_handicap`], [`parse_variant`]). Names, events and openings match on a part,
/// compared without widths, spaces, case or a title after a name (see [`crate::name_key`]).
///
/// # Errors
///
/// A date that is not ISO 8601, or a handicap or game name that names none.
pub fn filter_from_text(
    given: GameFilter,
    handicap: Option<&str>,
    variant: Option<&str>,
) -> Result<GameFilter, OptionError> {
    // Nothing but spaces (ASCII or full-width) is no value: as a form's empty field, it keeps
    // every game (a text filter would otherwise match every game that names anyone).
    let text = |v: Option<String>| v.filter(|s| !s.trim().is_empty());
    // A name, event or opening is compared through its key, which leaves out `_` with the
    // spaces (CSA names write it for one): a value whose key is empty is no value either, or
    // `--player _` would keep every game that names anyone.
    let name = |v: Option<String>| v.filter(|s| !crate::name_key::key(s).is_empty());
    // A date is read without the spaces around it, its full-width digits and hyphens as ASCII
    // (as a form's field or a Japanese input method may give it).
    let date = |v: Option<String>| {
        text(v).map(|d| {
            crate::text::trim_space(&d)
                .chars()
                .map(|c| if c == '－' { '-' } else { crate::text::ascii_digit(c) })
                .collect()
        })
    };
    let given = GameFilter { since: date(given.since), until: date(given.until), ..given };
    let (handicap, variant) =
        (handicap.filter(|h| !h.trim().is_empty()), variant.filter(|v| !v.trim().is_empty()));
    for (option, date) in [(QueryOption::Since, &given.since), (QueryOption::Until, &given.until)] {
        if let Some(d) = date {
            check_date(d).map_err(|why| OptionError::Date { option, value: d.clone(), why })?;
        }
    }
    if let (Some(since), Some(until)) = (&given.since, &given.until) {
        // Each takes in all of a partial date: 2019-06 to 2019 is June 2019.
        let n = since.len().min(until.len());
        if since[..n] > until[..n] {
            return Err(OptionError::DatesReversed { since: since.clone(), until: until.clone() });
        }
    }
    let handicap = handicap.map(parse_handicap).transpose()?.or(given.handicap);
    let variant = variant.map(parse_variant).transpose()?.flatten().or(given.variant);
    if let (Some(handicap), Some(variant)) = (handicap, variant) {
        check_handicap(handicap, variant)?;
    }
    Ok(GameFilter {
        player: name(given.player),
        black: name(given.black),
        white: name(given.white),
        event: name(given.event),
        opening: name(given.opening),
        handicap,
        variant,
        ..given
    })
}

/// The position asked about: `sfen`, or `moves` (any notation) from `start` (an SFEN,
/// `startpos` or a handicap name), or the start itself when neither is given; in the game
/// `variant` names, or (without it) the one the position or the moves show ([`start_for`]).
/// `handicap` is the handicap the games are filtered on, if any.
///
/// # Errors
///
/// Both `moves` and `sfen`, a start that is none of those, a position of another game than
/// `variant`, or a position or move that cannot be read or played, in the words of
/// [`TargetError`]. Moves that cannot be played from the even start and can from the start
/// of `handicap` (when no start is given), or that cannot be played from the handicap start
/// given and can from the even start, are [`OptionError::OtherStart`], which says so.
pub fn target_from_text(
    moves: Option<&str>,
    sfen: Option<&str>,
    start: &str,
    variant: Option<Variant>,
    handicap: Option<Handicap>,
) -> Result<Target, OptionError> {
    match (moves, sfen) {
        (Some(_), Some(_)) => Err(OptionError::MovesAndSfen),
        (None, Some(_)) if !matches!(start.trim(), "" | "startpos") => Err(OptionError::StartAndSfen),
        (None, Some(sfen)) => {
            let target = Target::from_sfen(sfen)?;
            check_variant(variant, "the SFEN", target.position.variant())?;
            Ok(target)
        }
        (moves, None) => {
            let moves = moves.unwrap_or("");
            let given = !matches!(start.trim(), "" | "startpos");
            let from = start_for(start, variant, moves)?;
            Target::from_moves_given(&from, given, moves).map_err(|error| {
                let hint = match &error {
                    TargetError::Moves(_) if from.variant() == Variant::Standard => {
                        start_hint(moves, given.then_some(start), handicap)
                    }
                    _ => None,
                };
                match hint {
                    Some(hint) => OptionError::OtherStart { error, hint },
                    None => OptionError::Target(error),
                }
            })
        }
    }
}

/// The other start from which `moves` can be played, when a handicap is in question: the
/// start of `handicap` (a filter) when the moves start from the even game's (`start` is
/// `None`), or the even start when `start` names a handicap. A handicap game starts from its
/// own position, so moves written for one start are often given from the other.
fn start_hint(moves: &str, start: Option<&str>, handicap: Option<Handicap>) -> Option<StartHint> {
    let plays = |from: Position| Target::from_moves(&from, moves).is_ok();
    let not_even = |h: Option<Handicap>| h.filter(|&h| h != Handicap::Even);
    match start {
        None => not_even(handicap).filter(|&h| plays(Position::handicap(h))).map(StartHint::Handicap),
        Some(start) => {
            not_even(Handicap::from_name(start)).filter(|_| plays(Position::startpos())).map(StartHint::Even)
        }
    }
}

/// Where moves start: `start` (an SFEN, `startpos` or a handicap name, as [`start_position`]
/// reads it) in the game `variant` names. Without `variant`, `startpos` is the start of the
/// game the moves show: yari shogi's when one of them names a yari piece (`YB-3b`), else
/// shogi's; an SFEN shows its game by its width.
///
/// # Errors
///
/// A start that is none of those, or a position of another game than `variant`.
pub fn start_for(start: &str, variant: Option<Variant>, moves: &str) -> Result<Position, OptionError> {
    if matches!(start.trim(), "" | "startpos") {
        let yari = || MoveTokens::new(moves).any(|(word, _)| western::names_yari_piece(word));
        let shown = if yari() { Variant::Yari } else { Variant::Standard };
        return Ok(Position::start(variant.unwrap_or(shown)));
    }
    let position = start_position(start).map_err(OptionError::Start)?;
    check_variant(variant, "the start", position.variant())?;
    Ok(position)
}

/// Fits the games `filter` keeps to the game of `target`'s position: positions of one game are
/// never reached in another, so a filter on the position's own game is dropped (it would cost
/// a look at every game and keep them all).
///
/// # Errors
///
/// [`OptionError::OtherVariant`] when the filter asks for games of another game than the
/// position's, and [`OptionError::NoHandicaps`] for a handicap filter on a game that has none.
pub fn fit_variant(target: &Target, filter: &mut GameFilter) -> Result<(), OptionError> {
    let variant = target.position.variant();
    check_variant(filter.variant.take(), "the position asked about", variant)?;
    filter.handicap.map_or(Ok(()), |handicap| check_handicap(handicap, variant))
}

/// Refuses a handicap filter for a game that has none: it would keep no game.
fn check_handicap(handicap: Handicap, variant: Variant) -> Result<(), OptionError> {
    match variant {
        Variant::Standard => Ok(()),
        _ => Err(OptionError::NoHandicaps { handicap, variant }),
    }
}

fn check_variant(asked: Option<Variant>, what: &'static str, found: Variant) -> Result<(), OptionError> {
    match asked {
        Some(asked) if asked != found => Err(OptionError::OtherVariant { asked, what, found }),
        _ => Ok(()),
    }
}

fn handicap_names() -> String {
    Handicap::ALL.iter().map(|h| format!("{} ({})", h.japanese(), h.slug())).collect::<Vec<_>>().join(", ")
}

/// Checks that `text` is a date of the calendar, as precise as wanted: `YYYY`, `YYYY-MM` or
/// `YYYY-MM-DD`. The error says what is wrong.
fn check_date(text: &str) -> Result<(), String> {
    let parts: Vec<&str> = text.split('-').collect();
    let well_formed = parts.len() <= 3
        && parts.iter().zip([4, 2, 2]).all(|(p, w)| p.len() == w && p.bytes().all(|b| b.is_ascii_digit()));
    if !well_formed {
        return Err("write it with digits as YYYY, YYYY-MM or YYYY-MM-DD".to_string());
    }
    let number = |i: usize| parts.get(i).and_then(|p| p.parse::<u32>().ok());
    let (year, month, day) = (number(0).unwrap_or(0), number(1), number(2));
    if let Some(month) = month {
        if !(1..=12).contains(&month) {
            return Err(format!("there is no month {month}"));
        }
        if let Some(day) = day {
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
            let days = match month {
                2 if leap => 29,
                2 => 28,
                4 | 6 | 9 | 11 => 30,
                _ => 31,
            };
            if day == 0 {
                return Err("there is no day 0".to_string());
            }
            if day > days {
                return Err(format!("{year:04}-{month:02} has {days} days"));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_values_are_no_filter() {
        let blank = GameFilter {
            player: Some("　".into()),
            event: Some(String::new()),
            since: Some(String::new()),
            until: Some(" ".into()),
            ..GameFilter::default()
        };
        let filter = filter_from_text(blank, Some(""), Some(" ")).unwrap();
        assert!(filter.is_empty(), "{filter:?}");
    }

    #[test]
    fn text_of_nothing_but_spaces_filters_nothing() {
        for blank in ["", " ", "  ", "\u{3000}", " \t "] {
            let given = GameFilter {
                player: Some(blank.into()),
                black: Some(blank.into()),
                white: Some(blank.into()),
                event: Some(blank.into()),
                opening: Some(blank.into()),
                ..GameFilter::default()
            };
            assert!(filter_from_text(given, None, None).unwrap().is_empty(), "{blank:?}");
        }
        let given = GameFilter { player: Some(" 羽生 ".into()), ..GameFilter::default() };
        assert_eq!(filter_from_text(given, None, None).unwrap().player.as_deref(), Some(" 羽生 "));
    }

    #[test]
    fn dates_are_dates_of_the_calendar() {
        for ok in ["2019", "2019-02", "2019-02-28", "2020-02-29", "2000-02-29", "1999-12-31", "2019-04-30"] {
            assert_eq!(check_date(ok), Ok(()), "{ok}");
        }
        for (bad, why) in [
            ("2019-13", "there is no month 13"),
            ("2019-00", "there is no month 0"),
            ("2019-02-30", "2019-02 has 28 days"),
            ("1900-02-29", "1900-02 has 28 days"),
            ("2019-04-31", "2019-04 has 30 days"),
            ("2019-01-00", "there is no day 0"),
        ] {
            assert_eq!(check_date(bad), Err(why.to_string()), "{bad}");
        }
        for bad in ["19", "2019-2", "2019/02", "2019-02-03T10", "twenty", "", "2019--01", "-2019"] {
            assert!(check_date(bad).is_err(), "{bad}");
        }
    }

    /// A front end's spelling of the options, for the tests: upper case.
    fn shouted(option: QueryOption) -> String {
        option.name().to_uppercase()
    }

    #[test]
    fn dates_are_read_without_spaces_around_them_and_in_full_width_digits() {
        for (given, read) in
            [(" 2014", "2014"), ("2014-06\u{3000}", "2014-06"), ("２０１９－０６－０１", "2019-06-01")]
        {
            let filter =
                GameFilter { since: Some(given.into()), until: Some(given.into()), ..GameFilter::default() };
            let filter = filter_from_text(filter, None, None).unwrap();
            assert_eq!((filter.since.as_deref(), filter.until.as_deref()), (Some(read), Some(read)));
        }
        let inner = GameFilter { since: Some("2014 06".into()), ..GameFilter::default() };
        assert!(filter_from_text(inner, None, None).is_err(), "a space inside a date is no date");
    }

    #[test]
    fn refusals_name_the_option_and_the_text() {
        let since = GameFilter { since: Some("last year".into()), ..GameFilter::default() };
        let e = filter_from_text(since, None, None).unwrap_err();
        assert!(
            matches!(&e, OptionError::Date { option: QueryOption::Since, value, .. } if value == "last year")
        );
        assert_eq!(
            e.to_string(),
            "since 'last year' is not a date: write it with digits as YYYY, YYYY-MM or YYYY-MM-DD (dates are like 2019, 2019-04 or 2019-04-01)"
        );
        let until = GameFilter { until: Some("2019-13".into()), ..GameFilter::default() };
        assert!(
            filter_from_text(until, None, None).unwrap_err().message(&shouted).starts_with("UNTIL '2019-13'")
        );
        let handicap = filter_from_text(GameFilter::default(), Some("queen"), None).unwrap_err();
        assert!(
            handicap
                .to_string()
                .starts_with("handicap 'queen' is not a handicap; the names are 平手 (even), 香落ち (lance)"),
            "{handicap}"
        );
        assert!(handicap.message(&shouted).starts_with("HANDICAP 'queen'"), "{handicap}");
        assert_eq!(
            parse_result("won").unwrap_err().message(&shouted),
            "RESULT 'won' is not one of black, white, draw, other (or unknown)"
        );
        assert_eq!(parse_result("other").unwrap(), Some(GameResult::Unknown));
        assert_eq!(parse_result(" White ").unwrap(), Some(GameResult::WhiteWin));
        assert_eq!(parse_result("ｂｌａｃｋ\u{3000}").unwrap(), Some(GameResult::BlackWin));
        for blank in ["", " ", "\u{3000}"] {
            assert_eq!((parse_result(blank).unwrap(), parse_variant(blank).unwrap()), (None, None));
        }
        assert_eq!(
            parse_by("month").unwrap_err().to_string(),
            "by 'month' is not a breakdown; the only one is year"
        );
        let both = target_from_text(Some("7g7f"), Some("startpos"), "", None, None).unwrap_err();
        assert!(matches!(both, OptionError::MovesAndSfen));
        assert_eq!(both.message(&shouted), "MOVES and SFEN cannot be given together");
        let even = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        let start_too = target_from_text(None, Some(even), "香落ち", None, None).unwrap_err();
        assert!(matches!(start_too, OptionError::StartAndSfen));
        assert!(target_from_text(None, Some(even), "startpos", None, None).is_ok());
        let start = target_from_text(None, None, "queen", None, None).unwrap_err();
        assert_eq!(start.to_string(), "start 'queen' is no SFEN, startpos or handicap name");
        assert_eq!(start.message(&shouted), "START 'queen' is no SFEN, startpos or handicap name");
        // One with a board is an SFEN with a mistake, which is named, as --sfen names it.
        let zero = target_from_text(None, None, "9/9/9/9/9/9/9/9/9 b - 0", None, None).unwrap_err();
        assert_eq!(
            zero.to_string(),
            "start '9/9/9/9/9/9/9/9/9 b - 0' is not an SFEN: the move number '0' is not a number from 1 to 4294967295"
        );
        // A long one is quoted in part, as moves are.
        let long = target_from_text(None, None, &"q".repeat(1000), None, None).unwrap_err();
        assert_eq!(
            long.to_string(),
            format!("start '{}…' is no SFEN, startpos or handicap name", "q".repeat(32))
        );
        // The start the moves name and the one given differ: the message names the option.
        let two =
            target_from_text(Some("position startpos moves 7g7f"), None, "lance", None, None).unwrap_err();
        assert!(two.message(&shouted).ends_with(", and START names another"), "{two}");
    }

    #[test]
    fn the_game_is_the_one_asked_for_or_the_one_the_position_shows() {
        // By hand: from yari shogi's start, Black's pawn 7g-7f and White's 3c-3d.
        let after = "rnnkbbr/7/pppp1pp/4p2/7/P6/1PPPPPP/7/RBBKNNR b - 3";
        let asked = target_from_text(Some("P-7f P-3d"), None, "startpos", Some(Variant::Yari), None).unwrap();
        assert_eq!(asked.position.sfen(), after);
        let shown = target_from_text(Some("P-7f P-3d P-2f YN-5b"), None, "", None, None).unwrap();
        assert_eq!(shown.position.variant(), Variant::Yari);
        let shogi = target_from_text(Some("P-7f P-3d"), None, "startpos", None, None).unwrap();
        assert_eq!(
            shogi.position.sfen(),
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
        );
        assert!(target_from_text(Some("YN-5b"), None, "startpos", Some(Variant::Standard), None).is_err());
        assert_eq!(
            target_from_text(None, Some(after), "", Some(Variant::Standard), None).unwrap_err().to_string(),
            "variant standard was given, but the SFEN is a position of yari shogi"
        );
        assert_eq!(
            target_from_text(None, None, "lance", Some(Variant::Yari), None).unwrap_err().message(&shouted),
            "VARIANT yari was given, but the start is a position of shogi"
        );
        let mut filter = GameFilter { variant: Some(Variant::Yari), ..GameFilter::default() };
        fit_variant(&asked, &mut filter).unwrap();
        assert!(filter.is_empty(), "the position's own game filters nothing");
        let mut filter = GameFilter { variant: Some(Variant::Yari), ..GameFilter::default() };
        assert!(matches!(fit_variant(&shogi, &mut filter), Err(OptionError::OtherVariant { .. })));
        assert_eq!(
            filter_from_text(GameFilter::default(), None, Some("chess")).unwrap_err().to_string(),
            "variant 'chess' is not a game kifudex knows: standard or yari"
        );
    }
}
