//! The work done for one file on a worker thread: decide whether it changed, read it,
//! replay its games, and prepare them for the writer.

use std::{fs, path::Path};

use xxhash_rust::xxh3::xxh3_128;

use super::ReadFn;
use crate::{
    db::{FileRecord, FileState, NewGame, NewReject, NewWarning},
    replay::{ReplayedGame, Status, StopReason, replay},
    walk::{Entry, SourceFile},
};

/// What became of a file.
#[derive(Debug)]
pub(super) enum Outcome {
    /// Same size and modification time as when it was indexed: not read.
    Unchanged { path: String, state: FileState },
    /// Read, but the content is the one indexed: only the size and time are new.
    Touched { path: String, size: u64, mtime_ns: i64, state: FileState },
    /// It could not be read.
    Unreadable { path: String, reject: NewReject },
    /// Read and parsed (possibly into no game at all).
    Read(FileWork),
}

impl Outcome {
    /// The path of the file or entry.
    pub fn path(&self) -> &str {
        match self {
            Outcome::Unchanged { path, .. }
            | Outcome::Touched { path, .. }
            | Outcome::Unreadable { path, .. } => path,
            Outcome::Read(work) => &work.file.path,
        }
    }
}

/// A file read and parsed, ready for the writer.
#[derive(Debug)]
pub(super) struct FileWork {
    pub file: FileRecord,
    pub games: Vec<NewGame>,
    pub rejects: Vec<NewReject>,
    /// The warnings of the games stored, from reading and from replay.
    pub warnings: Vec<NewWarning>,
}

/// The text form of a path, as the database stores it: the path itself when it is UTF-8 (and
/// has no backslash). A file name that is not UTF-8 (CP932 bytes from an old archive, say)
/// keeps its valid parts and writes every other byte as `\xNN`; a backslash is written
/// `\x5c`. So two paths never share a text form, which a lossy conversion would give them
/// (one file's games would replace the other's), and a directory's text is the start of its
/// files' texts.
#[cfg(unix)]
pub fn path_text(path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let mut out = String::with_capacity(path.as_os_str().len());
    for chunk in path.as_os_str().as_bytes().utf8_chunks() {
        out.push_str(&chunk.valid().replace('\\', "\\x5c"));
        for byte in chunk.invalid() {
            out.push_str(&format!("\\x{byte:02x}"));
        }
    }
    out
}

/// The text form of a path (see the Unix version); elsewhere paths are Unicode already.
#[cfg(not(unix))]
pub fn path_text(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// A file after the I/O step: settled already, or read and in need of parsing.
#[derive(Debug)]
pub(super) enum Fetched {
    Settled(Outcome),
    Read { path: String, bytes: Vec<u8>, hash: [u8; 16] },
}

fn unreadable(path: String, code: &'static str, message: String) -> Outcome {
    Outcome::Unreadable { path, reject: NewReject { game_index: None, line: None, ply: None, code, message } }
}

/// The I/O step for a walked entry; for a file, whose recorded state is `state`, decides
/// from the size and time whether it changed, and if it may have, reads and hashes it.
pub(super) fn fetch(entry: &Entry, state: Option<FileState>) -> Fetched {
    let file = match entry {
        Ok(file) => file,
        Err(problem) => {
            return Fetched::Settled(unreadable(
                path_text(&problem.path),
                problem.kind.code(),
                problem.to_string(),
            ));
        }
    };
    let path = path_text(&file.path);
    let state = match state {
        Some(state) if state.size == file.size && state.mtime_ns == file.mtime_ns => {
            return Fetched::Settled(Outcome::Unchanged { path, state });
        }
        other => other,
    };
    let bytes = match read_bytes(file) {
        Ok(bytes) => bytes,
        Err(ReadError::Vanished) => {
            let message = "the file was removed while the run went on; the next run forgets it";
            return Fetched::Settled(unreadable(path, "vanished", message.to_string()));
        }
        Err(ReadError::Changed) => {
            let message = "the file changed while it was being indexed; the next run reads it";
            return Fetched::Settled(unreadable(path, "changed", message.to_string()));
        }
        Err(ReadError::Io(e)) => return Fetched::Settled(unreadable(path, "unreadable", e.to_string())),
    };
    let hash = xxh3_128(&bytes).to_le_bytes();
    match state.filter(|s| s.hash == hash) {
        Some(state) => Fetched::Settled(Outcome::Touched {
            path,
            size: bytes.len() as u64,
            mtime_ns: file.mtime_ns,
            state,
        }),
        None => Fetched::Read { path, bytes, hash },
    }
}

/// The CPU step: parses and replays a file that was read. Never panics: a reader that does
/// becomes a reject.
pub(super) fn process(entry: &Entry, fetched: Fetched, read: ReadFn) -> Outcome {
    let (path, bytes, hash) = match fetched {
        Fetched::Settled(outcome) => return outcome,
        Fetched::Read { path, bytes, hash } => (path, bytes, hash),
    };
    let bug = |path| {
        unreadable(
            path,
            "internal_error",
            "kifudex failed while reading this file (a bug: please report it)".to_string(),
        )
    };
    let Ok(file) = entry else {
        return bug(path); // only files are read
    };
    let parse = std::panic::AssertUnwindSafe(|| parse_file(file, path.clone(), &bytes, hash, read));
    std::panic::catch_unwind(parse).unwrap_or_else(|_| bug(path))
}

fn parse_file(file: &SourceFile, path: String, bytes: &[u8], hash: [u8; 16], read: ReadFn) -> Outcome {
    let size = bytes.len() as u64;
    let mut work = FileWork {
        file: FileRecord {
            path,
            size,
            mtime_ns: file.mtime_ns,
            hash,
            format: None,
            encoding: None,
            error: None,
        },
        games: Vec::new(),
        rejects: Vec::new(),
        warnings: Vec::new(),
    };
    let parsed = match read(Some(&file.path), bytes) {
        Ok(parsed) => parsed,
        Err(e) => {
            work.file.error = Some(e.code());
            work.rejects.push(NewReject {
                game_index: None,
                line: None,
                ply: None,
                code: e.code(),
                message: e.to_string(),
            });
            return Outcome::Read(work);
        }
    };
    work.file.format = Some(parsed.format.name());
    work.file.encoding = Some(parsed.encoding);
    if parsed.games.is_empty() {
        work.file.error = Some("no_games");
        work.rejects.push(NewReject {
            game_index: None,
            line: None,
            ply: None,
            code: "no_games",
            message: "the file holds no game".to_string(),
        });
    }
    for (index, game) in parsed.games.iter().enumerate() {
        let index = u32::try_from(index).unwrap_or(u32::MAX);
        let replayed = replay(game);
        if let Some(reject) = stop_reject(&replayed, index) {
            work.rejects.push(reject);
        }
        // A game whose start is impossible has no position to store: stored, it would be a
        // game that nothing can read back. It is a reject only.
        if matches!(replayed.status, Status::Stopped(StopReason::Start { .. })) {
            continue;
        }
        let warnings = game.warnings.iter().chain(&replayed.warnings);
        work.warnings.extend(warnings.map(|w| NewWarning {
            game_index: Some(index),
            line: Some(w.line),
            ply: w.ply,
            code: w.code,
            message: w.message.clone(),
        }));
        work.games.push(NewGame::new(game, replayed, index));
    }
    Outcome::Read(work)
}

/// Why a file the walk found could not be read as it was found.
enum ReadError {
    /// It no longer exists.
    Vanished,
    /// Its size or modification time is no longer what the walk saw: it was written to
    /// between the walk and the end of the read (the bytes may be half old, half new).
    Changed,
    Io(std::io::Error),
}

/// The content of `file`, checked to be the file the walk saw: the same size and
/// modification time, looked up on the open file once it is read. (Unlike `fs::read`, this
/// asks the file system for nothing else.)
fn read_bytes(file: &SourceFile) -> Result<Vec<u8>, ReadError> {
    let open = fs::File::open(&file.path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => ReadError::Vanished,
        _ => ReadError::Io(e),
    })?;
    let mut bytes = Vec::with_capacity(usize::try_from(file.size).unwrap_or(0).saturating_add(1));
    std::io::Read::read_to_end(&mut std::io::Read::take(&open, u64::MAX), &mut bytes)
        .map_err(ReadError::Io)?;
    let now = crate::walk::source_file(file.path.clone(), &open.metadata().map_err(ReadError::Io)?);
    if now.size != file.size || now.mtime_ns != file.mtime_ns || bytes.len() as u64 != file.size {
        return Err(ReadError::Changed);
    }
    Ok(bytes)
}

/// The reject row for a game that stopped early.
fn stop_reject(replayed: &ReplayedGame, index: u32) -> Option<NewReject> {
    let Status::Stopped(reason) = &replayed.status else {
        return None;
    };
    let ply = match reason {
        StopReason::Move { ply, .. } => *ply as u32,
        StopReason::Read(_) => replayed.plies() as u32 + 1,
        StopReason::Start { .. } => 0,
    };
    Some(NewReject {
        game_index: Some(index),
        line: Some(reason.line()),
        ply: Some(ply),
        code: reason.code(),
        message: reason.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn path_texts_are_lossless() {
        use std::{ffi::OsStr, os::unix::ffi::OsStrExt};
        let text = |b: &[u8]| path_text(Path::new(OsStr::from_bytes(b)));
        assert_eq!(text("/kifu/棋譜.kif".as_bytes()), "/kifu/棋譜.kif");
        // 棋譜 and 将棋 in CP932: both lossy forms would be four replacement characters.
        assert_eq!(text(b"/kifu/\x8a\xfb\x95\x88.kif"), "/kifu/\\x8a\\xfb\\x95\\x88.kif");
        assert_eq!(text(b"/kifu/\x8f\xab\x8a\xfb.kif"), "/kifu/\\x8f\\xab\\x8a\\xfb.kif");
        // A name that spells an escape is not taken for one.
        assert_eq!(text(b"/kifu/\\x8a.kif"), "/kifu/\\x5cx8a.kif");
        assert_ne!(text(b"/kifu/\\x8a.kif"), text(b"/kifu/\x8a.kif"));
    }

    /// What the walk saw of `path`, as a run holds it until the file is read.
    fn walked(path: &Path) -> Entry {
        Ok(crate::walk::source_file(path.to_path_buf(), &fs::metadata(path).unwrap()))
    }

    fn reject_code(fetched: Fetched) -> Option<&'static str> {
        match fetched {
            Fetched::Settled(Outcome::Unreadable { reject, .. }) => Some(reject.code),
            _ => None,
        }
    }

    #[test]
    fn a_file_removed_or_changed_after_the_walk_saw_it_is_a_reject() {
        let dir = tempfile::tempdir().unwrap();
        let (kept, removed, changed) =
            (dir.path().join("a.usi"), dir.path().join("b.usi"), dir.path().join("c.usi"));
        for p in [&kept, &removed, &changed] {
            fs::write(p, "position startpos moves 7g7f\n").unwrap();
        }
        let entries = [walked(&kept), walked(&removed), walked(&changed)];
        fs::remove_file(&removed).unwrap();
        fs::write(&changed, "position startpos moves 7g7f 3c3d\n").unwrap();
        assert!(matches!(fetch(&entries[0], None), Fetched::Read { .. }));
        assert_eq!(reject_code(fetch(&entries[1], None)), Some("vanished"));
        assert_eq!(reject_code(fetch(&entries[2], None)), Some("changed"));
    }
}
