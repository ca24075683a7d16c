//! One name for each file, whatever names lead to it.
//!
//! A file may be reached by several names in one walk: through a symbolic link followed and
//! by its own path, through two links, or by two hard links. The walk finds each under one
//! name, and the others as [`Expect::OtherName`], so that it is read and stored once:
//!
//! - a name reached through a link gives way to the path without links that it leads to,
//!   when the walk reaches that path (it lies under a path given, and the globs take it),
//!   wherever it comes in path order;
//! - otherwise the first name in path order is the file's, and a later one that leads to the
//!   same file (the same device and inode) is another name.
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

use super::{Choice, Expect, Globs, SourceFile};

/// The names given to the files of one walk, in path order.
pub(super) struct Names {
    /// Every root of the walk (absolute, without links).
    roots: Vec<PathBuf>,
    globs: Arc<Globs>,
    /// The device and inode of the files found under a name that another may share.
    seen: HashSet<(i64, u64)>,
}

impl Names {
    pub(super) fn new(roots: Vec<PathBuf>, globs: Arc<Globs>) -> Names {
        Names { roots, globs, seen: HashSet::new() }
    }

    /// `file` as found under its name, or as [`Expect::OtherName`] when it is another name of
    /// a file the walk finds (or found) under its own.
    pub(super) fn name(&mut self, mut file: SourceFile) -> SourceFile {
        if !matches!(file.expect, Expect::Record | Expect::Maybe | Expect::Skip) {
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

    /// Whether the walk finds the file at `path` (absolute, without links): it lies under a
    /// root, in no directory the globs leave out, and they take it (a root is taken whatever
    /// they say).
    fn reaches(&self, path: &Path) -> bool {
        self.roots.iter().any(|root| match path.strip_prefix(root) {
            Ok(rel) if rel.as_os_str().is_empty() => true,
            Ok(rel) => {
                let dirs = rel.ancestors().skip(1).filter(|d| !d.as_os_str().is_empty());
                !dirs.into_iter().any(|d| self.globs.excludes_dir(d))
                    && self.globs.choose_file(rel) != Choice::Left
            }
            Err(_) => false,
        })
    }
}
