//! CSV exports, streamed row by row from a database snapshot at constant memory (stored games
//! as records again are [`crate::store`]'s).
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
mod parquet;
mod sink;
mod tree;

use std::io::{self, Write};

pub use self::{
    moves::{MOVE_COLUMNS, POSITION_COLUMNS, Skipped, game_key, moves, positions},
    sink::{Cell, Column, Format, Kind, Output, Rows},
    tree::{TREE_COLUMNS, tree},
};
pub use crate::db::play::Unplayable;
use crate::db::{self, GameFilter, Snapshot};

/// The tables an export writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    Games,
    Moves,
    Positions,
    Tree,
    Rejects,
    Warnings,
}

/// What an export takes besides the filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// For the tree: the positions reached at this ply or earlier.
    pub max_ply: u32,
    /// For the tree: a row per year, with a `year` column.
    pub by_year: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { max_ply: 10, by_year: false }
    }
}

/// The columns of `table`, with their types.
pub fn columns(table: Table, options: &Options) -> Vec<Column> {
    use Kind::*;
    match table {
        Table::Games => sink::columns(&GAME_COLUMNS, &GAME_KINDS),
        Table::Moves => {
            sink::columns(&MOVE_COLUMNS, &[Int, Int, Text, Text, Text, Text, Key, Int, Text, Int])
        }
        Table::Positions => sink::columns(&POSITION_COLUMNS, &[Int, Int, Key, Text, Text, Text, Text]),
        Table::Tree => {
            let kinds = [Text, Key, Int, Int, Text, Text, Text, Int, Int, Int, Int, Int];
            let mut c = sink::columns(&TREE_COLUMNS, &kinds);
            if options.by_year {
                c.push(Column { name: "year", kind: Int });
            }
            c
        }
        Table::Rejects | Table::Warnings => {
            sink::columns(&REJECT_COLUMNS, &[Text, Int, Int, Int, Text, Text])
        }
    }
}

/// Writes `table` of the games `filter` keeps (every reject or warning for those tables,
/// which filters do not apply to) into `out`, which must have been made with
/// [`columns`]`(table, options)`. Returns the rows written.
///
/// # Errors
///
/// A database failure or a write error.
pub fn write<W: Write>(
    snapshot: &Snapshot<'_>,
    table: Table,
    filter: &GameFilter,
    options: &Options,
    mut out: Output<W>,
    skipped: Skipped<'_>,
) -> Result<u64, Error> {
    match table {
        Table::Games => games_rows(snapshot, filter, &mut out)?,
        Table::Moves => moves::move_table(snapshot, filter, &mut out, skipped)?,
        Table::Positions => moves::position_table(snapshot, filter, &mut out, skipped)?,
        Table::Tree => tree::tree_rows(snapshot, filter, options, &mut out)?,
        Table::Rejects => notes(snapshot, Notes::Rejects, &mut out, &|_| true)?,
        Table::Warnings => notes(snapshot, Notes::Warnings, &mut out, &|_| true)?,
    }
    out.finish()
}

/// The columns of the games export.
pub const GAME_COLUMNS: [&str; 30] = [
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
    "black_title",
    "white_title",
    "site",
    "end_date",
    "time_control",
    "opening",
    "headers",
    "variant",
    "game_key",
    "comment",
    "foul",
    "ending_time_seconds",
    "ending_comment",
];

/// The types of [`GAME_COLUMNS`].
const GAME_KINDS: [Kind; 30] = {
    use Kind::*;
    [
        Int, Text, Int, Text, Text, Text, Date, Text, Text, Text, Text, Int, Text, Text, Text, Text, Int,
        Text, Text, Text, Date, Text, Text, Text, Text, Text, Text, Text, Int, Text,
    ]
};

/// The columns of the rejects export.
pub const REJECT_COLUMNS: [&str; 6] = ["path", "game_index", "line", "ply", "code", "message"];

/// Why an export stopped.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Db(#[from] db::Error),
    #[error("cannot write the export: {0}")]
    Write(io::Error),
    #[error("cannot write the Parquet file: {0}")]
    Parquet(String),
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

/// Writes `table` as CSV into `out` (the form every export had before there were others).
fn csv<W: Write>(
    snapshot: &Snapshot<'_>,
    table: Table,
    filter: &GameFilter,
    options: &Options,
    out: W,
    skipped: Skipped<'_>,
) -> Result<u64, Error> {
    let output = Output::text(Format::Csv, out, columns(table, options))?;
    write(snapshot, table, filter, options, output, skipped)
}

/// Writes the games export of the games `filter` keeps to `out`, as CSV. Returns the rows
/// written.
///
/// # Errors
///
/// A database failure or a write error.
pub fn games(snapshot: &Snapshot<'_>, filter: &GameFilter, out: impl Write) -> Result<u64, Error> {
    csv(snapshot, Table::Games, filter, &Options::default(), out, &mut |_, _| {})
}

fn games_rows<W: Write>(
    snapshot: &Snapshot<'_>,
    filter: &GameFilter,
    out: &mut Output<W>,
) -> Result<(), Error> {
    snapshot.for_each_occurrence(filter, |r| -> Result<(), Error> {
        let headers = serde_json::to_string(&r.info.headers).unwrap_or_default();
        // The comments before the first move, and those after the ending (at the ply after
        // the last move), which no row of the moves export holds.
        let ending_at = db::ending_ply(r.moves.len(), r.foul.as_deref());
        let comment = db::comments_at(&r.comments, 0);
        let ending_comment = db::comments_at(&r.comments, ending_at + 1);
        let int = |n: u32| Cell::Int(i64::from(n));
        out.row(&[
            Cell::Int(r.game.0),
            Cell::Text(&r.path),
            int(r.index),
            Cell::text(r.format.as_deref()),
            Cell::text(r.encoding.as_deref()),
            Cell::text(r.event.as_deref()),
            Cell::text(r.date.as_deref()),
            Cell::text(r.black.as_deref()),
            Cell::text(r.white.as_deref()),
            Cell::text(r.handicap.map(|h| h.japanese())),
            Cell::Text(&r.start_sfen),
            int(r.plies),
            Cell::Text(&r.end_sfen),
            Cell::Text(r.result.name()),
            Cell::text(r.termination.as_deref()),
            Cell::Text(r.status.as_deref().unwrap_or("ok")),
            Cell::int(r.duplicate_of.map(|g| g.0)),
            Cell::text(r.info.black_title.as_deref()),
            Cell::text(r.info.white_title.as_deref()),
            Cell::text(r.info.site.as_deref()),
            Cell::text(r.info.end_date.as_deref()),
            Cell::text(r.info.time_control.as_deref()),
            Cell::text(r.info.opening.as_deref()),
            Cell::Text(if r.info.headers.is_empty() { "[]" } else { &headers }),
            Cell::Text(r.variant.name()),
            Cell::Text(&game_key(&r.start, &r.moves, r.told_apart.as_deref())),
            Cell::text(comment.as_deref()),
            Cell::text(r.foul.as_deref()),
            Cell::int(r.times.get(ending_at as usize).copied().flatten()),
            Cell::text(ending_comment.as_deref()),
        ])
    })?;
    Ok(())
}

/// Writes the rejects whose path `keep` accepts to `out`, as CSV. Returns the rows written.
///
/// # Errors
///
/// A database failure or a write error.
pub fn rejects(snapshot: &Snapshot<'_>, out: impl Write, keep: impl Fn(&str) -> bool) -> Result<u64, Error> {
    let mut output = Output::text(Format::Csv, out, columns(Table::Rejects, &Options::default()))?;
    notes(snapshot, Notes::Rejects, &mut output, &keep)?;
    output.finish()
}

/// Writes the warnings whose path `keep` accepts to `out`, as CSV, with the columns of the
/// rejects ([`WARNING_COLUMNS`]). Returns the rows written.
///
/// # Errors
///
/// A database failure or a write error.
pub fn warnings(snapshot: &Snapshot<'_>, out: impl Write, keep: impl Fn(&str) -> bool) -> Result<u64, Error> {
    let mut output = Output::text(Format::Csv, out, columns(Table::Warnings, &Options::default()))?;
    notes(snapshot, Notes::Warnings, &mut output, &keep)?;
    output.finish()
}

/// The columns of the warnings export: those of the rejects.
pub const WARNING_COLUMNS: [&str; 6] = REJECT_COLUMNS;

/// The two tables of rows about input: what was not used, and what was used with a warning.
#[derive(Clone, Copy)]
enum Notes {
    Rejects,
    Warnings,
}

fn notes<W: Write>(
    snapshot: &Snapshot<'_>,
    which: Notes,
    out: &mut Output<W>,
    keep: &dyn Fn(&str) -> bool,
) -> Result<(), Error> {
    let mut row = |r: &db::RejectRow| -> Result<(), Error> {
        if !keep(&r.path) {
            return Ok(());
        }
        out.row(&[
            Cell::Text(&r.path),
            Cell::int(r.game_index),
            Cell::int(r.line),
            Cell::int(r.ply),
            Cell::Text(&r.code),
            Cell::Text(&r.message),
        ])
    };
    match which {
        Notes::Rejects => snapshot.for_each_reject(&mut row)?,
        Notes::Warnings => snapshot.for_each_warning(&mut row)?,
    }
    Ok(())
}
