//! Indexing: from paths on disk to games and positions in the database.
//!
//! # Flow
//!
//! 1. The paths are made absolute and walked ([`crate::walk`]), one file at a time in path
//!    order, and cut into chunks as they come.
//! 2. For each chunk, I/O threads decide whether each file changed (size and modification
//!    time, then the content hash) and read the changed ones, a chunk ahead of the rayon
//!    workers (`jobs` of them), which replay them and prepare their games; the chunk's
//!    results are collected in path order.
//!    The files of a chunk are parsed in groups of a few MiB.
//! 3. The groups' results go through a bounded channel to one writer thread, the only owner
//!    of the database connection, which writes them in order in batched transactions.
//!
//! # Large files
//!
//! A file of many games ([`crate::kifu::Format::holds_several_games`]: a server's CSA archive
//! in one file, engine self-play as USI lines) of [`LARGE_FILE_BYTES`] or more is cut between
//! games into pieces of a few hundred KiB ([`crate::kifu::pieces`]), read a few pieces at a time
//! on every worker, and handed to the writer a part at a time: its games are never all in
//! memory, and one file keeps every core busy. The writer writes all its parts in one
//! transaction, so a file is never half written; a run stopped while it reads one removes what
//! it wrote of it, and the next run reads the file again. The database is the one reading the
//! file whole makes, game ids included.
//!
//! # Memory
//!
//! Nothing grows with the number of files, or with the size of a file: the walk is never
//! collected into a list, every buffer, queue and cache has a bound (the chunks read ahead,
//! the groups and parts in flight, the writer's postings buffer, its caches and SQLite's page
//! caches), and a large file is read in parts. Only `prune` keeps something per file: a
//! 16-byte hash of each path seen; and the walk keeps 16 bytes for each file that may have
//! another name it cannot tell from the path (see [`crate::walk`]).
//!
//! Because the writer takes files in path order and games in file order, game ids never
//! depend on the number of threads or on timing.
//!
//! # Rejects and skipped files
//!
//! - An entry that cannot be read (permissions, an I/O error), a path
//!   given that does not exist (when another one does), and a file with a record extension
//!   that holds no record (not text, no known format, empty) are *rejected files*: a reject
//!   row each, no games.
//! - A file that holds no record and need not hold one is *skipped*, not rejected: a file
//!   whose name is no record's (`package.json`, `notes.txt`, a saved web page, a README) or
//!   one that may hold a record but does not (see [`crate::walk`] and the `prepare` module).
//!   It is counted, never recorded; one that held a record before and no longer does loses
//!   its games.
//! - So is a file removed (`vanished`) or written to (`changed`: its size or modification time
//!   differ from the walk's, once it is read) while the run goes on. Its games are left as
//!   they were, and the next run reads it as it is then.
//! - A game that stops early (unreadable past some point, an illegal move) is stored up to the
//!   stop, *and* is a *rejected game*: a reject row with its index, line, ply and reason. It
//!   counts in `games_added`, `games_kept` or `games_duplicate` like any game, and in
//!   `games_rejected` too.
//! - A game whose start position is impossible (more pieces than a set holds, two kings of a
//!   side, the side not to move in check) has no position to store: it is a rejected game
//!   (`bad_start`) and nothing else, so no reader ever meets it.
//! - Files the walk does not consider records (by extension) are ignored, not rejected.
//! - A symbolic link that the run does not follow is neither read nor counted as a file: it
//!   is counted apart ([`Summary::links_not_followed`], and of those the broken ones), so
//!   that a front end can say that what links lead to was left out; so is a link followed
//!   back to a directory that holds it ([`Summary::links_to_ancestors`]), and another name
//!   of a file found under its own ([`Summary::other_names`]). A row an earlier run wrote for
//!   such another name is removed at the end of the run, once the file's own name holds its
//!   games.
//! - A pipe, a socket or a device among the files of a directory is never opened: it is
//!   skipped, and counted apart too ([`Summary::not_files`]).
//!
//! The counts report what the run did: an unchanged file is not read again, so it counts as
//! unchanged, not as rejected, even when an earlier run recorded rejects for it (they stay
//! in the database, and `export rejects` lists them).
//!
//! # Stopping
//!
//! A run stops early when its stop flag ([`Options::stop`]) is set: it writes no file
//! after the one under way, commits what it wrote, skips the pruning (its walk did not
//! finish) and the merges not yet begun, and ends. What it committed stays; the next run
//! goes on from there. A run killed outright leaves what it had committed too (see
//! [`crate::db`]). A run stopped inside a file read in parts (see [`LARGE_FILE_BYTES`]) ends
//! as a kill there would: what it wrote since its last commit is rolled back, that file's
//! earlier version (if any) stays as it was, and the summary counts what was committed.

//! # Warnings
//!
//! A game kept whole whose record holds something read past (a line that is no part of the
//! format), an ending the moves contradict, or a date header that gives no date to store
//! (impossible, ambiguous or unreadable: [`crate::kifu::info::date_warnings`]), or a header
//! too long to store as a field ([`crate::kifu::info::long_value_warnings`]), gets a
//! *warning* row (path, game index, line, ply, code, message; the codes are in
//! [`crate::kifu`], [`crate::kifu::info::DateProblem`] and [`crate::replay`]), stored beside
//! the rejects and replaced with the file's games. A run counts the warnings of the files it
//! reads; they do not change its exit status.
//!
//! # Incremental runs
//!
//! An unchanged file is not read again. A changed file's games are replaced (a game that
//! another file also holds stays). With `prune`, files recorded under the given paths that
//! the walk no longer finds, and that are gone from the disk, are removed with their games.
//! A file the walk did not reach that is still there (a glob leaves it out, a link to it is
//! not followed, its directory cannot be read) is kept, and counted
//! ([`Summary::files_unwalked`]). A file read through a link that now leads nowhere is gone,
//! unless what it led to was on a disk not mounted.
//!
//! # Shards
//!
//! With a [`Shard`] ([`Options::shard`]), a run reads only the files the shard takes (see
//! [`crate::walk`]); the others are found but not read, counted apart
//! ([`Summary::files_other_shards`]), and never pruned, since they are not gone. The database
//! records its shard at its first run, and a run that asks for another (or for none, or a
//! shard of a database that holds files indexed without one) is refused before it writes
//! anything, so a database never mixes shares.

mod prepare;
mod writer;

use std::{
    path::{Path, PathBuf},
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    thread,
};

use rayon::prelude::*;
use serde::Serialize;

pub use self::prepare::MAX_FILE_BYTES;
use self::prepare::{Fetched, Outcome, fetch, process, process_in_parts};
pub use crate::db::NewReject;
pub use crate::text::{path_text, text_path};
use crate::{
    db::{self, Reader, StartWait, Writer},
    shard::Shard,
    walk::{self, Entry, Expect, GlobKind, Globs, WalkOptions},
};

/// Files per chunk handed to the workers at once, at most.
const CHUNK_FILES: usize = 512;
/// Bytes per chunk, at most (a chunk has at least one file).
const CHUNK_BYTES: u64 = 32 << 20;
/// Bytes of the files parsed together and handed to the writer at once, at most (a group has
/// at least one file): the games of a chunk of small files (USI lines, say, 500 bytes a game)
/// would take much more memory together.
const GROUP_BYTES: usize = 4 << 20;
/// The size from which a file of many games (CSA, USI lines) is read in parts, a few hundred
/// KiB of its text at a time on every thread, so that the memory its games take does not grow
/// with it (see the module documentation).
pub const LARGE_FILE_BYTES: usize = 1 << 20;
/// Groups (or parts of a file) waiting for the writer, at most (a few MiB each), so the
/// workers go on while the writer sorts and writes a run, or waits on the disk while a
/// checkpoint copies the log into the file: with 4, both cores stood idle a sixth of the time
/// over the 100,000-game bench corpus, which took 8 s instead of 7.2 (50 MB less of peak
/// memory).
const CHANNEL_CHUNKS: usize = 16;
/// Chunks read ahead of the workers, at most.
const FETCHED_CHUNKS: usize = 2;
/// Threads reading files.
const IO_THREADS: usize = 4;
/// The page cache of the connection that looks up the state of each file, in KiB.
const LOOKUP_CACHE_KIB: u32 = 2_048;

/// What to index and how.
#[derive(Clone, Debug)]
pub struct Options {
    /// Files and directories to index.
    pub roots: Vec<PathBuf>,
    /// The database file.
    pub db: PathBuf,
    /// Worker threads for reading and replaying.
    pub jobs: usize,
    /// Remove the games of files under `roots` that are gone.
    pub prune: bool,
    /// Read every file again, changed or not (as a migration marks files whose reading changed).
    pub reread: bool,
    /// Follow symbolic links while walking.
    pub follow_links: bool,
    /// The files to take under the directories walked.
    pub globs: std::sync::Arc<Globs>,
    /// Positions buffered in memory before they are written as a run (memory against the
    /// number of runs; [`db::RUN_POSTINGS`] by default).
    pub run_postings: usize,
    /// Games of one run that make a position hot, its counts then kept per position and move
    /// ([`db::HOT_GAMES`] by default).
    pub hot_games: u32,
    /// The size from which a file of many games is read in parts ([`LARGE_FILE_BYTES`] by
    /// default): its games are then read on every thread, and never all in memory at once.
    pub large_file_bytes: usize,
    /// When set (by a signal handler, say), the run stops early and keeps what it wrote
    /// (see the module documentation).
    pub stop: Option<Arc<AtomicBool>>,
    /// Index only this share of the files (see the module documentation).
    pub shard: Option<Shard>,
}

/// The number of workers when none is asked for: one per CPU (2 when that is unknown).
pub fn default_jobs() -> usize {
    thread::available_parallelism().map_or(2, |n| n.get())
}

/// The number of workers for `asked` workers ([`default_jobs`] when none are), which is
/// never more than the CPUs: the workers only parse and replay (files are read on threads of
/// their own), so more would only take turns on the same cores, each with its own buffers,
/// and every large merge takes a connection per worker. (A thousand workers took seconds
/// to index a few files on two cores, and sixty-five thousand held the machine for minutes.)
pub fn jobs(asked: Option<usize>) -> usize {
    let cpus = default_jobs();
    asked.map_or(cpus, |n| n.clamp(1, cpus))
}

impl Options {
    /// Indexing `roots` into `db` with the defaults: one worker per CPU, no pruning, links
    /// not followed.
    pub fn new(roots: Vec<PathBuf>, db: PathBuf) -> Options {
        Options {
            roots,
            db,
            jobs: default_jobs(),
            prune: false,
            reread: false,
            follow_links: false,
            globs: std::sync::Arc::default(),
            run_postings: db::RUN_POSTINGS,
            hot_games: db::HOT_GAMES,
            large_file_bytes: LARGE_FILE_BYTES,
            stop: None,
            shard: None,
        }
    }
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Files and unreadable entries found by the walk (of this run's shard, with one). Each
    /// is counted once more, in one of `files_indexed`, `files_unchanged`, `files_rejected`
    /// and `files_skipped`.
    pub files_seen: u64,
    /// Files read in this run (new or changed) that hold records (their games are counted
    /// below, rejected ones too).
    pub files_indexed: u64,
    /// Files not read again because they had not changed.
    pub files_unchanged: u64,
    /// Files (and entries) read in this run that yield no game but should.
    pub files_rejected: u64,
    /// Files that hold no record and need not (not read, or read and found to be no record).
    pub files_skipped: u64,
    /// Files removed because they are gone (with `prune`).
    pub files_pruned: u64,
    /// Files holding records that an earlier version indexed, which read past what this one
    /// keeps (KIF bookmarks and remarks, Western annotation marks, times it rounds), and that
    /// no run has read again since (they changed, or [`Options::reread`]).
    pub files_to_read_again: u64,
    /// Files recorded under the paths given that the walk did not reach but that are still
    /// there (left out by a glob, behind a link not followed, in a directory that cannot be
    /// read): `prune` keeps them (counted with `prune` only).
    pub files_unwalked: u64,
    /// Files recorded under the paths given that are gone, kept by `prune` because the nearest
    /// of their directories still there is empty and on another filesystem than theirs was:
    /// the mount point of a disk not mounted (counted with `prune` only).
    pub files_unmounted: u64,
    /// Files recorded under the paths given that are gone (nothing is at their path, or a
    /// link there leads nowhere), whose games stay in the answers until a run with `prune`
    /// forgets them (counted without `prune` only, by a run that read every file).
    pub files_gone: u64,
    /// The directories that kept [`Summary::files_unmounted`], in the order met.
    pub unmounted_dirs: Vec<String>,
    /// Files (and unreadable entries) that other shards take: found, not read (0 without a
    /// shard).
    pub files_other_shards: u64,
    /// Symbolic links under the directories walked that the run did not follow (without
    /// [`Options::follow_links`], or with it when they lead nowhere): neither read nor
    /// counted as files.
    pub links_not_followed: u64,
    /// Of [`Summary::links_not_followed`], those that lead nowhere (what they name does not
    /// exist or cannot be looked at, or only more links round in a circle), which following
    /// would not help.
    pub links_broken: u64,
    /// Symbolic links to a directory that holds them, which a run that follows links does not
    /// follow (it would go round in a circle): neither read nor counted as files, nor
    /// rejected.
    pub links_to_ancestors: u64,
    /// Names of files that the run found under another name (links followed, hard links):
    /// neither read nor counted as files (see [`crate::walk`] for the name a file keeps).
    pub other_names: u64,
    /// Of [`Summary::files_skipped`], the pipes, sockets and devices among the files of the
    /// directories walked, never opened.
    pub not_files: u64,
    /// Of [`Summary::not_files`], those named as records are (`.kif`, `.csa`, …).
    pub not_files_named_as_records: u64,
    /// Games stored as new games.
    pub games_added: u64,
    /// Records of changed files read again that the file held before (or that another
    /// changed file held, for a game moved), found as they were (the same moves and ending):
    /// their games keep their ids.
    pub games_kept: u64,
    /// Games read that were already stored (from another file or format).
    pub games_duplicate: u64,
    /// Games deleted because no file holds them any more: their files were pruned, hold
    /// no record any more, or were read again without them.
    pub games_removed: u64,
    /// Games stored again under a new id because their ending changed with their records:
    /// the first of their records that says an ending says another now.
    pub games_renumbered: u64,
    /// Games that stopped early (stored up to the stop), or whose start is impossible (not
    /// stored).
    pub games_rejected: u64,
    /// Warnings about the games of the files read in this run: lines read past, endings the
    /// moves contradict (see `kifudex export warnings`). They do not make a run fail.
    pub warnings: u64,
    /// Positions indexed for the new games.
    pub positions: u64,
    /// Position runs merged at the end.
    pub runs_merged: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Whether the run stopped early, on its stop flag (a run again finishes the work).
    pub interrupted: bool,
    /// Whether the database stays in WAL mode, because other programs had it open as the
    /// run ended (see [`crate::db`]).
    #[serde(skip)]
    pub wal_kept: bool,
    /// The include and exclude globs that matched nothing, each with its list. Left out of
    /// the serialized summary: a front end names them as its user gave them.
    #[serde(skip)]
    pub globs_unmatched: Vec<(GlobKind, String)>,
    /// What runs before this one that did not finish were to read, and this one did not
    /// (see [`db::RunScope`]): the database still lacks some of it, and readers say so.
    pub unfinished_before: Vec<db::RunScope>,
}

impl Summary {
    /// Whether some input read in this run was rejected.
    pub fn has_rejects(&self) -> bool {
        self.files_rejected > 0 || self.games_rejected > 0
    }
}

/// Progress reports and reject notices, called from the writer thread in path order.
pub trait Observer: Sync {
    /// Whether to count the files before the run and call [`Observer::start`] (a walk of
    /// its own, so only when the count is shown).
    fn wants_total(&self) -> bool {
        false
    }
    /// `files` files will be looked at.
    fn start(&self, files: u64) {
        let _ = files;
    }
    /// `done` files are done; `summary` holds the counts so far.
    fn progress(&self, done: u64, summary: &Summary) {
        let _ = (done, summary);
    }
    /// `done` files are done, and `read` of the `parts` of the next, a large file read in
    /// parts (see [`LARGE_FILE_BYTES`]); `summary` holds the counts so far. Its last part is
    /// told by [`Observer::progress`], as a file read whole is.
    fn within_file(&self, done: u64, read: usize, parts: usize, summary: &Summary) {
        let _ = (read, parts);
        self.progress(done, summary);
    }
    /// Input at `path` was rejected.
    fn reject(&self, path: &str, reject: &NewReject) {
        let _ = (path, reject);
    }
    /// Other programs are reading or writing the database in a transaction, which the run
    /// waits (up to `longest`) for them to end before it starts.
    fn waiting(&self, longest: std::time::Duration) {
        let _ = longest;
    }
}

/// An observer that ignores everything.
pub struct Quiet;

impl Observer for Quiet {}

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("nothing to index: no path given exists ({})", path_text(&.0))]
    MissingPath(PathBuf),
    #[error("{}: {error}", path_text(path))]
    Path { path: PathBuf, error: std::io::Error },
    #[error(transparent)]
    Db(#[from] db::Error),
    #[error("cannot start the worker threads: {0}")]
    Threads(rayon::ThreadPoolBuildError),
    #[error("a thread of the pipeline stopped unexpectedly")]
    ThreadPanicked,
    #[error("cannot start a thread: {error}")]
    Thread { error: std::io::Error },
    #[error("the parts of a large file reached the database out of order (a bug: please report it)")]
    PartOutOfOrder,
}

impl From<rayon::ThreadPoolBuildError> for Error {
    fn from(e: rayon::ThreadPoolBuildError) -> Error {
        Error::Threads(e)
    }
}

/// Indexes `options.roots` into `options.db`, reading files with [`crate::kifu::read_file`].
///
/// # Errors
///
/// A missing path, or any database failure (fatal: the run stops, and everything committed
/// before stays consistent).
pub fn run(options: &Options, observer: &dyn Observer) -> Result<Summary, Error> {
    let started = std::time::Instant::now();
    let roots = absolute_roots(&options.roots)?;
    let walk_options = WalkOptions {
        follow_links: options.follow_links,
        globs: options.globs.clone(),
        shard: options.shard,
    };
    let stopped = || options.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed));
    if observer.wants_total() {
        // The count may take a while over a large tree: a database that another run is
        // writing is refused before it, at once.
        Writer::check_free(&options.db)?;
        let files = walk::entries(&roots, walk_options.clone()).take_while(|_| !stopped()).count();
        if stopped() {
            return Ok(Summary {
                interrupted: true,
                seconds: started.elapsed().as_secs_f64(),
                ..Summary::default()
            });
        }
        observer.start(files as u64);
    }
    let wait =
        StartWait { stop: options.stop.as_deref(), waiting: Some(&|| observer.waiting(db::START_WAIT)) };
    let scope = db::RunScope {
        roots: roots.iter().map(|r| path_text(r)).collect(),
        globs: options.globs.given().iter().map(|(kind, glob)| format!("--{} {glob}", kind.name())).collect(),
    };
    let mut writer = match Writer::open_for_run(&options.db, wait, options.shard, scope) {
        Err(db::Error::Interrupted) => {
            return Ok(Summary {
                interrupted: true,
                seconds: started.elapsed().as_secs_f64(),
                ..Summary::default()
            });
        }
        writer => writer?,
    };
    writer.set_run_postings(options.run_postings);
    writer.set_hot_games(options.hot_games);
    writer.set_merge_threads(options.jobs);
    if let Some(stop) = &options.stop {
        writer.set_stop(Arc::clone(stop));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.jobs.max(1))
        .thread_name(|i| format!("kifudex-worker-{i}"))
        .build()?;
    let io_pool = rayon::ThreadPoolBuilder::new()
        .num_threads(IO_THREADS)
        .thread_name(|i| format!("kifudex-io-{i}"))
        .build()?;
    let root_texts: Vec<String> = roots.iter().map(|r| path_text(r)).collect();
    let outer_roots = &outermost(&roots);
    // A path given that does not exist is a reject, and nothing under it is pruned: a typo
    // or a disk not mounted must not empty the database.
    let prune_roots: Vec<String> = roots.iter().filter(|r| r.exists()).map(|r| path_text(r)).collect();
    let (tx, rx) = crossbeam_channel::bounded::<Vec<Outcome>>(CHANNEL_CHUNKS);
    let (fetched_tx, fetched_rx) = crossbeam_channel::bounded::<(Vec<Entry>, Vec<Fetched>)>(FETCHED_CHUNKS);

    thread::scope(|scope| {
        let root_texts = &root_texts;
        let prune_roots = &prune_roots;
        let roots = &roots;
        let walk_options = &walk_options;
        let spawn_error = |error| Error::Thread { error };
        let writer = thread::Builder::new()
            .name("kifudex-writer".to_string())
            .spawn_scoped(scope, move || {
                let mut writer = writer;
                let prune = if options.prune { Some(prune_roots.as_slice()) } else { None };
                let mut written = writer::write_all(&mut writer, rx, root_texts, prune, &stopped, observer);
                if matches!(written, Ok(writer::Wrote::Committed(_))) {
                    // Here, where SQLite's memory was allocated (see `end_merges`).
                    if let Err(e) = writer.end_merges() {
                        written = Err(e.into());
                    }
                }
                (written, writer)
            })
            .map_err(spawn_error)?;
        // Walking and reading run a chunk ahead of parsing, on more threads than there are
        // cores: files that are not in the page cache keep a thread waiting on the disk.
        let fetcher = thread::Builder::new()
            .name("kifudex-fetch".to_string())
            .spawn_scoped(scope, move || -> Result<Recorded, Error> {
                let reader = Reader::open(&options.db)?;
                reader.set_cache_kib(LOOKUP_CACHE_KIB)?;
                // Into a database without files, every file is new: no state to look up (the
                // files this run writes are the walk's own, each seen once).
                let lookup = reader.has_files()?;
                // Without `prune`, the files recorded that the walk does not find are counted
                // (see `gone_files`): as many found as recorded means none.
                let mut recorded = Recorded::default();
                if lookup && !options.prune {
                    recorded.before = reader.files_under(outer_roots)?;
                }
                let reread = options.reread;
                let own = own_files(&options.db);
                let mut entries =
                    walk::entries(roots, walk_options.clone()).filter(|e| !is_own(e, &own)).peekable();
                loop {
                    let chunk = next_chunk(&mut entries);
                    if chunk.is_empty() || stopped() {
                        break;
                    }
                    let states = chunk
                        .iter()
                        .map(|e| match e {
                            Ok(file) if lookup && matches!(file.expect, Expect::Record | Expect::Maybe) => {
                                reader.file_state(&path_text(&file.path))
                            }
                            _ => Ok(None),
                        })
                        .collect::<Result<Vec<_>, _>>()?;
                    recorded.found += states.iter().filter(|s| s.is_some()).count() as u64;
                    let fetched = io_pool.install(|| {
                        chunk
                            .par_iter()
                            .zip(states)
                            .map(|(entry, state)| fetch(entry, state, reread))
                            .collect()
                    });
                    if fetched_tx.send((chunk, fetched)).is_err() {
                        break; // the pipeline stopped: its error is reported below
                    }
                }
                Ok(recorded)
            })
            .map_err(spawn_error)?;
        let mut send = |outcomes| !stopped() && tx.send(outcomes).is_ok();
        for (chunk, fetched) in fetched_rx {
            // Stopped, or the writer did: its error is reported below.
            if !parse_chunk(&chunk, fetched, &pool, options.large_file_bytes, &mut send) {
                break;
            }
        }
        drop(tx);
        let (written, mut writer) = writer.join().map_err(|_| Error::ThreadPanicked)?;
        let fetched = fetcher.join().map_err(|_| Error::ThreadPanicked)?;
        // The fetcher's connection is closed now, so ending the run can put the file back in
        // rollback mode (on an error, the writer's drop does that).
        let written = written?;
        let recorded = fetched?;
        let mut summary = match written {
            writer::Wrote::Committed(mut summary) => {
                writer.set_complete(!summary.interrupted);
                let finished = writer.finish()?;
                summary.runs_merged = finished.merged as u64;
                summary.interrupted |= finished.stopped;
                summary.wal_kept = finished.wal_kept;
                summary.files_to_read_again = finished.files_to_read_again;
                summary.unfinished_before = finished.unfinished_before;
                // A count to tell the user, after everything is committed: a failure to read
                // it back fails nothing the run did.
                if !summary.interrupted && recorded.before > recorded.found {
                    summary.files_gone = gone_files(&options.db, outer_roots).unwrap_or(0);
                }
                summary
            }
            // Left as a kill would leave it: the writer's drop ends the run as well as it can.
            writer::Wrote::RolledBack(summary) => summary,
        };
        summary.seconds = started.elapsed().as_secs_f64();
        summary.globs_unmatched = options.globs.unmatched();
        Ok(summary)
    })
}

/// The files recorded under the paths given, before a run, and those of them its walk found.
#[derive(Clone, Copy, Debug, Default)]
struct Recorded {
    before: u64,
    found: u64,
}

/// The roots that exist and are under no other, as text: the files recorded under them are
/// those of the files a run walks.
fn outermost(roots: &[PathBuf]) -> Vec<String> {
    let mut outer: Vec<&PathBuf> = Vec::new();
    for root in roots.iter().filter(|r| r.exists()) {
        if !outer.iter().any(|o| root.starts_with(o)) {
            outer.retain(|o| !o.starts_with(root));
            outer.push(root);
        }
    }
    outer.into_iter().map(|r| path_text(r)).collect()
}

/// How many files recorded under `roots` are gone, as `prune` tells them (a file a link
/// led to, gone, included): looked at one by one, which a run does only when the walk found
/// fewer of them than were recorded.
fn gone_files(db: &Path, roots: &[String]) -> Result<u64, Error> {
    let reader = Reader::open(db)?;
    let mut gone = 0;
    for root in roots {
        reader.for_each_file_under(root, &mut |path| {
            gone += u64::from(!matches!(writer::missing(&text_path(path)), writer::Missing::No));
        })?;
    }
    Ok(gone)
}

/// Parses the files of a chunk on the threads of `pool`, and hands their outcomes to `send`,
/// in order: the files in groups of about [`GROUP_BYTES`], each file of `large` bytes or more
/// alone, in parts (see [`process_in_parts`]). Returns false once `send` did (the run stops).
fn parse_chunk(
    chunk: &[Entry],
    fetched: Vec<Fetched>,
    pool: &rayon::ThreadPool,
    large: usize,
    send: &mut dyn FnMut(Vec<Outcome>) -> bool,
) -> bool {
    let size = |f: &Fetched| match f {
        Fetched::Read { bytes, .. } => bytes.len(),
        Fetched::Settled(_) => 0,
    };
    let mut group: Vec<(&Entry, Fetched)> = Vec::new();
    let mut group_bytes = 0;
    let send_group = |group: &mut Vec<(&Entry, Fetched)>, send: &mut dyn FnMut(Vec<Outcome>) -> bool| {
        let files = std::mem::take(group);
        files.is_empty() || send(pool.install(|| files.into_par_iter().map(|(e, f)| process(e, f)).collect()))
    };
    for (entry, fetched) in chunk.iter().zip(fetched) {
        let bytes = size(&fetched);
        if bytes >= large {
            if !send_group(&mut group, send) {
                return false;
            }
            let mut sent = true;
            process_in_parts(entry, fetched, pool, &mut |outcomes| {
                sent = send(outcomes);
                sent
            });
            if !sent {
                return false;
            }
            continue;
        }
        if group_bytes + bytes > GROUP_BYTES && !send_group(&mut group, send) {
            return false;
        }
        group_bytes = if group.is_empty() { bytes } else { group_bytes + bytes };
        group.push((entry, fetched));
    }
    send_group(&mut group, send)
}

/// The files of the database at `db`: the database, its journal, its write-ahead log and
/// shared memory, and the run's lock.
struct Own {
    /// Their paths, resolved as the walk resolves paths.
    paths: Vec<PathBuf>,
    /// The device and number of each that is there as the walk starts: a name the walk
    /// reaches through a symbolic link it follows (`kifu/archive.kif` → `../k.sqlite`) is
    /// the link's, not the file's.
    ids: Vec<(i64, u64)>,
}

fn own_files(db: &std::path::Path) -> Own {
    let Ok(db) = std::fs::canonicalize(db) else {
        return Own { paths: Vec::new(), ids: Vec::new() };
    };
    let with = |suffix: &str| {
        let mut name = db.clone().into_os_string();
        name.push(suffix);
        PathBuf::from(name)
    };
    let mut paths: Vec<PathBuf> = db::SIDE_FILES.iter().chain(&[".lock"]).map(|s| with(s)).collect();
    paths.push(db);
    let ids =
        paths.iter().filter_map(|p| std::fs::metadata(p).ok()).filter_map(|m| walk::file_id(&m)).collect();
    Own { paths, ids }
}

/// Whether `entry` is one of the database's `own` files (the database kept beside the
/// records, named with a record's extension or any other, or taken by `--include '*'`, or
/// a link to it that the walk follows): a database is no record and one being written is no
/// input, and its side files come and go with the runs, so the walk leaves them out, as if
/// they were not there, rather than count them among the archive's files.
fn is_own(entry: &Entry, own: &Own) -> bool {
    let Ok(file) = entry else { return false };
    own.paths.contains(&file.path)
        || matches!((file.device, file.inode), (Some(device), Some(inode)) if own.ids.contains(&(device, inode.number)))
}

/// The next walked entries, at most [`CHUNK_FILES`] of them and about [`CHUNK_BYTES`] bytes
/// (at least one entry while any is left).
fn next_chunk(entries: &mut std::iter::Peekable<impl Iterator<Item = Entry>>) -> Vec<Entry> {
    let size = |e: &Entry| e.as_ref().map_or(0, |f| f.size);
    let mut chunk = Vec::new();
    let mut bytes = 0;
    while chunk.len() < CHUNK_FILES {
        let first = chunk.is_empty();
        let Some(entry) = entries.next_if(|e| first || bytes + size(e) <= CHUNK_BYTES) else {
            break;
        };
        bytes += size(&entry);
        chunk.push(entry);
    }
    chunk
}

/// The roots as absolute paths without symbolic links, so a file has one path whatever
/// directory the command runs from. These are the paths the database records. A root that
/// does not exist is kept, made absolute, for the walk to report; so is one that cannot be
/// resolved (a link to a pipe, as `/dev/fd/63` from a shell's `<(…)`, exists but has no path),
/// and one that leads to no file or directory (a link `null.kif` to `/dev/null` is rejected
/// under the name given, not under the device's).
///
/// # Errors
///
/// [`Error::MissingPath`] when no root exists (nothing could be indexed), or the current
/// directory cannot be known.
pub fn absolute_roots(roots: &[PathBuf]) -> Result<Vec<PathBuf>, Error> {
    let special = |p: &Path| std::fs::metadata(p).is_ok_and(|m| !m.is_file() && !m.is_dir());
    let mut found = false;
    let mut out = Vec::with_capacity(roots.len());
    for root in roots {
        let resolved = std::fs::canonicalize(root);
        found |= match &resolved {
            Ok(_) => true,
            Err(e) => e.kind() != std::io::ErrorKind::NotFound || std::fs::metadata(root).is_ok(),
        };
        match resolved {
            Ok(p) if !special(&p) => out.push(p),
            _ => out
                .push(std::path::absolute(root).map_err(|error| Error::Path { path: root.clone(), error })?),
        }
    }
    match roots.first() {
        Some(first) if !found => Err(Error::MissingPath(first.clone())),
        _ => Ok(out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workers_asked_for_are_never_more_than_the_cpus() {
        let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
        assert_eq!(jobs(None), cpus);
        assert_eq!(jobs(Some(1)), 1);
        assert_eq!(jobs(Some(0)), 1);
        assert_eq!(jobs(Some(cpus)), cpus);
        assert_eq!(jobs(Some(1000)), cpus.min(1000));
        assert_eq!(jobs(Some(usize::from(u16::MAX))), cpus.min(usize::from(u16::MAX)));
    }
}
