//! Finding the record files under the paths a user gives.
//!
//! Policy:
//! - Directories are walked with walkdir, each level sorted by file name, so files come out
//!   in path order whatever the file system's order, one at a time ([`entries`]): a walk of
//!   any size holds no list of its files.
//! - Symbolic links are not followed unless asked; when they are, a link to a directory that
//!   holds it is found as [`Expect::LoopBack`], never followed, so a loop cannot hang the
//!   walk (what is under it is walked through the directory itself, or lies outside the
//!   paths given). A link under a directory that is not followed is found, as
//!   [`Expect::Link`] (saying whether it is broken: a link that leads nowhere, or only to
//!   more links that lead round in a circle, is one even when links are followed), so that a
//!   run can say how many it did not follow; the globs leave links out as they leave out what
//!   the links lead to. A path given is always followed.
//! - One file has one path, whatever names lead to it: when several names the walk reaches
//!   lead to one file (links followed, hard links), one is its name and the others are found
//!   as [`Expect::OtherName`], not to be read. Its name is the path without symbolic links
//!   when the walk reaches that path, and otherwise the first in path order.
//! - Pipes, sockets and devices among the files of a directory are found as
//!   [`Expect::NotAFile`], never opened (a pipe without a writer would keep an open waiting).
//! - Every file is found, and told apart by its name ([`NameKind`], [`Expect`]): a file with a
//!   record extension is expected to hold a record (one that holds none becomes a reject);
//!   a `.txt` or `.json` file may hold one (it is read when its content is a record, and
//!   skipped otherwise); any other file is skipped without being read. A file named on the
//!   command line, or chosen by an include glob, may hold a record whatever its name.
//! - Include and exclude globs choose the files under a directory ([`Globs`]); a file they
//!   leave out is not found at all, and an excluded directory is not walked. A path given
//!   inside another takes what it takes given alone, whatever the globs say of the one
//!   around it: the walk is the union of the roots' walks.
//! - An entry that cannot be read (permissions, a vanished file) is not fatal: it is
//!   returned as a [`WalkProblem`] with its path, and the walk goes on.
//! - With a [`Shard`], a file that another shard takes is still found, as
//!   [`Expect::OtherShard`], so that a run knows it exists (it is never pruned as if gone),
//!   but it is neither read nor looked at further. An entry that cannot be read is every
//!   shard's: a directory that cannot be read may hide files of any.

mod globs;
mod names;

use crate::text::path_text;
use std::{
    fmt, fs,
    path::{Path, PathBuf},
    sync::Arc,
    time::UNIX_EPOCH,
};

pub use self::globs::{Choice, GlobError, GlobKind, GlobProblem, Globs};
use crate::{kifu::NameKind, shard::Shard};

/// What a file found by the walk is expected to hold, from its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Expect {
    /// A record extension: a file that holds no record is a reject.
    Record,
    /// It may hold a record: read when its content is one, skipped when not.
    Maybe,
    /// Not a record's name: skipped without being read.
    Skip,
    /// Another shard's (see [`Shard`]): neither read nor counted. Its size and time are not
    /// looked up (0).
    OtherShard,
    /// A symbolic link the walk does not follow (without [`WalkOptions::follow_links`], or
    /// with it when it leads nowhere): neither read nor counted as a file, and every shard's,
    /// since what it leads to may be any shard's. `broken` when what it leads to cannot be
    /// reached (it does not exist, or cannot be looked at). Its size and time are not looked
    /// up (0).
    Link { broken: bool },
    /// A followed symbolic link to a directory that holds it: not followed again, and every
    /// shard's. Its size and time are not looked up (0).
    LoopBack,
    /// A pipe, a socket or a device among the files of a directory: never opened, and
    /// `record_name` when its name is a record's. Its size and time are not looked up (0).
    NotAFile { record_name: bool },
    /// Another name of a file the walk finds under its own name (see the module
    /// documentation for the name a file keeps): not read.
    OtherName,
}

/// A file found by the walk.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SourceFile {
    pub path: PathBuf,
    /// Size in bytes when the walk saw it.
    pub size: u64,
    /// Modification time in nanoseconds since the Unix epoch (0 when unknown).
    pub mtime_ns: i64,
    /// Status change time (Unix `ctime`) in nanoseconds since the epoch, where the system has
    /// one. Unlike the modification time, no program can set it back: a file rewritten with its
    /// old size and time (`cp -p`, `touch -d`) still shows a new one.
    pub ctime_ns: Option<i64>,
    /// The device of the filesystem that holds it, where the system tells (Unix `st_dev`):
    /// `--prune` keeps a gone file whose directory is now on another filesystem and empty, as
    /// the mount point of a disk not mounted is.
    pub device: Option<i64>,
    /// The file's number on its filesystem and how many names (hard links) it has, where
    /// the system tells (Unix `st_ino`, `st_nlink`): with the device, what tells two names of
    /// one file.
    pub inode: Option<Inode>,
    /// Whether the walk reached it through a symbolic link it followed (the file's own, or a
    /// directory's above it).
    pub through_link: bool,
    pub expect: Expect,
}

/// A file's number on its filesystem, and its names there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Inode {
    pub number: u64,
    /// Its hard links.
    pub names: u64,
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
    /// The entry could not be read.
    Io(std::io::Error),
    /// The entry was listed in its directory and was gone when it was looked at.
    Vanished,
    /// The path given does not exist.
    Missing,
    /// The path given is a pipe, a socket or a device: nothing a later run could tell
    /// unchanged, or read again.
    NotAFile,
}

impl WalkProblemKind {
    /// A short stable code: `unreadable`, `vanished`, `missing`, `not_a_file`.
    pub fn code(&self) -> &'static str {
        match self {
            WalkProblemKind::Io(_) => "unreadable",
            WalkProblemKind::Vanished => "vanished",
            WalkProblemKind::Missing => "missing",
            WalkProblemKind::NotAFile => "not_a_file",
        }
    }
}

/// What went wrong, without the path (which every reject of it carries beside).
impl fmt::Display for WalkProblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WalkProblemKind::Io(e) => write!(f, "{e}"),
            WalkProblemKind::Vanished => f.write_str("removed while the directory was read"),
            WalkProblemKind::Missing => f.write_str("no such file or directory"),
            WalkProblemKind::NotAFile => {
                f.write_str("a pipe, socket or device, not a file: save the records in a file and index that")
            }
        }
    }
}

impl fmt::Display for WalkProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", path_text(&self.path), self.kind)
    }
}

/// One thing a walk yields: a candidate file, or an entry that could not be used.
pub type Entry = Result<SourceFile, WalkProblem>;

/// How to walk.
#[derive(Clone, Debug, Default)]
pub struct WalkOptions {
    /// Follow symbolic links (but not one to a directory that holds it).
    pub follow_links: bool,
    /// The files to take under a directory.
    pub globs: Arc<Globs>,
    /// The share of the files to take; the others are found as [`Expect::OtherShard`].
    pub shard: Option<Shard>,
}

/// What a file is expected to hold, from its name and the globs' choice (a file named on the
/// command line counts as included).
fn expect(path: &Path, choice: Choice) -> Expect {
    match (NameKind::of(path), choice) {
        (Some(NameKind::Record(_)), _) => Expect::Record,
        (Some(NameKind::Maybe(_)), _) | (None, Choice::Included) => Expect::Maybe,
        (None, _) => Expect::Skip,
    }
}

/// The files under `roots` and the entries that could not be read, one at a time in path
/// order (so a walk of any size holds no list of its files). A root that is a file is taken
/// whatever its name or the globs. A root inside another root takes what it would take given
/// alone (the globs match paths relative to it too), and a file both take is found once.
///
/// Path order compares paths component by component, which is the order of a depth-first
/// walk that visits each directory's entries sorted by name: the files under one root are
/// consecutive in it, and the roots come in their own order.
pub fn entries(roots: &[PathBuf], options: WalkOptions) -> impl Iterator<Item = Entry> {
    let mut roots: Vec<PathBuf> = roots.to_vec();
    roots.sort();
    roots.dedup();
    // Each outermost root, with the roots inside it.
    let mut groups: Vec<(PathBuf, Vec<PathBuf>)> = Vec::new();
    for root in roots {
        match groups.last_mut() {
            Some((outer, inner)) if root.starts_with(&*outer) => inner.push(root),
            _ => groups.push((root, Vec::new())),
        }
    }
    let mut names = names::Names::new(all_roots(&groups), Arc::clone(&options.globs));
    groups.into_iter().flat_map(move |(outer, inner)| Union::new(outer, inner, options.clone())).filter_map(
        move |entry| match entry {
            Ok(file) => names.once(file).map(Ok),
            Err(e) => Some(Err(e)),
        },
    )
}

/// Every root given, outermost ones and those inside them.
fn all_roots(groups: &[(PathBuf, Vec<PathBuf>)]) -> Vec<PathBuf> {
    groups.iter().flat_map(|(outer, inner)| std::iter::once(outer).chain(inner)).cloned().collect()
}

/// The entries of an outermost root and of the roots inside it, merged in path order, each
/// path once. A root inside is walked from the point where the merged walk reaches it, so
/// that only the roots around the current path have directories open.
struct Union {
    outer: PathBuf,
    options: WalkOptions,
    /// The roots inside not walked yet, in path order.
    pending: std::iter::Peekable<std::vec::IntoIter<PathBuf>>,
    walks: Vec<std::iter::Peekable<Box<dyn Iterator<Item = Entry>>>>,
}

impl Union {
    fn new(outer: PathBuf, inner: Vec<PathBuf>, options: WalkOptions) -> Union {
        let walks = vec![walk_root(outer.clone(), &outer, options.clone()).peekable()];
        Union { outer, options, pending: inner.into_iter().peekable(), walks }
    }

    /// The least path the walks under way hold next (dropping those that are done).
    fn least(&mut self) -> Option<PathBuf> {
        self.walks.retain_mut(|w| w.peek().is_some());
        self.walks.iter_mut().filter_map(|w| w.peek().map(|e| entry_path(e).to_path_buf())).min()
    }
}

impl Iterator for Union {
    type Item = Entry;

    fn next(&mut self) -> Option<Entry> {
        let mut least = self.least();
        // The roots inside whose place the merged walk has come to are started: each comes
        // first in its own walk.
        while let Some(root) = self.pending.next_if(|r| least.as_ref().is_none_or(|l| r <= l)) {
            self.walks.push(walk_root(root, &self.outer, self.options.clone()).peekable());
            least = self.least();
        }
        let least = least?;
        let mut found: Option<Entry> = None;
        for walk in &mut self.walks {
            if let Some(entry) = walk.next_if(|e| entry_path(e) == least) {
                found = Some(match found {
                    None => entry,
                    Some(other) => either(other, entry),
                });
            }
        }
        found
    }
}

fn entry_path(entry: &Entry) -> &Path {
    match entry {
        Ok(file) => &file.path,
        Err(problem) => &problem.path,
    }
}

/// One entry for a path that two walks found: the file, when one of them could use it,
/// expected to hold what the more telling of the two says (a root file is taken whatever its
/// name, where the walk of a directory that holds it may skip it). A pipe or a device given
/// is reported as the walk of that root reports it, not passed over as one among the files.
fn either(a: Entry, b: Entry) -> Entry {
    match (a, b) {
        (Ok(file), Err(problem)) | (Err(problem), Ok(file))
            if matches!(file.expect, Expect::NotAFile { .. }) =>
        {
            Err(problem)
        }
        (Ok(a), Ok(b)) => Ok(if b.expect < a.expect { b } else { a }),
        (Ok(file), Err(_)) | (Err(_), Ok(file)) => Ok(file),
        (Err(problem), Err(_)) => Err(problem),
    }
}

/// The entries of one root, inside the outermost root `outer` (itself, or one that holds it):
/// shards are reckoned from the top of `outer`, so that a root inside another shares its
/// files out as the outer one does.
fn walk_root(root: PathBuf, outer: &Path, options: WalkOptions) -> Box<dyn Iterator<Item = Entry>> {
    // A root that is a link is followed, links or not: one that leads nowhere, or round in a
    // circle, is the problem of what it leads to.
    let meta = match fs::metadata(&root) {
        Ok(_) if !options.follow_links => fs::symlink_metadata(&root),
        followed => followed,
    };
    let outer = outer.to_path_buf();
    match meta {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Box::new(std::iter::once(Err(WalkProblem { path: root, kind: WalkProblemKind::Missing })))
        }
        Err(e) => Box::new(std::iter::once(Err(WalkProblem { path: root, kind: WalkProblemKind::Io(e) }))),
        // The walk takes a root link to what it leads to.
        Ok(_) if fs::metadata(&root).is_ok_and(|m| !m.is_file() && !m.is_dir()) => {
            Box::new(std::iter::once(Err(WalkProblem { path: root, kind: WalkProblemKind::NotAFile })))
        }
        Ok(m) if m.is_file() => {
            // A file given by itself is hashed by its name; one inside another root by its
            // path under that root.
            let name = match root.strip_prefix(&outer) {
                Ok(rel) if !rel.as_os_str().is_empty() => rel,
                _ => root.file_name().map(Path::new).unwrap_or(&root),
            };
            if options.shard.is_some_and(|s| !s.takes(name)) {
                return Box::new(std::iter::once(Ok(other_shard(root))));
            }
            let expect = expect(&root, Choice::Included);
            Box::new(std::iter::once(Ok(source_file(root, &m, expect))))
        }
        Ok(_) => {
            let (loop_root, loop_globs) = (root.clone(), Arc::clone(&options.globs));
            let walker = walkdir::WalkDir::new(&root).follow_links(options.follow_links).sort_by_file_name();
            let top = root.clone();
            let globs = Arc::clone(&options.globs);
            let shard = options.shard;
            let walker = walker.into_iter().filter_entry(move |e| {
                let dir = e.depth() > 0 && e.file_type().is_dir();
                !(dir && e.path().strip_prefix(&top).is_ok_and(|rel| globs.excludes_dir(rel)))
            });
            let mut walker = walker;
            let map = move |entry: walkdir::Result<walkdir::DirEntry>, through_link: bool| match entry {
                Ok(entry) => {
                    if entry.file_type().is_symlink() {
                        return link(entry.into_path(), &root, &options.globs).map(Ok);
                    }
                    let special = !entry.file_type().is_file();
                    if special && entry.file_type().is_dir() {
                        return None;
                    }
                    let choice =
                        options.globs.choose_file(entry.path().strip_prefix(&root).unwrap_or(entry.path()));
                    if choice == Choice::Left {
                        return None;
                    }
                    let rel = entry.path().strip_prefix(&outer).unwrap_or(entry.path());
                    if shard.is_some_and(|s| !s.takes(rel)) {
                        return Some(Ok(other_shard(entry.into_path())));
                    }
                    // A pipe or a device among the files is found, never opened (one given as
                    // a root is reported by the walk of that root).
                    if special {
                        let record_name = matches!(NameKind::of(entry.path()), Some(NameKind::Record(_)));
                        return Some(Ok(unlooked(entry.into_path(), Expect::NotAFile { record_name })));
                    }
                    let expect = expect(entry.path(), choice);
                    Some(match entry.metadata() {
                        Ok(m) => {
                            Ok(SourceFile { through_link, ..source_file(entry.into_path(), &m, expect) })
                        }
                        Err(e) => Err(problem(e, entry.path())),
                    })
                }
                Err(e) => {
                    let path = e.path().unwrap_or(&root).to_path_buf();
                    // A link to a directory that holds it (walkdir finds those whose directory
                    // it walked) is not followed again.
                    if e.loop_ancestor().is_some() {
                        return loop_back(path, &root, &options.globs).map(Ok);
                    }
                    // A link followed that leads nowhere is a broken link, as one not followed
                    // is: nothing there can be read, and a file once read through it is gone.
                    // So is one that leads only to more links, round in a circle, which the
                    // system stops resolving.
                    let nowhere = e.io_error().is_some_and(|io| {
                        io.kind() == std::io::ErrorKind::NotFound
                            || rustix::io::Errno::from_io_error(io) == Some(rustix::io::Errno::LOOP)
                    });
                    if nowhere && fs::symlink_metadata(&path).is_ok_and(|m| m.is_symlink()) {
                        return link(path, &root, &options.globs).map(Ok);
                    }
                    // Every shard reports it: a directory that cannot be read hides files of any.
                    Some(Err(problem(e, &path)))
                }
            };
            // The depth of the followed link to a directory that the walk is under, if any.
            let mut linked_dir: Option<usize> = None;
            Box::new(std::iter::from_fn(move || {
                loop {
                    let entry = walker.next()?;
                    let mut through_link = false;
                    if let Ok(e) = &entry {
                        // A followed link back to a directory above the root: the walk would
                        // find it a loop only after taking in that whole directory once more.
                        if link_to_ancestor(e) {
                            walker.skip_current_dir();
                            match loop_back(e.path().to_path_buf(), &loop_root, &loop_globs) {
                                Some(file) => return Some(Ok(file)),
                                None => continue,
                            }
                        }
                        linked_dir = linked_dir.filter(|&depth| e.depth() > depth);
                        through_link = linked_dir.is_some() || e.path_is_symlink();
                        if linked_dir.is_none() && e.path_is_symlink() && e.file_type().is_dir() {
                            linked_dir = Some(e.depth());
                        }
                    }
                    if let Some(item) = map(entry, through_link) {
                        return Some(item);
                    }
                }
            }))
        }
    }
}

/// Whether the entry is a followed link to its own directory or one above it.
fn link_to_ancestor(entry: &walkdir::DirEntry) -> bool {
    if !(entry.path_is_symlink() && entry.file_type().is_dir()) {
        return false;
    }
    let (Ok(target), Some(Ok(at))) =
        (fs::canonicalize(entry.path()), entry.path().parent().map(fs::canonicalize))
    else {
        return false;
    };
    at.starts_with(&target)
}

fn problem(e: walkdir::Error, path: &Path) -> WalkProblem {
    let kind = match e.into_io_error() {
        // Gone itself, not a link to nothing (which is still there to be mended).
        Some(io) if io.kind() == std::io::ErrorKind::NotFound && fs::symlink_metadata(path).is_err() => {
            WalkProblemKind::Vanished
        }
        Some(io) => WalkProblemKind::Io(io),
        None => WalkProblemKind::Io(std::io::Error::other("cannot read this entry")),
    };
    WalkProblem { path: path.to_path_buf(), kind }
}

/// A followed link to a directory that holds it, unless the globs leave out directories of
/// its name.
fn loop_back(path: PathBuf, root: &Path, globs: &Globs) -> Option<SourceFile> {
    let left = globs.excludes_dir(path.strip_prefix(root).unwrap_or(&path));
    (!left).then(|| unlooked(path, Expect::LoopBack))
}

/// A symbolic link the walk does not follow, unless the globs leave out what it leads to
/// (a directory as they leave out directories, anything else as they leave out files).
fn link(path: PathBuf, root: &Path, globs: &Globs) -> Option<SourceFile> {
    let target = fs::metadata(&path);
    let rel = path.strip_prefix(root).unwrap_or(&path);
    let left = match &target {
        Ok(meta) if meta.is_dir() => globs.excludes_dir(rel),
        _ => globs.choose_file(rel) == Choice::Left,
    };
    (!left).then(|| unlooked(path, Expect::Link { broken: target.is_err() }))
}

/// A file another shard takes.
fn other_shard(path: PathBuf) -> SourceFile {
    unlooked(path, Expect::OtherShard)
}

/// An entry found and not looked at further: no size, times or filesystem.
fn unlooked(path: PathBuf, expect: Expect) -> SourceFile {
    SourceFile {
        path,
        size: 0,
        mtime_ns: 0,
        ctime_ns: None,
        device: None,
        inode: None,
        through_link: false,
        expect,
    }
}

/// The file at `path` as its metadata describes it.
pub(crate) fn source_file(path: PathBuf, meta: &fs::Metadata, expect: Expect) -> SourceFile {
    let mtime_ns = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX));
    SourceFile {
        path,
        size: meta.len(),
        mtime_ns,
        ctime_ns: ctime_ns(meta),
        device: device(meta),
        inode: inode(meta),
        through_link: false,
        expect,
    }
}

#[cfg(unix)]
fn inode(meta: &fs::Metadata) -> Option<Inode> {
    use std::os::unix::fs::MetadataExt;
    Some(Inode { number: meta.ino(), names: meta.nlink() })
}

#[cfg(not(unix))]
fn inode(_: &fs::Metadata) -> Option<Inode> {
    None
}

#[cfg(unix)]
fn ctime_ns(meta: &fs::Metadata) -> Option<i64> {
    use std::os::unix::fs::MetadataExt;
    Some(meta.ctime().saturating_mul(1_000_000_000).saturating_add(meta.ctime_nsec()))
}

#[cfg(not(unix))]
fn ctime_ns(_: &fs::Metadata) -> Option<i64> {
    None
}

/// What tells the file `meta` describes from every other, where the system tells: its
/// device and its number there.
pub(crate) fn file_id(meta: &fs::Metadata) -> Option<(i64, u64)> {
    Some((device(meta)?, inode(meta)?.number))
}

/// The device of the filesystem that holds what `meta` describes (its bits as an `i64`, as
/// SQLite stores them), where the system has one.
#[cfg(unix)]
pub(crate) fn device(meta: &fs::Metadata) -> Option<i64> {
    use std::os::unix::fs::MetadataExt;
    Some(meta.dev() as i64)
}

#[cfg(not(unix))]
pub(crate) fn device(_: &fs::Metadata) -> Option<i64> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a walk found.
    #[derive(Debug, Default)]
    struct Walked {
        /// The files, sorted by path, each once.
        files: Vec<SourceFile>,
        problems: Vec<WalkProblem>,
    }

    /// Walks `roots` and collects what [`entries`] yields.
    fn walk(roots: &[PathBuf], options: WalkOptions) -> Walked {
        let mut out = Walked::default();
        for entry in entries(roots, options) {
            match entry {
                Ok(file) => out.files.push(file),
                Err(problem) => out.problems.push(problem),
            }
        }
        out
    }

    fn touch(path: &Path) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, b"x").unwrap();
    }

    fn found(dir: &Path, walked: &Walked) -> Vec<(String, Expect)> {
        walked
            .files
            .iter()
            .map(|f| (f.path.strip_prefix(dir).unwrap().to_str().unwrap().to_string(), f.expect))
            .collect()
    }

    fn expected(files: &[(&str, Expect)]) -> Vec<(String, Expect)> {
        files.iter().map(|&(p, e)| (p.to_string(), e)).collect()
    }

    #[test]
    fn finds_every_file_sorted_and_tells_records_by_name() {
        let dir = tempfile::tempdir().unwrap();
        for name in
            ["b/2.kif", "b/1.CSA", "a/z.ki2", "a/notes.md", "a/image.png", "c.kifu", "d.txt", "e.JSON"]
        {
            touch(&dir.path().join(name));
        }
        // A directory named like a record is walked like any directory.
        touch(&dir.path().join("f.kif/g.csa"));
        let walked = walk(&[dir.path().to_path_buf()], WalkOptions::default());
        use Expect::*;
        let want = [
            ("a/image.png", Skip),
            ("a/notes.md", Skip),
            ("a/z.ki2", Record),
            ("b/1.CSA", Record),
            ("b/2.kif", Record),
            ("c.kifu", Record),
            ("d.txt", Maybe),
            ("e.JSON", Maybe),
            ("f.kif/g.csa", Record),
        ];
        assert_eq!(found(dir.path(), &walked), expected(&want));
        assert!(walked.problems.is_empty());
        assert_eq!(walked.files[0].size, 1);
    }

    #[test]
    fn globs_choose_files_and_an_excluded_directory_is_not_walked() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a.kif", "a.dat", "old/b.kif", "x/old/c.kif", "keep/d.dat", "keep/e.bak"] {
            touch(&dir.path().join(name));
        }
        let options = |include: &[&str], exclude: &[&str]| {
            let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
            let globs = Globs::new(&strings(include), &strings(exclude)).unwrap();
            WalkOptions { globs: Arc::new(globs), ..WalkOptions::default() }
        };
        let root = [dir.path().to_path_buf()];
        use Expect::*;
        let walked = walk(&root, options(&[], &["old", "*.bak"]));
        assert_eq!(
            found(dir.path(), &walked),
            expected(&[("a.dat", Skip), ("a.kif", Record), ("keep/d.dat", Skip)])
        );
        let walked = walk(&root, options(&["*.dat", "/old/"], &[]));
        assert_eq!(
            found(dir.path(), &walked),
            expected(&[("a.dat", Maybe), ("keep/d.dat", Maybe), ("old/b.kif", Record)])
        );
        // A file named on the command line is taken whatever the globs say.
        let walked = walk(&[dir.path().join("a.dat")], options(&[], &["*.dat"]));
        assert_eq!(walked.files.len(), 1);
        assert_eq!(walked.files[0].expect, Maybe);
    }

    #[test]
    fn a_root_file_is_taken_whatever_its_name_and_missing_roots_are_reported() {
        let dir = tempfile::tempdir().unwrap();
        let odd = dir.path().join("game.record");
        touch(&odd);
        let walked = walk(&[odd.clone(), dir.path().join("nothing")], WalkOptions::default());
        assert_eq!(walked.files.len(), 1);
        assert_eq!(walked.files[0].expect, Expect::Maybe);
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

    #[test]
    fn a_root_inside_another_takes_what_it_takes_alone() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["a/keep.kif", "a/old/x.kif", "a/old/y.kif", "a/sub/z.kif", "a/sub/n.dat"] {
            touch(&dir.path().join(name));
        }
        let root = |p: &str| dir.path().join(p);
        let options = |include: &[&str], exclude: &[&str]| {
            let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
            let globs = Globs::new(&strings(include), &strings(exclude)).unwrap();
            WalkOptions { globs: Arc::new(globs), ..WalkOptions::default() }
        };
        use Expect::*;
        // A file named in a directory that an exclude glob leaves out is taken, and only it.
        let walked = walk(&[root("a"), root("a/old/x.kif")], options(&[], &["old/"]));
        let want =
            [("a/keep.kif", Record), ("a/old/x.kif", Record), ("a/sub/n.dat", Skip), ("a/sub/z.kif", Record)];
        assert_eq!(found(dir.path(), &walked), expected(&want));
        // A directory given is walked although a glob leaves it out of the directory above.
        let walked = walk(&[root("a"), root("a/sub")], options(&[], &["sub"]));
        let want = [
            ("a/keep.kif", Record),
            ("a/old/x.kif", Record),
            ("a/old/y.kif", Record),
            ("a/sub/n.dat", Skip),
            ("a/sub/z.kif", Record),
        ];
        assert_eq!(found(dir.path(), &walked), expected(&want));
        // A glob from the top matches from the top of each directory given.
        let walked = walk(&[root("a"), root("a/sub")], options(&["/z.kif", "/keep.kif"], &[]));
        assert_eq!(found(dir.path(), &walked), expected(&[("a/keep.kif", Record), ("a/sub/z.kif", Record)]));
        // A file both walks take is found once, named or not, as the root file it is.
        let walked = walk(&[root("a/sub"), root("a"), root("a/sub/n.dat")], WalkOptions::default());
        let want = [
            ("a/keep.kif", Record),
            ("a/old/x.kif", Record),
            ("a/old/y.kif", Record),
            ("a/sub/n.dat", Maybe),
            ("a/sub/z.kif", Record),
        ];
        assert_eq!(found(dir.path(), &walked), expected(&want));
        assert!(walked.problems.is_empty());
    }

    #[test]
    fn shards_split_the_files_by_their_path_under_the_directory_given() {
        let dir = tempfile::tempdir().unwrap();
        let names: Vec<String> = (0..60).map(|i| format!("d{}/g{i:02}.kif", i % 3)).collect();
        for name in &names {
            touch(&dir.path().join(name));
        }
        let root = [dir.path().to_path_buf()];
        let mut taken: Vec<String> = Vec::new();
        for i in 1..=3 {
            let shard = Shard::new(i, 3).unwrap();
            let walked = walk(&root, WalkOptions { shard: Some(shard), ..WalkOptions::default() });
            // Every file is found, and this shard's are those whose relative path hashes to it.
            assert_eq!(walked.files.len(), names.len());
            for f in &walked.files {
                let rel = f.path.strip_prefix(dir.path()).unwrap().to_str().unwrap().to_string();
                let mine = Shard::of_bytes(rel.as_bytes(), 3) == i;
                assert_eq!(f.expect != Expect::OtherShard, mine, "{rel} in {shard}");
                if mine {
                    assert_eq!(f.size, 1);
                    taken.push(rel);
                }
            }
            // Directories and files given inside the directory split the same way.
            let inside = [dir.path().join("d1"), dir.path().to_path_buf(), dir.path().join("d2/g05.kif")];
            let again = walk(&inside, WalkOptions { shard: Some(shard), ..WalkOptions::default() });
            assert_eq!(found(dir.path(), &again), found(dir.path(), &walked), "{shard}");
        }
        taken.sort();
        let mut all = names.clone();
        all.sort();
        assert_eq!(taken, all, "the three shards take every file once");
        // The same tree elsewhere splits the same way; a file given by itself is hashed by
        // its name.
        let other = tempfile::tempdir().unwrap();
        touch(&other.path().join("deeper/tree/g07.kif"));
        let alone = other.path().join("deeper/tree/g07.kif");
        let shard = Shard::new(Shard::of_bytes(b"g07.kif", 3), 3).unwrap();
        let walked =
            walk(std::slice::from_ref(&alone), WalkOptions { shard: Some(shard), ..WalkOptions::default() });
        assert_eq!(walked.files[0].expect, Expect::Record);
        let next = Shard::new(shard.index() % 3 + 1, 3).unwrap();
        let walked = walk(&[alone], WalkOptions { shard: Some(next), ..WalkOptions::default() });
        assert_eq!(walked.files[0].expect, Expect::OtherShard);
        // A directory given that does not exist is every shard's problem.
        let walked =
            walk(&[dir.path().join("nothing")], WalkOptions { shard: Some(next), ..WalkOptions::default() });
        assert_eq!(walked.problems.len(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_given_that_leads_nowhere_is_a_problem_whether_links_are_followed_or_not() {
        let dir = tempfile::tempdir().unwrap();
        let (nowhere, circle) = (dir.path().join("nowhere.kif"), dir.path().join("a.kif"));
        std::os::unix::fs::symlink(dir.path().join("gone/x.kif"), &nowhere).unwrap();
        std::os::unix::fs::symlink(dir.path().join("b.kif"), &circle).unwrap();
        std::os::unix::fs::symlink(&circle, dir.path().join("b.kif")).unwrap();
        for follow_links in [false, true] {
            let walked = walk(
                &[nowhere.clone(), circle.clone()],
                WalkOptions { follow_links, ..WalkOptions::default() },
            );
            assert!(walked.files.is_empty(), "follow_links {follow_links}: {:?}", walked.files);
            let codes: Vec<_> = walked.problems.iter().map(|p| (p.path.clone(), p.kind.code())).collect();
            let want = [(circle.clone(), "unreadable"), (nowhere.clone(), "missing")];
            assert_eq!(codes, want, "follow_links {follow_links}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn symlink_loops_never_hang_and_are_no_problem() {
        let dir = tempfile::tempdir().unwrap();
        touch(&dir.path().join("a/game.kif"));
        std::os::unix::fs::symlink(dir.path().join("a"), dir.path().join("a/back")).unwrap();
        let plain = walk(&[dir.path().to_path_buf()], WalkOptions::default());
        let link = Expect::Link { broken: false };
        let want = [("a/back", link), ("a/game.kif", Expect::Record)];
        assert_eq!(found(dir.path(), &plain), expected(&want), "links are not followed by default");
        assert!(plain.problems.is_empty());
        let followed =
            walk(&[dir.path().to_path_buf()], WalkOptions { follow_links: true, ..WalkOptions::default() });
        let want = [("a/back", Expect::LoopBack), ("a/game.kif", Expect::Record)];
        assert_eq!(found(dir.path(), &followed), expected(&want));
        assert!(followed.problems.is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_a_directory_above_the_root_is_a_loop_back_not_walked() {
        // Walking `a`, a link in `a/b` to the directory that holds `a`: followed, it would
        // take in `a` once more under `a/b/up/a`, and `other` beside `a`.
        let dir = tempfile::tempdir().unwrap();
        touch(&dir.path().join("a/b/game.kif"));
        touch(&dir.path().join("other/game.kif"));
        std::os::unix::fs::symlink("../..", dir.path().join("a/b/up")).unwrap();
        let followed =
            walk(&[dir.path().join("a")], WalkOptions { follow_links: true, ..WalkOptions::default() });
        let want = [("a/b/game.kif", Expect::Record), ("a/b/up", Expect::LoopBack)];
        assert_eq!(found(dir.path(), &followed), expected(&want));
        assert!(followed.problems.is_empty());
        // A link to a directory elsewhere is walked.
        std::fs::remove_file(dir.path().join("a/b/up")).unwrap();
        std::os::unix::fs::symlink("../../other", dir.path().join("a/b/other")).unwrap();
        let followed =
            walk(&[dir.path().join("a")], WalkOptions { follow_links: true, ..WalkOptions::default() });
        assert_eq!(followed.files.len(), 2);
        assert!(followed.problems.is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn an_entry_gone_when_looked_at_has_vanished_and_a_link_to_nothing_is_unreadable() {
        let dir = tempfile::tempdir().unwrap();
        let gone = dir.path().join("gone.kif");
        let error = walkdir::WalkDir::new(&gone).into_iter().next().unwrap().unwrap_err();
        assert_eq!(problem(error, &gone).kind.code(), "vanished");
        let link = dir.path().join("link.kif");
        std::os::unix::fs::symlink("nowhere.kif", &link).unwrap();
        let error = walkdir::WalkDir::new(&link).follow_links(true).into_iter().next().unwrap().unwrap_err();
        assert_eq!(problem(error, &link).kind.code(), "unreadable");
    }

    #[cfg(unix)]
    #[test]
    fn links_that_lead_only_to_each_other_lead_nowhere() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        touch(&dir.path().join("a/game.kif"));
        symlink("self", dir.path().join("a/self")).unwrap();
        symlink("y.kif", dir.path().join("a/x.kif")).unwrap();
        symlink("x.kif", dir.path().join("a/y.kif")).unwrap();
        let followed =
            walk(&[dir.path().to_path_buf()], WalkOptions { follow_links: true, ..WalkOptions::default() });
        let broken = Expect::Link { broken: true };
        let want =
            [("a/game.kif", Expect::Record), ("a/self", broken), ("a/x.kif", broken), ("a/y.kif", broken)];
        assert_eq!(found(dir.path(), &followed), expected(&want));
        assert!(followed.problems.is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_pipe_among_the_files_is_found_and_not_a_file() {
        let dir = tempfile::tempdir().unwrap();
        touch(&dir.path().join("game.kif"));
        for name in ["pipe.kif", "pipe.dat"] {
            let path = dir.path().join(name);
            rustix::fs::mknodat(rustix::fs::CWD, &path, rustix::fs::FileType::Fifo, 0o644.into(), 0).unwrap();
        }
        let walked = walk(&[dir.path().to_path_buf()], WalkOptions::default());
        let want = [
            ("game.kif", Expect::Record),
            ("pipe.dat", Expect::NotAFile { record_name: false }),
            ("pipe.kif", Expect::NotAFile { record_name: true }),
        ];
        assert_eq!(found(dir.path(), &walked), expected(&want));
        // An exclude glob leaves it out as it leaves out a file.
        let globs = Globs::new(&[], &["pipe.*".to_string()]).unwrap();
        let walked = walk(
            &[dir.path().to_path_buf()],
            WalkOptions { globs: Arc::new(globs), ..WalkOptions::default() },
        );
        assert_eq!(found(dir.path(), &walked), expected(&[("game.kif", Expect::Record)]));
        // Given as a path too, it is the problem the path given is.
        let walked = walk(&[dir.path().to_path_buf(), dir.path().join("pipe.kif")], WalkOptions::default());
        assert_eq!(walked.files.len(), 2);
        let problems: Vec<_> = walked.problems.iter().map(|p| (p.path.clone(), p.kind.code())).collect();
        assert_eq!(problems, [(dir.path().join("pipe.kif"), "not_a_file")]);
    }

    #[cfg(unix)]
    #[test]
    fn a_file_of_several_names_is_found_once_under_its_own() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().join("top");
        touch(&top.join("real/g.kif"));
        touch(&top.join("b/h.kif"));
        touch(&dir.path().join("outside/o.kif"));
        // Before the real path in path order: a link to its directory and one to the file.
        symlink("real", top.join("a")).unwrap();
        symlink("real/g.kif", top.join("f.kif")).unwrap();
        // A hard link, after the name it was made from.
        fs::hard_link(top.join("b/h.kif"), top.join("b/hard.kif")).unwrap();
        // Two links to a file outside: the first in path order is its name.
        symlink(dir.path().join("outside"), top.join("c")).unwrap();
        symlink(dir.path().join("outside/o.kif"), top.join("d.kif")).unwrap();
        let followed =
            walk(std::slice::from_ref(&top), WalkOptions { follow_links: true, ..WalkOptions::default() });
        use Expect::*;
        let want = [
            ("a/g.kif", OtherName),
            ("b/h.kif", Record),
            ("b/hard.kif", OtherName),
            ("c/o.kif", Record),
            ("d.kif", OtherName),
            ("f.kif", OtherName),
            ("real/g.kif", Record),
        ];
        assert_eq!(found(&top, &followed), expected(&want));
        // Without following links, hard links are still one file.
        let plain = walk(std::slice::from_ref(&top), WalkOptions::default());
        let names: Vec<_> = found(&top, &plain).into_iter().filter(|(p, _)| p.starts_with("b/")).collect();
        assert_eq!(names, expected(&[("b/h.kif", Record), ("b/hard.kif", OtherName)]));
        // A real path the globs leave out gives way to the link that reaches it.
        let globs = Globs::new(&[], &["/real/".to_string()]).unwrap();
        let options = WalkOptions { follow_links: true, globs: Arc::new(globs), ..WalkOptions::default() };
        let walked = walk(std::slice::from_ref(&top), options);
        let g: Vec<_> = found(&top, &walked)
            .into_iter()
            .filter(|(p, _)| ["a/g.kif", "f.kif"].contains(&p.as_str()))
            .collect();
        assert_eq!(g, expected(&[("a/g.kif", Record), ("f.kif", OtherName)]));
    }

    #[cfg(unix)]
    #[test]
    fn a_name_that_is_not_read_never_takes_a_file_from_one_that_is() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().join("top");
        touch(&top.join("m.kif"));
        // Hard links whose names sort first, and which the walk skips.
        fs::hard_link(top.join("m.kif"), top.join("0backup")).unwrap();
        fs::hard_link(top.join("m.kif"), top.join("a.kif.bak")).unwrap();
        // A link named as a record to a file whose own name the walk skips.
        touch(&top.join("data/x.bak"));
        symlink("data/x.bak", top.join("x.kif")).unwrap();
        use Expect::*;
        let want = [
            ("0backup", Skip),
            ("a.kif.bak", Skip),
            ("data/x.bak", Skip),
            ("m.kif", Record),
            ("x.kif", Record),
        ];
        let followed =
            walk(std::slice::from_ref(&top), WalkOptions { follow_links: true, ..WalkOptions::default() });
        assert_eq!(found(&top, &followed), expected(&want));
        let plain = walk(std::slice::from_ref(&top), WalkOptions::default());
        let names: Vec<_> = found(&top, &plain).into_iter().filter(|(p, _)| p != "x.kif").collect();
        assert_eq!(names, expected(&want[..4]));
    }

    #[cfg(unix)]
    #[test]
    fn links_not_followed_are_found_unless_the_globs_leave_them_out() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        touch(&dir.path().join("real/game.kif"));
        let top = dir.path().join("top");
        fs::create_dir(&top).unwrap();
        symlink(dir.path().join("real/game.kif"), top.join("file.kif")).unwrap();
        symlink(dir.path().join("real"), top.join("old")).unwrap();
        symlink(dir.path().join("gone"), top.join("broken.kif")).unwrap();
        let options = |exclude: &[&str]| {
            let exclude: Vec<String> = exclude.iter().map(|s| s.to_string()).collect();
            WalkOptions { globs: Arc::new(Globs::new(&[], &exclude).unwrap()), ..WalkOptions::default() }
        };
        let (alive, broken) = (Expect::Link { broken: false }, Expect::Link { broken: true });
        let walked = walk(std::slice::from_ref(&top), options(&[]));
        let want = [("broken.kif", broken), ("file.kif", alive), ("old", alive)];
        assert_eq!(found(&top, &walked), expected(&want));
        // A directory glob leaves out a link to a directory, not one to a file.
        let walked = walk(std::slice::from_ref(&top), options(&["old/", "file.kif/"]));
        assert_eq!(found(&top, &walked), expected(&[("broken.kif", broken), ("file.kif", alive)]));
        let walked = walk(std::slice::from_ref(&top), options(&["*.kif"]));
        assert_eq!(found(&top, &walked), expected(&[("old", alive)]));
    }

    #[cfg(unix)]
    #[test]
    fn a_link_followed_that_leads_nowhere_is_a_broken_link() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        touch(&dir.path().join("real/game.kif"));
        let top = dir.path().join("top");
        fs::create_dir(&top).unwrap();
        symlink(dir.path().join("real/game.kif"), top.join("file.kif")).unwrap();
        symlink(dir.path().join("gone.kif"), top.join("broken.kif")).unwrap();
        symlink("broken.kif", top.join("to_broken.kif")).unwrap();
        let walked =
            walk(std::slice::from_ref(&top), WalkOptions { follow_links: true, ..WalkOptions::default() });
        assert!(
            walked.problems.is_empty(),
            "{:?}",
            walked.problems.iter().map(|p| &p.path).collect::<Vec<_>>()
        );
        let broken = Expect::Link { broken: true };
        let want = [("broken.kif", broken), ("file.kif", Expect::Record), ("to_broken.kif", broken)];
        assert_eq!(found(&top, &walked), expected(&want));
    }

    /// A link that leads nowhere, reached through links to the directory that holds it, is
    /// found once: it is one link.
    #[cfg(unix)]
    #[test]
    fn a_link_that_leads_nowhere_is_found_once_whatever_names_reach_it() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().join("top");
        touch(&top.join("real/game.kif"));
        symlink(dir.path().join("gone.kif"), top.join("real/broken.kif")).unwrap();
        for name in ["a", "b", "c"] {
            symlink(top.join("real"), top.join(name)).unwrap();
        }
        let walked =
            walk(std::slice::from_ref(&top), WalkOptions { follow_links: true, ..WalkOptions::default() });
        let broken: Vec<_> =
            walked.files.iter().filter(|f| f.expect == (Expect::Link { broken: true })).collect();
        assert_eq!(broken.len(), 1, "{:?}", broken.iter().map(|f| &f.path).collect::<Vec<_>>());
        assert_eq!(broken[0].path, top.join("a/broken.kif"), "the first in path order");
    }
}
