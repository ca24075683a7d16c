//! The writer: one connection, owned by one thread, in batched transactions.
//!
//! A file is written whole inside the current transaction: its old games (if it was indexed
//! before) are removed, its `files` row, games, sources and rejects are written. The
//! transaction is committed every [`COMMIT_GAMES`] games or [`COMMIT_EVERY`], so a crash
//! loses at most the files since the last commit, and never part of a file.
//!
//! Postings are buffered in memory and written as a run when the buffer holds
//! [`RUN_POSTINGS`] (so memory stays bounded whatever the corpus size) and before every
//! commit: a game's postings are committed with it, so a reader never sees a game that its
//! position lookups miss. Runs are therefore as small as a transaction's games; after each
//! commit, the runs a tier has filled are merged (see the policy in [`runs`]), so their
//! number stays bounded during a run too, and [`Writer::finish`] also merges away the
//! postings of deleted games.
//!
//! The writer holds the database's write lock from [`Writer::open`] until it is dropped, and
//! the file is in WAL mode from open until [`Writer::finish`] (or the drop) ends the run (see
//! the [module documentation](super)).

use std::{
    collections::{HashMap, HashSet},
    path::Path,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use rusqlite::{Connection, OptionalExtension, params};

pub use super::new_game::{NewGame, PlayerName};
use super::{
    Error, GameId, GameResult, KEYPOS_MAX_PLY, Result, buffer::PostingBuffer, cache::KeyPositions,
    lock::WriteLock, open, runs, tree::replay_stored,
};

/// Postings held in memory before they are written as a run (16 MiB; about 10,000 games).
pub const RUN_POSTINGS: usize = 1 << 20;
/// Games per transaction, at most.
pub const COMMIT_GAMES: usize = 10_000;
/// Time between commits, at most (so readers see progress and the WAL stays small).
pub const COMMIT_EVERY: Duration = Duration::from_secs(2);
/// WAL pages (64 MiB of 16 KiB pages) before SQLite copies them into the database. Larger
/// than SQLite's default (1,000 pages) because index pages rewritten by every transaction
/// are then copied once per checkpoint instead of once per transaction; not much larger,
/// because pages evicted from the cache while still in the WAL are read back from it.
const WAL_AUTOCHECKPOINT: u32 = 4_096;
/// Room for the postings of the game that fills a run, beyond the run itself.
const RESERVE_SLACK: usize = 1 << 16;
/// Names kept in each of the player and event caches before it is emptied.
const NAME_CACHE: usize = 16_384;
/// The connection's page cache, in KiB.
const PAGE_CACHE_KIB: i64 = 16_384;

/// A file as the writer records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileRecord {
    /// The path, as the walk gave it (absolute).
    pub path: String,
    pub size: u64,
    pub mtime_ns: i64,
    /// The xxh3-128 hash of the content.
    pub hash: [u8; 16],
    pub format: Option<&'static str>,
    pub encoding: Option<&'static str>,
    /// The reject code when the file yields no game.
    pub error: Option<&'static str>,
}

/// Input that could not be used, as a rejects row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewReject {
    pub game_index: Option<u32>,
    pub line: Option<u32>,
    pub ply: Option<u32>,
    pub code: &'static str,
    pub message: String,
}

/// A warning row: a game kept whole though its record holds something read past or judged
/// against its own words. The same fields as a reject's.
pub type NewWarning = NewReject;

/// What writing a file did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteCounts {
    /// Games stored as new games.
    pub added: u64,
    /// Games that were already stored (from another file or format), linked to this file.
    pub duplicate: u64,
    /// Postings of the new games.
    pub positions: u64,
}

/// What ending a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Finished {
    /// Position runs merged.
    pub merged: usize,
    /// Whether the stop flag cut the merges short (the next run makes them).
    pub stopped: bool,
    /// Whether the file stays in WAL mode, because other programs had it open as the run
    /// ended (see the [module documentation](super)).
    pub wal_kept: bool,
}

/// The single writer.
pub struct Writer {
    conn: Connection,
    /// Dropped after the connection closes.
    _lock: WriteLock,
    /// Whether the run has ended (see [`Writer::finish`]).
    ended: bool,
    stop: Option<Arc<AtomicBool>>,
    in_tx: bool,
    tx_games: usize,
    tx_started: Instant,
    postings: PostingBuffer,
    /// The games deleted since the buffer was last written whose postings it may hold.
    deleted: HashSet<u32>,
    keypos: KeyPositions,
    /// The highest game id inserted so far.
    last_game: i64,
    players: HashMap<String, i64>,
    events: HashMap<String, i64>,
    vacuum: bool,
    run_postings: usize,
}

impl Writer {
    /// Takes the database's write lock, opens the database at `path` (creating it when
    /// there is no file, or the file is empty), migrates it, and rebuilds the postings of
    /// games that a run of an older kifudex left out of the position index.
    ///
    /// # Errors
    ///
    /// [`Error::Busy`] when another writer holds the lock; [`Error::NotKifudex`] for a file
    /// that is not a kifudex database (it is left as it was); any other failure to open or
    /// migrate the database.
    pub fn open(path: &Path) -> Result<Writer> {
        let lock = WriteLock::acquire(path)?;
        let conn = open::open_write(path)?;
        conn.pragma_update(None, "wal_autocheckpoint", WAL_AUTOCHECKPOINT)?;
        conn.pragma_update(None, "cache_size", -PAGE_CACHE_KIB)?;
        let mut w = Writer {
            conn,
            _lock: lock,
            ended: false,
            stop: None,
            in_tx: false,
            tx_games: 0,
            tx_started: Instant::now(),
            postings: PostingBuffer::default(),
            deleted: HashSet::new(),
            keypos: KeyPositions::new(false),
            last_game: 0,
            players: HashMap::new(),
            events: HashMap::new(),
            vacuum: false,
            run_postings: RUN_POSTINGS,
        };
        w.conn.execute_batch("CREATE TEMP TABLE seen(path TEXT PRIMARY KEY) WITHOUT ROWID")?;
        w.recover()?;
        let empty = w.conn.query_row("SELECT NOT EXISTS(SELECT 1 FROM keypos)", [], |r| r.get(0))?;
        w.keypos = KeyPositions::new(empty);
        Ok(w)
    }

    /// Sets the number of postings buffered before a run is written ([`RUN_POSTINGS`] by
    /// default; at least 1).
    pub fn set_run_postings(&mut self, n: usize) {
        self.run_postings = n.max(1);
    }

    /// Gives the writer a flag that, once set, stops merges: the one under way is rolled
    /// back, and [`Writer::finish`] makes no other (the next run makes them).
    pub fn set_stop(&mut self, stop: Arc<AtomicBool>) {
        self.stop = Some(stop);
    }

    fn stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Makes room for a full run at once, so the buffer never grows by copying.
    fn reserve_run(&mut self) {
        self.postings
            .reserve(self.run_postings.saturating_add(RESERVE_SLACK).min(RUN_POSTINGS + RESERVE_SLACK));
    }

    fn begin(&mut self) -> Result<()> {
        if !self.in_tx {
            self.conn.execute_batch("BEGIN IMMEDIATE")?;
            self.in_tx = true;
            self.tx_games = 0;
            self.tx_started = Instant::now();
        }
        Ok(())
    }

    /// Commits the current transaction, if one is open, with the postings of its games
    /// (written as a run first).
    ///
    /// # Errors
    ///
    /// Any database failure (the transaction is then rolled back when the writer drops).
    pub fn commit(&mut self) -> Result<()> {
        if self.in_tx {
            self.flush_run()?;
            self.conn.execute_batch("COMMIT")?;
            self.in_tx = false;
        }
        Ok(())
    }

    fn rollback(&mut self) -> Result<()> {
        if self.in_tx {
            self.in_tx = false;
            self.conn.execute_batch("ROLLBACK")?;
        }
        Ok(())
    }

    /// Rebuilds the postings of the games that a run of an older kifudex, which committed
    /// games before their postings, left out of the runs when it was killed.
    fn recover(&mut self) -> Result<()> {
        let through: i64 = self
            .conn
            .query_row("SELECT value FROM meta WHERE key = 'indexed_through'", [], |r| r.get::<_, String>(0))?
            .parse()
            .map_err(|_| super::Corrupt("meta.indexed_through is not a number"))?;
        let ids: Vec<i64> = self
            .conn
            .prepare("SELECT id FROM games WHERE id > ?1 ORDER BY id")?
            .query_map([through], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        let Some(&last) = ids.last() else {
            return Ok(());
        };
        self.begin()?;
        for id in ids {
            let (start, moves, result): (Option<String>, Vec<u8>, GameResult) = self
                .conn
                .prepare_cached("SELECT start, moves, result FROM games WHERE id = ?1")?
                .query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
            let mut positions = Vec::new();
            replay_stored(start.as_deref(), &moves, usize::MAX, |_, pos, next| {
                positions.push((pos.key().to_i64(), next.map_or(0, |m| m.code())));
                true
            })?;
            self.postings.push_game(posting_game(id)?, result.code(), positions.into_iter());
        }
        self.last_game = last;
        self.flush_run()?;
        self.commit()
    }

    /// Writes the postings buffer as a run, inside the current transaction.
    fn flush_run(&mut self) -> Result<()> {
        let deleted = std::mem::take(&mut self.deleted);
        if let Some((min, max)) = self.postings.sort(&deleted) {
            runs::write(&self.conn, self.postings.postings(), self.postings.len(), min, max)?;
        }
        self.postings.clear();
        self.conn
            .prepare_cached(
                "UPDATE meta SET value = ?1 WHERE key = 'indexed_through' AND CAST(value AS INTEGER) < ?1",
            )?
            .execute([self.last_game.to_string()])?;
        Ok(())
    }

    /// Removes the rejects recorded without a file (unreadable entries) for `root` and
    /// everything under it; a new walk records those that remain.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn clear_entry_rejects(&mut self, root: &str) -> Result<()> {
        self.begin()?;
        let (lo, hi) = under(root);
        self.conn
            .prepare_cached(
                "DELETE FROM rejects WHERE file IS NULL AND (path = ?1 OR (path > ?2 AND path < ?3))",
            )?
            .execute(params![root, lo, hi])?;
        Ok(())
    }

    /// Records a reject for an entry that has no file row (it could not be read).
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn reject_entry(&mut self, path: &str, reject: &NewReject) -> Result<()> {
        self.begin()?;
        self.conn.prepare_cached("DELETE FROM rejects WHERE file IS NULL AND path = ?1")?.execute([path])?;
        self.insert_reject(path, None, reject)
    }

    fn insert_reject(&mut self, path: &str, file: Option<i64>, r: &NewReject) -> Result<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO rejects(path, file, game_index, line, ply, code, message)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?
            .execute(params![path, file, r.game_index, r.line, r.ply, r.code, r.message])?;
        Ok(())
    }

    /// Records that the file at `path`, whose content is unchanged, now has this size and
    /// modification time.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn touch_file(&mut self, path: &str, size: u64, mtime_ns: i64) -> Result<()> {
        self.begin()?;
        self.conn
            .prepare_cached("UPDATE files SET size = ?2, mtime_ns = ?3 WHERE path = ?1")?
            .execute(params![path, size as i64, mtime_ns])?;
        Ok(())
    }

    /// Writes a file and its games, replacing whatever an earlier version of it held.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn write_file(
        &mut self,
        file: &FileRecord,
        games: &[NewGame],
        rejects: &[NewReject],
    ) -> Result<WriteCounts> {
        self.begin()?;
        // Each game that stopped early has one reject row, and so has each game whose start is
        // impossible, which is not stored.
        let stopped = rejects.iter().filter(|r| r.game_index.is_some()).count() as i64;
        let existing = self.file_id(&file.path)?;
        let values = params![
            file.path,
            file.size as i64,
            file.mtime_ns,
            &file.hash[..],
            file.format,
            file.encoding,
            games.len() as i64,
            stopped,
            file.error
        ];
        let file_id = match existing {
            Some(id) => {
                self.remove_games_of(id)?;
                self.conn.prepare_cached("DELETE FROM rejects WHERE path = ?1")?.execute([&file.path])?;
                self.conn
                    .prepare_cached(
                        "UPDATE files SET size = ?2, mtime_ns = ?3, hash = ?4, format = ?5, encoding = ?6,
                         games = ?7, stopped = ?8, error = ?9 WHERE path = ?1",
                    )?
                    .execute(values)?;
                id
            }
            None => {
                self.conn
                    .prepare_cached(
                        "INSERT INTO files(path, size, mtime_ns, hash, format, encoding, games, stopped, error)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                    )?
                    .execute(values)?;
                self.conn.last_insert_rowid()
            }
        };
        // A file without a row has no rejects: those of an entry that could not be read were
        // cleared when the run started (clear_entry_rejects), and remove_file clears the rest.
        for r in rejects {
            self.insert_reject(&file.path, Some(file_id), r)?;
        }
        let mut counts = WriteCounts::default();
        for g in games {
            let (id, new) = self.store_game(g)?;
            if new {
                counts.added += 1;
                counts.positions += g.keys.len() as u64;
            } else {
                counts.duplicate += 1;
            }
            self.insert_source(file_id, id, g)?;
            if self.postings.len() >= self.run_postings {
                self.flush_run()?;
            }
        }
        self.tx_games += games.len();
        Ok(counts)
    }

    /// Records the warnings of the file at `path`, just written by [`Writer::write_file`] in
    /// the same transaction (they are removed with its games).
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn write_warnings(&mut self, path: &str, warnings: &[NewWarning]) -> Result<()> {
        if warnings.is_empty() {
            return Ok(());
        }
        self.begin()?;
        let Some(file) = self.file_id(path)? else {
            return Ok(());
        };
        let mut insert = self.conn.prepare_cached(
            "INSERT INTO warnings(path, file, game_index, line, ply, code, message)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        for w in warnings {
            insert.execute(params![path, file, w.game_index, w.line, w.ply, w.code, w.message])?;
        }
        Ok(())
    }

    /// Commits when the transaction is due (see the module documentation), then merges the
    /// runs a tier has filled. Call between files.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn end_file(&mut self) -> Result<()> {
        if self.in_tx && (self.tx_games >= COMMIT_GAMES || self.tx_started.elapsed() >= COMMIT_EVERY) {
            self.commit()?;
            self.merge_runs(false)?;
        }
        Ok(())
    }

    /// The stored game with the same start and moves, or a new one. Returns its id and
    /// whether it is new.
    fn store_game(&mut self, g: &NewGame) -> Result<(GameId, bool)> {
        {
            let mut probe =
                self.conn.prepare_cached("SELECT id, start, moves FROM games WHERE movehash = ?1")?;
            let mut rows = probe.query([g.movehash])?;
            while let Some(row) = rows.next()? {
                let start = row.get_ref(1)?.as_str_or_null()?;
                let moves = row.get_ref(2)?.as_blob()?;
                if start == g.start.as_deref() && moves == g.moves.as_slice() {
                    return Ok((row.get(0)?, false));
                }
            }
        }
        self.conn
            .prepare_cached(
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
        let id = self.conn.last_insert_rowid();
        self.last_game = id;
        if self.postings.len() == 0 {
            self.reserve_run();
        }
        let codes =
            g.moves.chunks_exact(2).map(|b| u16::from_le_bytes([b[0], b[1]])).chain(std::iter::once(0));
        self.postings.push_game(
            posting_game(id)?,
            g.result.code(),
            g.keys.iter().map(|k| k.to_i64()).zip(codes),
        );
        for ply in 0..=(g.plies.min(KEYPOS_MAX_PLY) as usize) {
            if let (Some(key), Some(position)) = (g.keys.get(ply), g.early_position(ply)) {
                self.check_early(key.to_i64(), position, id, ply as u32)?;
            }
        }
        Ok((GameId(id), true))
    }

    /// Links game `game` to its place in file `file_id`, with the file's own record of it:
    /// players, event, dates and the other headers, times and comments.
    fn insert_source(&mut self, file_id: i64, game: GameId, g: &NewGame) -> Result<()> {
        let black = g.black.as_ref().map(|p| self.name_id(Names::Players, &p.name)).transpose()?;
        let white = g.white.as_ref().map(|p| self.name_id(Names::Players, &p.name)).transpose()?;
        let event = g.event.as_deref().map(|e| self.name_id(Names::Events, e)).transpose()?;
        self.conn
            .prepare_cached(
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

    /// Compares an early occurrence with the position stored for its key; records the key's
    /// position when it is new, and a collision when it differs.
    fn check_early(&mut self, key: i64, position: &[u8], game: i64, ply: u32) -> Result<()> {
        let cached = self.keypos.get(key).map(|p| p == position);
        let stored = match cached {
            Some(same) => Some(same),
            None if self.keypos.complete() => None,
            None => {
                let found: Option<Vec<u8>> = self
                    .conn
                    .prepare_cached("SELECT position FROM keypos WHERE key = ?1")?
                    .query_row([key], |r| r.get(0))
                    .optional()?;
                match found {
                    Some(p) => {
                        let same = p == position;
                        self.keypos.insert(key, p.into_boxed_slice());
                        Some(same)
                    }
                    None => None,
                }
            }
        };
        match stored {
            Some(true) => {}
            Some(false) => {
                self.conn
                    .prepare_cached("INSERT OR IGNORE INTO collisions(key, game, ply) VALUES (?1, ?2, ?3)")?
                    .execute(params![key, game, ply])?;
            }
            None => {
                self.conn
                    .prepare_cached("INSERT INTO keypos(key, position) VALUES (?1, ?2)")?
                    .execute(params![key, position])?;
                self.keypos.insert(key, position.into());
            }
        }
        Ok(())
    }

    fn name_id(&mut self, table: Names, name: &str) -> Result<i64> {
        let cache = match table {
            Names::Players => &mut self.players,
            Names::Events => &mut self.events,
        };
        if let Some(&id) = cache.get(name) {
            return Ok(id);
        }
        let (select, insert) = match table {
            Names::Players => {
                ("SELECT id FROM players WHERE name = ?1", "INSERT INTO players(name) VALUES (?1)")
            }
            Names::Events => {
                ("SELECT id FROM events WHERE name = ?1", "INSERT INTO events(name) VALUES (?1)")
            }
        };
        let id = match self.conn.prepare_cached(select)?.query_row([name], |r| r.get(0)).optional()? {
            Some(id) => id,
            None => {
                self.conn.prepare_cached(insert)?.execute([name])?;
                self.conn.last_insert_rowid()
            }
        };
        if cache.len() >= NAME_CACHE {
            cache.clear();
        }
        cache.insert(name.to_string(), id);
        Ok(id)
    }

    /// Unlinks the games of a file; a game no other file holds is deleted and its postings
    /// become dead.
    fn remove_games_of(&mut self, file: i64) -> Result<()> {
        let mut games: Vec<i64> = self
            .conn
            .prepare_cached("SELECT game FROM sources WHERE file = ?1")?
            .query_map([file], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        games.sort_unstable();
        games.dedup();
        self.conn.prepare_cached("DELETE FROM sources WHERE file = ?1")?.execute([file])?;
        self.conn.prepare_cached("DELETE FROM rejects WHERE file = ?1")?.execute([file])?;
        self.conn.prepare_cached("DELETE FROM warnings WHERE file = ?1")?.execute([file])?;
        for game in games {
            let shared: bool = self
                .conn
                .prepare_cached("SELECT EXISTS(SELECT 1 FROM sources WHERE game = ?1)")?
                .query_row([game], |r| r.get(0))?;
            if shared {
                continue;
            }
            let plies: Option<i64> = self
                .conn
                .prepare_cached("DELETE FROM games WHERE id = ?1 RETURNING plies")?
                .query_row([game], |r| r.get(0))
                .optional()?;
            let Some(plies) = plies else {
                continue;
            };
            self.conn
                .prepare_cached("INSERT OR REPLACE INTO dead(game, postings) VALUES (?1, ?2)")?
                .execute(params![game, plies + 1])?;
            self.conn.prepare_cached("DELETE FROM collisions WHERE game = ?1")?.execute([game])?;
            let game = posting_game(game)?;
            if self.postings.may_hold(game) {
                self.deleted.insert(game);
            }
        }
        self.vacuum = true;
        Ok(())
    }

    fn file_id(&self, path: &str) -> Result<Option<i64>> {
        Ok(self
            .conn
            .prepare_cached("SELECT id FROM files WHERE path = ?1")?
            .query_row([path], |r| r.get(0))
            .optional()?)
    }

    /// Removes a file and its games (for files that are gone). Returns whether it was there.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn remove_file(&mut self, path: &str) -> Result<bool> {
        self.begin()?;
        let Some(id) = self.file_id(path)? else {
            return Ok(false);
        };
        self.remove_games_of(id)?;
        self.conn.prepare_cached("DELETE FROM rejects WHERE path = ?1")?.execute([path])?;
        self.conn.prepare_cached("DELETE FROM files WHERE id = ?1")?.execute([id])?;
        Ok(true)
    }

    /// Notes that the file at `path` was walked in this run, for [`Writer::prune_unseen`].
    /// The paths go in a temporary table, so memory does not grow with their number.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn mark_seen(&mut self, path: &str) -> Result<()> {
        self.begin()?;
        self.conn.prepare_cached("INSERT OR IGNORE INTO temp.seen(path) VALUES (?1)")?.execute([path])?;
        Ok(())
    }

    /// Removes the files recorded at `root` or under it that were not marked seen in this
    /// run, with their games. Returns how many were removed.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn prune_unseen(&mut self, root: &str) -> Result<u64> {
        const BATCH: usize = 256;
        let (lo, hi) = under(root);
        let mut after = String::new();
        let mut removed = 0;
        loop {
            let gone: Vec<String> = self
                .conn
                .prepare_cached(
                    "SELECT path FROM files
                     WHERE (path = ?1 OR (path > ?2 AND path < ?3)) AND path > ?4
                       AND NOT EXISTS (SELECT 1 FROM temp.seen WHERE seen.path = files.path)
                     ORDER BY path LIMIT ?5",
                )?
                .query_map(params![root, lo, hi, after, BATCH], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()?;
            for path in &gone {
                removed += u64::from(self.remove_file(path)?);
            }
            match gone.into_iter().next_back() {
                Some(last) => after = last,
                None => return Ok(removed),
            }
        }
    }

    /// Commits what is pending, merges runs as the policy says (unless the stop flag is
    /// set), and ends the run: the database is checkpointed and put back in rollback-journal
    /// mode.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn finish(mut self) -> Result<Finished> {
        self.commit()?;
        // The buffer and caches are done with; a merge needs none of their memory.
        self.postings = PostingBuffer::default();
        self.keypos = KeyPositions::new(false);
        self.players = HashMap::new();
        self.events = HashMap::new();
        let (merged, stopped) = self.merge_runs(true)?;
        if self.vacuum && !stopped {
            // Each step of this pragma frees one page, so it must be stepped to the end.
            let mut vacuum = self.conn.prepare("PRAGMA incremental_vacuum")?;
            let mut steps = vacuum.query([])?;
            while steps.next()?.is_some() {}
        }
        if !stopped {
            self.conn.execute_batch("PRAGMA optimize")?;
        }
        self.ended = true;
        let at_rest = open::end_run(&self.conn)?;
        Ok(Finished { merged, stopped, wal_kept: !at_rest })
    }

    /// Merges runs as the policy in [`runs`] says, each merge in a transaction of its own;
    /// with `all`, also every run when dead games fill too much of them. Returns the runs
    /// merged, and whether the stop flag cut the merges short.
    fn merge_runs(&mut self, all: bool) -> Result<(usize, bool)> {
        let mut merged = 0;
        loop {
            let live = runs::live(&self.conn)?;
            let dead_postings: i64 = if all {
                self.conn.query_row("SELECT coalesce(sum(postings), 0) FROM dead", [], |r| r.get(0))?
            } else {
                0
            };
            let Some(plan) = runs::plan(&live, dead_postings) else {
                return Ok((merged, false));
            };
            if self.stopped() {
                return Ok((merged, true));
            }
            self.begin()?;
            // One bit a game id: a set of any size in little memory, and the fastest test.
            let mut dead: Vec<u64> = Vec::new();
            {
                let mut stmt = self.conn.prepare_cached("SELECT game FROM dead")?;
                for id in stmt.query_map([], |r| r.get::<_, i64>(0))? {
                    let id = posting_game(id?)? as usize;
                    if dead.len() <= id / 64 {
                        dead.resize(id / 64 + 1, 0);
                    }
                    dead[id / 64] |= 1 << (id % 64);
                }
            }
            let is_dead = |g: u32| dead.get(g as usize / 64).is_some_and(|w| w & (1 << (g % 64)) != 0);
            let stop = self.stop.clone();
            let stopped = || stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
            match runs::merge(&self.conn, &plan, is_dead, stopped) {
                Err(Error::Interrupted) => {
                    self.rollback()?;
                    return Ok((merged, true));
                }
                written => written?,
            };
            self.conn.execute(
                "DELETE FROM dead WHERE NOT EXISTS
                   (SELECT 1 FROM runs WHERE dead.game BETWEEN runs.min_game AND runs.max_game)",
                [],
            )?;
            self.commit()?;
            merged += plan.len();
            self.vacuum = true;
        }
    }
}

impl Drop for Writer {
    /// A writer dropped without [`Writer::finish`] (its run failed, or stopped early): what
    /// is not committed is rolled back, and the run is ended as well as it can be.
    fn drop(&mut self) {
        if self.in_tx {
            let _ = self.rollback();
        }
        if !self.ended {
            let _ = open::end_run(&self.conn);
        }
    }
}

#[derive(Clone, Copy)]
enum Names {
    Players,
    Events,
}

/// The game id as postings store it (32 bits).
fn posting_game(id: i64) -> Result<u32> {
    u32::try_from(id).map_err(|_| super::Corrupt("game id past 32 bits").into())
}

/// The bounds of the paths strictly under directory `root`: after `root/` and before
/// `root0` ('0' follows '/').
fn under(root: &str) -> (String, String) {
    let base = root.strip_suffix('/').unwrap_or(root);
    (format!("{base}/"), format!("{base}0"))
}
