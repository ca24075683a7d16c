//! The writer's lock: one index run at a time on a database.
//!
//! The lock is an exclusive advisory lock (`flock`) on a file beside the database, named
//! after it with `.lock` added, taken without waiting: a second run stops at once and says
//! that another run is writing. It is not taken on the database file itself, because SQLite
//! holds POSIX record locks there, which the process would lose the moment it closed any
//! other descriptor of that file, and which some network file systems use to emulate
//! `flock` (so the two would collide).
//!
//! The kernel drops the lock when the process ends, however it ends: a killed run leaves its
//! lock file behind, unlocked, and the next run takes it. A run that ends removes the file
//! while it still holds the lock; a run that opened the old file meanwhile finds, once it
//! holds the lock, that the path no longer names that file, and starts again. A lock file
//! removed by hand while its run writes lets a second run lock a new one; the writer then
//! looks at the run the database's mark names (see [`WriteLock::made`]).
//!
//! The lock file's path is made from the database's canonical path (symbolic links
//! resolved), so two runs that name one database differently still meet at one lock. A
//! database with hard links is not written at all: runs through two of its names would take
//! two locks, and SQLite, which keeps its log and shared memory beside the name it was given,
//! would let both write (a lost run, or a corrupt file).

use crate::text::path_text;
use std::{
    fs::{self, File, OpenOptions},
    os::unix::fs::MetadataExt,
    path::{Path, PathBuf},
};

use rustix::{
    fs::{FlockOperation, flock},
    io::Errno,
};

use super::{Error, Result, open::with_suffix};

/// The lock, held until dropped.
#[derive(Debug)]
pub(super) struct WriteLock {
    path: PathBuf,
    /// The database, as the run names it (SQLite keeps its log beside that name).
    db: PathBuf,
    /// Whether the database is mended as the lock is let go ([`WriteLock::mend_on_release`]).
    mend: bool,
    /// Whether the lock file was there before this run: one a killed run left, or one
    /// another run holds (see [`WriteLock::made`]).
    found: bool,
    _file: File,
}

impl WriteLock {
    /// Takes the lock of the database at `db`.
    ///
    /// # Errors
    ///
    /// [`Error::Busy`] when another run holds it; [`Error::NoDirectory`] or
    /// [`Error::Directory`] for a path that cannot be a database file; [`Error::Linked`] for a
    /// database with hard links; [`Error::Lock`] when
    /// the lock file cannot be made or locked (a read-only directory, say).
    pub fn acquire(db: &Path) -> Result<WriteLock> {
        let path = with_suffix(&canonical(db)?, ".lock");
        let lock_error = |error| Error::Lock { db: db.to_path_buf(), path: path.clone(), error };
        loop {
            let found = fs::symlink_metadata(&path).is_ok();
            let file =
                match OpenOptions::new().read(true).write(true).create(true).truncate(false).open(&path) {
                    // Another user's (a database shared in a directory all may write to): the
                    // lock is taken on a descriptor open for reading, which `flock` allows.
                    Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied && found => {
                        File::open(&path).map_err(|_| lock_error(e))?
                    }
                    file => file.map_err(lock_error)?,
                };
            match flock(&file, FlockOperation::NonBlockingLockExclusive) {
                Ok(()) => {}
                Err(Errno::WOULDBLOCK) => return Err(Error::Busy(db.to_path_buf())),
                Err(e) => return Err(lock_error(e.into())),
            }
            let held = file.metadata().map_err(lock_error)?;
            match fs::metadata(&path) {
                Ok(now) if (now.dev(), now.ino()) == (held.dev(), held.ino()) => {
                    // Checked under the lock, before SQLite opens the file.
                    match fs::metadata(db) {
                        Ok(meta) if meta.nlink() > 1 => {
                            return Err(Error::Linked { path: db.to_path_buf(), links: meta.nlink() });
                        }
                        _ => {}
                    }
                    return Ok(WriteLock { path, db: db.to_path_buf(), mend: false, found, _file: file });
                }
                // The run that held it removed it: lock the file that now has the name.
                _ => continue,
            }
        }
    }
}

impl WriteLock {
    /// Asks for the database to be put back in rollback-journal mode, if its log holds
    /// nothing ([`super::open::mend`]), once the writer's connection is closed and before the
    /// lock is let go: the run failed where SQLite could not do it.
    pub fn mend_on_release(&mut self) {
        self.mend = true;
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether this run made the lock file. A run that locked a file that was there knows
    /// that no other holds it; one that made it may have made it beside a run whose own
    /// file was removed (by hand, taken for one a killed run left), which still writes.
    pub fn made(&self) -> bool {
        !self.found
    }
}

impl Drop for WriteLock {
    fn drop(&mut self) {
        if self.mend {
            super::open::mend(&self.db);
        }
        // Removed while still locked (the descriptor closes after this): see the module
        // documentation. A file that cannot be removed stays, unlocked, and harms nothing.
        let _ = fs::remove_file(&self.path);
    }
}

/// The database path with symbolic links resolved, whether or not the file exists yet.
fn canonical(db: &Path) -> Result<PathBuf> {
    if ends_with_slash(db) {
        return match fs::metadata(db) {
            Ok(meta) if meta.is_dir() => Err(Error::Directory(db.to_path_buf())),
            _ => match file_in_the_way(db) {
                Some(file) => Err(Error::NotUnderDirectory { path: db.to_path_buf(), file }),
                None => Err(Error::SlashName(db.to_path_buf())),
            },
        };
    }
    // A link to nothing: SQLite would make the database where it points, beside no lock.
    if let (Ok(target), Err(_)) = (fs::read_link(db), fs::metadata(db)) {
        let why = format!("it is a symbolic link to {}, which does not exist", path_text(&target));
        return Err(Error::File {
            path: db.to_path_buf(),
            error: std::io::Error::new(std::io::ErrorKind::NotFound, why),
        });
    }
    match fs::metadata(db) {
        Ok(meta) if meta.is_dir() => return Err(Error::Directory(db.to_path_buf())),
        Ok(_) => {
            return fs::canonicalize(db).map_err(|error| Error::File { path: db.to_path_buf(), error });
        }
        Err(_) => {}
    }
    let Some(name) = db.file_name() else {
        return Err(Error::Directory(db.to_path_buf()));
    };
    let dir = match db.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    match fs::canonicalize(dir) {
        Ok(dir) if dir.is_dir() => Ok(dir.join(name)),
        _ => Err(no_directory(db, dir)),
    }
}

/// Why the database `db` cannot be made in `dir`, which is no directory: a file stands where
/// a directory should ([`file_in_the_way`]), or it is not there.
fn no_directory(db: &Path, dir: &Path) -> Error {
    match file_in_the_way(dir) {
        Some(file) => Error::NotUnderDirectory { path: db.to_path_buf(), file },
        None => Error::NoDirectory { path: db.to_path_buf(), dir: dir.to_path_buf() },
    }
}

/// Whether `path` ends with a slash, and so names a directory, whatever is there.
pub fn ends_with_slash(path: &Path) -> bool {
    path.as_os_str().as_encoded_bytes().ends_with(b"/")
}

/// The nearest of `dir` and its ancestors that is there, when it is no directory: the file
/// that stands where a directory should (`notes.txt` for `notes.txt/sub`), which says better
/// than "no directory" why nothing can be made in `dir`.
pub fn file_in_the_way(dir: &Path) -> Option<PathBuf> {
    // Without a slash at the end, which asks for a directory whatever is there.
    let bare: PathBuf = dir.components().collect();
    let (found, meta) = bare.ancestors().find_map(|a| fs::metadata(a).ok().map(|m| (a, m)))?;
    (!meta.is_dir()).then(|| found.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_holder_at_a_time_and_the_lock_file_goes_with_it() {
        let tmp = tempfile::tempdir().unwrap();
        let db = tmp.path().join("k.sqlite");
        let first = WriteLock::acquire(&db).unwrap();
        assert!(matches!(WriteLock::acquire(&db), Err(Error::Busy(_))));
        // Another name for the same database meets the same lock.
        std::os::unix::fs::symlink(&db, tmp.path().join("link.sqlite")).unwrap();
        fs::write(&db, b"").unwrap();
        assert!(matches!(WriteLock::acquire(&tmp.path().join("link.sqlite")), Err(Error::Busy(_))));
        drop(first);
        assert!(!tmp.path().join("k.sqlite.lock").exists());
        let again = WriteLock::acquire(&db).unwrap();
        assert!(tmp.path().join("k.sqlite.lock").exists());
        drop(again);
    }

    #[test]
    fn a_database_with_hard_links_is_not_written() {
        let tmp = tempfile::tempdir().unwrap();
        let db = tmp.path().join("k.sqlite");
        fs::write(&db, b"").unwrap();
        fs::hard_link(&db, tmp.path().join("h.sqlite")).unwrap();
        for name in ["k.sqlite", "h.sqlite"] {
            let err = WriteLock::acquire(&tmp.path().join(name)).unwrap_err();
            assert!(matches!(err, Error::Linked { links: 2, .. }), "{err}");
        }
        // The lock is let go: with one name again, the database is written.
        fs::remove_file(tmp.path().join("h.sqlite")).unwrap();
        drop(WriteLock::acquire(&db).unwrap());
    }

    #[test]
    fn a_lock_file_left_behind_is_taken_again() {
        let tmp = tempfile::tempdir().unwrap();
        let db = tmp.path().join("k.sqlite");
        fs::write(tmp.path().join("k.sqlite.lock"), b"").unwrap();
        let lock = WriteLock::acquire(&db).unwrap();
        drop(lock);
        assert!(!tmp.path().join("k.sqlite.lock").exists());
    }

    #[test]
    fn paths_that_cannot_be_a_database_file() {
        let tmp = tempfile::tempdir().unwrap();
        let slash = tmp.path().join("k.sqlite/");
        assert!(matches!(WriteLock::acquire(&slash), Err(Error::SlashName(_))));
        let dangling = tmp.path().join("link.sqlite");
        std::os::unix::fs::symlink(tmp.path().join("target.sqlite"), &dangling).unwrap();
        let err = WriteLock::acquire(&dangling).unwrap_err();
        assert!(err.to_string().ends_with("which does not exist"), "{err}");
        assert!(!tmp.path().join("target.sqlite").exists());
        assert!(matches!(WriteLock::acquire(tmp.path()), Err(Error::Directory(_))));
        assert!(matches!(
            WriteLock::acquire(&tmp.path().join("no/such/k.sqlite")),
            Err(Error::NoDirectory { .. })
        ));
        // A file where a directory should be is named.
        let notes = tmp.path().join("notes.txt");
        fs::write(&notes, "").unwrap();
        for db in ["notes.txt/k.sqlite", "notes.txt/sub/k.sqlite", "notes.txt/"] {
            match WriteLock::acquire(&tmp.path().join(db)) {
                Err(Error::NotUnderDirectory { file, .. }) => assert_eq!(file, notes, "{db}"),
                other => panic!("{db}: {:?}", other.err()),
            }
        }
    }
}
