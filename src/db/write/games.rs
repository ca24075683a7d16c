//! Game storage: a game is stored once, however many files hold it, and each file's own
//! record of it (players, event, dates, every raw header, times and comments) is a `sources`
//! row of its own. A new game's postings go to the position index as it is stored; a game
//! that no file holds any more is deleted, and its postings become dead.
//!
//! A file read again (it changed) keeps the games it still holds: those that no other file
//! holds wait, unlinked, until the batch is committed, and one found again with the same
//! moves and ending, in that file or in another file of the batch (a game moved, two files
//! swapped), keeps its id, its postings and its counts. Those no file holds by then are
//! deleted ([`GameStore::settle`]).
//!
//! A game ends as its first record that says how it ended does (a result or a termination):
//! the first in the order of its file's path, then of its place in the file, whatever order
//! the files were indexed in. A record that ends otherwise keeps its own ending, and has a
//! `duplicate_ending_differs` warning when it says one (a record that says nothing, a bare
//! move list, contradicts nothing). When that first record goes, or one comes before it, and
//! the game's ending changes with it, the game is stored again under a new id: its postings
//! and the counts of hot positions carry its result.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, params};

use super::{NewGame, NewWarning, files::insert_warning};
use crate::db::{
    GameId, GameResult, Result,
    codec::decode_moves,
    index::{IndexWriter, RemovedGame},
    new_game::start_identity,
    read::start_setup,
    signature::{Signature, moves_tell_apart},
};

/// Names kept in each of the player and event caches before it is emptied.
const NAME_CACHE: usize = 16_384;

/// The warning of a record that ends otherwise than its game.
const ENDING_DIFFERS: &str = "duplicate_ending_differs";

/// The writer's memory of the names it stored, so that most names cost no query.
#[derive(Debug, Default)]
pub(super) struct GameStore {
    players: HashMap<String, i64>,
    events: HashMap<String, i64>,
    /// The games of the files read again in the batch that no other file holds, not found
    /// again yet.
    waiting: Waiting,
    /// The records of each game that the files read again in the batch held, not found
    /// again yet: a record found again is a game kept, not a duplicate.
    unlinked: HashMap<GameId, u32>,
    /// The games that lost records in the batch and that other files still hold: the first
    /// of their records that says an ending may say another now ([`GameStore::settle`]).
    lost_records: Vec<GameId>,
    /// The highest game id committed before the batch: a game above it is the batch's own.
    committed: i64,
    /// Games deleted because no file holds them any more.
    removed: u64,
    /// Games committed before the batch and stored again under a new id because their ending
    /// changed with their records.
    renumbered: u64,
}

/// Why a file's games are unlinked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Unlink {
    /// The file is read again: the games only it holds wait for its records.
    ReadAgain,
    /// The file is gone, or holds no record any more.
    Gone,
}

/// How a game or a record ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Ending {
    pub result: GameResult,
    pub termination: Option<String>,
}

impl Ending {
    fn of(g: &NewGame) -> Ending {
        Ending { result: g.result, termination: g.termination.map(String::from) }
    }

    /// Whether the record says how the game ended: a result, or a termination.
    fn said(&self) -> bool {
        self.result != GameResult::Unknown || self.termination.is_some()
    }
}

impl std::fmt::Display for Ending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.termination {
            Some(t) => write!(f, "{} ({t})", self.result.name()),
            None => f.write_str(self.result.name()),
        }
    }
}

/// What [`GameStore::store`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Stored {
    /// A new game.
    New,
    /// A game that only files read again in the batch held, found again with the same
    /// moves and ending: it keeps its id.
    Kept,
    /// A stored game with the same ending.
    Same,
    /// A stored game that ends otherwise: it keeps its `ending` (that of a record before this
    /// one, or this one says none).
    Differs { ending: Ending },
    /// A stored game that ended otherwise, and whose first record that says an ending this
    /// one now is: the game was stored again with this record's ending, and `warned` of its
    /// other records, which say another, have their warning. `was` is its id before.
    Took { warned: u64, was: GameId },
}

#[derive(Clone, Copy)]
enum Names {
    Players,
    Events,
}

/// The stored game of hash `hash` with the start and moves of `g`, with its ending, and which
/// `g` may be a record of ([`may_be_one`]). A game that files hold comes before one waiting
/// for the records of the files read again: a game whose record changed its ending was
/// stored as a new game, which the other records of those moves join.
fn find(conn: &Connection, g: &NewGame, hash: i64, waiting: &Waiting) -> Result<Option<(GameId, Ending)>> {
    let mut probe =
        conn.prepare_cached("SELECT id, start, moves, result, termination FROM games WHERE movehash = ?1")?;
    let mut rows = probe.query([hash])?;
    let mut waited = None;
    while let Some(row) = rows.next()? {
        let start = row.get_ref(1)?.as_str_or_null()?;
        let moves = row.get_ref(2)?.as_blob()?;
        let same_start = start_identity(start) == start_identity(g.start.as_deref());
        if same_start && moves == g.moves.as_slice() {
            let (id, ending) = (row.get(0)?, Ending { result: row.get(3)?, termination: row.get(4)? });
            if may_be_one(conn, g, id, &ending, waiting)? {
                if !waiting.contains_key(&id) {
                    return Ok(Some((id, ending)));
                }
                waited.get_or_insert((id, ending));
            }
        }
    }
    Ok(waited)
}

/// What a game's records say of it, as any one of them tells (they are all whole or all
/// alike): whether they stopped early, and their [`Signature`].
type Said = (bool, Signature);

/// The games of the files read again that no other file holds, not found again yet, each
/// with what its record there said ([`Said`]).
type Waiting = HashMap<GameId, Said>;

/// What the records of game `id` (which ends as `ending`) say of it, when it has some.
fn said_of(conn: &Connection, id: GameId, ending: &Ending) -> Result<Option<Said>> {
    Ok(conn
        .prepare_cached(
            "SELECT s.status, s.date, b.key, w.key, s.own_result, s.own_termination FROM sources s
             LEFT JOIN players b ON b.id = s.black LEFT JOIN players w ON w.id = s.white
             WHERE s.game = ?1 LIMIT 1",
        )?
        .query_row([id], |row| {
            let partial = row.get_ref(0)?.as_str_or_null()?.is_some();
            let ending = match row.get::<_, Option<GameResult>>(4)? {
                Some(result) => Ending { result, termination: row.get(5)? },
                None => ending.clone(),
            };
            let date = row.get_ref(1)?.as_str_or_null()?;
            let signature = Signature::new(row.get(2)?, row.get(3)?, date, ending.result, ending.termination);
            Ok((partial, signature))
        })
        .optional()?)
}

/// Whether `g` may be a record of game `id` (which ends as `ending`), whose start and moves
/// it has. The moves of a whole record are one game's; a record whose moves tell its game
/// from no other is one game with those records alone that say the same of it
/// ([`Signature`]), and never with a whole record: so which records are one game does not
/// depend on the order they come in. A game waiting for the records of the files read again
/// is judged by what its record there said, and only with its ending: a game whose ending
/// changed is another one.
fn may_be_one(
    conn: &Connection,
    g: &NewGame,
    id: GameId,
    ending: &Ending,
    waiting: &Waiting,
) -> Result<bool> {
    let first = match said_of(conn, id, ending)? {
        Some(said) => Some(said),
        None => match waiting.get(&id) {
            Some(_) if Ending::of(g) != *ending => return Ok(false),
            said => said.cloned(),
        },
    };
    let weak = !moves_tell_apart(g.plies, g.status.is_some());
    Ok(match first {
        // A game no file holds any more, nor waits for: by its moves alone.
        None => !weak,
        Some((partial, theirs)) if weak || partial => {
            let (black, white) =
                (g.black.as_ref().map(|p| p.name.as_str()), g.white.as_ref().map(|p| p.name.as_str()));
            let own = Ending::of(g);
            let own = Signature::of_names(black, white, g.date.as_deref(), own.result, own.termination);
            weak && (partial || g.plies == 0) && own == theirs
        }
        Some(_) => true,
    })
}

/// Whether game `game` is stored.
fn exists(conn: &Connection, game: GameId) -> Result<bool> {
    Ok(conn
        .prepare_cached("SELECT EXISTS(SELECT 1 FROM games WHERE id = ?1)")?
        .query_row([game], |r| r.get(0))?)
}

/// Whether a file holds game `game`: it has a record.
fn held(conn: &Connection, game: GameId) -> Result<bool> {
    Ok(conn
        .prepare_cached("SELECT EXISTS(SELECT 1 FROM sources WHERE game = ?1)")?
        .query_row([game], |r| r.get(0))?)
}

impl GameStore {
    /// The stored game with the same start and moves, or a new one (its postings added to
    /// `index`), for game `g` of the file at `path`. Returns its id and what it was; a record
    /// that ends otherwise is linked with [`GameStore::link`] and its own ending, and has a
    /// warning, unless it is now the game's first record (then the game takes its ending).
    pub fn store(
        &mut self,
        conn: &Connection,
        index: &mut IndexWriter,
        path: &str,
        g: &NewGame,
    ) -> Result<(GameId, Stored)> {
        let mut found = find(conn, g, g.movehash, &self.waiting)?;
        if found.is_none() {
            // A game stored before schema 15 keeps the hash of that schema.
            for hash in g.legacy_movehashes() {
                found = find(conn, g, hash, &self.waiting)?;
                if found.is_some() {
                    break;
                }
            }
        }
        if let Some((id, ending)) = found {
            if self.waiting.remove(&id).is_some() {
                return Ok((id, Stored::Kept));
            }
            let own = Ending::of(g);
            if own == ending {
                return Ok((id, Stored::Same));
            }
            if !own.said() {
                return Ok((id, Stored::Differs { ending }));
            }
            // Whether a record that says the game's ending comes before this one (a record
            // that ends as the game does says it, when the game has one).
            let after: bool = ending.said()
                && conn
                    .prepare_cached(
                        "SELECT EXISTS(SELECT 1 FROM sources s JOIN files f ON f.id = s.file
                         WHERE s.game = ?1 AND (f.path < ?2 OR (f.path = ?2 AND s.idx < ?3))
                           AND (s.own_result IS NULL OR s.own_result != 0 OR s.own_termination IS NOT NULL))",
                    )?
                    .query_row(params![id, path, g.index], |r| r.get(0))?;
            if after {
                return Ok((id, Stored::Differs { ending }));
            }
            let (new, warned) = self.reend(conn, index, id, &own)?;
            return Ok((new, Stored::Took { warned, was: id }));
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
        // Its one record, linked next, is the record shown for it.
        index.dated(id, g.date.as_deref());
        Ok((id, Stored::New))
    }

    /// Gives game `game` the ending of its first record that says one, `ending`: the game is stored
    /// again under a new id, with its postings and its counts in the hot positions, its records
    /// move to it, each keeping its own ending where it differs, and the warnings of its
    /// records are written again. Returns the new id and how many of its records now say
    /// another ending, each with a warning.
    fn reend(
        &mut self,
        conn: &Connection,
        index: &mut IndexWriter,
        game: GameId,
        ending: &Ending,
    ) -> Result<(GameId, u64)> {
        let (removed, was) = conn
            .prepare_cached("SELECT plies, start, moves, result, termination FROM games WHERE id = ?1")?
            .query_row([game], |r| {
                let removed =
                    RemovedGame { plies: r.get(0)?, start: r.get(1)?, moves: r.get(2)?, result: r.get(3)? };
                Ok((removed, Ending { result: r.get(3)?, termination: r.get(4)? }))
            })?;
        conn.prepare_cached(
            "INSERT INTO games(movehash, start, handicap, variant, plies, moves, end_sfen, result, termination)
             SELECT movehash, start, handicap, variant, plies, moves, end_sfen, ?2, ?3 FROM games WHERE id = ?1",
        )?
        .execute(params![game, ending.result, ending.termination])?;
        let id = GameId(conn.last_insert_rowid());
        // While its row is there: the index may need it to take the game out.
        index.remove_game(conn, game, &removed)?;
        let records: Vec<(i64, i64, u32, u32, String, Option<Ending>)> = conn
            .prepare_cached(
                "SELECT s.id, s.file, s.idx, s.line, f.path, s.own_result, s.own_termination
                 FROM sources s JOIN files f ON f.id = s.file WHERE s.game = ?1",
            )?
            .query_map([game], |r| {
                let own = r.get::<_, Option<GameResult>>(5)?;
                let own = own
                    .map(|result| r.get(6).map(|termination| Ending { result, termination }))
                    .transpose()?;
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, own))
            })?
            .collect::<rusqlite::Result<_>>()?;
        let mut warned = 0;
        for (source, file, idx, line, path, own) in records {
            let own = own.unwrap_or_else(|| was.clone());
            let own = (own != *ending).then_some(own);
            conn.prepare_cached(
                "UPDATE sources SET game = ?2, own_result = ?3, own_termination = ?4 WHERE id = ?1",
            )?
            .execute(params![
                source,
                id,
                own.as_ref().map(|e| e.result),
                own.as_ref().and_then(|e| e.termination.as_deref())
            ])?;
            conn.prepare_cached("DELETE FROM warnings WHERE file = ?1 AND game_index = ?2 AND code = ?3")?
                .execute(params![file, idx, ENDING_DIFFERS])?;
            if let Some(own) = own.filter(Ending::said) {
                insert_warning(conn, &path, file, &ending_differs(idx, line, id, ending, &own))?;
                warned += 1;
            }
        }
        conn.prepare_cached("DELETE FROM games WHERE id = ?1")?.execute([game])?;
        // A game of the batch's own was never seen under its first id.
        self.renumbered += u64::from(game.0 <= self.committed);
        let start = start_setup(removed.start.as_deref())?;
        index.add_stored_game(conn, id, ending.result, &start, decode_moves(&removed.moves)?)?;
        Ok((id, warned))
    }

    /// Links game `game` to its place in file `file_id`, with the file's own record of it:
    /// players, event, dates and the other headers, times and comments, and its own ending
    /// when it ends otherwise than the game ([`Stored::Differs`]). Returns that record's
    /// warning when it says an ending, which the caller records.
    pub fn link(
        &mut self,
        conn: &Connection,
        file_id: i64,
        game: GameId,
        g: &NewGame,
        stored: &Stored,
    ) -> Result<Option<NewWarning>> {
        let own = matches!(stored, Stored::Differs { .. }).then(|| Ending::of(g));
        let warning = match (stored, own.as_ref().filter(|own| own.said())) {
            (Stored::Differs { ending }, Some(own)) => {
                Some(ending_differs(g.index, g.line, game, ending, own))
            }
            _ => None,
        };
        let black = g.black.as_ref().map(|p| self.name_id(conn, Names::Players, &p.name)).transpose()?;
        let white = g.white.as_ref().map(|p| self.name_id(conn, Names::Players, &p.name)).transpose()?;
        let event = g.event.as_deref().map(|e| self.name_id(conn, Names::Events, e)).transpose()?;
        conn.prepare_cached(
            "INSERT INTO sources(file, idx, game, line, status, black, black_title, white, white_title,
               event, site, date, end_date, time_control, opening, headers, times, comments,
               own_result, own_termination, foul)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20,
               ?21)",
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
            own.as_ref().map(|e| e.result),
            own.as_ref().and_then(|e| e.termination.as_deref()),
            g.foul,
        ])?;
        Ok(warning)
    }

    /// Unlinks the games of file `file`, with its rejects and warnings. A game no other file
    /// holds is deleted, and its postings become dead; when the file is read again
    /// ([`Unlink::ReadAgain`]), it waits for the records of the batch instead, until
    /// [`GameStore::settle`].
    pub fn unlink_file(
        &mut self,
        conn: &Connection,
        index: &mut IndexWriter,
        file: i64,
        why: Unlink,
    ) -> Result<()> {
        let mut games: Vec<GameId> = conn
            .prepare_cached("SELECT game FROM sources WHERE file = ?1")?
            .query_map([file], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        games.sort_unstable();
        if why == Unlink::ReadAgain {
            for &game in &games {
                *self.unlinked.entry(game).or_default() += 1;
            }
        }
        games.dedup();
        // What its records say of each game, for those that will wait for the file's.
        let mut said = HashMap::new();
        if why == Unlink::ReadAgain {
            for &game in &games {
                let ending = conn
                    .prepare_cached("SELECT result, termination FROM games WHERE id = ?1")?
                    .query_row([game], |r| Ok(Ending { result: r.get(0)?, termination: r.get(1)? }))
                    .optional()?;
                if let Some(s) = ending.map(|e| said_of(conn, game, &e)).transpose()?.flatten() {
                    said.insert(game, s);
                }
            }
        }
        conn.prepare_cached("DELETE FROM sources WHERE file = ?1")?.execute([file])?;
        conn.prepare_cached("DELETE FROM rejects WHERE file = ?1")?.execute([file])?;
        conn.prepare_cached("DELETE FROM warnings WHERE file = ?1")?.execute([file])?;
        for game in games {
            if !held(conn, game)? {
                match said.remove(&game) {
                    Some(s) => {
                        self.waiting.insert(game, s);
                    }
                    None => self.delete(conn, index, game)?,
                }
                continue;
            }
            // Its ending is looked at once the batch's records are stored: the file may hold
            // it again, as it was, and another file gone or changed in the batch may have
            // held its first record too.
            self.lost_records.push(game);
        }
        Ok(())
    }

    /// Whether a record of game `id`, just stored, is one that a file read again in the batch
    /// held before (the file's own, or one moved from another file): a game kept, not a
    /// duplicate. Each record unlinked is found again once.
    pub fn found_again(&mut self, id: GameId) -> bool {
        match self.unlinked.get_mut(&id) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        }
    }

    /// Deletes the games that waited for the records of the files read again in the batch
    /// ([`Unlink::ReadAgain`]) and that no file holds: the batch is committed.
    /// The games that lost records and are still held take the ending of their first record
    /// that says one, if it is another now.
    pub fn settle(&mut self, conn: &Connection, index: &mut IndexWriter) -> Result<()> {
        self.unlinked.clear();
        let mut waiting: Vec<GameId> = std::mem::take(&mut self.waiting).into_keys().collect();
        // In the order of their ids, as when they were deleted with their file's records.
        waiting.sort_unstable();
        for game in waiting {
            // A game found again left the list: one held is never deleted all the same.
            if !held(conn, game)? {
                self.delete(conn, index, game)?;
            }
        }
        let mut lost = std::mem::take(&mut self.lost_records);
        lost.sort_unstable();
        lost.dedup();
        for game in lost {
            // One stored again under a new id since, or deleted, is done with.
            if !exists(conn, game)? || !held(conn, game)? {
                continue;
            }
            match self.first_said_ending(conn, game)? {
                // The first record that says an ending says another now: the game takes it.
                Some(ending) => {
                    self.reend(conn, index, game, &ending)?;
                }
                // The record shown for it may have been another.
                None => index.records_changed(conn, game)?,
            }
        }
        Ok(())
    }

    /// Starts a batch, after the games up to `committed`: what a batch rolled back left
    /// waiting is forgotten.
    pub fn start_batch(&mut self, committed: i64) {
        self.waiting.clear();
        self.unlinked.clear();
        self.lost_records.clear();
        self.committed = committed;
    }

    /// Whether games wait for records of the batch: committed now, they would be deleted.
    pub fn has_waiting(&self) -> bool {
        !self.waiting.is_empty()
    }

    /// Gives back the memory of the caches of names; the counts stay.
    pub fn release_memory(&mut self) {
        self.players = HashMap::new();
        self.events = HashMap::new();
        self.waiting = HashMap::new();
        self.unlinked = HashMap::new();
        self.lost_records = Vec::new();
    }

    /// Games stored again under a new id because their ending changed with their records,
    /// since the store was made.
    pub fn renumbered(&self) -> u64 {
        self.renumbered
    }

    /// Games deleted because no file holds them any more, since the store was made.
    pub fn removed(&self) -> u64 {
        self.removed
    }

    /// Deletes game `game`, which no file holds; its postings become dead.
    fn delete(&mut self, conn: &Connection, index: &mut IndexWriter, game: GameId) -> Result<()> {
        let removed: Option<RemovedGame> = conn
            .prepare_cached("SELECT plies, start, moves, result FROM games WHERE id = ?1")?
            .query_row([game], |r| {
                Ok(RemovedGame { plies: r.get(0)?, start: r.get(1)?, moves: r.get(2)?, result: r.get(3)? })
            })
            .optional()?;
        if let Some(removed) = removed {
            // While its row is there: the index may need it to take the game out.
            index.remove_game(conn, game, &removed)?;
            conn.prepare_cached("DELETE FROM games WHERE id = ?1")?.execute([game])?;
            self.removed += 1;
        }
        Ok(())
    }

    /// The ending of the first record of game `game` that says one (no result and no
    /// termination when none does), when it is not the game's.
    fn first_said_ending(&mut self, conn: &Connection, game: GameId) -> Result<Option<Ending>> {
        let was: Ending = conn
            .prepare_cached("SELECT result, termination FROM games WHERE id = ?1")?
            .query_row([game], |r| Ok(Ending { result: r.get(0)?, termination: r.get(1)? }))?;
        let mut first = conn.prepare_cached(
            "SELECT s.own_result, s.own_termination FROM sources s JOIN files f ON f.id = s.file
             WHERE s.game = ?1 ORDER BY f.path, s.idx",
        )?;
        let mut rows = first.query([game])?;
        let mut said = Ending { result: GameResult::Unknown, termination: None };
        while let Some(row) = rows.next()? {
            let own = match row.get::<_, Option<GameResult>>(0)? {
                Some(result) => Ending { result, termination: row.get(1)? },
                None => was.clone(),
            };
            if own.said() {
                said = own;
                break;
            }
        }
        Ok((said != was).then_some(said))
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

/// The warning of record `index` (starting at `line`) of a file, which plays the moves of game
/// `game` and ends as `own`, where the game ends as `ending`.
fn ending_differs(index: u32, line: u32, game: GameId, ending: &Ending, own: &Ending) -> NewWarning {
    NewWarning {
        game_index: Some(index),
        line: Some(line),
        ply: None,
        code: ENDING_DIFFERS,
        message: format!(
            "the same moves as game {game}, which its first record ends as {ending}: the game keeps that \
             result, and this record says {own}"
        ),
    }
}
