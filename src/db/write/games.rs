//! Game storage: a game is stored once, however many files hold it, and each file's own
//! record of it (players, event, dates, every raw header, times and comments) is a `sources`
//! row of its own. A new game's postings go to the position index as it is stored; a game
//! that no file holds any more is deleted, and its postings become dead.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, params};

use super::NewGame;
use crate::db::{
    GameId, GameResult, Result,
    index::{IndexWriter, RemovedGame},
};

/// Names kept in each of the player and event caches before it is emptied.
const NAME_CACHE: usize = 16_384;

/// The writer's memory of the names it stored, so that most names cost no query.
#[derive(Debug, Default)]
pub(super) struct GameStore {
    players: HashMap<String, i64>,
    events: HashMap<String, i64>,
}

/// What [`GameStore::store`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Stored {
    /// A new game.
    New,
    /// A stored game with the same result and termination.
    Same,
    /// A stored game that ended otherwise: the result and termination it keeps.
    Differs { result: GameResult, termination: Option<String> },
}

#[derive(Clone, Copy)]
enum Names {
    Players,
    Events,
}

impl GameStore {
    /// The stored game with the same start and moves, or a new one (its postings added to
    /// `index`). Returns its id and what it was.
    pub fn store(
        &mut self,
        conn: &Connection,
        index: &mut IndexWriter,
        g: &NewGame,
    ) -> Result<(GameId, Stored)> {
        {
            let mut probe = conn.prepare_cached(
                "SELECT id, start, moves, result, termination FROM games WHERE movehash = ?1",
            )?;
            let mut rows = probe.query([g.movehash])?;
            while let Some(row) = rows.next()? {
                let start = row.get_ref(1)?.as_str_or_null()?;
                let moves = row.get_ref(2)?.as_blob()?;
                if start == g.start.as_deref() && moves == g.moves.as_slice() {
                    let ending = (row.get(3)?, row.get::<_, Option<String>>(4)?);
                    let stored = if ending == (g.result, g.termination.map(String::from)) {
                        Stored::Same
                    } else {
                        Stored::Differs { result: ending.0, termination: ending.1 }
                    };
                    return Ok((row.get(0)?, stored));
                }
            }
        }
        conn.prepare_cached(
            "INSERT INTO games(movehash, start, handicap, variant, plies, moves, end_sfen, result, termination)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        )?
        .execute(params![
            g.movehash,
            g.start,
            g.handicap,
            g.variant,
            g.plies,
            g.moves,
            g.end_sfen,
            g.result,
            g.termination,
        ])?;
        let id = GameId(conn.last_insert_rowid());
        index.add_game(conn, id, g.result, &g.positions)?;
        Ok((id, Stored::New))
    }

    /// Links game `game` to its place in file `file_id`, with the file's own record of it:
    /// players, event, dates and the other headers, times and comments.
    pub fn link(&mut self, conn: &Connection, file_id: i64, game: GameId, g: &NewGame) -> Result<()> {
        let black = g.black.as_ref().map(|p| self.name_id(conn, Names::Players, &p.name)).transpose()?;
        let white = g.white.as_ref().map(|p| self.name_id(conn, Names::Players, &p.name)).transpose()?;
        let event = g.event.as_deref().map(|e| self.name_id(conn, Names::Events, e)).transpose()?;
        conn.prepare_cached(
            "INSERT INTO sources(file, idx, game, line, status, black, black_title, white, white_title,
               event, site, date, end_date, time_control, opening, headers, times, comments)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)",
        )?
        .execute(params![
            file_id,
            g.index,
            game,
            g.line,
            g.status,
            black,
            g.black.as_ref().and_then(|p| p.title.as_deref()),
            white,
            g.white.as_ref().and_then(|p| p.title.as_deref()),
            event,
            g.site,
            g.date,
            g.end_date,
            g.time_control,
            g.opening,
            g.headers,
            g.times,
            g.comments,
        ])?;
        Ok(())
    }

    /// Unlinks the games of file `file`, with its rejects and warnings; a game no other file
    /// holds is deleted, and its postings become dead.
    pub fn unlink_file(&mut self, conn: &Connection, index: &mut IndexWriter, file: i64) -> Result<()> {
        let mut games: Vec<GameId> = conn
            .prepare_cached("SELECT game FROM sources WHERE file = ?1")?
            .query_map([file], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        games.sort_unstable();
        games.dedup();
        conn.prepare_cached("DELETE FROM sources WHERE file = ?1")?.execute([file])?;
        conn.prepare_cached("DELETE FROM rejects WHERE file = ?1")?.execute([file])?;
        conn.prepare_cached("DELETE FROM warnings WHERE file = ?1")?.execute([file])?;
        for game in games {
            let shared: bool = conn
                .prepare_cached("SELECT EXISTS(SELECT 1 FROM sources WHERE game = ?1)")?
                .query_row([game], |r| r.get(0))?;
            if shared {
                // The record shown for it may have been this file's.
                index.records_changed(conn, game)?;
                continue;
            }
            let removed: Option<RemovedGame> = conn
                .prepare_cached("SELECT plies, start, moves, result FROM games WHERE id = ?1")?
                .query_row([game], |r| {
                    Ok(RemovedGame {
                        plies: r.get(0)?,
                        start: r.get(1)?,
                        moves: r.get(2)?,
                        result: r.get(3)?,
                    })
                })
                .optional()?;
            if let Some(removed) = removed {
                // While its row is there: the index may need it to take the game out.
                index.remove_game(conn, game, &removed)?;
                conn.prepare_cached("DELETE FROM games WHERE id = ?1")?.execute([game])?;
            }
        }
        Ok(())
    }

    fn name_id(&mut self, conn: &Connection, table: Names, name: &str) -> Result<i64> {
        let cache = match table {
            Names::Players => &mut self.players,
            Names::Events => &mut self.events,
        };
        if let Some(&id) = cache.get(name) {
            return Ok(id);
        }
        let (select, insert) = match table {
            Names::Players => {
                ("SELECT id FROM players WHERE name = ?1", "INSERT INTO players(name, key) VALUES (?1, ?2)")
            }
            Names::Events => {
                ("SELECT id FROM events WHERE name = ?1", "INSERT INTO events(name, key) VALUES (?1, ?2)")
            }
        };
        let id = match conn.prepare_cached(select)?.query_row([name], |r| r.get(0)).optional()? {
            Some(id) => id,
            None => {
                conn.prepare_cached(insert)?.execute(params![name, crate::name_key::key(name)])?;
                conn.last_insert_rowid()
            }
        };
        if cache.len() >= NAME_CACHE {
            cache.clear();
        }
        cache.insert(name.to_string(), id);
        Ok(id)
    }
}
