//! The writer thread: takes the workers' chunks in order and writes them.

use std::collections::HashSet;

use crossbeam_channel::Receiver;
use xxhash_rust::xxh3::xxh3_128;

use super::{Error, Observer, Summary, prepare::Outcome};
use crate::db::Writer;

/// Writes every chunk from `rx`, then prunes (when asked) and finishes the database.
pub(super) fn write_all(
    mut writer: Writer,
    rx: Receiver<Vec<Outcome>>,
    roots: &[String],
    prune: bool,
    observer: &dyn Observer,
) -> Result<Summary, Error> {
    let mut s = Summary::default();
    for root in roots {
        writer.clear_entry_rejects(root)?;
    }
    // With prune, the paths seen, as hashes: 16 bytes a file instead of the path.
    let mut seen: HashSet<u128> = HashSet::new();
    for chunk in rx {
        for outcome in chunk {
            s.files_seen += 1;
            if prune {
                seen.insert(xxh3_128(outcome.path().as_bytes()));
            }
            write_one(&mut writer, outcome, &mut s, observer)?;
            writer.end_file()?;
            observer.progress(s.files_seen, &s);
        }
    }
    if prune {
        for root in roots {
            for path in writer.files_under(root, |path| !seen.contains(&xxh3_128(path.as_bytes())))? {
                if writer.remove_file(&path)? {
                    s.files_pruned += 1;
                }
            }
        }
    }
    writer.commit()?;
    s.runs_merged = writer.finish()? as u64;
    Ok(s)
}

fn write_one(
    writer: &mut Writer,
    outcome: Outcome,
    s: &mut Summary,
    observer: &dyn Observer,
) -> Result<(), Error> {
    match outcome {
        Outcome::Unchanged { state, .. } => {
            s.files_unchanged += 1;
            s.files_rejected += u64::from(state.error.is_some());
            s.games_rejected += state.stopped;
        }
        Outcome::Touched { path, size, mtime_ns, state } => {
            writer.touch_file(&path, size, mtime_ns)?;
            s.files_unchanged += 1;
            s.files_rejected += u64::from(state.error.is_some());
            s.games_rejected += state.stopped;
        }
        Outcome::Unreadable { path, reject } => {
            writer.reject_entry(&path, &reject)?;
            observer.reject(&path, &reject);
            s.files_rejected += 1;
        }
        Outcome::Read(work) => {
            let counts = writer.write_file(&work.file, &work.games, &work.rejects)?;
            for reject in &work.rejects {
                observer.reject(&work.file.path, reject);
            }
            s.files_indexed += 1;
            s.files_rejected += u64::from(work.file.error.is_some());
            s.games_rejected += work.games.iter().filter(|g| g.status.is_some()).count() as u64;
            s.games_added += counts.added;
            s.games_duplicate += counts.duplicate;
            s.positions += counts.positions;
        }
    }
    Ok(())
}
