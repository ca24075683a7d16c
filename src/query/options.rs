//! Query options given as text, as the command line's flags and the HTTP API's parameters
//! give them. They are checked here, once, so every front end accepts the same input and
//! refuses it with the same words; the words name the command-line flag (`--since`), which
//! the API's parameter of the same name (`since`) mirrors.

use super::{Target, TargetError, start_position};
use crate::{
    db::{GameFilter, GameResult},
    shogi::Handicap,
};

/// Why query options are refused.
#[derive(Debug, thiserror::Error)]
pub enum OptionError {
    #[error("--{name} '{value}' is not a date: {why} (dates are like 2019, 2019-04 or 2019-04-01)")]
    Date { name: &'static str, value: String, why: String },
    #[error("--handicap '{0}' is not a handicap; the names are {names}", names = handicap_names())]
    Handicap(String),
    #[error("--result '{0}' is not one of black, white, draw, other")]
    Result(String),
    #[error("--by '{0}' is not a breakdown; the only one is year")]
    By(String),
    #[error("--moves and --sfen cannot be given together")]
    MovesAndSfen,
    #[error("--start {0}")]
    Start(TargetError),
    #[error(transparent)]
    Target(#[from] TargetError),
}

/// The result names a filter takes, and the result each keeps (`other`: no winner recorded
/// and no draw).
pub const RESULT_NAMES: [(&str, GameResult); 4] = [
    ("black", GameResult::BlackWin),
    ("white", GameResult::WhiteWin),
    ("draw", GameResult::Draw),
    ("other", GameResult::Unknown),
];

/// The result a filter's result name keeps.
///
/// # Errors
///
/// [`OptionError::Result`] for a name not in [`RESULT_NAMES`].
pub fn parse_result(text: &str) -> Result<GameResult, OptionError> {
    RESULT_NAMES
        .iter()
        .find(|(name, _)| *name == text)
        .map(|&(_, result)| result)
        .ok_or_else(|| OptionError::Result(text.to_string()))
}

/// Whether a `--by` text asks for the breakdown by year (the only one there is).
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

/// The game filters as text. Names, events and openings match on a part, compared without
/// widths, spaces, case or a title after a name (see [`crate::kifu::name_key`]); an empty text
/// does not filter; dates are ISO 8601 as precise as wanted (`2019`, `2019-04`, `2019-04-01`).
#[derive(Clone, Debug, Default)]
pub struct FilterText {
    pub player: Option<String>,
    pub black: Option<String>,
    pub white: Option<String>,
    pub event: Option<String>,
    pub since: Option<String>,
    pub until: Option<String>,
    pub result: Option<GameResult>,
    /// A handicap's Japanese or English name (香落ち, `lance`).
    pub handicap: Option<String>,
    /// Part of the opening (戦型) a record names.
    pub opening: Option<String>,
    /// Aliases of the command's own (alias, name), beside the database's.
    pub aliases: Vec<(String, String)>,
}

impl FilterText {
    /// The filter, checked.
    ///
    /// # Errors
    ///
    /// A date that is not ISO 8601, or a handicap name that names none.
    pub fn filter(&self) -> Result<GameFilter, OptionError> {
        for (name, date) in [("since", &self.since), ("until", &self.until)] {
            if let Some(d) = date {
                check_date(d).map_err(|why| OptionError::Date { name, value: d.clone(), why })?;
            }
        }
        let handicap = match &self.handicap {
            None => None,
            Some(name) => Some(Handicap::from_name(name).ok_or_else(|| OptionError::Handicap(name.clone()))?),
        };
        let text = |v: &Option<String>| v.clone().filter(|s| !s.is_empty());
        Ok(GameFilter {
            player: text(&self.player),
            black: text(&self.black),
            white: text(&self.white),
            event: text(&self.event),
            since: self.since.clone(),
            until: self.until.clone(),
            result: self.result,
            handicap,
            opening: text(&self.opening),
            aliases: self.aliases.clone(),
        })
    }
}

/// The position asked about: `sfen`, or `moves` (any notation) from `start` (an SFEN,
/// `startpos` or a handicap name), or the start itself when neither is given.
///
/// # Errors
///
/// Both `moves` and `sfen`, a start that is none of those, or a position or move that cannot
/// be read or played, in the words of [`TargetError`].
pub fn target_from_text(moves: Option<&str>, sfen: Option<&str>, start: &str) -> Result<Target, OptionError> {
    match (moves, sfen) {
        (Some(_), Some(_)) => Err(OptionError::MovesAndSfen),
        (None, Some(sfen)) => Ok(Target::from_sfen(sfen)?),
        (moves, None) => {
            let given = start.trim() != "startpos";
            let start = start_position(start).map_err(OptionError::Start)?;
            Ok(Target::from_moves_given(&start, given, moves.unwrap_or(""))?)
        }
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
            if !(1..=days).contains(&day) {
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
            ("2019-01-00", "2019-01 has 31 days"),
        ] {
            assert_eq!(check_date(bad), Err(why.to_string()), "{bad}");
        }
        for bad in ["19", "2019-2", "2019/02", "2019-02-03T10", "twenty", "", "2019--01", "-2019"] {
            assert!(check_date(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn refusals_name_the_flag_and_the_text() {
        let since = FilterText { since: Some("last year".into()), ..FilterText::default() };
        assert_eq!(
            since.filter().unwrap_err().to_string(),
            "--since 'last year' is not a date: write it with digits as YYYY, YYYY-MM or YYYY-MM-DD (dates are like 2019, 2019-04 or 2019-04-01)"
        );
        let handicap = FilterText { handicap: Some("queen".into()), ..FilterText::default() };
        assert!(
            handicap.filter().unwrap_err().to_string().starts_with(
                "--handicap 'queen' is not a handicap; the names are 平手 (even), 香落ち (lance)"
            )
        );
        assert_eq!(
            parse_result("won").unwrap_err().to_string(),
            "--result 'won' is not one of black, white, draw, other"
        );
        assert_eq!(parse_result("other").unwrap(), GameResult::Unknown);
        assert!(matches!(
            target_from_text(Some("7g7f"), Some("startpos"), ""),
            Err(OptionError::MovesAndSfen)
        ));
        assert!(
            target_from_text(None, None, "queen").unwrap_err().to_string().starts_with("--start 'queen'")
        );
    }
}
