//! One name for each file, whatever names lead to it.
//!
//! A file may be reached by several names in one walk: through a symbolic link followed and
//! by its own path, through two links, or by two hard links. The walk finds each under one
//! name, and the others as [`Expect::OtherName`], so that it is read and stored once:
//!
//! - a name reached through a link gives way to the path without links that it leads to,
//!   when the walk reaches and reads that path (it lies under a path given, the globs take
//!   it, and its name may hold a record), wherever it comes in path order;
//! - otherwise the first name in path order that the walk reads is the file's, and a later
//!   one that leads to the same file (the same device and inode) is another name.
//!
//! A name the walk skips (`notes.bak`, `README`) is never the file's: a hard link of that
//! name leaves the file to its record's name.
//!
//! So a file keeps its path when a link to it is made, and a tree reached only through links
//! is read once. Only the files that may have another name the walk cannot tell from their
//! path are remembered, 16 bytes each: those reached through a link whose path without links
//! the walk does not reach, and those with several hard links.

use std::{
    collections::HashSet,
    fs,
    path::{Path, PathBuf},
    sync::Arc,
};

use super::{Choice, Expect, Globs, SourceFile, expect};

/// The names given to the files of one walk, in path order.
pub(super) struct Names {
    /// Every root of the walk (absolute, without links).
    roots: Vec<PathBuf>,
    globs: Arc<Globs>,
    /// The device and inode of the files found under a name that another may share.
    seen: HashSet<(i64, u64)>,
    /// The device and inode of the links found that lead nowhere.
    broken: HashSet<(u64, u64)>,
}

impl Names {
    pub(super) fn new(roots: Vec<PathBuf>, globs: Arc<Globs>) -> Names {
        Names { roots, globs, seen: HashSet::new(), broken: HashSet::new() }
    }

    /// [`Names::name`] of `file`, or nothing for a link that leads nowhere which the walk
    /// found before under another name (through a link to a directory that holds it,
    /// followed): it is one link, however many names reach it.
    pub(super) fn once(&mut self, file: SourceFile) -> Option<SourceFile> {
        #[cfg(unix)]
        if file.expect == (Expect::Link { broken: true })
            && let Ok(meta) = fs::symlink_metadata(&file.path)
        {
            use std::os::unix::fs::MetadataExt;
            if !self.broken.insert((meta.dev(), meta.ino())) {
                return None;
            }
        }
        Some(self.name(file))
    }

    /// `file` as found under its name, or as [`Expect::OtherName`] when it is another name of
    /// a file the walk finds (or found) under its own.
    pub(super) fn name(&mut self, mut file: SourceFile) -> SourceFile {
        // A name the walk does not read (a backup's, a note's) never takes the file from
        // one it reads: the file would be stored under none.
        if !matches!(file.expect, Expect::Record | Expect::Maybe) {
            return file;
        }
        let (Some(device), Some(inode)) = (file.device, file.inode) else {
            return file;
        };
        let other = if file.through_link
            && let Ok(real) = fs::canonicalize(&file.path)
            && real != file.path
            && self.reaches(&real)
        {
            true
        } else if file.through_link || inode.names > 1 {
            !self.seen.insert((device, inode.number))
        } else {
            false
        };
        if other {
            file.expect = Expect::OtherName;
        }
        file
    }

    /// Whether the walk finds and reads the file at `path` (absolute, without links): it
    /// lies under a root, in no directory the globs leave out, they take it, and its name is
    /// one that may hold a record (a root is read whatever they say and its name).
    fn reaches(&self, path: &Path) -> bool {
        self.roots.iter().any(|root| match path.strip_prefix(root) {
            Ok(rel) if rel.as_os_str().is_empty() => true,
            Ok(rel) => {
                let dirs = rel.ancestors().skip(1).filter(|d| !d.as_os_str().is_empty());
                let choice = self.globs.choose_file(rel);
                !dirs.into_iter().any(|d| self.globs.excludes_dir(d))
                    && choice != Choice::Left
                    && expect(path, choice) != Expect::Skip
            }
            Err(_) => false,
        })
    }
}
