//! Finding the record files under the paths a user gives.
//!
//! Policy:
//! - Directories are walked with walkdir, each level sorted by file name, so files come out
//!   in path order whatever the file system's order, one at a time ([`entries`]): a walk of
//!   any size holds no list of its files.
//! - Symbolic links are not followed unless asked; when they are, a link that leads back to
//!   one of its own ancestors is reported, never followed, so a loop cannot hang the walk.
//! - A file is a candidate when its extension is one records use (see [`is_record_name`]);
//!   other files are skipped silently. The extension is only a hint: the content decides the
//!   format later, and a candidate that holds no record becomes a reject then.
//! - An entry that cannot be read (permissions, a vanished file, a loop) is not fatal: it is
//!   returned as a [`WalkProblem`] with its path, and the walk goes on.

use std::{
    fmt, fs,
    path::{Path, PathBuf},
    time::UNIX_EPOCH,
};

/// A record file found by the walk.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SourceFile {
    pub path: PathBuf,
    /// Size in bytes when the walk saw it.
    pub size: u64,
    /// Modification time in nanoseconds since the Unix epoch (0 when unknown).
    pub mtime_ns: i64,
}

/// An entry the walk could not use.
#[derive(Debug)]
pub struct WalkProblem {
    pub path: PathBuf,
    pub kind: WalkProblemKind,
}

/// What went wrong with a walked entry.
#[derive(Debug)]
pub enum WalkProblemKind {
    /// A followed symbolic link leads back to `ancestor`.
    Loop { ancestor: PathBuf },
    /// The entry could not be read.
    Io(std::io::Error),
    /// The path given does not exist.
    Missing,
}

impl WalkProblemKind {
    /// A short stable code: `symlink_loop`, `unreadable`, `missing`.
    pub fn code(&self) -> &'static str {
        match self {
            WalkProblemKind::Loop { .. } => "symlink_loop",
            WalkProblemKind::Io(_) => "unreadable",
            WalkProblemKind::Missing => "missing",
        }
    }
}

impl fmt::Display for WalkProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        match &self.kind {
            WalkProblemKind::Loop { ancestor } => {
                write!(f, "{path}: symbolic link loop back to {}", ancestor.display())
            }
            WalkProblemKind::Io(e) => write!(f, "{path}: {e}"),
            WalkProblemKind::Missing => write!(f, "{path}: no such file or directory"),
        }
    }
}

/// One thing a walk yields: a candidate file, or an entry that could not be used.
pub type Entry = Result<SourceFile, WalkProblem>;

/// How to walk.
#[derive(Clone, Copy, Debug, Default)]
pub struct WalkOptions {
    /// Follow symbolic links (loops are detected and reported).
    pub follow_links: bool,
}

/// What a walk found.
#[derive(Debug, Default)]
pub struct Walked {
    /// Candidate record files, sorted by path, each once.
    pub files: Vec<SourceFile>,
    pub problems: Vec<WalkProblem>,
}

/// The extensions records use: KIF, KI2, CSA, JKF, USI/SFEN, Western text, and `.txt`, which
/// some archives use for KIF and KI2.
pub const RECORD_EXTENSIONS: &[&str] =
    &["kif", "kifu", "ki2", "ki2u", "csa", "jkf", "json", "usi", "sfen", "usen", "psn", "txt"];

/// Whether a file name has one of the [`RECORD_EXTENSIONS`] (in any case).
pub fn is_record_name(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| RECORD_EXTENSIONS.iter().any(|r| r.eq_ignore_ascii_case(e)))
}

/// Walks `roots` and collects what [`entries`] yields. A root that is a file is taken
/// whatever its extension.
pub fn walk(roots: &[PathBuf], options: WalkOptions) -> Walked {
    let mut out = Walked::default();
    for entry in entries(roots, options) {
        match entry {
            Ok(file) => out.files.push(file),
            Err(problem) => out.problems.push(problem),
        }
    }
    out
}

/// The candidate files under `roots` and the entries that could not be read, one at a time
/// in path order (so a walk of any size holds no list of its files). A root that is a file
/// is taken whatever its extension; a root inside another root adds nothing.
///
/// Path order compares paths component by component, which is the order of a depth-first
/// walk that visits each directory's entries sorted by name: the files under one root are
/// consecutive in it, and the roots come in their own order.
pub fn entries(roots: &[PathBuf], options: WalkOptions) -> impl Iterator<Item = Entry> {
    let mut roots: Vec<PathBuf> = roots.to_vec();
    roots.sort();
    roots.dedup();
    // Root files named explicitly are taken even inside another root's walk.
    let named: Vec<PathBuf> = roots.clone();
    let mut outer: Vec<PathBuf> = Vec::new();
    for root in roots {
        if !outer.last().is_some_and(|o| root.starts_with(o)) {
            outer.push(root);
        }
    }
    outer.into_iter().flat_map(move |root| walk_root(root, options, named.clone()))
}

/// The entries of one root.
fn walk_root(root: PathBuf, options: WalkOptions, named: Vec<PathBuf>) -> Box<dyn Iterator<Item = Entry>> {
    let meta = if options.follow_links { fs::metadata(&root) } else { fs::symlink_metadata(&root) };
    match meta {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Box::new(std::iter::once(Err(WalkProblem { path: root, kind: WalkProblemKind::Missing })))
        }
        Err(e) => Box::new(std::iter::once(Err(WalkProblem { path: root, kind: WalkProblemKind::Io(e) }))),
        Ok(m) if m.is_file() => Box::new(std::iter::once(Ok(source_file(root, &m)))),
        Ok(_) => {
            let walker = walkdir::WalkDir::new(&root).follow_links(options.follow_links).sort_by_file_name();
            Box::new(walker.into_iter().filter_map(move |entry| match entry {
                Ok(entry) => {
                    let wanted = entry.file_type().is_file()
                        && (is_record_name(entry.path())
                            || named.binary_search_by(|n| n.as_path().cmp(entry.path())).is_ok());
                    if !wanted {
                        return None;
                    }
                    Some(match entry.metadata() {
                        Ok(m) => Ok(source_file(entry.into_path(), &m)),
                        Err(e) => Err(problem(e, entry.path())),
                    })
                }
                Err(e) => {
                    let path = e.path().unwrap_or(&root).to_path_buf();
                    Some(Err(problem(e, &path)))
                }
            }))
        }
    }
}

fn problem(e: walkdir::Error, path: &Path) -> WalkProblem {
    let kind = match e.loop_ancestor() {
        Some(ancestor) => WalkProblemKind::Loop { ancestor: ancestor.to_path_buf() },
        None => WalkProblemKind::Io(
            e.into_io_error().unwrap_or_else(|| std::io::Error::other("cannot read this entry")),
        ),
    };
    WalkProblem { path: path.to_path_buf(), kind }
}

/// The file at `path` as its metadata describes it.
pub(crate) fn source_file(path: PathBuf, meta: &fs::Metadata) -> SourceFile {
    let mtime_ns = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX));
    SourceFile { path, size: meta.len(), mtime_ns }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(path: &Path) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, b"x").unwrap();
    }

    #[test]
    fn finds_record_files_sorted_and_skips_others() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["b/2.kif", "b/1.CSA", "a/z.ki2", "a/notes.md", "a/image.png", "c.kifu"] {
            touch(&dir.path().join(name));
        }
        let walked = walk(&[dir.path().to_path_buf()], WalkOptions::default());
        let names: Vec<_> =
            walked.files.iter().map(|f| f.path.strip_prefix(dir.path()).unwrap().to_str().unwrap()).collect();
        assert_eq!(names, ["a/z.ki2", "b/1.CSA", "b/2.kif", "c.kifu"]);
        assert!(walked.problems.is_empty());
        assert_eq!(walked.files[0].size, 1);
    }

    #[test]
    fn a_root_file_is_taken_whatever_its_name_and_missing_roots_are_reported() {
        let dir = tempfile::tempdir().unwrap();
        let odd = dir.path().join("game.record");
        touch(&odd);
        let walked = walk(&[odd.clone(), dir.path().join("nothing")], WalkOptions::default());
        assert_eq!(walked.files.len(), 1);
        assert_eq!(walked.problems.len(), 1);
        assert_eq!(walked.problems[0].kind.code(), "missing");
    }

    #[test]
    fn roots_come_in_path_order_and_nested_roots_add_nothing() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a/b/1.kif", "a/b-c.kif", "a/b.csa", "a/b.d/2.kif", "z/odd.record", "z/3.kif"] {
            touch(&dir.path().join(name));
        }
        let root = |p: &str| dir.path().join(p);
        let roots = [root("z"), root("a"), root("a/b"), root("z/odd.record"), root("a")];
        let walked = walk(&roots, WalkOptions::default());
        let names: Vec<_> =
            walked.files.iter().map(|f| f.path.strip_prefix(dir.path()).unwrap().to_str().unwrap()).collect();
        // Component order: "a/b/1.kif" before "a/b-c.kif" although '-' sorts before '/'.
        assert_eq!(names, ["a/b/1.kif", "a/b-c.kif", "a/b.csa", "a/b.d/2.kif", "z/3.kif", "z/odd.record"]);
        let mut sorted = walked.files.clone();
        sorted.sort();
        assert_eq!(walked.files, sorted);
    }

    #[cfg(unix)]
    #[test]
    fn symlink_loops_never_hang() {
        let dir = tempfile::tempdir().unwrap();
        touch(&dir.path().join("a/game.kif"));
        std::os::unix::fs::symlink(dir.path().join("a"), dir.path().join("a/back")).unwrap();
        let plain = walk(&[dir.path().to_path_buf()], WalkOptions::default());
        assert_eq!(plain.files.len(), 1, "links are not followed by default");
        assert!(plain.problems.is_empty());
        let followed = walk(&[dir.path().to_path_buf()], WalkOptions { follow_links: true });
        assert_eq!(followed.files.len(), 1);
        assert_eq!(followed.problems.len(), 1);
        assert_eq!(followed.problems[0].kind.code(), "symlink_loop");
    }
}
