//! Answers kept for the next request that asks the same: an explorer is asked the same
//! positions again and again (the start, the common openings), and each answer costs many
//! block reads. The database changes only when an `index` run commits, so an answer stays
//! right until the database files change.
//!
//! # Policy
//!
//! - An answer is kept with the state of the database files (size and modification time of
//!   the database and its write-ahead log) seen *before* its snapshot was taken; it is given
//!   out only while the files are still in that state. A commit in between changes the state,
//!   so an answer computed from an older snapshot is never given out after a newer one exists.
//! - At most [`ENTRIES`] answers of at most [`BYTES`] in all; the oldest go first.

use std::{
    collections::{HashMap, VecDeque},
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
    time::SystemTime,
};

/// The most answers kept.
pub const ENTRIES: usize = 4096;

/// The most bytes of answers kept.
pub const BYTES: usize = 64 << 20;

/// The state of the database files (device, inode, size and modification time of each): what
/// a commit, a change of journal mode or a file put in the database's place changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilesState(Vec<Option<(u64, u64, u64, SystemTime)>>);

/// Kept answers, by the question they answer.
pub struct AnswerCache {
    files: [PathBuf; 2],
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    answers: HashMap<String, (FilesState, Arc<str>)>,
    order: VecDeque<String>,
    bytes: usize,
}

impl AnswerCache {
    /// A cache for answers from the database at `db`.
    pub fn new(db: &Path) -> AnswerCache {
        let mut wal = db.as_os_str().to_owned();
        wal.push("-wal");
        AnswerCache { files: [db.to_path_buf(), PathBuf::from(wal)], inner: Mutex::new(Inner::default()) }
    }

    /// The database files' state now.
    pub fn state(&self) -> FilesState {
        FilesState(
            self.files
                .iter()
                .map(|f| {
                    use std::os::unix::fs::MetadataExt;
                    // The inode too: a file put in the database's place is another database.
                    std::fs::metadata(f)
                        .ok()
                        .and_then(|m| Some((m.dev(), m.ino(), m.len(), m.modified().ok()?)))
                })
                .collect(),
        )
    }

    /// The answer kept for `key`, if the files are still as they were when it was computed.
    pub fn get(&self, key: &str) -> Option<Arc<str>> {
        let now = self.state();
        let inner = self.inner.lock().ok()?;
        inner.answers.get(key).filter(|(state, _)| *state == now).map(|(_, answer)| answer.clone())
    }

    /// Keeps `answer` for `key`, computed from a snapshot taken when the files were in `state`.
    pub fn put(&self, key: String, state: FilesState, answer: Arc<str>) {
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
        let before = FilesState(vec![None, None]);
        cache.put("late".into(), before, Arc::from("stale"));
        assert_eq!(cache.get("late"), None);
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
