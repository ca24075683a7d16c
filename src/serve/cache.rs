//! Answers kept for the next request that asks the same: an explorer is asked the same
//! positions again and again (the start, the common openings), and each answer costs many
//! block reads. The database changes only when an `index` run commits, so an answer stays
//! right until the database files change.
//!
//! # Policy
//!
//! - An answer is kept with the state of the database files ([`OnDisk`]: the inode, size and
//!   times of the database and its write-ahead log) seen *before* its snapshot was taken; it is given
//!   out only while the files are still in that state. A commit in between changes the state,
//!   so an answer computed from an older snapshot is never given out after a newer one exists.
//! - At most [`ENTRIES`] answers of at most [`BYTES`] in all; the oldest go first.

use std::{
    collections::{HashMap, VecDeque},
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
};

use crate::db::OnDisk;

/// The most answers kept.
pub const ENTRIES: usize = 4096;

/// The most bytes of answers kept.
pub const BYTES: usize = 64 << 20;

/// Kept answers, by the question they answer.
pub struct AnswerCache {
    db: PathBuf,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    answers: HashMap<String, (OnDisk, Arc<str>)>,
    order: VecDeque<String>,
    bytes: usize,
}

impl AnswerCache {
    /// A cache for answers from the database at `db`.
    pub fn new(db: &Path) -> AnswerCache {
        AnswerCache { db: db.to_path_buf(), inner: Mutex::new(Inner::default()) }
    }

    /// The database files' state now: what a commit, a change of journal mode or a file put
    /// in the database's place changes.
    pub fn state(&self) -> OnDisk {
        OnDisk::of(&self.db)
    }

    /// The answer kept for `key`, if the files are still as they were when it was computed.
    pub fn get(&self, key: &str) -> Option<Arc<str>> {
        let now = self.state();
        let inner = self.inner.lock().ok()?;
        inner.answers.get(key).filter(|(state, _)| *state == now).map(|(_, answer)| answer.clone())
    }

    /// Keeps `answer` for `key`, computed from a snapshot taken when the files were in `state`.
    pub fn put(&self, key: String, state: OnDisk, answer: Arc<str>) {
        let Ok(mut inner) = self.inner.lock() else {
            return;
        };
        if answer.len() > BYTES / 16 {
            return;
        }
        if let Some((_, old)) = inner.answers.remove(&key) {
            inner.bytes -= old.len();
            inner.order.retain(|k| *k != key);
        }
        while inner.order.len() >= ENTRIES || inner.bytes + answer.len() > BYTES {
            let Some(oldest) = inner.order.pop_front() else {
                break;
            };
            if let Some((_, old)) = inner.answers.remove(&oldest) {
                inner.bytes -= old.len();
            }
        }
        inner.bytes += answer.len();
        inner.order.push_back(key.clone());
        inner.answers.insert(key, (state, answer));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_given_only_while_the_files_are_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("k.sqlite");
        std::fs::write(&db, b"one").unwrap();
        let cache = AnswerCache::new(&db);
        let state = cache.state();
        cache.put("q".into(), state, Arc::from("answer"));
        assert_eq!(cache.get("q").as_deref(), Some("answer"));
        assert_eq!(cache.get("other"), None);
        // A write-ahead log appears: a commit; the answer is no longer given.
        std::fs::write(dir.path().join("k.sqlite-wal"), b"commit").unwrap();
        assert_eq!(cache.get("q"), None);
        // An answer computed before the commit, kept after it, is not given either.
        let before = OnDisk::default();
        cache.put("late".into(), before, Arc::from("stale"));
        assert_eq!(cache.get("late"), None);
    }

    /// A copy put in the database's place that keeps its size and modification time (`cp -p`
    /// over it, `rsync -a --inplace`) is another database: no answer of the one before is given.
    #[test]
    fn a_copy_over_the_database_that_keeps_its_size_and_time_is_a_change() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("k.sqlite");
        std::fs::write(&db, b"one").unwrap();
        let mtime = std::fs::metadata(&db).unwrap().modified().unwrap();
        let cache = AnswerCache::new(&db);
        cache.put("q".into(), cache.state(), Arc::from("answer"));
        // Past the coarsest clock a file system stamps times with.
        std::thread::sleep(std::time::Duration::from_millis(50));
        std::fs::write(&db, b"two").unwrap();
        std::fs::File::options().write(true).open(&db).unwrap().set_modified(mtime).unwrap();
        let now = std::fs::metadata(&db).unwrap();
        assert_eq!((now.len(), now.modified().unwrap()), (3, mtime));
        assert_eq!(cache.get("q"), None);
    }

    #[test]
    fn the_oldest_answers_go_first() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("k.sqlite");
        std::fs::write(&db, b"db").unwrap();
        let cache = AnswerCache::new(&db);
        for i in 0..ENTRIES + 10 {
            cache.put(format!("q{i}"), cache.state(), Arc::from("a"));
        }
        assert_eq!(cache.get("q0"), None);
        assert_eq!(cache.get("q9"), None);
        assert_eq!(cache.get("q10").as_deref(), Some("a"));
        assert_eq!(cache.get(&format!("q{}", ENTRIES + 9)).as_deref(), Some("a"));
    }
}
