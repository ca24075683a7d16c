//! The games a filter keeps, without a position: `kifudex games`.
//!
//! Every game the filter keeps is listed once, with the record shown for it (the first in
//! path order that the filter matches; see [`GameFilter`]), newest first by that record's
//! date, exactly as the game list of a position query orders its games.

use serde_json::json;

use crate::db::{self, GameFilter, GameRow, RecordDetails, Snapshot};

/// A listed game: its list entry and more of the record shown for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedRecord {
    pub game: GameRow,
    pub details: RecordDetails,
}

/// The games a filter keeps: how many, and the listed ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameList {
    /// Games the filter keeps.
    pub total: u64,
    /// The newest of them after the first `offset`, at most `limit`.
    pub games: Vec<ListedRecord>,
}

/// The columns of the game list in tables and CSV.
pub const GAME_LIST_COLUMNS: [&str; 11] =
    ["id", "date", "event", "black", "white", "result", "termination", "plies", "opening", "site", "path"];

/// The games `filter` keeps, newest first, the first `offset` left out, at most `limit`.
///
/// # Errors
///
/// Any database failure.
pub fn list(
    snapshot: &Snapshot<'_>,
    filter: &GameFilter,
    offset: usize,
    limit: usize,
) -> Result<GameList, db::Error> {
    let ids = snapshot.game_ids(filter)?;
    let rows = snapshot.newest_records(&ids, filter, offset, limit)?;
    let records: Vec<i64> = rows.iter().map(|&(_, record)| record).collect();
    let mut details = snapshot.record_details(&records)?;
    let games = rows
        .into_iter()
        .map(|(game, record)| ListedRecord { game, details: details.remove(&record).unwrap_or_default() })
        .collect();
    Ok(GameList { total: ids.len() as u64, games })
}

impl ListedRecord {
    /// The fields of [`GAME_LIST_COLUMNS`], as text (empty when unknown).
    pub fn fields(&self) -> [String; 11] {
        let (g, d) = (&self.game, &self.details);
        let text = |v: &Option<String>| v.clone().unwrap_or_default();
        [
            g.id.to_string(),
            text(&g.date),
            text(&g.event),
            text(&g.black),
            text(&g.white),
            g.result.name().to_string(),
            text(&d.termination),
            d.plies.to_string(),
            text(&d.opening),
            text(&d.site),
            d.path.clone(),
        ]
    }
}

/// The list as one line of JSON, without a newline: `{"total": N, "games": [{"id", "date",
/// "event", "black", "white", "result", "termination", "plies", "opening", "site", "path"},
/// …]}`.
pub fn to_json(list: &GameList) -> String {
    let games: Vec<_> = list
        .games
        .iter()
        .map(|r| {
            let (g, d) = (&r.game, &r.details);
            json!({
                "id": g.id.0, "date": g.date, "event": g.event, "black": g.black, "white": g.white,
                "result": g.result.name(), "termination": d.termination, "plies": d.plies,
                "opening": d.opening, "site": d.site, "path": d.path,
            })
        })
        .collect();
    json!({ "total": list.total, "games": games }).to_string()
}
