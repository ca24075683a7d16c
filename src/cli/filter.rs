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
                if !is_iso_date(d) {
                    bail!("{name} '{d}' is not a date like 2019, 2019-04 or 2019-04-01");
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

/// `YYYY`, `YYYY-MM` or `YYYY-MM-DD`.
fn is_iso_date(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    let widths = [4, 2, 2];
    !parts.is_empty()
        && parts.len() <= 3
        && parts.iter().zip(widths).all(|(p, w)| p.len() == w && p.bytes().all(|b| b.is_ascii_digit()))
}
