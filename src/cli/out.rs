//! Output files written whole or not at all. A command writes its file under a hidden name in
//! the same directory and renames it onto the name asked for once it is complete: a write that
//! fails (a full disk, a game that cannot be written) never leaves a cut file under that
//! name, and the file that was there stays as it was. Ctrl-C (SIGINT) or SIGTERM removes the
//! hidden file and ends the command with status 130 or 143; only a kill leaves it
//! (`.NAME.PID.partial`), and the next command to write that file removes it once the
//! process that wrote it is gone.
//!
//! A name for one of the process's open files (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`,
//! `/proc/self/fd/N`) is no file to replace. Stdout's and stderr's names (and `-`) are written
//! through the process's own stream, where it stands, so that what the command writes there
//! besides (a summary) follows in order instead of over it, in a file the shell opened with
//! `>` as in one opened with `>>`; another descriptor's file is written after what is there.

use kifudex::ingest::path_text;
use std::{
    ffi::OsString,
    fs::{self, File, OpenOptions},
    io::{ErrorKind, Write},
    os::fd::AsFd,
    path::{Path, PathBuf},
    sync::{Mutex, Once},
};

use anyhow::{Context, anyhow, bail};

/// The file an `--out` names: none for `-`, which means stdout, as it does to most tools.
pub fn named(out: &Option<PathBuf>) -> Option<&PathBuf> {
    out.as_ref().filter(|p| p.as_os_str() != "-")
}

/// Removes the hidden files of `target` (named `name`) that killed runs left behind:
/// `.NAME.PID.partial` whose process is gone. One whose process is alive may be another
/// command writing the same file now, and is left alone (as every one is where there is no
/// `/proc` to ask).
fn remove_abandoned(target: &Path, name: &std::ffi::OsStr) {
    let (Some(dir), Some(name)) = (target.parent(), name.to_str()) else {
        return;
    };
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let prefix = format!(".{name}.");
    for entry in entries.flatten() {
        let file = entry.file_name();
        let pid =
            file.to_str().and_then(|f| f.strip_prefix(&prefix)).and_then(|f| f.strip_suffix(".partial"));
        let Some(pid) = pid.filter(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())) else {
            continue;
        };
        let proc = Path::new("/proc");
        if proc.join("self").exists() && !proc.join(pid).exists() {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Whether `path` names one of the process's open files rather than a file of its own:
/// `/dev/stdout` or `/dev/stderr`, or an entry of a `/proc/…/fd` directory
/// (`/dev/fd/N` and `/proc/self/fd/N` are links to one).
fn is_descriptor(path: &Path) -> bool {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return false;
    };
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    let Ok(dir) = dir.canonicalize() else {
        return false;
    };
    if dir == Path::new("/dev") {
        return name == "stdout" || name == "stderr";
    }
    let mut parts = dir.components().map(|c| c.as_os_str());
    parts.next() == Some(std::ffi::OsStr::new("/"))
        && parts.next() == Some(std::ffi::OsStr::new("proc"))
        && parts.next().is_some()
        && parts.next() == Some(std::ffi::OsStr::new("fd"))
        && parts.next().is_none()
}

/// The stream of this process that `path` names: stdout for `-`, `/dev/stdout`, `/dev/fd/1`
/// and `/proc/self/fd/1`, stderr for their kin with 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stream {
    Stdout,
    Stderr,
}

fn own_stream(path: &Path) -> Option<Stream> {
    if path.as_os_str() == "-" {
        return Some(Stream::Stdout);
    }
    let (dir, name) = (path.parent()?, path.file_name()?.to_str()?);
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    let dir = dir.canonicalize().ok()?;
    let named = if dir == Path::new("/dev") {
        [("stdout", Stream::Stdout), ("stderr", Stream::Stderr)]
    } else if dir == Path::new("/proc").join(std::process::id().to_string()).join("fd") {
        [("1", Stream::Stdout), ("2", Stream::Stderr)]
    } else {
        return None;
    };
    named.iter().find(|(n, _)| *n == name).map(|&(_, stream)| stream)
}

/// A handle on the process's own `stream`, which writes where the stream stands.
fn stream_file(stream: Stream) -> std::io::Result<File> {
    let fd = match stream {
        Stream::Stdout => {
            // What was printed before goes first.
            std::io::stdout().flush()?;
            std::io::stdout().as_fd().try_clone_to_owned()?
        }
        Stream::Stderr => std::io::stderr().as_fd().try_clone_to_owned()?,
    };
    Ok(File::from(fd))
}

/// The hidden files being written, for the signal handler to remove.
static PARTIAL: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn partial() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    PARTIAL.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Makes SIGINT and SIGTERM remove the hidden files being written and end the process, as
/// the signal would have (status 128 + its number), once a hidden file is first made.
fn remove_on_signals() {
    static WATCH: Once = Once::new();
    WATCH.call_once(|| {
        // Without the handler, the signal ends the process as before and leaves the file.
        super::exit_on_signals(|| {
            for hidden in partial().drain(..) {
                let _ = fs::remove_file(hidden);
            }
        });
    });
}

/// An output file being written (see the module documentation).
pub struct Replacing {
    /// The file it becomes: the name asked for, or the file a link there points to.
    path: PathBuf,
    /// The hidden file written, when the output goes through one; removed unless committed.
    hidden: Option<PathBuf>,
}

impl Replacing {
    /// Opens `path` for writing. A name that holds nothing yet, or a regular file (a link to
    /// one: the file is replaced, the link kept), is written under a hidden name; `-` and the
    /// names of stdout and stderr (`/dev/stdout`) are written through the process's stream,
    /// the name of another open descriptor (`/dev/fd/3`) is appended to; anything else
    /// (`/dev/null`, a terminal, a pipe) is written directly.
    ///
    /// # Errors
    ///
    /// When `path` is a directory, or nothing can be created, or its directory may not be
    /// written: a file written in place would be left cut by a command stopped on the way,
    /// where a reader of it could not tell.
    pub fn create(path: &Path) -> anyhow::Result<(Replacing, File)> {
        let direct = || -> anyhow::Result<(Replacing, File)> {
            let file = File::create(path).with_context(|| format!("cannot create {}", path_text(path)))?;
            Ok((Replacing { path: path.to_path_buf(), hidden: None }, file))
        };
        // Opened anew, stdout's file would be written from its start or its end, where the
        // process's own stream writes from where it stands: over what it writes besides.
        if let Some(stream) = own_stream(path) {
            let file = stream_file(stream).with_context(|| format!("cannot write {}", path_text(path)))?;
            return Ok((Replacing { path: path.to_path_buf(), hidden: None }, file));
        }
        // Opened anew, a descriptor's file would be cut (or replaced) under what the shell
        // or an earlier command wrote there: it is appended to, as the descriptor would be.
        if is_descriptor(path) {
            let file = OpenOptions::new()
                .append(true)
                .open(path)
                .with_context(|| format!("cannot write {}", path_text(path)))?;
            return Ok((Replacing { path: path.to_path_buf(), hidden: None }, file));
        }
        let target = match fs::metadata(path) {
            Ok(m) if m.is_dir() => bail!("{} is a directory: give a file", path_text(path)),
            _ if kifudex::db::ends_with_slash(path) => return Err(no_file_name(path)),
            Ok(m) if !m.is_file() => return direct(),
            Ok(_) => {
                // A file that may not be written is refused as writing it would be, never
                // replaced behind its permissions.
                OpenOptions::new()
                    .write(true)
                    .open(path)
                    .with_context(|| format!("cannot create {}", path_text(path)))?;
                path.canonicalize().with_context(|| format!("cannot resolve {}", path_text(path)))?
            }
            // A link to nothing: writing through it makes its file, as before.
            Err(e) if e.kind() == ErrorKind::NotFound && path.is_symlink() => return direct(),
            Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {
                check_directory(path)?;
                path.to_path_buf()
            }
            Err(e) => return Err(e).with_context(|| format!("cannot write {}", path_text(path))),
        };
        let Some(name) = target.file_name() else {
            return direct();
        };
        let mut hidden_name = OsString::from(".");
        hidden_name.push(name);
        hidden_name.push(format!(".{}.partial", std::process::id()));
        let hidden = target.with_file_name(hidden_name);
        // Left by a killed run that had this process id: nothing else writes this name.
        let _ = fs::remove_file(&hidden);
        remove_abandoned(&target, name);
        remove_on_signals();
        // Listed before it is made: a signal in between removes a name that is not there.
        partial().push(hidden.clone());
        match OpenOptions::new().write(true).create_new(true).open(&hidden) {
            Ok(file) => Ok((Replacing { path: target, hidden: Some(hidden) }, file)),
            Err(e) => {
                unlist(&hidden);
                match e.kind() {
                    ErrorKind::PermissionDenied => {
                        let dir =
                            target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
                        bail!(
                            "cannot write {}: the directory {} may not be written, and the file is \
                             only ever replaced whole (a command stopped on the way would leave it cut): \
                             write it elsewhere, or to stdout (--out /dev/stdout, which every format takes)",
                            path_text(path),
                            path_text(dir)
                        )
                    }
                    // The file the user named: the hidden one is only the way to it.
                    _ => Err(e).with_context(|| format!("cannot write {}", path_text(path))),
                }
            }
        }
    }

    /// Puts the file written under its name, with the permissions of the file it replaces, and
    /// its owner and group when this user may give them (root may).
    ///
    /// # Errors
    ///
    /// When the rename fails; the hidden file is then removed, and the file that was there
    /// stays.
    pub fn commit(mut self) -> anyhow::Result<()> {
        let Some(hidden) = self.hidden.take() else {
            return Ok(());
        };
        if let Ok(was) = fs::metadata(&self.path) {
            use std::os::unix::fs::MetadataExt;
            // The owner first: a change of owner may clear the set-user-id bits.
            let _ = std::os::unix::fs::chown(&hidden, Some(was.uid()), Some(was.gid()));
            let _ = fs::set_permissions(&hidden, was.permissions());
        }
        let renamed = fs::rename(&hidden, &self.path).map_err(|e| {
            let _ = fs::remove_file(&hidden);
            anyhow::Error::new(e).context(format!("cannot write {}", path_text(&self.path)))
        });
        unlist(&hidden);
        renamed
    }
}

/// Checks, before a long run, that a file can be made or written at `path`, as
/// [`Replacing::create`] will make it: it is no directory, a file there may be written, and
/// the directory it would be made in exists.
///
/// # Errors
///
/// Saying which of those fails.
pub fn check_writable(path: &Path) -> anyhow::Result<()> {
    match fs::metadata(path) {
        Ok(m) if m.is_dir() => bail!("{} is a directory: give a file", path_text(path)),
        _ if kifudex::db::ends_with_slash(path) => Err(no_file_name(path)),
        Ok(m) if m.is_file() => {
            OpenOptions::new()
                .write(true)
                .open(path)
                .with_context(|| format!("cannot write {}", path_text(path)))?;
            Ok(())
        }
        Ok(_) => Ok(()),
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => check_directory(path),
        Err(e) => Err(e).with_context(|| format!("cannot write {}", path_text(path))),
    }
}

/// Why no file can be made at `path`, which ends with a slash and is no directory.
fn no_file_name(path: &Path) -> anyhow::Error {
    match kifudex::db::file_in_the_way(path) {
        Some(file) => anyhow!("cannot create {}: {} is not a directory", path_text(path), path_text(&file)),
        None => anyhow!(
            "cannot create {}: a path that ends with / names a directory, and there is none: give a file's path",
            path_text(path)
        ),
    }
}

/// Checks that the directory a new file at `path` would be made in is there.
fn check_directory(path: &Path) -> anyhow::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if fs::metadata(dir).is_ok_and(|m| m.is_dir()) {
        return Ok(());
    }
    match kifudex::db::file_in_the_way(dir) {
        Some(file) => bail!("cannot create {}: {} is not a directory", path_text(path), path_text(&file)),
        None => bail!("cannot create {}: there is no directory {}", path_text(path), path_text(dir)),
    }
}

impl Drop for Replacing {
    fn drop(&mut self) {
        if let Some(hidden) = &self.hidden {
            let _ = fs::remove_file(hidden);
            unlist(hidden);
        }
    }
}

/// Takes `hidden` off the files a signal removes.
fn unlist(hidden: &Path) {
    partial().retain(|p| p != hidden);
}

/// Writes `bytes` to the file `path` whole or not at all (see [`Replacing`]).
///
/// # Errors
///
/// When the file cannot be created or written.
pub fn write_whole(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    use std::io::Write;
    let (out, mut file) = Replacing::create(path)?;
    file.write_all(bytes).with_context(|| format!("cannot write {}", path_text(path)))?;
    drop(file);
    out.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_file_is_replaced_only_once_written_whole() {
        use std::io::Write;
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("out.csv");
        fs::write(&path, "old").unwrap();
        // Abandoned half-way: the old file stays, and nothing else is left.
        let (out, mut file) = Replacing::create(&path).unwrap();
        file.write_all(b"half").unwrap();
        drop((out, file));
        assert_eq!(fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(listing(tmp.path()), ["out.csv"]);
        // Committed: the new text, nothing else.
        write_whole(&path, b"new").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(listing(tmp.path()), ["out.csv"]);
        // A new name is made the same way.
        write_whole(&tmp.path().join("fresh.csv"), b"x").unwrap();
        assert_eq!(listing(tmp.path()), ["fresh.csv", "out.csv"]);
        // What a killed run left (process 999999999 cannot exist: Linux's largest is 2^22)
        // goes; the file of a live process (1, the init process) stays.
        if Path::new("/proc/self").exists() {
            for pid in [999_999_999, 1] {
                fs::write(tmp.path().join(format!(".out.csv.{pid}.partial")), "half").unwrap();
            }
            write_whole(&path, b"newer").unwrap();
            assert_eq!(listing(tmp.path()), [".out.csv.1.partial", "fresh.csv", "out.csv"]);
        }
    }

    #[cfg(unix)]
    #[test]
    fn links_permissions_and_devices_are_kept() {
        use std::os::unix::fs::{PermissionsExt, symlink};
        let tmp = tempfile::tempdir().unwrap();
        let real = tmp.path().join("real.csv");
        fs::write(&real, "old").unwrap();
        fs::set_permissions(&real, fs::Permissions::from_mode(0o600)).unwrap();
        let link = tmp.path().join("link.csv");
        symlink(&real, &link).unwrap();
        write_whole(&link, b"new").unwrap();
        assert!(link.is_symlink(), "the link is still a link");
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
        assert_eq!(fs::metadata(&real).unwrap().permissions().mode() & 0o777, 0o600);
        assert_eq!(listing(tmp.path()), ["link.csv", "real.csv"]);
        // A device is written directly, never replaced.
        write_whole(Path::new("/dev/null"), b"nothing").unwrap();
        assert!(!fs::metadata("/dev/null").unwrap().is_file());
        // A directory is refused before anything is written.
        let err = Replacing::create(tmp.path()).err().expect("a directory is refused");
        assert!(err.to_string().contains("is a directory"), "{err}");
    }
}
