//! CSV exports, streamed row by row from a database snapshot at constant memory, and stored
//! games rebuilt as records for the writers.
//!
//! - `games`: one row per game occurrence (a source file and the game's index in it, from 0),
//!   in path order. The first occurrence of a game has an empty `duplicate_of`; a later one
//!   (the same start and replayed moves, in another file or format) names the game's id.
//! - `moves` and `positions` ([`moves`]): one row per ply, and one per position of the main
//!   line, by game id.
//! - `tree` ([`tree`]): one row per position and move, for the positions reached up to a ply.
//! - `rejects`: one row per reject: the path, the game index, line and ply when they apply,
//!   the reason code and the message.
//! - `warnings`: the same columns, one row per warning about a game that was kept (a line
//!   read past, an ending the moves contradict; see [`crate::kifu`] and [`crate::replay`]).
//!
//! Every export but `rejects` and `warnings` takes a [`GameFilter`]; a filtered export holds
//! exactly the rows of the games the filter keeps.

mod moves;
mod record;
mod tree;

use std::io::{self, Write};

pub use self::{
    moves::{MOVE_COLUMNS, POSITION_COLUMNS, Skipped, moves, positions},
    record::{Unplayable, play_stored, stored_record, stored_replay, write_stored},
    tree::{TREE_COLUMNS, tree},
};
use crate::db::{self, GameFilter, Snapshot};

/// The columns of the games export.
pub const GAME_COLUMNS: [&str; 18] = [
    "game_id",
    "source_path",
    "game_index",
    "format",
    "encoding",
    "event",
    "date",
    "black",
    "white",
    "handicap",
    "start_sfen",
    "plies",
    "final_sfen",
    "result",
    "termination",
    "status",
    "duplicate_of",
    "variant",
];

/// The columns of the rejects export.
pub const REJECT_COLUMNS: [&str; 6] = ["path", "game_index", "line", "ply", "code", "message"];

/// Why an export stopped.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Db(#[from] db::Error),
    #[error("cannot write the export: {0}")]
    Write(io::Error),
    /// A stored game cannot be played back.
    #[error("a stored game cannot be played back: {0}")]
    Unplayable(Unplayable),
}

impl From<Unplayable> for Error {
    fn from(e: Unplayable) -> Error {
        Error::Unplayable(e)
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Error {
        Error::Write(e)
    }
}

impl Error {
    /// Whether the reader of the output went away (a closed pipe), which is not a failure.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Write(e) if e.kind() == io::ErrorKind::BrokenPipe)
    }
}

impl From<csv::Error> for Error {
    fn from(e: csv::Error) -> Error {
        match e.into_kind() {
            csv::ErrorKind::Io(e) => Error::Write(e),
            other => Error::Write(io::Error::other(format!("{other:?}"))),
        }
    }
}

fn text(v: &Option<String>) -> &str {
    v.as_deref().unwrap_or("")
}

fn number(v: Option<u32>) -> String {
    v.map(|n| n.to_string()).unwrap_or_default()
}

/// A CSV table being written: the header row first, then the rows, counted. Rows are
/// formatted into a buffer that is written out every few dozen kilobytes.
pub(crate) struct Table<W: Write> {
    out: W,
    csv: csv::Writer<Vec<u8>>,
    rows: u64,
}

/// The buffered bytes written out at once.
const TABLE_BUFFER: usize = 64 * 1024;

/// A CSV writer into memory.
fn csv_buffer() -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new().has_headers(false).from_writer(Vec::with_capacity(TABLE_BUFFER + 4096))
}

/// The bytes a [`csv_buffer`] holds.
fn csv_bytes(csv: csv::Writer<Vec<u8>>) -> Result<Vec<u8>, Error> {
    csv.into_inner().map_err(|e| Error::Write(e.into_error()))
}

impl<W: Write> Table<W> {
    pub(crate) fn new(out: W, columns: &[&str]) -> Result<Table<W>, Error> {
        let mut table = Table { out, csv: csv_buffer(), rows: 0 };
        table.csv.write_record(columns)?;
        Ok(table)
    }

    pub(crate) fn row<const N: usize>(&mut self, fields: [&str; N]) -> Result<(), Error> {
        self.csv.write_record(fields)?;
        self.rows += 1;
        if self.csv.get_ref().len() >= TABLE_BUFFER {
            self.drain()?;
        }
        Ok(())
    }

    /// Appends `rows` rows already formatted as CSV.
    pub(crate) fn raw(&mut self, bytes: &[u8], rows: u64) -> Result<(), Error> {
        self.drain()?;
        self.out.write_all(bytes)?;
        self.rows += rows;
        Ok(())
    }

    fn drain(&mut self) -> Result<(), Error> {
        let bytes = csv_bytes(std::mem::replace(&mut self.csv, csv_buffer()))?;
        self.out.write_all(&bytes)?;
        Ok(())
    }

    pub(crate) fn finish(mut self) -> Result<u64, Error> {
        self.drain()?;
        self.out.flush()?;
        Ok(self.rows)
    }
}

/// Writes the games export of the games `filter` keeps to `out`. Returns the rows written.
///
/// # Errors
///
/// A database failure or a write error.
pub fn games(snapshot: &Snapshot<'_>, filter: &GameFilter, out: impl Write) -> Result<u64, Error> {
    let mut table = Table::new(out, &GAME_COLUMNS)?;
    snapshot.for_each_occurrence(filter, |r| -> Result<(), Error> {
        let handicap = r.handicap.map(|h| h.japanese()).unwrap_or("");
        table.row([
            r.game.to_string().as_str(),
            &r.path,
            &r.index.to_string(),
            text(&r.format),
            text(&r.encoding),
            text(&r.event),
            text(&r.date),
            text(&r.black),
            text(&r.white),
            handicap,
            &r.start_sfen,
            &r.plies.to_string(),
            &r.end_sfen,
            r.result.name(),
            text(&r.termination),
            r.status.as_deref().unwrap_or("ok"),
            &r.duplicate_of.map(|g| g.to_string()).unwrap_or_default(),
            r.variant.name(),
        ])
    })?;
    table.finish()
}

/// Writes the rejects whose path `keep` accepts to `out`. Returns the rows written.
///
/// # Errors
///
/// A database failure or a write error.
pub fn rejects(snapshot: &Snapshot<'_>, out: impl Write, keep: impl Fn(&str) -> bool) -> Result<u64, Error> {
    notes(snapshot, Notes::Rejects, out, keep)
}

/// Writes the warnings whose path `keep` accepts to `out`, with the columns of the rejects
/// ([`WARNING_COLUMNS`]). Returns the rows written.
///
/// # Errors
///
/// A database failure or a write error.
pub fn warnings(snapshot: &Snapshot<'_>, out: impl Write, keep: impl Fn(&str) -> bool) -> Result<u64, Error> {
    notes(snapshot, Notes::Warnings, out, keep)
}

/// The columns of the warnings export: those of the rejects.
pub const WARNING_COLUMNS: [&str; 6] = REJECT_COLUMNS;

/// The two tables of rows about input: what was not used, and what was used with a warning.
#[derive(Clone, Copy)]
enum Notes {
    Rejects,
    Warnings,
}

fn notes(
    snapshot: &Snapshot<'_>,
    which: Notes,
    out: impl Write,
    keep: impl Fn(&str) -> bool,
) -> Result<u64, Error> {
    let mut table = Table::new(out, &REJECT_COLUMNS)?;
    let mut row = |r: &db::RejectRow| -> Result<(), Error> {
        if !keep(&r.path) {
            return Ok(());
        }
        table.row([
            r.path.as_str(),
            &number(r.game_index),
            &number(r.line),
            &number(r.ply),
            &r.code,
            &r.message,
        ])
    };
    match which {
        Notes::Rejects => snapshot.for_each_reject(&mut row)?,
        Notes::Warnings => snapshot.for_each_warning(&mut row)?,
    }
    table.finish()
}
