//! The writer thread: takes the workers' chunks in order and writes them.

use crossbeam_channel::Receiver;

use super::{
    Error, Observer, Summary,
    prepare::{FileWork, Outcome, Part},
};
use crate::db::{Batch, WriteCounts, Writer};

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
) -> Result<Summary, Error> {
    let mut s = Summary::default();
    let mut done = 0;
    let mut open: Option<OpenFile> = None;
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
            // A file another shard takes is not gone: it is marked seen so as not to be pruned.
            // A link not followed is not: a file recorded at its path was reached through it,
            // and is kept as a file the run did not reach.
            if prune.is_some() && first_part && !matches!(outcome, Outcome::Link { .. }) {
                batch.mark_seen(outcome.path())?;
            }
            match outcome {
                Outcome::OtherShard { .. } => s.files_other_shards += 1,
                Outcome::Link { broken, .. } => {
                    s.links_not_followed += 1;
                    s.links_broken += u64::from(broken);
                }
                Outcome::Read(work) if work.part != Part::Whole => {
                    s.files_seen += u64::from(first_part);
                    write_part(&mut batch, work, &mut open, &mut s, observer)?;
                }
                outcome => {
                    s.files_seen += 1;
                    write_one(&mut batch, outcome, &mut s, observer)?;
                }
            }
            // A file read in parts is written in one batch.
            if batch.is_due() && open.is_none() {
                batch.commit()?;
                writer.merge_filled()?;
                batch = writer.batch()?;
            }
            observer.progress(done, &s);
        }
    }
    // A file whose last part never came (the run stopped while it was read) is not kept half
    // written: the next run reads it.
    if let Some(file) = open.take() {
        s.interrupted = true;
        batch.remove_file(&file.path)?;
        s.files_indexed -= 1;
        s.games_added -= file.counts.added;
        s.games_duplicate -= file.counts.duplicate;
        s.positions -= file.counts.positions;
        s.games_rejected -= file.stopped;
        s.warnings -= file.warnings;
    }
    // A run that stopped early has not seen every file: it must not prune what it missed.
    if !s.interrupted {
        for root in prune.unwrap_or_default() {
            let (pruned, kept) = batch.prune_unseen(root, &mut |path| is_gone(&super::text_path(path)))?;
            s.files_pruned += pruned;
            s.files_unwalked += kept;
        }
    }
    batch.commit()?;
    Ok(s)
}

/// Whether nothing is at `path` any more: asking for it says so, and not that it cannot be
/// seen (a directory that cannot be read keeps its files).
fn is_gone(path: &std::path::Path) -> bool {
    match std::fs::symlink_metadata(path) {
        Ok(_) => false,
        Err(e) => matches!(e.kind(), std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory),
    }
}

/// A file read in parts whose last part has not come yet: what it wrote so far.
struct OpenFile {
    path: String,
    id: i64,
    games: u64,
    stopped: u64,
    counts: WriteCounts,
    warnings: u64,
}

/// Writes a part of a file read in parts (see [`Part`]): the first opens it, the last sets
/// its counts.
fn write_part(
    batch: &mut Batch<'_>,
    work: FileWork,
    open: &mut Option<OpenFile>,
    s: &mut Summary,
    observer: &dyn Observer,
) -> Result<(), Error> {
    if work.part == Part::First {
        if open.is_some() {
            return Err(Error::PartOutOfOrder);
        }
        let id = batch.open_file(&work.file, 0, 0)?;
        let path = work.file.path.clone();
        *open =
            Some(OpenFile { path, id, games: 0, stopped: 0, counts: WriteCounts::default(), warnings: 0 });
        s.files_indexed += 1;
    }
    let file = open.as_mut().filter(|f| f.path == work.file.path).ok_or(Error::PartOutOfOrder)?;
    let counts = batch.add_to_file(file.id, &file.path, &work.games, &work.rejects)?;
    batch.write_warnings(&file.path, &work.warnings)?;
    for reject in &work.rejects {
        observer.reject(&file.path, reject);
    }
    let stopped = work.rejects.iter().filter(|r| r.game_index.is_some()).count() as u64;
    let warnings = work.warnings.len() as u64 + counts.warnings;
    file.games += work.games.len() as u64;
    file.stopped += stopped;
    file.warnings += warnings;
    file.counts.added += counts.added;
    file.counts.duplicate += counts.duplicate;
    file.counts.positions += counts.positions;
    s.games_rejected += stopped;
    s.warnings += warnings;
    s.games_added += counts.added;
    s.games_duplicate += counts.duplicate;
    s.positions += counts.positions;
    if work.part == Part::Last {
        let file = open.take().ok_or(Error::PartOutOfOrder)?;
        batch.count_file(&file.path, file.games, file.stopped)?;
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
        // Counted by the caller, never written.
        Outcome::OtherShard { .. } | Outcome::Link { .. } => {}
        Outcome::Touched { path, size, mtime_ns, .. } => {
            writer.touch_file(&path, size, mtime_ns)?;
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
        Outcome::Read(work) => {
            let counts = writer.write_file(&work.file, &work.games, &work.rejects)?;
            writer.write_warnings(&work.file.path, &work.warnings)?;
            for reject in &work.rejects {
                observer.reject(&work.file.path, reject);
            }
            s.files_indexed += 1;
            s.files_rejected += u64::from(work.file.error.is_some());
            s.games_rejected += work.rejects.iter().filter(|r| r.game_index.is_some()).count() as u64;
            s.warnings += work.warnings.len() as u64 + counts.warnings;
            s.games_added += counts.added;
            s.games_duplicate += counts.duplicate;
            s.positions += counts.positions;
        }
    }
    Ok(())
}
