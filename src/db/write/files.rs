//! File and reject bookkeeping: the `files` rows, the rejects and warnings of files and of
//! entries that could not be read, and the removal of files that are gone. Writing a file
//! hands its games to game storage.

use rusqlite::{Connection, OptionalExtension, params};

use super::{
    Batch, NewGame,
    games::{Stored, Unlink},
};
use crate::db::{Corrupt, Result, paths::range_under};

/// A file as the writer records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileRecord {
    /// The path, as the walk gave it (absolute).
    pub path: String,
    pub size: u64,
    pub mtime_ns: i64,
    /// The status change time (see [`crate::walk::SourceFile::ctime_ns`]).
    pub ctime_ns: Option<i64>,
    /// The device of its filesystem (see [`crate::walk::SourceFile::device`]).
    pub device: Option<i64>,
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

impl NewReject {
    /// The games of a file that stopped early, among its `rejects`: each has one reject row,
    /// and so has each game whose start is impossible, which is not stored.
    pub fn games_stopped(rejects: &[NewReject]) -> u64 {
        rejects.iter().filter(|r| r.game_index.is_some()).count() as u64
    }
}

/// A warning row: a game kept whole though its record holds something read past or judged
/// against its own words. The same fields as a reject's.
pub type NewWarning = NewReject;

/// What writing a file did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteCounts {
    /// Games stored as new games.
    pub added: u64,
    /// Records of games that the files read again in the batch held before, found again (in
    /// this file or, for a game moved, in another): their games keep their ids.
    pub kept: u64,
    /// Games that were already stored (from another file or format), linked to this file.
    pub duplicate: u64,
    /// Postings of the new games.
    pub positions: u64,
    /// Warnings recorded for records of the file's games that end otherwise than the game
    /// (`duplicate_ending_differs`): the file's own, and those of other records of a game
    /// whose first record the file now holds.
    pub warnings: u64,
}

impl Batch<'_> {
    /// Removes the rejects recorded without a file (unreadable entries) for `root` and
    /// everything under it; a new walk records those that remain.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn clear_entry_rejects(&mut self, root: &str) -> Result<()> {
        let (lo, hi) = range_under(root);
        self.tx
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
        self.tx.prepare_cached("DELETE FROM rejects WHERE file IS NULL AND path = ?1")?.execute([path])?;
        insert_reject(&self.tx, path, None, reject)
    }

    /// Records that the file at `path`, whose content is unchanged, now has this size, these
    /// times and this device.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn touch_file(
        &mut self,
        path: &str,
        size: u64,
        mtime_ns: i64,
        ctime_ns: Option<i64>,
        device: Option<i64>,
    ) -> Result<()> {
        self.tx
            .prepare_cached(
                "UPDATE files SET size = ?2, mtime_ns = ?3, ctime_ns = ?4, device = ?5 WHERE path = ?1",
            )?
            .execute(params![path, size as i64, mtime_ns, ctime_ns, device])?;
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
        let id = self.open_file(file, games.len() as u64, NewReject::games_stopped(rejects))?;
        self.add_to_file(id, &file.path, games, rejects)
    }

    /// Writes the row of a file that holds `games` games and `stopped` games that stopped
    /// early, replacing whatever an earlier version of it held, for its games to be added
    /// ([`Batch::add_to_file`]). Returns its id.
    ///
    /// A file read in parts is opened with no games and its counts set when the last is
    /// added ([`Batch::count_file`]), in the same batch: a batch is committed between files.
    /// The games of its earlier version that no other file holds wait until the batch is
    /// committed: those no file of the batch holds by then are deleted.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn open_file(&mut self, file: &FileRecord, games: u64, stopped: u64) -> Result<i64> {
        let values = params![
            file.path,
            file.size as i64,
            file.mtime_ns,
            &file.hash[..],
            file.format,
            file.encoding,
            games as i64,
            stopped as i64,
            file.error,
            file.ctime_ns,
            file.device
        ];
        // Inserted unless its path has a row: a new file, most files of a run, costs no lookup
        // by path before its insert (over 100,000 files of one game each, the lookups took
        // 1.7% of the writer thread's instructions).
        let inserted = self
            .tx
            .prepare_cached(
                "INSERT INTO files(path, size, mtime_ns, hash, format, encoding, games, stopped, error,
                                   ctime_ns, device)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
                 ON CONFLICT(path) DO NOTHING",
            )?
            .execute(values)?;
        if inserted == 1 {
            return Ok(self.tx.last_insert_rowid());
        }
        let id = file_id(&self.tx, &file.path)?.ok_or(Corrupt("a file's row is gone"))?;
        self.unlink_games(id, Unlink::ReadAgain)?;
        self.tx.prepare_cached("DELETE FROM rejects WHERE path = ?1")?.execute([&file.path])?;
        // Read by this version now (see migration 0028).
        self.tx.prepare_cached("DELETE FROM files_read_before WHERE file = ?1")?.execute([id])?;
        self.tx
            .prepare_cached(
                "UPDATE files SET size = ?2, mtime_ns = ?3, hash = ?4, format = ?5, encoding = ?6,
                 games = ?7, stopped = ?8, error = ?9, ctime_ns = ?10, device = ?11
                 WHERE path = ?1",
            )?
            .execute(values)?;
        Ok(id)
    }

    /// Sets the counts of the file at `path`, read in parts, once its last part is added: its
    /// games, and those that stopped early.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn count_file(&mut self, path: &str, games: u64, stopped: u64) -> Result<()> {
        self.tx
            .prepare_cached("UPDATE files SET games = ?2, stopped = ?3 WHERE path = ?1")?
            .execute(params![path, games as i64, stopped as i64])?;
        Ok(())
    }

    /// Adds games and rejects to the file `file_id`, at `path`, opened in this batch
    /// ([`Batch::open_file`]).
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn add_to_file(
        &mut self,
        file_id: i64,
        path: &str,
        games: &[NewGame],
        rejects: &[NewReject],
    ) -> Result<WriteCounts> {
        // A file without a row has no rejects: those of an entry that could not be read were
        // cleared when the run started (clear_entry_rejects), and remove_file clears the rest.
        for r in rejects {
            insert_reject(&self.tx, path, Some(file_id), r)?;
        }
        let mut counts = WriteCounts::default();
        for g in games {
            let (id, stored) = self.games.store(&self.tx, self.index, path, g)?;
            match stored {
                Stored::New => {
                    counts.added += 1;
                    counts.positions += g.positions.len() as u64;
                }
                Stored::Took { warned, was } => {
                    if self.games.found_again(was) {
                        counts.kept += 1;
                    } else {
                        counts.duplicate += 1;
                    }
                    counts.warnings += warned;
                }
                Stored::Kept | Stored::Same | Stored::Differs { .. } => {
                    if self.games.found_again(id) {
                        counts.kept += 1;
                    } else {
                        counts.duplicate += 1;
                    }
                }
            }
            if let Some(warning) = self.games.link(&self.tx, file_id, id, g, &stored)? {
                insert_warning(&self.tx, path, file_id, &warning)?;
                counts.warnings += 1;
            }
            if stored != Stored::New {
                // Its record in this file may be the one shown for it now.
                self.index.records_changed(&self.tx, id)?;
            }
            self.index.flush_if_full(&self.tx)?;
        }
        self.written += games.len();
        Ok(counts)
    }

    /// Records the warnings of the file at `path`, just written by [`Batch::write_file`] in
    /// the same batch (they are removed with its games).
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn write_warnings(&mut self, path: &str, warnings: &[NewWarning]) -> Result<()> {
        if warnings.is_empty() {
            return Ok(());
        }
        let Some(file) = file_id(&self.tx, path)? else {
            return Ok(());
        };
        for w in warnings {
            insert_warning(&self.tx, path, file, w)?;
        }
        Ok(())
    }

    /// Whether a file is recorded at `path`.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn holds_file(&self, path: &str) -> Result<bool> {
        Ok(file_id(&self.tx, path)?.is_some())
    }

    /// Removes a file and its games (for files that are gone). Returns whether it was there.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn remove_file(&mut self, path: &str) -> Result<bool> {
        let Some(id) = file_id(&self.tx, path)? else {
            return Ok(false);
        };
        self.unlink_games(id, Unlink::Gone)?;
        self.tx.prepare_cached("DELETE FROM rejects WHERE path = ?1")?.execute([path])?;
        self.tx.prepare_cached("DELETE FROM files WHERE id = ?1")?.execute([id])?;
        self.tx.prepare_cached("DELETE FROM files_read_before WHERE file = ?1")?.execute([id])?;
        Ok(true)
    }

    /// Notes that the file at `path` was walked in this run, for [`Batch::prune_unseen`].
    /// The paths go in a temporary table, so memory does not grow with their number.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn mark_seen(&mut self, path: &str) -> Result<()> {
        self.tx.prepare_cached("INSERT OR IGNORE INTO temp.seen(path) VALUES (?1)")?.execute([path])?;
        Ok(())
    }

    /// Removes the files recorded at `root` or under it that were not marked seen in this
    /// run and that `is_gone` says are gone, with their games (it is given each path with the
    /// device recorded for it). Returns how many were removed, and how many were kept.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn prune_unseen(
        &mut self,
        root: &str,
        is_gone: &mut dyn FnMut(&str, Option<i64>) -> bool,
    ) -> Result<(u64, u64)> {
        const BATCH: usize = 256;
        let (lo, hi) = range_under(root);
        let mut after = String::new();
        let (mut removed, mut kept) = (0, 0);
        loop {
            let gone: Vec<(String, Option<i64>)> = self
                .tx
                .prepare_cached(
                    "SELECT path, device FROM files
                     WHERE (path = ?1 OR (path > ?2 AND path < ?3)) AND path > ?4
                       AND NOT EXISTS (SELECT 1 FROM temp.seen WHERE seen.path = files.path)
                     ORDER BY path LIMIT ?5",
                )?
                .query_map(params![root, lo, hi, after, BATCH], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<rusqlite::Result<_>>()?;
            for (path, device) in &gone {
                if is_gone(path, *device) {
                    removed += u64::from(self.remove_file(path)?);
                } else {
                    kept += 1;
                }
            }
            match gone.into_iter().next_back() {
                Some((last, _)) => after = last,
                None => return Ok((removed, kept)),
            }
        }
    }

    /// Unlinks the games of file `id` (see game storage), which frees pages.
    fn unlink_games(&mut self, id: i64, why: Unlink) -> Result<()> {
        self.games.unlink_file(&self.tx, self.index, id, why)?;
        *self.freed = true;
        Ok(())
    }
}

fn insert_reject(conn: &Connection, path: &str, file: Option<i64>, r: &NewReject) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO rejects(path, file, game_index, line, ply, code, message)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![path, file, r.game_index, r.line, r.ply, r.code, r.message])?;
    Ok(())
}

pub(super) fn insert_warning(conn: &Connection, path: &str, file: i64, w: &NewWarning) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO warnings(path, file, game_index, line, ply, code, message)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![path, file, w.game_index, w.line, w.ply, w.code, w.message])?;
    Ok(())
}

fn file_id(conn: &Connection, path: &str) -> Result<Option<i64>> {
    Ok(conn
        .prepare_cached("SELECT id FROM files WHERE path = ?1")?
        .query_row([path], |r| r.get(0))
        .optional()?)
}
