//! The game filters `query` and `export` take.

use clap::{Args, ValueEnum};
use kifudex::{
    db::{GameFilter, GameResult},
    query::FilterText,
    shogi::Variant,
};

use super::moves::VariantArg;

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
    /// Games of this game: shogi (standard) or yari shogi. `query` also reads its moves and
    /// start in it (its position is one game's, so only that game's games reach it)
    #[arg(long, value_enum, help_heading = "Filters")]
    variant: Option<VariantArg>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ResultArg {
    Black,
    White,
    Draw,
    Other,
}

impl FilterOpt {
    /// The filter, checked (by the library, so the HTTP API refuses what this refuses).
    pub fn filter(&self) -> anyhow::Result<GameFilter> {
        let text = FilterText {
            player: self.player.clone(),
            black: self.black.clone(),
            white: self.white.clone(),
            event: self.event.clone(),
            since: self.since.clone(),
            until: self.until.clone(),
            result: self.result.map(|r| match r {
                ResultArg::Black => GameResult::BlackWin,
                ResultArg::White => GameResult::WhiteWin,
                ResultArg::Draw => GameResult::Draw,
                ResultArg::Other => GameResult::Unknown,
            }),
            handicap: self.handicap.clone(),
            variant: self.variant.map(|v| Variant::from(v).name().to_string()),
        };
        Ok(text.filter()?)
    }
}
