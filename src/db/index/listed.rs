//! The newest games of hot positions: for each hot key, the games a query lists first, so
//! that the list of a position thousands of games reach costs the same as its counts.
//!
//! A list (`hot_newest`, with its cut in `hot_listed`) holds exactly the live games that reach
//! the position `keypos` stores for the key and sort at or before the cut, in the order of a
//! query's list (see [`crate::db::newest`]): by the date of the record shown for each game,
//! newest first, then by id. Each row keeps the date the game sorts by and the first ply at
//! which it is there. The writer keeps that true in the transaction that changes the games:
//! - a new game that sorts at or before the cut goes on;
//! - a deleted game comes off;
//! - a game that gains or loses a record, and with it maybe its shown record and date, comes
//!   off and goes on again by its new date;
//! - a list longer than [`LISTED`] is cut at its [`LISTED`]th game, and one that deletions made
//!   shorter than half that is made again from the postings, as is the list of a key made hot.
//!
//! A reader answers from the list alone when it holds every game of the key, or enough of
//! them for the page asked; otherwise from the postings, as for a key without a list.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, params};

use super::lookup::{Occurrence, first_plies};
use crate::db::{
    GameFilter, GameId, Result,
    filter::Conditions,
    newest::{SortKey, look_up, newest_shown},
};

/// The games a list keeps at most: a few pages of a query's list.
pub const LISTED: usize = 50;

/// The changes to the lists not yet written, by key.
#[derive(Debug, Default)]
pub(super) struct Lists {
    changes: HashMap<i64, Changes>,
}

#[derive(Debug, Default)]
struct Changes {
    /// Games to take off the list.
    off: Vec<GameId>,
    /// Games that go on it if they sort at or before its cut, each with its first ply there.
    on: Vec<(GameId, u32)>,
}

impl Lists {
    /// Takes `game` off the list of `key` (when it is there).
    pub fn take_off(&mut self, key: i64, game: GameId) {
        self.changes.entry(key).or_default().off.push(game);
    }

    /// Puts `game`, first at `key` at ply `ply`, on the list of `key` when it sorts at or
    /// before the cut. Its date is read when the changes are written, from its records then.
    pub fn put_on(&mut self, key: i64, game: GameId, ply: u32) {
        self.changes.entry(key).or_default().on.push((game, ply));
    }

    /// Writes the changes, inside the writer's transaction, once the records of the games
    /// they concern are written: games come off, then go on. Returns the keys whose lists
    /// deletions left too short, to be made again (see [`make`]) once every posting is in a
    /// run.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn write(&mut self, conn: &Connection) -> Result<Vec<i64>> {
        if self.changes.is_empty() {
            return Ok(Vec::new());
        }
        let mut ids: Vec<GameId> = self.changes.values().flat_map(|c| c.on.iter().map(|&(g, _)| g)).collect();
        ids.sort_unstable();
        ids.dedup();
        // A game without records (deleted since it went on) has no date and stays off.
        let c = Conditions::new(conn, &GameFilter::default(), "s", "g")?;
        let dates: HashMap<GameId, Option<String>> =
            look_up(conn, &ids, &c)?.into_iter().map(|((date, game), _)| (game, date)).collect();
        let mut off = conn.prepare_cached("DELETE FROM hot_newest WHERE key = ?1 AND game = ?2")?;
        let mut on = conn.prepare_cached(
            "INSERT OR REPLACE INTO hot_newest(key, game, date, ply) VALUES (?1, ?2, ?3, ?4)",
        )?;
        let mut short = Vec::new();
        for (key, changes) in self.changes.drain() {
            let Some(cut) = cut(conn, key)? else {
                continue;
            };
            for game in changes.off {
                off.execute(params![key, game])?;
            }
            // Only the first LISTED candidates can stay on a list cut at LISTED: a bulk run
            // offers each hot key most of its games, and writes a few.
            let mut candidates: Vec<(&Option<String>, GameId, u32)> = changes
                .on
                .into_iter()
                .filter_map(|(game, ply)| Some((dates.get(&game)?, game, ply)))
                .filter(|&(date, game, _)| cut.as_ref().is_none_or(|cut| (date, game) >= (&cut.0, cut.1)))
                .collect();
            candidates.sort_unstable_by(|a, b| b.cmp(a));
            candidates.dedup_by_key(|&mut (_, game, _)| game);
            for &(date, game, ply) in candidates.iter().take(LISTED) {
                on.execute(params![key, game, date, ply])?;
            }
            let listed = trim(conn, key)?;
            if listed < LISTED / 2 && cut.is_some() {
                short.push(key);
            }
        }
        Ok(short)
    }
}

/// The cut of the list of `key`: `None` when the key has no list, `Some(None)` when its list
/// holds every game of the key.
fn cut(conn: &Connection, key: i64) -> Result<Option<Option<SortKey>>> {
    let mut stmt = conn.prepare_cached("SELECT cut_date, cut_game FROM hot_listed WHERE key = ?1")?;
    Ok(stmt
        .query_row([key], |r| {
            let (date, game): (Option<String>, Option<GameId>) = (r.get(0)?, r.get(1)?);
            Ok(game.map(|game| (date, game)))
        })
        .optional()?)
}

/// Cuts the list of `key` at its [`LISTED`]th game when it is longer. Returns its length.
fn trim(conn: &Connection, key: i64) -> Result<usize> {
    let mut rows: Vec<SortKey> = conn
        .prepare_cached("SELECT date, game FROM hot_newest WHERE key = ?1")?
        .query_map([key], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    if rows.len() <= LISTED {
        return Ok(rows.len());
    }
    rows.sort_unstable_by(|a, b| b.cmp(a));
    let mut off = conn.prepare_cached("DELETE FROM hot_newest WHERE key = ?1 AND game = ?2")?;
    for (_, game) in &rows[LISTED..] {
        off.execute(params![key, game])?;
    }
    let (date, game) = &rows[LISTED - 1];
    conn.prepare_cached("UPDATE hot_listed SET cut_date = ?2, cut_game = ?3 WHERE key = ?1")?
        .execute(params![key, date, game])?;
    Ok(LISTED)
}

/// Makes the list of `key` from `occ`, the occurrences of exactly its stored position (sorted
/// by game and ply), every posting in a run and every record written.
///
/// # Errors
///
/// Any database failure.
pub(super) fn make(conn: &Connection, key: i64, occ: &[Occurrence]) -> Result<()> {
    let first = first_plies(occ);
    let ids: Vec<GameId> = first.iter().map(|&(g, _)| g).collect();
    let c = Conditions::new(conn, &GameFilter::default(), "s", "g")?;
    let mut shown = newest_shown(conn, &ids, &c, LISTED)?;
    shown.sort_unstable_by(|a, b| b.0.cmp(&a.0));
    // Fewer than LISTED found: they are every game there is (a walk stops short only at the
    // end of the records).
    let cut = (shown.len() >= LISTED).then(|| shown[LISTED - 1].0.clone());
    shown.truncate(LISTED);
    conn.prepare_cached("DELETE FROM hot_newest WHERE key = ?1")?.execute([key])?;
    let mut on =
        conn.prepare_cached("INSERT INTO hot_newest(key, game, date, ply) VALUES (?1, ?2, ?3, ?4)")?;
    for ((date, game), _) in &shown {
        let ply =
            first[ids.binary_search(game).map_err(|_| crate::db::Corrupt("a listed game was not asked"))?].1;
        on.execute(params![key, game, date, ply])?;
    }
    let (cut_date, cut_game) = cut.map_or((None, None), |(date, game)| (date, Some(game)));
    conn.prepare_cached("INSERT OR REPLACE INTO hot_listed(key, cut_date, cut_game) VALUES (?1, ?2, ?3)")?
        .execute(params![key, cut_date, cut_game])?;
    Ok(())
}

/// The list of `key` (its games with their first plies, in no particular order), when it
/// holds every game of the key or at least `wanted` of them; `None` otherwise, and when the
/// key has no list.
///
/// # Errors
///
/// Any database failure.
pub(in crate::db) fn read(conn: &Connection, key: i64, wanted: usize) -> Result<Option<Vec<(GameId, u32)>>> {
    let Some(cut) = cut(conn, key)? else {
        return Ok(None);
    };
    let rows: Vec<(GameId, u32)> = conn
        .prepare_cached("SELECT game, ply FROM hot_newest WHERE key = ?1")?
        .query_map([key], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    Ok((cut.is_none() || rows.len() >= wanted).then_some(rows))
}
