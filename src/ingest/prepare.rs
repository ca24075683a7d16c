//! The work done for one file on a worker thread: decide whether it changed, read it,
//! replay its games, and prepare them for the writer.
//!
//! A file that may hold a record but need not ([`Expect::Maybe`]: `.txt`, `.json`, a file
//! named on the command line or chosen by `--include`) is skipped unless its content is a
//! record: its first [`HEAD_BYTES`] are read, and the rest only when they look like a record
//! (so a large file that is not one costs one small read); then it is a record only if some
//! game in it has a move. A file whose name is no record's ([`Expect::Skip`]) is not read.

use crate::text::path_text;
use std::fs;

use rayon::prelude::*;
use xxhash_rust::xxh3::xxh3_128;

use crate::{
    db::{FileRecord, FileState, NewGame, NewReject, NewWarning, index::MAX_INDEXED_PLY},
    kifu::{self, encoding::LineFix},
    replay::{ReplayedGame, Status, replay},
    store,
    walk::{Entry, Expect, SourceFile},
};

/// The bytes of a file that may hold a record read to decide whether it looks like one.
pub(super) const HEAD_BYTES: usize = 64 << 10;
/// The largest file read (1 GiB). A record file larger than that is rejected unread: no
/// record is that large, and reading it would take as much memory.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// What became of a file.
#[derive(Debug)]
pub(super) enum Outcome {
    /// Same size and modification time as when it was indexed: not read.
    Unchanged { path: String },
    /// Its content is the one indexed (it was read to know that, unless only its device is
    /// new): only the size, times and device are new.
    Touched { path: String, size: u64, mtime_ns: i64, ctime_ns: Option<i64>, device: Option<i64> },
    /// It could not be read.
    Unreadable { path: String, reject: NewReject },
    /// It holds no record, and need not; `read` when it was read to know that.
    Skipped { path: String, read: bool },
    /// Another shard takes it: not read, only known to exist.
    OtherShard { path: String },
    /// A symbolic link not followed; `broken` when it leads nowhere.
    Link { path: String, broken: bool },
    /// A followed symbolic link to a directory that holds it, not followed again.
    LoopBack { path: String },
    /// A pipe, a socket or a device among the files of a directory: not opened.
    NotAFile { path: String, record_name: bool },
    /// Another name of a file found under its own: not read.
    OtherName { path: String },
    /// Read and parsed (possibly into no game at all).
    Read(FileWork),
}

impl Outcome {
    /// The path of the file or entry.
    pub fn path(&self) -> &str {
        match self {
            Outcome::Unchanged { path, .. }
            | Outcome::Touched { path, .. }
            | Outcome::Unreadable { path, .. }
            | Outcome::Skipped { path, .. }
            | Outcome::OtherShard { path }
            | Outcome::Link { path, .. }
            | Outcome::LoopBack { path }
            | Outcome::NotAFile { path, .. }
            | Outcome::OtherName { path } => path,
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
    /// It holds a record: some game in it has a move, as read (legal or not), or it is a JKF
    /// object read whole.
    pub record_read: bool,
    /// The part of the file this is.
    pub part: Part,
    /// The parts of the file read with this one, and all its parts: `(1, 1)` for a file read
    /// whole.
    pub parts_read: (usize, usize),
}

/// Which part of a file a [`FileWork`] holds. A large file of many games is read in parts
/// ([`process_in_parts`]), each with the games, rejects and warnings of some of its pieces;
/// the writer writes them in one transaction, so a file is never half written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Part {
    /// The whole file.
    Whole,
    /// The first part: the file is written from here on.
    First,
    /// A part between the first and the last.
    Middle,
    /// The last part: the file is complete.
    Last,
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

/// Whether the file's status change time is the one recorded. Size and modification time
/// alone miss a file rewritten with both kept (`cp -p`, `touch -d`, a coarse clock); its status
/// change time cannot be kept. A file recorded without one is read and hashed once (a file
/// whose content is the same is then only touched), and one whose system has none is judged
/// by size and time.
fn same_ctime(state: &FileState, file: &SourceFile) -> bool {
    file.ctime_ns.is_none() || state.ctime_ns == file.ctime_ns
}

/// The I/O step for a walked entry; for a file, whose recorded state is `state`, decides
/// from the size and times whether it changed, and if it may have, reads and hashes it.
/// With `reread`, a recorded file is read as one that changed.
pub(super) fn fetch(entry: &Entry, state: Option<FileState>, reread: bool) -> Fetched {
    // As a migration marks a file whose reading changed: a size and hash no file has.
    let state = state.map(|s| if reread { FileState { size: u64::MAX, hash: Vec::new(), ..s } } else { s });
    let file = match entry {
        Ok(file) => file,
        Err(problem) => {
            return Fetched::Settled(unreadable(
                path_text(&problem.path),
                problem.kind.code(),
                problem.kind.to_string(),
            ));
        }
    };
    let path = path_text(&file.path);
    match file.expect {
        Expect::Skip => return Fetched::Settled(Outcome::Skipped { path, read: false }),
        Expect::OtherShard => return Fetched::Settled(Outcome::OtherShard { path }),
        Expect::Link { broken } => return Fetched::Settled(Outcome::Link { path, broken }),
        Expect::LoopBack => return Fetched::Settled(Outcome::LoopBack { path }),
        Expect::NotAFile { record_name } => return Fetched::Settled(Outcome::NotAFile { path, record_name }),
        Expect::OtherName => return Fetched::Settled(Outcome::OtherName { path }),
        Expect::Record | Expect::Maybe => {}
    }
    let state = match state {
        Some(state)
            if state.size == file.size && state.mtime_ns == file.mtime_ns && same_ctime(&state, file) =>
        {
            // A file recorded before its device was, or whose filesystem now has another
            // number (some number theirs at each mount), is not read again: its device is.
            return Fetched::Settled(if file.device.is_none() || state.device == file.device {
                Outcome::Unchanged { path }
            } else {
                Outcome::Touched {
                    path,
                    size: file.size,
                    mtime_ns: file.mtime_ns,
                    ctime_ns: file.ctime_ns,
                    device: file.device,
                }
            });
        }
        other => other,
    };
    let bytes = match read_bytes(file) {
        Ok(bytes) => bytes,
        Err(ReadError::NotRecord) => return Fetched::Settled(Outcome::Skipped { path, read: true }),
        Err(ReadError::Vanished) => {
            let message = "the file was removed while the run went on; the next run forgets it";
            return Fetched::Settled(unreadable(path, "vanished", message.to_string()));
        }
        Err(ReadError::Changed) => {
            let message = "the file changed while it was being indexed; the next run reads it";
            return Fetched::Settled(unreadable(path, "changed", message.to_string()));
        }
        Err(ReadError::TooLarge) => {
            let message = format!(
                "the file has {} bytes; files over {} MiB are not read",
                file.size,
                MAX_FILE_BYTES >> 20
            );
            return Fetched::Settled(unreadable(path, "too_large", message));
        }
        Err(ReadError::Io(e)) => return Fetched::Settled(unreadable(path, "unreadable", e.to_string())),
    };
    let hash = xxh3_128(&bytes).to_le_bytes();
    if state.is_some_and(|s| s.hash == hash) {
        Fetched::Settled(Outcome::Touched {
            path,
            size: bytes.len() as u64,
            mtime_ns: file.mtime_ns,
            ctime_ns: file.ctime_ns,
            device: file.device,
        })
    } else {
        Fetched::Read { path, bytes, hash }
    }
}

/// The CPU step: parses and replays a file that was read. Never panics: a reader that does
/// becomes a reject.
pub(super) fn process(entry: &Entry, fetched: Fetched) -> Outcome {
    let (path, bytes, hash) = match fetched {
        Fetched::Settled(outcome) => return outcome,
        Fetched::Read { path, bytes, hash } => (path, bytes, hash),
    };
    let Ok(file) = entry else {
        return bug(path); // only files are read
    };
    caught(file, path.clone(), || parse_file(file, path, &bytes, hash))
}

/// The reject of a file that kifudex failed to read (a bug).
fn bug(path: String) -> Outcome {
    unreadable(
        path,
        "internal_error",
        "kifudex failed while reading this file (a bug: please report it)".to_string(),
    )
}

/// The outcome `parse` gives for `file` (read from `path`), or a reject if it panics; a file
/// that may hold a record and holds none is skipped.
fn caught(file: &SourceFile, path: String, parse: impl FnOnce() -> Outcome) -> Outcome {
    let parse = std::panic::AssertUnwindSafe(parse);
    let outcome = std::panic::catch_unwind(parse).unwrap_or_else(|_| bug(path));
    match outcome {
        Outcome::Read(work) if file.expect == Expect::Maybe && !holds_moves(&work) => {
            Outcome::Skipped { path: work.file.path, read: true }
        }
        other => other,
    }
}

/// Whether a file read holds a record worth the name: a game with at least one move, or a
/// JKF object read whole.
fn holds_moves(work: &FileWork) -> bool {
    work.file.error.is_none() && work.record_read
}

fn parse_file(file: &SourceFile, path: String, bytes: &[u8], hash: [u8; 16]) -> Outcome {
    let size = bytes.len() as u64;
    match kifu::open_file(Some(&file.path), bytes) {
        Ok(opened) => parse_opened(&OpenedRead { file, path, size, hash, opened }),
        Err(e) => Outcome::Read(FileWork::new(file, path, size, hash).failed(e.code(), e.to_string())),
    }
}

/// A file read and opened (its text decoded, its format known), for [`parse_opened`] or
/// [`read_in_parts`].
struct OpenedRead<'f, 'a> {
    file: &'f SourceFile,
    path: String,
    /// Its bytes.
    size: u64,
    hash: [u8; 16],
    opened: kifu::OpenedFile<'a>,
}

impl OpenedRead<'_, '_> {
    /// A [`FileWork`] of the file, without games yet.
    fn work(&self) -> FileWork {
        let mut work = FileWork::new(self.file, self.path.clone(), self.size, self.hash);
        work.file.format = Some(self.opened.format.name());
        work.file.encoding = Some(self.opened.encoding);
        work
    }
}

/// [`parse_file`], once the file is opened.
fn parse_opened(read: &OpenedRead<'_, '_>) -> Outcome {
    let opened = &read.opened;
    let mut work = read.work();
    // A piece at a time: the games read are replayed and let go of before the next are read.
    let mut all_read = true;
    let mut games_read = 0;
    let pieces = kifu::pieces(opened.format, &opened.text, PIECE_BYTES);
    for (i, &piece) in pieces.iter().enumerate() {
        let mut piece = read_piece(opened, piece, fixes_of(&opened.fixes, &pieces, i));
        piece.shift(games_read);
        games_read += piece.games_read;
        all_read &= piece.all_read;
        work.add(piece);
    }
    if games_read == 0 {
        let e = kifu::FileError::UnknownFormat;
        let work = FileWork::new(read.file, work.file.path, read.size, read.hash);
        return Outcome::Read(work.failed(e.code(), e.to_string()));
    }
    // A JKF object read whole is a record even with no move (a handicap start, a position):
    // its structure says so, where a text that only looks like headers does not.
    work.record_read |= opened.format == kifu::Format::Jkf && all_read;
    Outcome::Read(work)
}

/// The least a piece of a large file holds (see [`kifu::pieces`]): about 500 games of USI
/// lines, 80 of CSA.
const PIECE_BYTES: usize = 256 << 10;

/// The pieces read together when a large file is read in parts ([`process_in_parts`]), per
/// thread; but no more than [`PIECES_PER_PART`] on many threads, unless one each is more.
const PIECES_PER_THREAD: usize = 2;
/// The pieces of a part, at most (4 MiB), unless there are more threads.
const PIECES_PER_PART: usize = 16;

/// The games of a piece of a file, replayed, ready for the writer.
struct PieceWork {
    games: Vec<NewGame>,
    rejects: Vec<NewReject>,
    warnings: Vec<NewWarning>,
    /// Games read (stored or not): their indexes count from the piece's first until
    /// [`PieceWork::shift`].
    games_read: u32,
    /// Some game has a move, as read.
    moves_read: bool,
    /// Every game was read to its end.
    all_read: bool,
}

impl PieceWork {
    /// Counts the indexes from `first`, the index of the piece's first game in its file.
    fn shift(&mut self, first: u32) {
        let at = |index: &mut u32| *index = index.saturating_add(first);
        self.games.iter_mut().for_each(|g| at(&mut g.index));
        let rows = self.rejects.iter_mut().chain(&mut self.warnings);
        rows.filter_map(|r| r.game_index.as_mut()).for_each(at);
    }
}

/// The lines among `fixes` (in order) that piece `i` of `pieces` holds.
fn fixes_of<'a>(fixes: &'a [LineFix], pieces: &[kifu::Piece<'_>], i: usize) -> &'a [LineFix] {
    if fixes.is_empty() {
        return fixes;
    }
    let from = fixes.partition_point(|f| f.line() <= pieces[i].lines_before);
    let to = pieces
        .get(i + 1)
        .map_or(fixes.len(), |next| fixes.partition_point(|f| f.line() <= next.lines_before));
    &fixes[from..to.max(from)]
}

/// Reads and replays the games of `piece`, a piece of `opened` that holds the lines `fixes`.
fn read_piece(opened: &kifu::OpenedFile<'_>, piece: kifu::Piece<'_>, fixes: &[LineFix]) -> PieceWork {
    let format = opened.format;
    let mut parsed = kifu::read_piece(format, piece, None);
    kifu::tell_decoding(&mut parsed, fixes, opened.encoding);
    let mut work = PieceWork {
        games: Vec::with_capacity(parsed.len()),
        rejects: Vec::new(),
        warnings: Vec::new(),
        games_read: u32::try_from(parsed.len()).unwrap_or(u32::MAX),
        moves_read: parsed.iter().any(|g| !g.moves.is_empty()),
        all_read: parsed.iter().all(|g| g.problem.is_none()),
    };
    for (index, game) in parsed.iter().enumerate() {
        let index = u32::try_from(index).unwrap_or(u32::MAX);
        let replayed = replay(game);
        if let Some(reject) = stop_reject(&replayed, index) {
            work.rejects.push(reject);
        }
        // A game without a start position has none to store: stored, it would be a game
        // the record never gave (or one that nothing can read back). It is a reject only.
        if replayed.has_no_start() {
            continue;
        }
        let remarks = kifu::info::Remarks::of(format);
        let mut headers = kifu::info::date_warnings(&game.headers, game.line, remarks);
        headers.extend(kifu::info::long_value_warnings(&game.headers, game.line, remarks));
        headers.extend(unindexed_warning(game, replayed.moves.len()));
        let warnings = headers.iter().chain(&game.warnings).chain(&replayed.warnings);
        work.warnings.extend(warnings.map(|w| NewWarning {
            game_index: Some(index),
            line: Some(w.line),
            ply: w.ply,
            code: w.code,
            message: w.message.clone(),
        }));
        work.games.push(store::new_game(game, replayed, index));
    }
    work
}

/// The warning of a game of `plies` moves whose last positions the index cannot hold (see
/// [`MAX_INDEXED_PLY`]).
fn unindexed_warning(game: &kifu::Game, plies: usize) -> Option<kifu::Warning> {
    let first = MAX_INDEXED_PLY as usize + 1;
    (plies >= first).then(|| kifu::Warning {
        line: game.moves.get(first - 1).map_or(game.line, |m| m.line),
        ply: Some(first as u32),
        code: "positions_not_indexed",
        message: format!(
            "the game has {plies} moves, and the positions after move {} are not indexed: queries do not \
             find them (export positions has them)",
            MAX_INDEXED_PLY
        ),
    })
}

impl FileWork {
    /// The work of a file read, before its games are.
    fn new(file: &SourceFile, path: String, size: u64, hash: [u8; 16]) -> FileWork {
        FileWork {
            file: FileRecord {
                path,
                size,
                mtime_ns: file.mtime_ns,
                ctime_ns: file.ctime_ns,
                device: file.device,
                hash,
                format: None,
                encoding: None,
                error: None,
            },
            games: Vec::new(),
            rejects: Vec::new(),
            warnings: Vec::new(),
            record_read: false,
            part: Part::Whole,
            parts_read: (1, 1),
        }
    }

    /// The file yields no game, for the reason `code`, `message` says.
    fn failed(mut self, code: &'static str, message: String) -> FileWork {
        self.file.error = Some(code);
        self.rejects.push(NewReject { game_index: None, line: None, ply: None, code, message });
        self
    }

    fn add(&mut self, piece: PieceWork) {
        self.games.extend(piece.games);
        self.rejects.extend(piece.rejects);
        self.warnings.extend(piece.warnings);
        self.record_read |= piece.moves_read;
    }
}

/// Reads a large file (`fetched` from `entry`) in parts, so that its games need not all be in
/// memory at once, and its pieces are read on every thread of `pool`: [`PIECES_PER_THREAD`]
/// pieces a thread at a time (see [`PIECES_PER_PART`]), each batch handed to `send` as a part
/// of the file (see [`Part`]) as soon as it is read, until `send` says to stop. The bytes of a
/// file whose text was decoded (Shift_JIS, EUC-JP, UTF-16) are let go of once they are: only
/// the text is read. A file that cannot be cut (one of a format that holds one game, or too
/// short) is read as [`process`] reads it, and so is one that may hold a record but need not,
/// when its first part holds no move (whether it is a record is only known once the whole
/// file is read then), or any file whose first part holds no game.
pub(super) fn process_in_parts(
    entry: &Entry,
    fetched: Fetched,
    pool: &rayon::ThreadPool,
    send: &mut dyn FnMut(Vec<Outcome>) -> bool,
) {
    let (file, path, bytes, hash) = match (entry, fetched) {
        (Ok(file), Fetched::Read { path, bytes, hash }) => (file, path, bytes, hash),
        (_, fetched) => {
            send(vec![process(entry, fetched)]);
            return;
        }
    };
    let size = bytes.len() as u64;
    let Ok(Ok(opened)) = std::panic::catch_unwind(|| kifu::open_file(Some(&file.path), &bytes)) else {
        send(vec![process(entry, Fetched::Read { path, bytes, hash })]);
        return;
    };
    match opened.detached() {
        Ok(opened) => {
            drop(bytes);
            read_in_parts(&OpenedRead { file, path, size, hash, opened }, pool, send);
        }
        Err(opened) => read_in_parts(&OpenedRead { file, path, size, hash, opened }, pool, send),
    }
}

/// [`process_in_parts`], once the file is opened.
fn read_in_parts(
    read: &OpenedRead<'_, '_>,
    pool: &rayon::ThreadPool,
    send: &mut dyn FnMut(Vec<Outcome>) -> bool,
) {
    let (file, opened) = (read.file, &read.opened);
    let read_whole = 'parts: {
        let pieces = kifu::pieces(opened.format, &opened.text, PIECE_BYTES);
        if pieces.len() < 2 {
            break 'parts true;
        }
        let threads = pool.current_num_threads();
        let per_part = (threads * PIECES_PER_THREAD).min(PIECES_PER_PART).max(threads);
        let parts = pieces.len().div_ceil(per_part);
        let mut games_read = 0;
        for (i, window) in pieces.chunks(per_part).enumerate() {
            let first = i * per_part;
            let works: Vec<PieceWork> = pool.install(|| {
                let at = |j: usize| fixes_of(&opened.fixes, &pieces, first + j);
                window
                    .par_iter()
                    .enumerate()
                    .map(|(j, &piece)| read_piece_caught(opened, piece, at(j)))
                    .collect()
            });
            let mut part = read.work();
            for mut work in works {
                work.shift(games_read);
                games_read += work.games_read;
                part.add(work);
            }
            if i == 0 && (games_read == 0 || (file.expect == Expect::Maybe && !part.record_read)) {
                break 'parts true;
            }
            part.part = match (i == 0, i + 1 == parts) {
                (true, true) => Part::Whole,
                (true, false) => Part::First,
                (false, true) => Part::Last,
                (false, false) => Part::Middle,
            };
            part.parts_read = (i + 1, parts);
            if !send(vec![Outcome::Read(part)]) {
                break;
            }
        }
        false
    };
    if read_whole {
        send(vec![caught(file, read.path.clone(), || parse_opened(read))]);
    }
}

/// [`read_piece`], and a reject for the piece instead of its games if the reader fails.
fn read_piece_caught(opened: &kifu::OpenedFile<'_>, piece: kifu::Piece<'_>, fixes: &[LineFix]) -> PieceWork {
    let read = std::panic::AssertUnwindSafe(|| read_piece(opened, piece, fixes));
    std::panic::catch_unwind(read).unwrap_or_else(|_| PieceWork {
        games: Vec::new(),
        rejects: vec![NewReject {
            game_index: None,
            line: Some(piece.lines_before.saturating_add(1)),
            ply: None,
            code: "internal_error",
            message: "kifudex failed while reading the games from this line on, up to the next part \
                      of the file (a bug: please report it)"
                .to_string(),
        }],
        warnings: Vec::new(),
        games_read: 0,
        moves_read: false,
        all_read: false,
    })
}

/// Why a file the walk found could not be read as it was found.
enum ReadError {
    /// It may hold a record, and its first bytes show it does not.
    NotRecord,
    /// It is larger than [`MAX_FILE_BYTES`].
    TooLarge,
    /// It no longer exists.
    Vanished,
    /// Its size or modification time is no longer what the walk saw: it was written to
    /// between the walk and the end of the read (the bytes may be half old, half new).
    Changed,
    Io(std::io::Error),
}

/// The content of `file`, checked to be the file the walk saw: the same size and
/// modification time, looked up on the open file once it is read. (Unlike `fs::read`, this
/// asks the file system for nothing else: one look at the open file for a record file, two for
/// one that may hold a record.) A file that may hold a record is read no further than its head
/// when that does not look like one. A path that is no longer a file (a pipe or a directory
/// put in its place since the walk) is [`ReadError::Changed`]: it is opened without waiting,
/// as a pipe with no writer would keep a plain open waiting for good, and read no further
/// than the size the walk saw, and one byte.
fn read_bytes(file: &SourceFile) -> Result<Vec<u8>, ReadError> {
    use std::{io::Read, os::unix::fs::OpenOptionsExt};
    let open = fs::OpenOptions::new()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(&file.path)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => ReadError::Vanished,
            _ => ReadError::Io(e),
        })?;
    let not_file = || open.metadata().map_err(ReadError::Io).map(|m| !m.is_file());
    // A record file is known to be one by the look taken once it is read; the head of one that
    // may hold a record is judged only when it is a file's.
    if file.expect == Expect::Maybe && not_file()? {
        return Err(ReadError::Changed);
    }
    // A read that fails on what is no longer a file (a directory) is that change.
    let failed = |e| match not_file() {
        Ok(true) => ReadError::Changed,
        _ => ReadError::Io(e),
    };
    let mut bytes = Vec::new();
    if file.expect == Expect::Maybe {
        bytes.reserve_exact(HEAD_BYTES);
        (&open).take(HEAD_BYTES as u64).read_to_end(&mut bytes).map_err(failed)?;
        let whole = bytes.len() < HEAD_BYTES || bytes.len() as u64 == file.size;
        if !kifu::looks_like_record(Some(&file.path), &bytes, whole) {
            return Err(ReadError::NotRecord);
        }
    }
    if file.size > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge);
    }
    // The size the walk saw bounds the buffer and the read, which then needs no call to find
    // the end: a file that grew since has another size below, and one that shrank gives fewer
    // bytes. (A file the system says is empty may still give some, as those of `/proc` do: a
    // byte is asked for, and one that comes is that change.)
    let want = file.size.max(1);
    bytes.reserve_exact((want as usize).saturating_sub(bytes.len()));
    (&open).take(want.saturating_sub(bytes.len() as u64)).read_to_end(&mut bytes).map_err(failed)?;
    let meta = open.metadata().map_err(ReadError::Io)?;
    if !meta.is_file() {
        return Err(ReadError::Changed);
    }
    let now = crate::walk::source_file(file.path.clone(), &meta, file.expect);
    if now.size != file.size || now.mtime_ns != file.mtime_ns || bytes.len() as u64 != file.size {
        return Err(ReadError::Changed);
    }
    Ok(bytes)
}

/// The reject row for a game that stopped early.
fn stop_reject(replayed: &ReplayedGame, index: u32) -> Option<NewReject> {
    let (Status::Stopped(reason), Some(ply)) = (&replayed.status, replayed.stopped_at()) else {
        return None;
    };
    Some(NewReject {
        game_index: Some(index),
        line: Some(reason.line()),
        ply: Some(ply as u32),
        code: reason.code(),
        message: reason.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    #[test]
    fn a_file_that_became_a_pipe_or_a_directory_since_the_walk_is_changed_not_waited_on() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("g.kif");
        fs::write(&path, "手合割：平手\n").unwrap();
        let file = crate::walk::source_file(path.clone(), &fs::metadata(&path).unwrap(), Expect::Record);
        fs::remove_file(&path).unwrap();
        rustix::fs::mknodat(rustix::fs::CWD, &path, rustix::fs::FileType::Fifo, 0o644.into(), 0).unwrap();
        // A plain open of a pipe waits for a writer, for good: the read runs apart.
        let (tx, rx) = std::sync::mpsc::channel();
        let reading = file.clone();
        std::thread::spawn(move || tx.send(read_bytes(&reading)).unwrap());
        let read = rx.recv_timeout(std::time::Duration::from_secs(10)).expect("the read of the pipe waited");
        assert!(matches!(read, Err(ReadError::Changed)));
        fs::remove_file(&path).unwrap();
        fs::create_dir(&path).unwrap();
        assert!(matches!(read_bytes(&file), Err(ReadError::Changed)));
    }

    /// What the walk saw of `path`, as a run holds it until the file is read.
    fn walked(path: &Path) -> Entry {
        Ok(crate::walk::source_file(path.to_path_buf(), &fs::metadata(path).unwrap(), Expect::Record))
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
        assert!(matches!(fetch(&entries[0], None, false), Fetched::Read { .. }));
        assert_eq!(reject_code(fetch(&entries[1], None, false)), Some("vanished"));
        assert_eq!(reject_code(fetch(&entries[2], None, false)), Some("changed"));
    }
}
