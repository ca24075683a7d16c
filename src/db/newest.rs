//! The game list of a query: the newest of a set of games, each with the record shown for it.
//!
//! Each game is listed with one of its records, the first in path order that matches the
//! filter's record conditions (see [`GameFilter`]), and the list is ordered by that record's
//! date, newest first, then by id, highest first; games without a date come last.
//!
//! Few games are looked up directly. Many are found by walking the records in date order,
//! newest first, until the list is settled: a game met for the first time at date `d` shows
//! a record dated `d` or earlier, and every game not met yet shows one dated no later than
//! the walk's place, so once `limit` games show records that sort before that place, no other
//! game can come before them.

use std::{collections::BinaryHeap, rc::Rc};

use rusqlite::{params_from_iter, types::Value, vtab::array::Array};

use super::{
    GameId, Result,
    filter::{Conditions, GameFilter},
    read::{GAME_COLUMNS, GameRow, RECORD_JOINS, Snapshot, game_row},
};

/// Where a game sorts in the list: by date, then id, both descending (so the greatest key
/// comes first).
type SortKey = (Option<String>, GameId);

impl Snapshot<'_> {
    /// The list entries of `ids` (sorted, without repeats), newest first, at most `limit`,
    /// each with the record `filter` shows for it (see the module documentation).
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn newest_games(&self, ids: &[GameId], filter: &GameFilter, limit: usize) -> Result<Vec<GameRow>> {
        if ids.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        // About as many records as games ever stored (a count would read them all).
        let records: i64 = self.tx.query_row("SELECT ifnull(max(id), 0) FROM games", [], |r| r.get(0))?;
        // Walking reads about limit × records / ids rows, looking up reads ids rows.
        let (k, limit_n) = (ids.len() as u128, limit as u128);
        // The ids are the games the filter keeps: only its record conditions choose the record.
        let records_only = GameFilter { result: None, handicap: None, ..filter.clone() };
        let c = Conditions::new(&self.tx, &records_only, "s", "g")?;
        let mut rows = if k * k > limit_n * records.max(1) as u128 {
            self.walk(ids, &c, limit)?
        } else {
            self.look_up(ids, &c)?
        };
        rows.sort_by(|a, b| (&b.date, b.id).cmp(&(&a.date, a.id)));
        rows.truncate(limit);
        Ok(rows)
    }

    /// The shown record of each of `ids`, in no particular order.
    fn look_up(&self, ids: &[GameId], c: &Conditions) -> Result<Vec<GameRow>> {
        let array: Array = Rc::new(ids.iter().map(|id| Value::Integer(id.0)).collect());
        let mut stmt = self.tx.prepare(&format!(
            "SELECT {GAME_COLUMNS} FROM sources s JOIN files f ON f.id = s.file
               JOIN games g ON g.id = s.game {RECORD_JOINS}
             WHERE s.game IN rarray(?{}){} ORDER BY s.game, f.path, s.idx",
            c.next_arg(),
            c.record
        ))?;
        let mut rows = stmt.query(params_from_iter(c.args_with(&[&array])))?;
        let mut out: Vec<GameRow> = Vec::new();
        while let Some(r) = rows.next()? {
            let row = game_row(r)?;
            if out.last().is_none_or(|last| last.id != row.id) {
                out.push(row);
            }
        }
        Ok(out)
    }

    /// The newest `limit` of `ids` (at least), found by walking the records by date.
    fn walk(&self, ids: &[GameId], c: &Conditions, limit: usize) -> Result<Vec<GameRow>> {
        // Every record is walked, whether it matches or not: a game's shown record is dated
        // no later than any of its records met first, so the order argument holds all the same,
        // and the walk reads the date index alone.
        let mut walk = self.tx.prepare("SELECT game, date FROM sources ORDER BY date DESC, game DESC")?;
        let mut shown = self.tx.prepare(&format!(
            "SELECT {GAME_COLUMNS} FROM sources s JOIN files f ON f.id = s.file
               JOIN games g ON g.id = s.game {RECORD_JOINS}
             WHERE s.game = ?{}{} ORDER BY f.path, s.idx LIMIT 1",
            c.next_arg(),
            c.record
        ))?;
        let mut met = std::collections::HashSet::new();
        let mut pending: BinaryHeap<SortKey> = BinaryHeap::new();
        let mut rows = std::collections::HashMap::new();
        let mut settled: Vec<GameId> = Vec::new();
        let mut records = walk.query([])?;
        while settled.len() < limit {
            let Some(r) = records.next()? else {
                break;
            };
            let place: SortKey = (r.get(1)?, r.get(0)?);
            if ids.binary_search(&place.1).is_ok() && met.insert(place.1) {
                let row = shown.query_row(params_from_iter(c.args_with(&[&place.1])), game_row)?;
                pending.push((row.date.clone(), row.id));
                rows.insert(row.id, row);
            }
            while pending.peek().is_some_and(|top| *top > place) {
                settled.extend(pending.pop().map(|(_, id)| id));
            }
        }
        settled.extend(std::iter::from_fn(|| pending.pop().map(|(_, id)| id)));
        Ok(settled.into_iter().take(limit).filter_map(|id| rows.remove(&id)).collect())
    }
}
