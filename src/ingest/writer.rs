//! The writer thread: takes the workers' chunks in order and writes them.

use crossbeam_channel::Receiver;

use super::{
    Error, Observer, Summary,
    prepare::{FileWork, Outcome, Part},
};
use crate::db::{Batch, NewReject, WriteCounts, Writer};

/// How [`write_all`] ended.
pub(super) enum Wrote {
    /// Everything written is committed: the caller ends the run.
    Committed(Summary),
    /// The run stopped inside a file read in parts: the batch under way was rolled back, and
    /// the database is as the last commit left it, which the summary counts. The caller drops
    /// the writer without ending the run, as a run killed there would be left.
    RolledBack(Summary),
}

/// Writes every chunk from `rx` (until `stopped` says to stop), then prunes under `prune`
/// (when given, and the walk was not cut short) and commits. A batch is committed whenever it
/// is due, between files, and the runs a tier has filled are then merged. The caller finishes
/// the run.
pub(super) fn write_all(
    writer: &mut Writer,
    rx: Receiver<Vec<Outcome>>,
    roots: &[String],
    prune: Option<&[String]>,
    stopped: &dyn Fn() -> bool,
    observer: &dyn Observer,
) -> Result<Wrote, Error> {
    let mut s = Summary::default();
    // What the last commit holds.
    let mut committed = s.clone();
    let mut done = 0;
    let mut open: Option<OpenFile> = None;
    // The other names of files that earlier runs recorded as files of their own (see
    // `Outcome::OtherName`).
    let mut other_names_recorded: Vec<String> = Vec::new();
    let mut batch = writer.batch()?;
    for root in roots {
        batch.clear_entry_rejects(root)?;
    }
    'chunks: for chunk in rx {
        for outcome in chunk {
            if stopped() {
                s.interrupted = true;
                break 'chunks;
            }
            // The parts of a file after its first are not another file.
            let first_part =
                !matches!(&outcome, Outcome::Read(w) if matches!(w.part, Part::Middle | Part::Last));
            done += u64::from(first_part);
            let parts_read = match &outcome {
                Outcome::Read(w) => w.parts_read,
                _ => (1, 1),
            };
            // A file another shard takes is not gone: it is marked seen so as not to be pruned.
            // A link not followed is not: a file recorded at its path was reached through it,
            // and is kept as a file the run did not reach. Nor is a pipe or a device: a file
            // recorded at its path is gone.
            let not_seen =
                matches!(outcome, Outcome::Link { .. } | Outcome::LoopBack { .. } | Outcome::NotAFile { .. });
            if prune.is_some() && first_part && !not_seen {
                batch.mark_seen(outcome.path())?;
            }
            match outcome {
                Outcome::OtherShard { .. } => s.files_other_shards += 1,
                Outcome::Link { broken, .. } => {
                    s.links_not_followed += 1;
                    s.links_broken += u64::from(broken);
                }
                Outcome::LoopBack { .. } => s.links_to_ancestors += 1,
                Outcome::OtherName { path } => {
                    s.other_names += 1;
                    if batch.holds_file(&path)? {
                        other_names_recorded.push(path);
                    }
                }
                Outcome::Read(work) => {
                    s.files_seen += u64::from(first_part);
                    write_read(&mut batch, work, &mut open, &mut s, observer)?;
                }
                outcome => {
                    s.files_seen += 1;
                    write_one(&mut batch, outcome, &mut s, observer)?;
                }
            }
            // A file read in parts is written in one batch.
            if batch.is_due() && open.is_none() {
                batch.commit()?;
                s.games_removed = writer.games_removed();
                s.games_renumbered = writer.games_renumbered();
                committed = s.clone();
                writer.merge_filled()?;
                batch = writer.batch()?;
            }
            if parts_read.0 < parts_read.1 {
                observer.within_file(done - 1, parts_read.0, parts_read.1, &s);
            } else {
                observer.progress(done, &s);
            }
        }
    }
    // The files the run had not reached when it stopped never came: the chunks ended early.
    if stopped() {
        s.interrupted = true;
    }
    // A file whose last part never came (the run stopped while it was read) is not kept half
    // written. Taking its games out one at a time costs about as much as writing them, and
    // loses the games of its earlier version (their ids with them): the batch is rolled back
    // instead, as a kill there would leave it. So is a batch whose games wait for the records
    // of files the run did not reach (a game moved to one would lose its id). The next run
    // reads its files again.
    if open.is_some() || (s.interrupted && batch.has_waiting()) {
        drop(batch);
        committed.interrupted = true;
        return Ok(Wrote::RolledBack(committed));
    }
    // A run that stopped early has not seen every file: it must not prune what it missed.
    if !s.interrupted {
        // A file has one path: the row an earlier run wrote for another of its names goes, now
        // that the file's own name has been written (or found unchanged), which holds its
        // games, so that they keep their ids.
        for path in &other_names_recorded {
            batch.remove_file(path)?;
        }
        let mut unmounted = Unmounted::default();
        for root in prune.unwrap_or_default() {
            let root_path = super::text_path(root);
            let (pruned, kept) = batch.prune_unseen(root, &mut |path, device| {
                let path = super::text_path(path);
                match missing(&path) {
                    Missing::No => false,
                    Missing::Itself => !unmounted.keeps(&path, device, Some(&root_path)),
                    Missing::Target(target) => !unmounted.keeps(&target, device, None),
                }
            })?;
            s.files_pruned += pruned;
            s.files_unwalked += kept;
        }
        s.files_unwalked -= unmounted.files;
        s.files_unmounted = unmounted.files;
        s.unmounted_dirs = unmounted.dirs.iter().map(|d| super::path_text(d)).collect();
    }
    batch.commit()?;
    s.games_removed = writer.games_removed();
    s.games_renumbered = writer.games_renumbered();
    Ok(Wrote::Committed(s))
}

/// Whether the record once read at a path is gone from the disk.
#[derive(Debug, PartialEq)]
pub(super) enum Missing {
    /// Something is still there to read: a file, or a link that leads to something.
    No,
    /// Nothing is at the path: asking for it says so, and not that it cannot be seen (a
    /// directory that cannot be read keeps its files); or something else is there, a
    /// directory or a pipe in its place.
    Itself,
    /// A link is at the path, and what it leads to (through any further links) is gone:
    /// the place where the record was read through the link.
    Target(std::path::PathBuf),
}

/// Links followed from one path before it counts as a loop, as the system counts them.
const MAX_LINKS: usize = 40;

/// Whether the record once read at `path` is gone (see [`Missing`]).
pub(super) fn missing(path: &std::path::Path) -> Missing {
    let gone = |e: &std::io::Error| {
        matches!(e.kind(), std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory)
    };
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_symlink() => {}
        Ok(m) => return if m.is_file() { Missing::No } else { Missing::Itself },
        Err(e) => return if gone(&e) { Missing::Itself } else { Missing::No },
    }
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        let Ok(to) = std::fs::read_link(&at) else { return Missing::No };
        // A relative target is taken from the link's directory.
        at = at.parent().map_or(to.clone(), |dir| dir.join(&to));
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.is_symlink() => continue,
            Ok(_) => return Missing::No,
            Err(e) => return if gone(&e) { Missing::Target(at) } else { Missing::No },
        }
    }
    // A loop of links: nothing can be read through it, but nothing says the record is gone.
    Missing::No
}

/// The directories under which gone files are kept because their disk is not mounted: the
/// nearest directory of the file still there (up to the path given) is empty and on another
/// filesystem than the file was. A mount point with no disk mounted is such a directory; a
/// directory whose files were removed on purpose is on theirs. Once the empty directory is
/// removed too, the next run prunes the files.
#[derive(Default)]
struct Unmounted {
    /// Each directory looked at, with whether it is empty and its filesystem's device
    /// (`None` when either cannot be told: its files are pruned as before).
    looked_at: std::collections::HashMap<std::path::PathBuf, Option<(bool, i64)>>,
    /// The directories that kept files, in the order met.
    dirs: Vec<std::path::PathBuf>,
    /// The files they kept.
    files: u64,
}

impl Unmounted {
    /// Whether the gone file at `path` (under `root`, when given: its directories above the
    /// root are not looked at), recorded on filesystem `device`, is kept because its disk is
    /// not mounted.
    fn keeps(&mut self, path: &std::path::Path, device: Option<i64>, root: Option<&std::path::Path>) -> bool {
        let Some(device) = device else { return false };
        let Some(dir) = path
            .ancestors()
            .skip(1)
            .take_while(|d| root.is_none_or(|root| d.starts_with(root)))
            .find(|d| std::fs::symlink_metadata(d).is_ok_and(|m| m.is_dir()))
        else {
            return false;
        };
        let looked = *self.looked_at.entry(dir.to_path_buf()).or_insert_with(|| {
            let meta = std::fs::metadata(dir).ok()?;
            let empty = std::fs::read_dir(dir).ok()?.next().is_none();
            Some((empty, crate::walk::device(&meta)?))
        });
        let keep = looked.is_some_and(|(empty, now)| empty && now != device);
        if keep {
            if !self.dirs.iter().any(|d| d == dir) {
                self.dirs.push(dir.to_path_buf());
            }
            self.files += 1;
        }
        keep
    }
}

/// A file being written: what it wrote so far. A file read whole is written at once; one read
/// in parts stays open until its last part comes.
struct OpenFile {
    path: String,
    id: i64,
    /// Its games stored.
    stored: u64,
    written: Written,
}

/// What writing some games of a file adds to a run's counts.
#[derive(Clone, Copy, Default)]
struct Written {
    added: u64,
    kept: u64,
    duplicate: u64,
    positions: u64,
    /// Games that stopped early (see [`NewReject::games_stopped`]).
    stopped: u64,
    warnings: u64,
}

impl Written {
    fn of(work: &FileWork, counts: WriteCounts) -> Written {
        Written {
            added: counts.added,
            kept: counts.kept,
            duplicate: counts.duplicate,
            positions: counts.positions,
            stopped: NewReject::games_stopped(&work.rejects),
            warnings: work.warnings.len() as u64 + counts.warnings,
        }
    }

    fn add(&mut self, other: Written) {
        self.added += other.added;
        self.kept += other.kept;
        self.duplicate += other.duplicate;
        self.positions += other.positions;
        self.stopped += other.stopped;
        self.warnings += other.warnings;
    }

    fn count_in(self, s: &mut Summary) {
        s.games_added += self.added;
        s.games_kept += self.kept;
        s.games_duplicate += self.duplicate;
        s.positions += self.positions;
        s.games_rejected += self.stopped;
        s.warnings += self.warnings;
    }
}

/// Writes a file read, or a part of one read in parts (see [`Part`]): the whole file or its
/// first part opens it, the whole file or its last part closes it.
fn write_read(
    batch: &mut Batch<'_>,
    work: FileWork,
    open: &mut Option<OpenFile>,
    s: &mut Summary,
    observer: &dyn Observer,
) -> Result<(), Error> {
    if matches!(work.part, Part::Whole | Part::First) {
        if open.is_some() {
            return Err(Error::PartOutOfOrder);
        }
        // The counts of a file read whole are known now; those of one read in parts are set
        // with its last part.
        let (games, stopped) = match work.part {
            Part::Whole => (work.games.len() as u64, NewReject::games_stopped(&work.rejects)),
            _ => (0, 0),
        };
        let id = batch.open_file(&work.file, games, stopped)?;
        *open = Some(OpenFile { path: work.file.path.clone(), id, stored: 0, written: Written::default() });
        // A file read that yields no game is rejected, not indexed.
        match work.file.error {
            None => s.files_indexed += 1,
            Some(_) => s.files_rejected += 1,
        }
    }
    let file = open.as_mut().filter(|f| f.path == work.file.path).ok_or(Error::PartOutOfOrder)?;
    let counts = batch.add_to_file(file.id, &file.path, &work.games, &work.rejects)?;
    batch.write_warnings(&file.path, &work.warnings)?;
    for reject in &work.rejects {
        observer.reject(&file.path, reject);
    }
    let written = Written::of(&work, counts);
    written.count_in(s);
    file.written.add(written);
    file.stored += work.games.len() as u64;
    match work.part {
        Part::Whole => *open = None,
        Part::Last => {
            let file = open.take().ok_or(Error::PartOutOfOrder)?;
            batch.count_file(&file.path, file.stored, file.written.stopped)?;
        }
        Part::First | Part::Middle => {}
    }
    Ok(())
}

fn write_one(
    writer: &mut Batch<'_>,
    outcome: Outcome,
    s: &mut Summary,
    observer: &dyn Observer,
) -> Result<(), Error> {
    match outcome {
        // An unchanged file was not read: its rejects, recorded when it was, stay as they are
        // and are not this run's.
        Outcome::Unchanged { .. } => s.files_unchanged += 1,
        // Counted by the caller, never written; or written by the caller.
        Outcome::OtherShard { .. }
        | Outcome::Link { .. }
        | Outcome::LoopBack { .. }
        | Outcome::OtherName { .. }
        | Outcome::Read(_) => {}
        // Never opened: a file recorded at its path is gone, and pruned as such.
        Outcome::NotAFile { record_name, .. } => {
            s.files_skipped += 1;
            s.not_files += 1;
            s.not_files_named_as_records += u64::from(record_name);
        }
        Outcome::Touched { path, size, mtime_ns, ctime_ns, device } => {
            writer.touch_file(&path, size, mtime_ns, ctime_ns, device)?;
            s.files_unchanged += 1;
        }
        Outcome::Skipped { path, read } => {
            // A file read that held a record before and holds none now no longer has games.
            // (One skipped by its name was not read: what an earlier run found in it stays.)
            if read {
                writer.remove_file(&path)?;
            }
            s.files_skipped += 1;
        }
        Outcome::Unreadable { path, reject } => {
            writer.reject_entry(&path, &reject)?;
            observer.reject(&path, &reject);
            s.files_rejected += 1;
        }
    }
    Ok(())
}
