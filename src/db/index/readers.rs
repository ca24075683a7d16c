//! Work shared out to threads that read the database on connections of their own, as the last
//! commit left it, while the writer's thread takes what they make, in its transaction.

use std::{
    path::Path,
    sync::{
        atomic::{AtomicBool, Ordering},
        mpsc,
    },
};

use rusqlite::{Connection, OpenFlags};

use crate::db::{Error, Result};

/// Runs `work` on a thread named `name` for each of `parts`, each reading the file at `path`
/// on a read-only connection of its own in one read transaction (so the writer's connection,
/// if it writes meanwhile, must be in WAL mode), while this thread hands what they make to
/// `take`, in the order it comes. A thread's `work` gets its connection, its part, a test that
/// says when to give up (another thread failed, or `take` did) and where to send what it
/// makes; no more than `in_flight` of those wait for `take`. Returns what each `work` returned,
/// in the order of `parts`.
///
/// # Errors
///
/// What `take` returned, first; otherwise the first error of a thread that is not
/// [`Error::Interrupted`], or that one; [`Error::Thread`] when a thread cannot start.
pub(super) fn on_readers<P: Sync, M: Send, R: Send>(
    path: &Path,
    name: &str,
    parts: &[P],
    in_flight: usize,
    work: impl Fn(&Connection, &P, &dyn Fn() -> bool, &mut dyn FnMut(M) -> Result<()>) -> Result<R> + Sync,
    mut take: impl FnMut(M) -> Result<()>,
) -> Result<Vec<R>> {
    // Set when a thread fails, so that the others stop too.
    let failed = AtomicBool::new(false);
    let halt = || failed.load(Ordering::Relaxed);
    let (sender, received) = mpsc::sync_channel::<M>(in_flight);
    let (taken, done) = std::thread::scope(|scope| {
        let threads = parts
            .iter()
            .map(|part| {
                let sender = sender.clone();
                let (work, halt, failed) = (&work, &halt, &failed);
                std::thread::Builder::new().name(name.to_string()).spawn_scoped(scope, move || {
                    let done = (|| {
                        let reader = Connection::open_with_flags(
                            path,
                            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
                        )?;
                        // Game ids are looked up as arrays.
                        rusqlite::vtab::array::load_module(&reader)?;
                        // One read transaction: the database as the last commit left it,
                        // whatever the writer's transaction changes meanwhile.
                        reader.execute_batch("BEGIN")?;
                        // The receiver gone, `take` failed: it says why.
                        work(&reader, part, halt, &mut |made| {
                            sender.send(made).map_err(|_| Error::Interrupted)
                        })
                    })();
                    if done.is_err() {
                        failed.store(true, Ordering::Relaxed);
                    }
                    done
                })
            })
            .collect::<std::io::Result<Vec<_>>>();
        drop(sender);
        let threads = match threads {
            Ok(threads) => threads,
            Err(e) => {
                // Those started stop at the first thing they make.
                failed.store(true, Ordering::Relaxed);
                drop(received);
                return (Err(Error::Thread(e)), Vec::new());
            }
        };
        // Dropping the receiver on a failure stops the threads at the next thing they make.
        let taken = received.into_iter().try_for_each(&mut take);
        if taken.is_err() {
            failed.store(true, Ordering::Relaxed);
        }
        let done: Vec<Result<R>> = threads
            .into_iter()
            .map(|t| t.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect();
        (taken, done)
    });
    taken?;
    // The error that stopped the others, rather than their being stopped.
    if let Some(e) = done.iter().position(|d| matches!(d, Err(e) if !matches!(e, Error::Interrupted))) {
        return Err(done.into_iter().nth(e).and_then(Result::err).expect("an error"));
    }
    done.into_iter().collect()
}
