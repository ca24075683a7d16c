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
    #[error("--{name} '{value}' is not a date like 2019, 2019-04 or 2019-04-01")]
    Date { name: &'static str, value: String },
    #[error("--handicap '{0}' is not a handicap; the names are {names}", names = handicap_names())]
    Handicap(String),
    #[error("--result '{0}' is not one of black, white, draw, other")]
    Result(String),
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

/// The game filters as text. Names and events match on a part; an empty text does not
/// filter; dates are ISO 8601 as precise as wanted (`2019`, `2019-04`, `2019-04-01`).
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
}

impl FilterText {
    /// The filter, checked.
    ///
    /// # Errors
    ///
    /// A date that is not ISO 8601, or a handicap name that names none.
    pub fn filter(&self) -> Result<GameFilter, OptionError> {
        for (name, date) in [("since", &self.since), ("until", &self.until)] {
            if let Some(d) = date.as_ref().filter(|d| !is_iso_date(d)) {
                return Err(OptionError::Date { name, value: d.clone() });
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
            let start = start_position(start).map_err(OptionError::Start)?;
            Ok(Target::from_moves(&start, moves.unwrap_or(""))?)
        }
    }
}

fn handicap_names() -> String {
    Handicap::ALL.iter().map(|h| format!("{} ({})", h.japanese(), h.slug())).collect::<Vec<_>>().join(", ")
}

/// `YYYY`, `YYYY-MM` or `YYYY-MM-DD`.
fn is_iso_date(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    let widths = [4, 2, 2];
    !parts.is_empty()
        && parts.len() <= 3
        && parts.iter().zip(widths).all(|(p, w)| p.len() == w && p.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_iso_8601_as_precise_as_wanted() {
        for good in ["2019", "2019-04", "2019-04-01"] {
            assert!(is_iso_date(good), "{good}");
        }
        for bad in ["", "19", "2019-4", "2019/04", "2019-04-01-01", "２０１９", "2019-04-0a"] {
            assert!(!is_iso_date(bad), "{bad}");
        }
    }

    #[test]
    fn refusals_name_the_flag_and_the_text() {
        let since = FilterText { since: Some("last year".into()), ..FilterText::default() };
        assert_eq!(
            since.filter().unwrap_err().to_string(),
            "--since 'last year' is not a date like 2019, 2019-04 or 2019-04-01"
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
