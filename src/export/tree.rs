//! The opening tree export: one row per position and move, for every position the games
//! reach up to a given ply; with counts by year, one row per position, move and year.
//!
//! Positions come in the index's order (the key as SQLite's signed integer, so `8000…` comes
//! first and `7fff…` last), each once however many move orders
//! reach it, so the export streams at bounded memory whatever the size of the database; the
//! `ply` column (the lowest ply the position is reached at) lets a reader sort by depth.
//! Counts cover every occurrence in the games the filter keeps, at any ply, exactly as a
//! query of that position would give them. By year, each game counts in the year of the
//! record shown for it (see [`crate::query::years`]), and a row's counts are those of that
//! year's games: `games` those that reach the position, `played` and the results those that
//! played the move, `reached` those that reach the position after it.

use std::{collections::HashMap, io::Write};

use super::{
    Error, Options, Table,
    sink::{Cell, Output},
};
use crate::{
    db::{GameFilter, GameId, PositionStats, Snapshot},
    notation::{Style, write},
    query::years::{self, UNKNOWN_YEAR},
    shogi::{Position, Setup},
};

/// The columns of the tree export. `sfen` carries the move number of the lowest ply the
/// position is reached at (`ply`). `games` counts the games that reach the position;
/// `played` those that played the move from it; `reached` those that reach the position after
/// the move by any order; the results are those of the games that played the move. By year,
/// a `year` column follows (empty for games without a date).
pub const TREE_COLUMNS: [&str; 12] = [
    "sfen",
    "key",
    "ply",
    "games",
    "usi",
    "japanese",
    "western",
    "played",
    "reached",
    "black_wins",
    "white_wins",
    "draws",
];

/// Writes the tree export of the positions reached up to `max_ply` in the games `filter`
/// keeps to `out`, as CSV. Returns the rows written.
///
/// # Errors
///
/// A database failure, a stored game that does not replay, or a write error.
pub fn tree(
    snapshot: &Snapshot<'_>,
    filter: &GameFilter,
    max_ply: u32,
    out: impl Write,
) -> Result<u64, Error> {
    let options = Options { max_ply, by_year: false };
    super::csv(snapshot, Table::Tree, filter, &options, out, &mut |_, _| {})
}

/// The rows of the tree export.
pub(super) fn tree_rows<W: Write>(
    snapshot: &Snapshot<'_>,
    filter: &GameFilter,
    options: &Options,
    out: &mut Output<W>,
) -> Result<(), Error> {
    let games = snapshot.filter_games(filter)?;
    let years: Option<HashMap<GameId, String>> = if options.by_year {
        let ids = snapshot.game_ids(filter)?;
        Some(years::years_of(snapshot, &ids, filter)?)
    } else {
        None
    };
    snapshot.for_each_position(
        options.max_ply,
        games.as_ref(),
        |setup, stats, ply| -> Result<bool, Error> {
            if stats.moves.is_empty() {
                return Ok(true);
            }
            let pos = Position::from_setup(setup.clone()).map_err(|_| {
                crate::db::Error::from(crate::db::Corrupt("an indexed position is not legal"))
            })?;
            let (sfen, key, ply) = (setup.to_string(), pos.key().0, i64::from(ply));
            let notations: Vec<(String, String, String)> = stats
                .moves
                .iter()
                .map(|m| {
                    (
                        m.mv.to_string(),
                        write(&pos, m.mv, None, Style::Japanese),
                        write(&pos, m.mv, None, Style::Western),
                    )
                })
                .collect();
            let Some(years) = &years else {
                for (m, (usi, japanese, western)) in stats.moves.iter().zip(&notations) {
                    out.row(&[
                        Cell::Text(&sfen),
                        Cell::Key(key),
                        Cell::Int(ply),
                        count(stats.games.games),
                        Cell::Text(usi),
                        Cell::Text(japanese),
                        Cell::Text(western),
                        count(m.played.games),
                        count(m.reached),
                        count(m.played.black_wins),
                        count(m.played.white_wins),
                        count(m.played.draws),
                    ])?;
                }
                return Ok(true);
            };
            let by = by_year(snapshot, setup, stats, games.as_ref(), years)?;
            for (i, (m, (usi, japanese, western))) in stats.moves.iter().zip(&notations).enumerate() {
                for (year, t) in &by.moves[i] {
                    let reached = by.reached[i].get(year).map_or(0, |t| t.games);
                    let reaching = by.position.get(year).map_or(0, |t| t.games);
                    let year_cell = if year == UNKNOWN_YEAR {
                        Cell::Null
                    } else {
                        year.parse().map_or(Cell::Null, Cell::Int)
                    };
                    out.row(&[
                        Cell::Text(&sfen),
                        Cell::Key(key),
                        Cell::Int(ply),
                        count(reaching),
                        Cell::Text(usi),
                        Cell::Text(japanese),
                        Cell::Text(western),
                        count(t.games),
                        count(reached),
                        count(t.black_wins),
                        count(t.white_wins),
                        count(t.draws),
                        year_cell,
                    ])?;
                    let _ = m;
                }
            }
            Ok(true)
        },
    )?;
    Ok(())
}

fn count(n: u64) -> Cell<'static> {
    Cell::Int(n as i64)
}

/// A position's counts by year: the games that reach it, and for each move those that played
/// it and those that reach the position after it.
struct TreeYears {
    position: years::Years,
    moves: Vec<years::Years>,
    reached: Vec<years::Years>,
}

fn by_year(
    snapshot: &Snapshot<'_>,
    setup: &Setup,
    stats: &PositionStats,
    games: Option<&std::collections::HashSet<GameId>>,
    years: &HashMap<GameId, String>,
) -> Result<TreeYears, Error> {
    let occ = snapshot.exact_occurrences(setup, games)?;
    let order: Vec<_> = stats.moves.iter().map(|m| m.mv).collect();
    let counted = years::by_year(&occ, &order, years);
    let mut reached = Vec::with_capacity(order.len());
    for &mv in &order {
        let mut child = setup.clone();
        child.play_legal(mv);
        reached.push(years::games_by_year(&snapshot.exact_occurrences(&child, games)?, years));
    }
    Ok(TreeYears { position: counted.position, moves: counted.moves, reached })
}
