//! The writer thread: takes the workers' chunks in order and writes them.

use std::collections::HashSet;

use crossbeam_channel::Receiver;

use super::{Error, Observer, Summary, prepare::Outcome};
use crate::{
    db::{NewReject, Writer},
    walk::Walked,
};

/// Writes every chunk from `rx`, then prunes (when asked) and finishes the database.
pub(super) fn write_all(
    mut writer: Writer,
    rx: Receiver<Vec<Outcome>>,
    walked: &Walked,
    roots: &[String],
    prune: bool,
    observer: &dyn Observer,
) -> Result<Summary, Error> {
    let mut s =
        Summary { files_seen: (walked.files.len() + walked.problems.len()) as u64, ..Summary::default() };
    for root in roots {
        writer.clear_entry_rejects(root)?;
    }
    for problem in &walked.problems {
        let path = super::path_text(&problem.path);
        let reject = NewReject {
            game_index: None,
            line: None,
            ply: None,
            code: problem.kind.code(),
            message: problem.to_string(),
        };
        writer.reject_entry(&path, &reject)?;
        observer.reject(&path, &reject);
        s.files_rejected += 1;
    }
    let mut done = 0;
    for chunk in rx {
        for outcome in chunk {
            write_one(&mut writer, outcome, &mut s, observer)?;
            writer.end_file()?;
            done += 1;
            observer.progress(done, &s);
        }
    }
    if prune {
        let seen: HashSet<String> = walked
            .files
            .iter()
            .map(|f| super::path_text(&f.path))
            .chain(walked.problems.iter().map(|p| super::path_text(&p.path)))
            .collect();
        for root in roots {
            for path in writer.files_under(root)? {
                if !seen.contains(&path) && writer.remove_file(&path)? {
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
        Outcome::Unchanged { state } => {
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
