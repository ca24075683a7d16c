//! The opening tree export: one row per position and move, for every position the games
//! reach up to a given ply.
//!
//! Positions come in key order (the order of the index), each once however many move orders
//! reach it, so the export streams at bounded memory whatever the size of the database; the
//! `ply` column (the lowest ply the position is reached at) lets a reader sort by depth.
//! Counts cover every occurrence in the games the filter keeps, at any ply, exactly as a
//! query of that position would give them.

use std::io::Write;

use super::{Error, Table};
use crate::{
    db::{GameFilter, Snapshot},
    notation::{Style, write},
    shogi::Position,
};

/// The columns of the tree export. `sfen` carries the move number of the lowest ply the
/// position is reached at (`ply`). `games` counts the games that reach the position;
/// `played` those that played the move from it; `reached` those that reach the position after
/// the move by any order; the results are those of the games that played the move.
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
/// keeps to `out`. Returns the rows written.
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
    let mut table = Table::new(out, &TREE_COLUMNS)?;
    let games = snapshot.filter_games(filter)?;
    snapshot.for_each_position(max_ply, games.as_ref(), |setup, stats, ply| -> Result<bool, Error> {
        if stats.moves.is_empty() {
            return Ok(true);
        }
        let pos = Position::from_setup(setup.clone())
            .map_err(|_| crate::db::Error::from(crate::db::Corrupt("an indexed position is not legal")))?;
        let (sfen, key, ply, reaching) =
            (setup.to_string(), pos.key().to_string(), ply.to_string(), stats.games.games.to_string());
        for m in &stats.moves {
            table.row([
                sfen.as_str(),
                &key,
                &ply,
                &reaching,
                &m.mv.to_string(),
                &write(&pos, m.mv, None, Style::Japanese),
                &write(&pos, m.mv, None, Style::Western),
                &m.played.games.to_string(),
                &m.reached.to_string(),
                &m.played.black_wins.to_string(),
                &m.played.white_wins.to_string(),
                &m.played.draws.to_string(),
            ])?;
        }
        Ok(true)
    })?;
    table.finish()
}
