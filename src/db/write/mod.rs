//! The writer: one connection, owned by one thread, writing in batches.
//!
//! A [`Batch`] is a transaction: everything written through it is committed together by
//! [`Batch::commit`], and a batch dropped without it (a failure, a stop) is rolled back. The
//! writer's work is split three ways, each in its own place:
//! - file and reject bookkeeping ([`files`]): the `files` rows, rejects and warnings, and the
//!   removal of files that are gone;
//! - game storage ([`games`]): games stored once however many files hold them, and each
//!   file's own record of them (`sources`);
//! - the position index ([`super::index`]): the postings of new games, written as a run
//!   inside the batch that stores them, so that a commit never holds a game that position
//!   lookups miss.
//!
//! A file is written whole inside one batch: its old games (if it was indexed before) are
//! removed, its `files` row, games, sources and rejects are written. The caller commits a
//! batch when it is due ([`Batch::is_due`]), so a crash loses at most the files since the last
//! commit, and never part of a file; between batches, [`Writer::merge_filled`] merges the runs
//! a tier has filled.
//!
//! The writer holds the database's write lock from [`Writer::open`] until it is dropped, and
//! the file is in WAL mode from open until [`Writer::finish`] (or the drop) ends the run (see
//! the [module documentation](super)).

mod files;
mod games;

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use rusqlite::{Connection, Transaction, TransactionBehavior};

use crate::shard::Shard;

pub use self::files::{FileRecord, NewReject, NewWarning, WriteCounts};
pub use super::new_game::{NewGame, PlayerName};
use super::{
    Error, Result,
    index::{IndexWriter, ReaderThreads, merge_runs},
    lock::WriteLock,
    open,
};

/// Games per batch, at most, in a database of up to [`BATCH_SHARE`] times as many.
const COMMIT_GAMES: usize = 10_000;
/// Time between commits, at most, for a batch of [`COMMIT_GAMES`] (so readers see progress
/// and the WAL stays small).
const COMMIT_EVERY: Duration = Duration::from_secs(2);
/// A batch holds up to this fraction of the games stored before it (when that is more than
/// [`COMMIT_GAMES`]), and may take as much longer. A commit writes every page the batch
/// changed, and the batch's games and records go all over the indexes that are not in the
/// order games come in (`keypos`, the hashes of games, the records by player, event and
/// date): in a large database, a batch of 10,000 games changes most of their pages, so a
/// commit every 10,000 games wrote out about as much as the indexes hold each time. A batch
/// that grows with the database writes them out a bounded number of times per game: at a
/// million games, a run wrote 8.5 GB instead of 18.4 and took 95 s instead of 112.
const BATCH_SHARE: usize = 5;
/// Time between commits, at most, whatever the batch.
const COMMIT_EVERY_MAX: Duration = Duration::from_secs(30);
/// WAL pages (64 MiB of 16 KiB pages) before SQLite copies them into the database. Larger
/// than SQLite's default (1,000 pages) because index pages rewritten by every transaction
/// are then copied once per checkpoint instead of once per transaction; not much larger,
/// because pages evicted from the cache while still in the WAL are read back from it.
const WAL_AUTOCHECKPOINT: u32 = 4_096;
/// The connection's page cache, in KiB (128 MiB). A batch inserts the new early positions of
/// its games all over `keypos` (in key order), and looks games up by their hash all over
/// `games_movehash`: a cache that holds those pages keeps them from one batch to the next
/// instead of reading them back, and writing them back once more when it spills. At a million
/// games, 128 MiB took the system time of a first run from 47 to 38 µs a game (64 MiB before),
/// for 64 MiB more of peak memory at any size past 100,000 games.
const PAGE_CACHE_KIB: i64 = 131_072;

/// The indexes of the records that serve only queries filtered by player or event. A run into
/// a database without games makes them at its end, each by one sort, instead of inserting
/// every record into them at random places: at a million games, that took 8 s of the run's
/// 152 s of CPU, and 5 s of its 87. Until they are made (and after a first run killed before
/// its end, until the next run opens the database) such a query reads every record instead.
/// The statements are the migration's (a test checks).
const RECORD_INDEXES: [(&str, &str); 3] = [
    ("sources_black", "CREATE INDEX sources_black ON sources(black, game)"),
    ("sources_white", "CREATE INDEX sources_white ON sources(white, game)"),
    ("sources_event", "CREATE INDEX sources_event ON sources(event, game)"),
];

/// What ending a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Finished {
    /// Position runs merged.
    pub merged: usize,
    /// Whether the stop flag cut the end of the run short: its merges, or the lists of newest
    /// games made after them (the next run makes what is left).
    pub stopped: bool,
    /// Whether the file stays in WAL mode, because other programs had it open as the run
    /// ended (see the [module documentation](super)).
    pub wal_kept: bool,
    /// The files holding records that a version before migration 0028 indexed and no run has
    /// read again since: that version read past what this one keeps.
    pub files_to_read_again: u64,
    /// The scopes of runs before that did not finish, which this one did not cover: their
    /// mark stays, and readers still say that their answers cover part of the files.
    pub unfinished_before: Vec<RunScope>,
}

/// The single writer.
pub struct Writer {
    conn: Connection,
    path: std::path::PathBuf,
    /// Threads a large merge of runs takes.
    merge_threads: usize,
    /// Dropped after the connection closes.
    lock: WriteLock,
    /// Whether the run has ended (see [`Writer::finish`]).
    ended: bool,
    stop: Option<Arc<AtomicBool>>,
    games: games::GameStore,
    index: IndexWriter,
    /// Whether pages were freed (games removed, runs merged), for the vacuum at the end.
    freed: bool,
    /// The runs merged at the end of the run, and whether the stop flag cut the merges short,
    /// once [`Writer::end_merges`] has made them.
    ended_merges: Option<(usize, bool)>,
    /// Whether the run leaves the database complete (see [`Writer::set_complete`]).
    complete: bool,
    /// Whether the writer stands for an index run, which marks the database while it runs.
    marks_run: bool,
    /// The mark of an unfinished run before this one, and the scopes of those this one does
    /// not cover: left in place when this run ends complete.
    left_unfinished: Option<(String, Vec<RunScope>)>,
}

/// What an index run reads: its roots (absolute, as stored) and its globs, each as given.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RunScope {
    pub roots: Vec<String>,
    pub globs: Vec<String>,
}

impl RunScope {
    /// Whether a run over `self` that ends complete has read every file a run over `other`
    /// would: its globs are none or the same, and each of `other`'s roots is one of its own
    /// or under one.
    pub fn covers(&self, other: &RunScope) -> bool {
        let under = |root: &str, of: &str| {
            root == of || of == "/" || root.strip_prefix(of).is_some_and(|rest| rest.starts_with('/'))
        };
        (self.globs.is_empty() || self.globs == other.globs)
            && other.roots.iter().all(|root| self.roots.iter().any(|of| under(root, of)))
    }
}

/// What a writer opens the database for.
#[derive(Clone)]
enum Purpose {
    /// An index run of a shard (of every file when `None`) over a scope, which marks the
    /// database while it runs.
    Run(Option<Shard>, RunScope),
    /// A change beside the files (an alias), which neither marks a run nor clears a mark.
    Change,
}

/// The `meta` key of a run under way, or of one that did not finish: its process id. Set
/// when a writer opens the database, and removed by a run that ends complete, so that readers
/// can say that their answers cover part of the files (see [`super::Reader::unfinished_run`]).
pub(super) const RUN_KEY: &str = "run_unfinished";

/// The `meta` key of the scopes ([`RunScope`], a JSON list) of the runs under way or that did
/// not finish: a run that ends complete removes [`RUN_KEY`] only when it covered them all,
/// and leaves the mark of the run before, with the scopes it did not cover, otherwise.
pub(super) const SCOPES_KEY: &str = "run_scopes";

/// A transaction of the writer's: what is written through it is committed together by
/// [`Batch::commit`], and rolled back when it is dropped without.
pub struct Batch<'w> {
    tx: Transaction<'w>,
    games: &'w mut games::GameStore,
    index: &'w mut IndexWriter,
    freed: &'w mut bool,
    started: Instant,
    /// Games written in it.
    written: usize,
    /// Games, and time, after which it is due.
    due_games: usize,
    due_after: Duration,
}

impl Writer {
    /// Takes the database's write lock, opens the database at `path` (creating it when
    /// there is no file, or the file is empty), migrates it, checks its stored games to the
    /// depth this build checks positions to (see the position index), and rebuilds the
    /// postings of games that a run of an older kifudex left out of the position index.
    ///
    /// # Errors
    ///
    /// [`super::Error::Busy`] when another writer holds the lock;
    /// [`super::Error::NotKifudex`] for a file that is not a kifudex database (it is left as
    /// it was); [`super::Corrupt`] for a position index this build cannot extend; any other
    /// failure to open or migrate the database.
    ///
    /// It opens an index run of every file: a database of one shard is refused
    /// ([`super::Error::Shard`]; see [`Writer::open_for_run`]).
    pub fn open(path: &std::path::Path) -> Result<Writer> {
        Writer::open_with(path, open::StartWait::default())
    }

    /// [`Writer::open`], told how to wait for readers that hold the file at the start of
    /// the run: it says so through `wait.waiting`, and gives up when `wait.stop` is set.
    ///
    /// # Errors
    ///
    /// Those of [`Writer::open`], and [`super::Error::Interrupted`] when it gave up waiting.
    pub fn open_with(path: &std::path::Path, wait: open::StartWait<'_>) -> Result<Writer> {
        Writer::open_for_run(path, wait, None, RunScope::default())
    }

    /// [`Writer::open_with`] for an index run of `shard` (of every file when `None`): the
    /// database must hold that share, or no file yet (the share is then recorded): a database
    /// holds one shard, or the files indexed without one, never a mix. A database that holds another is refused before the run marks it.
    ///
    /// # Errors
    ///
    /// Those of [`Writer::open_with`], and [`super::Error::Shard`] when the database holds
    /// another share.
    pub fn open_for_run(
        path: &std::path::Path,
        wait: open::StartWait<'_>,
        shard: Option<Shard>,
        scope: RunScope,
    ) -> Result<Writer> {
        Writer::open_as(path, wait, Purpose::Run(shard, scope))
    }

    /// Fails at once where [`Writer::open`] would refuse the database at `path` before
    /// anything else (another run is writing it, it has hard links, it cannot be a database
    /// file), without opening it. A run that does something long before it opens the writer
    /// (a walk that counts the files for a progress bar) asks first, so that such a refusal
    /// does not wait for it.
    ///
    /// # Errors
    ///
    /// Those of the lock that [`Writer::open`] takes: [`super::Error::Busy`],
    /// [`super::Error::Linked`], and the others of a path that cannot be written.
    pub fn check_free(path: &std::path::Path) -> Result<()> {
        WriteLock::acquire(path).map(drop)
    }

    /// [`Writer::open`] for a change beside the files (an alias): it is written in one
    /// transaction, so it never leaves the database partly written, and it neither marks a
    /// run under way nor clears the mark an unfinished run left.
    ///
    /// # Errors
    ///
    /// Those of [`Writer::open`].
    pub fn open_for_change(path: &std::path::Path) -> Result<Writer> {
        Writer::open_as(path, open::StartWait::default(), Purpose::Change)
    }

    fn open_as(path: &std::path::Path, wait: open::StartWait<'_>, purpose: Purpose) -> Result<Writer> {
        let mut lock = WriteLock::acquire(path)?;
        // A run whose lock file was removed under it still writes: its mark in the database
        // and its process say so, and no run writes beside it.
        if lock.made()
            && let Ok(reader) = super::Reader::open(path)
            && let Ok(Some(super::read::UnfinishedRun::Writing(pid))) = reader.unfinished_run()
            && super::read::runs_this_program(pid)
        {
            let lock = lock.path().to_path_buf();
            return Err(super::Error::Unlocked { db: path.to_path_buf(), lock, pid });
        }
        // A refused share is said before the file is opened to write, which writes its header.
        if let Purpose::Run(shard, _) = purpose
            && let Some(refused) = open::refused_share(path, shard)
        {
            return Err(refused);
        }
        let conn = open::open_write(path, wait)?;
        let index = match Writer::prepare(&conn) {
            Ok(index) => index,
            Err(e) => {
                if open::needs_mending(open::end_run(&conn)) {
                    lock.mend_on_release();
                }
                return Err(e);
            }
        };
        let mut w = Writer {
            conn,
            path: path.to_path_buf(),
            merge_threads: 1,
            lock,
            ended: false,
            stop: None,
            games: games::GameStore::default(),
            index,
            freed: false,
            ended_merges: None,
            complete: false,
            marks_run: false,
            left_unfinished: None,
        };
        let batch = w.batch()?;
        let run = matches!(purpose, Purpose::Run(..));
        let mut left_unfinished = None;
        if let Purpose::Run(shard, scope) = purpose {
            // A refused share leaves no mark: the database holds what it held, complete.
            super::shard::claim(&batch.tx, shard)?;
            let meta = |key: &str| {
                batch.tx.query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get::<_, String>(0))
            };
            use rusqlite::OptionalExtension as _;
            // The runs before that did not finish, and what of them this one does not read. (A
            // mark with no scopes is an older kifudex's: any run covers it, as it did then.)
            let scopes: Vec<RunScope> = meta(SCOPES_KEY)
                .optional()?
                .and_then(|text| serde_json::from_str(&text).ok())
                .unwrap_or_default();
            let uncovered: Vec<RunScope> = scopes.into_iter().filter(|s| !scope.covers(s)).collect();
            if let Some(mark) = meta(RUN_KEY).optional()?
                && !uncovered.is_empty()
            {
                left_unfinished = Some((mark, uncovered.clone()));
            }
            let mut scopes = uncovered;
            scopes.push(scope);
            batch.tx.execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2), (?3, ?4)",
                (
                    RUN_KEY,
                    super::read::run_mark(),
                    SCOPES_KEY,
                    serde_json::to_string(&scopes).unwrap_or_default(),
                ),
            )?;
        }
        batch.index.deepen(&batch.tx)?;
        batch.index.recover(&batch.tx)?;
        super::names::fill_keys(&batch.tx)?;
        super::names::rekey_aliases(&batch.tx)?;
        batch.commit()?;
        w.marks_run = run;
        w.left_unfinished = left_unfinished;
        Ok(w)
    }

    /// Readies the writer's connection: its settings, its temporary table, and the record
    /// indexes (dropped in a database with no game, for the first run to make at its end).
    fn prepare(conn: &Connection) -> Result<IndexWriter> {
        conn.pragma_update(None, "wal_autocheckpoint", WAL_AUTOCHECKPOINT)?;
        conn.pragma_update(None, "cache_size", -PAGE_CACHE_KIB)?;
        conn.execute_batch("CREATE TEMP TABLE seen(path TEXT PRIMARY KEY) WITHOUT ROWID")?;
        // The lists of the newest games look records up as readers do.
        rusqlite::vtab::array::load_module(conn)?;
        let no_games: bool = conn.query_row("SELECT NOT EXISTS(SELECT 1 FROM games)", [], |r| r.get(0))?;
        if no_games {
            let tx = conn.unchecked_transaction()?;
            for (name, _) in RECORD_INDEXES {
                tx.execute_batch(&format!("DROP INDEX IF EXISTS {name}"))?;
            }
            tx.commit()?;
        } else {
            make_record_indexes(conn)?;
        }
        IndexWriter::open(conn)
    }

    /// Says whether the run leaves the database complete: an index run that read every file
    /// it was given (not by default). Only a complete run that is not stopped in its final
    /// merges clears the mark an unfinished run left.
    pub fn set_complete(&mut self, complete: bool) {
        self.complete = complete;
    }

    /// Sets the number of postings buffered before a run is written
    /// ([`super::RUN_POSTINGS`] by default; at least 1).
    pub fn set_run_postings(&mut self, n: usize) {
        self.index.set_run_postings(n);
    }

    /// Sets the number of games of one run that make a position hot (at least 1; see the
    /// position index).
    pub fn set_hot_games(&mut self, games: u32) {
        self.index.set_hot_games(games);
    }

    /// Sets the threads a large merge of runs takes (1 by default: the writer's own).
    pub fn set_merge_threads(&mut self, threads: usize) {
        self.merge_threads = threads.max(1);
    }

    /// Gives the writer a flag that, once set, stops merges: the one under way is rolled
    /// back, and [`Writer::finish`] makes no other (the next run makes them).
    pub fn set_stop(&mut self, stop: Arc<AtomicBool>) {
        self.stop = Some(stop);
    }

    /// Starts a batch.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn batch(&mut self) -> Result<Batch<'_>> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        // Ids are not reused: the highest is the games stored, and the few deleted since.
        let stored: i64 = tx.query_row("SELECT coalesce(max(id), 0) FROM games", [], |r| r.get(0))?;
        // What a batch rolled back unlinked is linked again.
        self.games.start_batch(stored);
        let due_games = COMMIT_GAMES.max(usize::try_from(stored).unwrap_or(0) / BATCH_SHARE);
        let due_after = COMMIT_EVERY.saturating_mul((due_games / COMMIT_GAMES) as u32).min(COMMIT_EVERY_MAX);
        Ok(Batch {
            tx,
            due_games,
            due_after,
            games: &mut self.games,
            index: &mut self.index,
            freed: &mut self.freed,
            started: Instant::now(),
            written: 0,
        })
    }

    /// Games deleted by this writer because no file holds them any more (files gone, or
    /// read again without them). A game stored again under a new id, because its ending
    /// changed with its records, is not one of them.
    pub fn games_removed(&self) -> u64 {
        self.games.removed()
    }

    /// Games stored again under a new id by this writer, because their ending changed with
    /// their records (see game storage).
    pub fn games_renumbered(&self) -> u64 {
        self.games.renumbered()
    }

    /// Merges the runs a tier has filled (see the policy in the position index), each merge
    /// in a transaction of its own; between batches.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn merge_filled(&mut self) -> Result<()> {
        let threads = Some(ReaderThreads { path: &self.path, threads: self.merge_threads });
        let (merged, _) = merge_runs(&mut self.conn, &mut self.index, false, self.stop.as_deref(), threads)?;
        self.freed |= merged > 0;
        Ok(())
    }

    /// Merges runs as the policy says (unless the stop flag is set), counts the positions
    /// that became hot, and frees the pages the run emptied: the work that ends a run, before
    /// [`Writer::finish`], which makes it when it was not made. Best made on the thread that
    /// wrote the run: SQLite's page cache was allocated there, and the C library's allocator
    /// gives another thread new memory for it instead of the memory that thread gives back
    /// (over 100,000 games, a peak of about 330 MB instead of 295).
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn end_merges(&mut self) -> Result<()> {
        if self.ended_merges.is_some() {
            return Ok(());
        }
        // Made even when the run was stopped: queries filtered by player need them.
        make_record_indexes(&self.conn)?;
        // The buffers and caches are done with; a merge needs none of their memory.
        self.index.release_memory();
        self.games.release_memory();
        let threads = Some(ReaderThreads { path: &self.path, threads: self.merge_threads });
        let (merged, mut stopped) =
            merge_runs(&mut self.conn, &mut self.index, true, self.stop.as_deref(), threads)?;
        // A signal past the merges stops the run as well: what is left is for the next run.
        let stop = self.stop.clone();
        let stop_set = move || stop.as_deref().is_some_and(|s| s.load(Ordering::Relaxed));
        stopped |= stop_set();
        if !stopped {
            self.index.scan_hot(&mut self.conn)?;
            // Here, not when the writer opens: made on another thread, they would fill a page
            // cache the writer's thread then fills again (see above), and a run resumed after
            // Ctrl-C at 924,000 games of a million peaked at 437 MB instead of about 300.
            let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let threads = Some(ReaderThreads { path: &self.path, threads: self.merge_threads });
            match self.index.list_hot(&tx, threads, &stop_set) {
                Err(Error::Interrupted) => {
                    tx.rollback()?;
                    stopped = true;
                }
                listed => {
                    listed?;
                    tx.commit()?;
                }
            }
        }
        stopped |= stop_set();
        if (self.freed || merged > 0) && !stopped {
            // Each step of this pragma frees one page, so it must be stepped to the end.
            let mut vacuum = self.conn.prepare("PRAGMA incremental_vacuum")?;
            let mut steps = vacuum.query([])?;
            while steps.next()?.is_some() {}
        }
        if !stopped {
            self.conn.execute_batch("PRAGMA optimize")?;
        }
        self.ended_merges = Some((merged, stopped));
        Ok(())
    }

    /// Ends the run, after [`Writer::end_merges`] (made here unless it was): the database is
    /// checkpointed and put back in rollback-journal mode.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn finish(mut self) -> Result<Finished> {
        self.end_merges()?;
        let (merged, stopped) = self.ended_merges.unwrap_or_default();
        if self.marks_run && self.complete && !stopped {
            match &self.left_unfinished {
                None => {
                    self.conn.execute("DELETE FROM meta WHERE key IN (?1, ?2)", [RUN_KEY, SCOPES_KEY])?;
                }
                // What this run did not read is still missing: the mark of the run that was
                // to read it stays.
                Some((mark, scopes)) => {
                    self.conn.execute(
                        "INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2), (?3, ?4)",
                        (RUN_KEY, mark, SCOPES_KEY, serde_json::to_string(scopes).unwrap_or_default()),
                    )?;
                }
            }
        }
        let files_to_read_again = self.conn.query_row(
            "SELECT count(*) FROM files_read_before JOIN files ON files.id = file WHERE format IS NOT NULL",
            [],
            |r| r.get::<_, i64>(0),
        )? as u64;
        self.ended = true;
        let at_rest = open::end_run(&self.conn).inspect_err(|_| self.lock.mend_on_release())?;
        let unfinished_before = self.left_unfinished.take().map(|(_, scopes)| scopes).unwrap_or_default();
        Ok(Finished { merged, stopped, wal_kept: !at_rest, files_to_read_again, unfinished_before })
    }
}

/// The page cache, in KiB, while [`make_record_indexes`] sorts. SQLite's sorter holds as many
/// records in memory as the connection's page cache has room for before it writes them out
/// as one sorted part: with the writer's cache, a million records were sorted in one piece,
/// which took longer than sorting parts of this size and merging them (the three indexes of
/// a million games: 1.46 s instead of 2.22 at the end of a first run; no change at 100,000).
const SORT_CACHE_KIB: i64 = 2_048;

/// Makes the [`RECORD_INDEXES`] that are missing. The page cache is made small for the sorts
/// and set back after, which drops the pages it held: at the end of a run the writer is done
/// with them, and a writer that has just opened holds none yet.
fn make_record_indexes(conn: &Connection) -> Result<()> {
    let missing: Vec<&str> = RECORD_INDEXES
        .iter()
        .map(|(name, sql)| {
            let exists = conn.query_row(
                "SELECT EXISTS(SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?1)",
                [name],
                |r| r.get::<_, bool>(0),
            )?;
            Ok((!exists).then_some(*sql))
        })
        .filter_map(Result::transpose)
        .collect::<Result<_>>()?;
    if missing.is_empty() {
        return Ok(());
    }
    let cache: i64 = conn.query_row("PRAGMA cache_size", [], |r| r.get(0))?;
    conn.pragma_update(None, "cache_size", -SORT_CACHE_KIB)?;
    let made = conn.unchecked_transaction().and_then(|tx| {
        for sql in &missing {
            tx.execute_batch(sql)?;
        }
        tx.commit()
    });
    conn.pragma_update(None, "cache_size", cache)?;
    Ok(made?)
}

impl Drop for Writer {
    /// A writer dropped without [`Writer::finish`] (its run failed, or stopped early) ends the
    /// run as well as it can. (A batch not committed was rolled back when it was dropped.)
    fn drop(&mut self) {
        if !self.ended && open::needs_mending(open::end_run(&self.conn)) {
            self.lock.mend_on_release();
        }
    }
}

impl Batch<'_> {
    /// The connection, in the batch's transaction, for what is written beside files and
    /// games (aliases, name keys).
    pub(in crate::db) fn conn(&self) -> &Connection {
        &self.tx
    }

    /// Whether the batch is due for a commit: it holds 10,000 games, or began two seconds ago
    /// (so that readers see progress and the WAL stays small); in a database of more than
    /// 50,000 games, a fifth of the games stored before it, or as much longer (at most 30
    /// seconds).
    pub fn is_due(&self) -> bool {
        self.written >= self.due_games || self.started.elapsed() >= self.due_after
    }

    /// Whether games of files read again in the batch wait for records of its files: a
    /// commit now would delete them (see game storage), and a game moved to a file that
    /// comes later would lose its id.
    pub fn has_waiting(&self) -> bool {
        self.games.has_waiting()
    }

    /// Writes the postings of its games as a run, and commits everything.
    ///
    /// # Errors
    ///
    /// Any database failure (everything written in the batch is then rolled back).
    pub fn commit(self) -> Result<()> {
        // The games that waited for the records of the files read again, and that none holds.
        self.games.settle(&self.tx, self.index)?;
        self.index.flush(&self.tx)?;
        self.tx.commit()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scope_covers_its_roots_and_what_is_under_them_with_the_same_globs() {
        let scope = |roots: &[&str], globs: &[&str]| RunScope {
            roots: roots.iter().map(ToString::to_string).collect(),
            globs: globs.iter().map(ToString::to_string).collect(),
        };
        let kifu = scope(&["/data/kifu"], &[]);
        assert!(kifu.covers(&scope(&["/data/kifu"], &[])));
        assert!(kifu.covers(&scope(&["/data/kifu/pro", "/data/kifu/a.kif"], &["--exclude tmp"])));
        assert!(scope(&["/"], &[]).covers(&kifu));
        // A sibling whose name starts the same is not under it.
        assert!(!kifu.covers(&scope(&["/data/kifu2"], &[])));
        assert!(!kifu.covers(&scope(&["/data"], &[])));
        assert!(!scope(&["/data/kifu/pro"], &[]).covers(&kifu));
        assert!(!kifu.covers(&scope(&["/data/kifu", "/other"], &[])));
        // Globs choose files: the same ones, or none, read what they chose.
        let some = scope(&["/data/kifu"], &["--include pro"]);
        assert!(some.covers(&scope(&["/data/kifu"], &["--include pro"])));
        assert!(!some.covers(&kifu));
        assert!(!some.covers(&scope(&["/data/kifu"], &["--include ama"])));
    }

    #[test]
    fn the_record_indexes_made_at_the_end_of_a_first_run_are_those_of_the_migrations() {
        let mut conn = Connection::open_in_memory().unwrap();
        super::super::migrate::migrate(&mut conn).unwrap();
        for (name, sql) in RECORD_INDEXES {
            let stored: String = conn
                .query_row("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?1", [name], |r| {
                    r.get(0)
                })
                .unwrap();
            assert_eq!(stored, sql);
        }
    }

    #[test]
    fn the_record_indexes_are_made_where_missing_and_the_page_cache_set_back() {
        let mut conn = Connection::open_in_memory().unwrap();
        super::super::migrate::migrate(&mut conn).unwrap();
        conn.pragma_update(None, "cache_size", -PAGE_CACHE_KIB).unwrap();
        let names = |conn: &Connection| -> Vec<String> {
            let mut stmt = conn
                .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'sources_%' ORDER BY name")
                .unwrap();
            stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
        };
        let all = names(&conn);
        for (name, _) in &RECORD_INDEXES[1..] {
            conn.execute_batch(&format!("DROP INDEX {name}")).unwrap();
        }
        assert_eq!(names(&conn).len(), all.len() - 2);
        make_record_indexes(&conn).unwrap();
        assert_eq!(names(&conn), all);
        let cache: i64 = conn.query_row("PRAGMA cache_size", [], |r| r.get(0)).unwrap();
        assert_eq!(cache, -PAGE_CACHE_KIB);
        // With nothing missing, nothing changes.
        make_record_indexes(&conn).unwrap();
        assert_eq!(names(&conn), all);
    }
}
