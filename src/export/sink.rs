//! Typed rows, written as CSV, JSON Lines or Parquet.
//!
//! Every export makes its rows as typed [`Cell`]s under typed [`Column`]s, once; the format
//! only decides how they are written:
//! - CSV: a header row, then a row of text per row: numbers in decimal, position keys as 16
//!   hexadecimal digits, dates as ISO 8601 text as precise as the record, nothing (an empty
//!   field) for a missing value;
//! - JSON Lines: one object a row, keys in the column order: numbers as numbers, keys as the
//!   same hexadecimal text (a 64-bit number does not survive JavaScript's numbers), dates as
//!   text, `null` for a missing value;
//! - Parquet ([`super::parquet`]): typed columns.
//!
//! Rows are gathered in memory a bounded number at a time ([`Rows`]) and written out, so an
//! export's memory does not grow with its size. Rows made in parallel (one chunk a game) are
//! gathered in chunks of the same format and appended in order.

use std::{
    fmt::Write as _,
    fs::File,
    io::Write,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
};

use super::{Error, parquet::ParquetWriter};

/// A column's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A signed integer: ids, plies, counts, seconds, evaluations.
    Int,
    /// A position key: an unsigned 64-bit integer.
    Key,
    /// Text.
    Text,
    /// A date or date and time, ISO 8601, as precise as the record gives it.
    Date,
}

/// A column: its name and type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    pub name: &'static str,
    pub kind: Kind,
}

/// The columns named `names`, of the kinds `kinds`.
pub fn columns(names: &[&'static str], kinds: &[Kind]) -> Vec<Column> {
    names.iter().zip(kinds).map(|(&name, &kind)| Column { name, kind }).collect()
}

/// One value of a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell<'a> {
    Null,
    Int(i64),
    Key(u64),
    /// Text, or the ISO 8601 text of a date.
    Text(&'a str),
}

impl<'a> Cell<'a> {
    /// The text, or [`Cell::Null`] when there is none.
    pub fn text(v: Option<&'a str>) -> Cell<'a> {
        v.map_or(Cell::Null, Cell::Text)
    }

    /// The number, or [`Cell::Null`] when there is none.
    pub fn int(v: Option<impl Into<i64>>) -> Cell<'a> {
        v.map_or(Cell::Null, |n| Cell::Int(n.into()))
    }
}

/// An export format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Csv,
    Jsonl,
    Parquet,
}

/// Rows held in memory before they are written out (text formats: about this many bytes).
const TEXT_BUFFER: usize = 64 * 1024;

/// A CSV writer into memory, without a header row.
fn csv_writer() -> Box<csv::Writer<Vec<u8>>> {
    Box::new(csv::WriterBuilder::new().has_headers(false).from_writer(Vec::with_capacity(4096)))
}

/// Rows in one format, gathered in memory.
pub struct Rows {
    columns: std::sync::Arc<Vec<Column>>,
    form: Form,
    rows: u64,
}

enum Form {
    // Boxed: the CSV writer's state is large beside the other forms'.
    Csv { csv: Box<csv::Writer<Vec<u8>>>, scratch: String },
    Jsonl { out: Vec<u8>, names: std::sync::Arc<Vec<String>> },
    Columns(super::parquet::Columns),
}

impl Rows {
    fn new(format: Format, columns: std::sync::Arc<Vec<Column>>, names: std::sync::Arc<Vec<String>>) -> Rows {
        let form = match format {
            Format::Csv => Form::Csv { csv: csv_writer(), scratch: String::new() },
            Format::Jsonl => Form::Jsonl { out: Vec::with_capacity(4096), names },
            Format::Parquet => Form::Columns(super::parquet::Columns::new(&columns)),
        };
        Rows { columns, form, rows: 0 }
    }

    /// An empty set of rows of the same format and columns.
    pub fn empty(&self) -> Rows {
        let (format, names) = match &self.form {
            Form::Csv { .. } => (Format::Csv, std::sync::Arc::default()),
            Form::Jsonl { names, .. } => (Format::Jsonl, names.clone()),
            Form::Columns(_) => (Format::Parquet, std::sync::Arc::default()),
        };
        Rows::new(format, self.columns.clone(), names)
    }

    /// Adds a row: one cell a column.
    ///
    /// # Errors
    ///
    /// A cell that does not fit its column (a bug), or a CSV failure.
    pub fn push(&mut self, cells: &[Cell<'_>]) -> Result<(), Error> {
        debug_assert_eq!(cells.len(), self.columns.len());
        match &mut self.form {
            Form::Csv { csv, scratch } => {
                for cell in cells {
                    scratch.clear();
                    match *cell {
                        Cell::Null => {}
                        Cell::Int(n) => {
                            let _ = write!(scratch, "{n}");
                        }
                        Cell::Key(k) => {
                            let _ = write!(scratch, "{k:016x}");
                        }
                        Cell::Text(t) => {
                            csv.write_field(t)?;
                            continue;
                        }
                    }
                    csv.write_field(scratch.as_bytes())?;
                }
                csv.write_record(None::<&[u8]>)?;
            }
            Form::Jsonl { out, names } => {
                out.push(b'{');
                for (i, (cell, name)) in cells.iter().zip(names.iter()).enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    out.extend_from_slice(name.as_bytes());
                    out.push(b':');
                    match *cell {
                        Cell::Null => out.extend_from_slice(b"null"),
                        Cell::Int(n) => {
                            let _ = write!(out, "{n}");
                        }
                        Cell::Key(k) => {
                            let _ = write!(out, "\"{k:016x}\"");
                        }
                        Cell::Text(t) => serde_json::to_writer(&mut *out, t).map_err(std::io::Error::from)?,
                    }
                }
                out.extend_from_slice(b"}\n");
            }
            Form::Columns(c) => c.push(cells),
        }
        self.rows += 1;
        Ok(())
    }

    /// The rows held.
    pub fn len(&self) -> u64 {
        self.rows
    }

    /// Whether no row is held.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// The bytes a text format holds (nothing for columns).
    fn bytes(&mut self) -> Result<Vec<u8>, Error> {
        match &mut self.form {
            Form::Csv { csv, .. } => {
                let full = std::mem::replace(csv, csv_writer());
                (*full).into_inner().map_err(|e| Error::Write(e.into_error()))
            }
            Form::Jsonl { out, .. } => Ok(std::mem::take(out)),
            Form::Columns(_) => Ok(Vec::new()),
        }
    }

    /// Whether the rows held should be written out now.
    fn full(&self) -> bool {
        match &self.form {
            Form::Csv { csv, .. } => csv.get_ref().len() >= TEXT_BUFFER,
            Form::Jsonl { out, .. } => out.len() >= TEXT_BUFFER,
            Form::Columns(c) => c.full(),
        }
    }
}

/// Where rows go: a stream of text, or a Parquet file.
enum Target<W: Write> {
    Text(W),
    Parquet(Box<ParquetWriter>),
}

/// An export being written: rows are gathered ([`Output::row`], [`Output::append`]) and
/// written out a bounded number at a time; [`Output::finish`] ends it.
pub struct Output<W: Write> {
    target: Target<W>,
    held: Rows,
    written: u64,
    /// Where the rows written so far are counted for another thread to show ([`Output::counted`]).
    counter: Option<Arc<AtomicU64>>,
}

impl<W: Write> Output<W> {
    /// A CSV or JSON Lines export of `columns` into `out` (CSV writes its header row now).
    ///
    /// # Errors
    ///
    /// A write error.
    pub fn text(format: Format, mut out: W, columns: Vec<Column>) -> Result<Output<W>, Error> {
        let names: Vec<String> =
            columns.iter().map(|c| serde_json::to_string(c.name).unwrap_or_default()).collect();
        if format == Format::Csv {
            let mut header = csv::Writer::from_writer(Vec::new());
            header.write_record(columns.iter().map(|c| c.name))?;
            out.write_all(&header.into_inner().map_err(|e| Error::Write(e.into_error()))?)?;
        }
        let held = Rows::new(format, std::sync::Arc::new(columns), std::sync::Arc::new(names));
        Ok(Output { target: Target::Text(out), held, written: 0, counter: None })
    }

    /// A Parquet export of `columns` into `file`.
    ///
    /// # Errors
    ///
    /// A write error.
    pub fn parquet(file: File, columns: Vec<Column>) -> Result<Output<W>, Error> {
        let writer = ParquetWriter::new(file, &columns)?;
        let held = Rows::new(Format::Parquet, std::sync::Arc::new(columns), std::sync::Arc::default());
        Ok(Output { target: Target::Parquet(Box::new(writer)), held, written: 0, counter: None })
    }

    /// The export, counting in `counter` the rows it has written out, as it writes them (a
    /// bounded number at a time), for a display of its progress.
    #[must_use]
    pub fn counted(self, counter: Arc<AtomicU64>) -> Output<W> {
        Output { counter: Some(counter), ..self }
    }

    /// Counts `rows` more rows written out.
    fn wrote(&mut self, rows: u64) {
        self.written += rows;
        if let Some(counter) = &self.counter {
            counter.store(self.written, Ordering::Relaxed);
        }
    }

    /// An empty set of rows of this export's format and columns, to fill elsewhere (on another
    /// thread) and [`Output::append`].
    pub fn rows(&self) -> Rows {
        self.held.empty()
    }

    /// Adds a row.
    ///
    /// # Errors
    ///
    /// A write error.
    pub fn row(&mut self, cells: &[Cell<'_>]) -> Result<(), Error> {
        self.held.push(cells)?;
        if self.held.full() {
            self.drain()?;
        }
        Ok(())
    }

    /// Adds rows made by [`Output::rows`], after those already added.
    ///
    /// # Errors
    ///
    /// A write error.
    pub fn append(&mut self, mut rows: Rows) -> Result<(), Error> {
        if let Form::Columns(more) = &mut rows.form {
            if let Form::Columns(held) = &mut self.held.form {
                held.append(more);
            }
            self.held.rows += rows.rows;
            if self.held.full() {
                self.drain()?;
            }
            return Ok(());
        }
        self.drain_text()?;
        let bytes = rows.bytes()?;
        if let Target::Text(out) = &mut self.target {
            out.write_all(&bytes)?;
        }
        self.wrote(rows.rows);
        Ok(())
    }

    fn drain_text(&mut self) -> Result<(), Error> {
        let bytes = self.held.bytes()?;
        if let Target::Text(out) = &mut self.target {
            out.write_all(&bytes)?;
        }
        let rows = std::mem::take(&mut self.held.rows);
        self.wrote(rows);
        Ok(())
    }

    fn drain(&mut self) -> Result<(), Error> {
        match &mut self.target {
            Target::Text(_) => self.drain_text(),
            Target::Parquet(writer) => {
                if let Form::Columns(c) = &mut self.held.form {
                    writer.write(c)?;
                }
                let rows = std::mem::take(&mut self.held.rows);
                self.wrote(rows);
                Ok(())
            }
        }
    }

    /// Writes what is held and ends the export. Returns the rows written.
    ///
    /// # Errors
    ///
    /// A write error.
    pub fn finish(mut self) -> Result<u64, Error> {
        self.drain()?;
        match self.target {
            Target::Text(mut out) => out.flush()?,
            Target::Parquet(writer) => writer.finish()?,
        }
        Ok(self.written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counter of a counted export follows the rows written out: none before they are,
    /// each of them once they are, in text as in Parquet.
    #[test]
    fn a_counted_export_counts_the_rows_it_writes_out() {
        let columns = || columns(&["n", "name"], &[Kind::Int, Kind::Text]);
        let rows = 5_000;
        let fill = |out: &mut Output<Vec<u8>>| {
            for n in 0..rows {
                out.row(&[Cell::Int(n), Cell::Text("羽生善治")]).unwrap();
            }
        };
        let counter = Arc::new(AtomicU64::new(0));
        let mut out = Output::text(Format::Csv, Vec::new(), columns()).unwrap().counted(Arc::clone(&counter));
        out.row(&[Cell::Int(1), Cell::Null]).unwrap();
        assert_eq!(counter.load(Ordering::Relaxed), 0, "a row held is not written yet");
        fill(&mut out);
        let part = counter.load(Ordering::Relaxed);
        assert!(part > 0 && part < rows as u64 + 1, "{part}: written out a bounded number at a time");
        assert_eq!(out.finish().unwrap(), rows as u64 + 1);
        assert_eq!(counter.load(Ordering::Relaxed), rows as u64 + 1);

        let dir = tempfile::tempdir().unwrap();
        let file = File::create(dir.path().join("n.parquet")).unwrap();
        let counter = Arc::new(AtomicU64::new(0));
        let mut out = Output::<Vec<u8>>::parquet(file, columns()).unwrap().counted(Arc::clone(&counter));
        fill(&mut out);
        assert_eq!(out.finish().unwrap(), rows as u64);
        assert_eq!(counter.load(Ordering::Relaxed), rows as u64);
    }
}
