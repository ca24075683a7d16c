//! CSV exports, streamed row by row from a database snapshot at constant memory.
//!
//! - `games`: one row per game occurrence (a source file and the game's index in it, from 0),
//!   in path order. The first occurrence of a game has an empty `duplicate_of`; a later one
//!   (the same start and replayed moves, in another file or format) names the game's id.
//! - `rejects`: one row per reject: the path, the game index, line and ply when they apply,
//!   the reason code and the message.

use std::io::{self, Write};

use crate::db::{self, Snapshot};

/// The columns of the games export.
pub const GAME_COLUMNS: [&str; 17] = [
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
];

/// The columns of the rejects export.
pub const REJECT_COLUMNS: [&str; 6] = ["path", "game_index", "line", "ply", "code", "message"];

/// Why an export stopped.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Db(#[from] db::Error),
    #[error("cannot write the export: {0}")]
    Write(#[from] io::Error),
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

/// A CSV table being written: the header row first, then the rows, counted.
struct Table<W: Write> {
    csv: csv::Writer<W>,
    rows: u64,
}

impl<W: Write> Table<W> {
    fn new(out: W, columns: &[&str]) -> Result<Table<W>, Error> {
        let mut csv = csv::Writer::from_writer(out);
        csv.write_record(columns)?;
        Ok(Table { csv, rows: 0 })
    }

    fn row<const N: usize>(&mut self, fields: [&str; N]) -> Result<(), Error> {
        self.csv.write_record(fields)?;
        self.rows += 1;
        Ok(())
    }

    fn finish(mut self) -> Result<u64, Error> {
        self.csv.flush()?;
        Ok(self.rows)
    }
}

/// Writes the games export to `out`. Returns the rows written.
///
/// # Errors
///
/// A database failure or a write error.
pub fn games(snapshot: &Snapshot<'_>, out: impl Write) -> Result<u64, Error> {
    let mut table = Table::new(out, &GAME_COLUMNS)?;
    snapshot.for_each_occurrence(|r| -> Result<(), Error> {
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
    let mut table = Table::new(out, &REJECT_COLUMNS)?;
    snapshot.for_each_reject(|r| -> Result<(), Error> {
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
    })?;
    table.finish()
}
