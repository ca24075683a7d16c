//! The game filters `query` and `export` take.

use anyhow::bail;
use clap::{Args, ValueEnum};
use kifudex::{
    db::{GameFilter, GameResult},
    shogi::Handicap,
};

/// Which games count. Names and events match on a part; dates are ISO 8601 as precise as
/// wanted (`2019`, `2019-04`, `2019-04-01`).
#[derive(Debug, Clone, Args)]
pub struct FilterOpt {
    /// Games with a player (either side) whose name contains NAME
    #[arg(long, value_name = "NAME", help_heading = "Filters")]
    player: Option<String>,
    /// Games whose black player's (先手, 下手) name contains NAME
    #[arg(long, value_name = "NAME", help_heading = "Filters")]
    black: Option<String>,
    /// Games whose white player's (後手, 上手) name contains NAME
    #[arg(long, value_name = "NAME", help_heading = "Filters")]
    white: Option<String>,
    /// Games whose event contains TEXT
    #[arg(long, value_name = "TEXT", help_heading = "Filters")]
    event: Option<String>,
    /// Games played on or after DATE
    #[arg(long, value_name = "DATE", help_heading = "Filters")]
    since: Option<String>,
    /// Games played on or before DATE (a partial date includes all of it: 2019 is up to 2019-12-31)
    #[arg(long, value_name = "DATE", help_heading = "Filters")]
    until: Option<String>,
    /// Games with this result (other: no winner recorded and no draw)
    #[arg(long, value_enum, help_heading = "Filters")]
    result: Option<ResultArg>,
    /// Games from this start: 平手 (even), 香落ち (lance), 角落ち (bishop), 二枚落ち (2-piece), …
    #[arg(long, value_name = "NAME", help_heading = "Filters")]
    handicap: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ResultArg {
    Black,
    White,
    Draw,
    Other,
}

impl FilterOpt {
    /// The filter, checked.
    pub fn filter(&self) -> anyhow::Result<GameFilter> {
        for (name, date) in [("--since", &self.since), ("--until", &self.until)] {
            if let Some(d) = date {
                if let Err(why) = check_date(d) {
                    bail!("{name} '{d}' is not a date: {why} (dates are like 2019, 2019-04 or 2019-04-01)");
                }
            }
        }
        let handicap = match &self.handicap {
            None => None,
            Some(name) => match Handicap::from_name(name) {
                Some(h) => Some(h),
                None => bail!(
                    "--handicap '{name}' is not a handicap; the names are {}",
                    Handicap::ALL
                        .iter()
                        .map(|h| format!("{} ({})", h.japanese(), h.slug()))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            },
        };
        let text = |v: &Option<String>| v.clone().filter(|s| !s.is_empty());
        Ok(GameFilter {
            player: text(&self.player),
            black: text(&self.black),
            white: text(&self.white),
            event: text(&self.event),
            since: self.since.clone(),
            until: self.until.clone(),
            result: self.result.map(|r| match r {
                ResultArg::Black => GameResult::BlackWin,
                ResultArg::White => GameResult::WhiteWin,
                ResultArg::Draw => GameResult::Draw,
                ResultArg::Other => GameResult::Unknown,
            }),
            handicap,
        })
    }
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
}
