//! Parquet: the exports as typed columns, for pandas, R, DuckDB and Arrow.
//!
//! # Columns
//!
//! - integers ([`Kind::Int`]) are 64-bit signed integers;
//! - position keys ([`Kind::Key`]) are 64-bit *unsigned* integers (`UINT_64`), the key's
//!   number as it is;
//! - text is UTF-8 strings;
//! - a date ([`Kind::Date`]) is two columns: `NAME`, a `DATE` (the day; missing when the
//!   record gives only a year or a month), and `NAME_iso`, the ISO 8601 text as precise as
//!   the record gives it, with the time when there is one (what CSV's column holds).
//!
//! Every column is optional (a missing value is a null). Pages are compressed with Snappy.
//!
//! # Memory
//!
//! Rows are gathered until they are [`ROW_GROUP`] rows or more, then written as a row group,
//! so memory holds one row group whatever the size of the export. Rows made together (those
//! of one game) are added together, so a group may pass [`ROW_GROUP`] by a game's rows.

use std::{fs::File, sync::Arc};

use parquet::{
    basic::{Compression, LogicalType, Repetition, Type as Physical},
    data_type::{ByteArray, ByteArrayType, Int32Type, Int64Type},
    file::{properties::WriterProperties, writer::SerializedFileWriter},
    schema::types::Type,
};

use super::{
    Error,
    sink::{Cell, Column, Kind},
};

/// Rows per row group, at least (but the last).
pub const ROW_GROUP: usize = 1 << 17;

/// The values of one Parquet column, with their definition levels (1 present, 0 null).
enum Data {
    Int64(Vec<i64>, Vec<i16>),
    Int32(Vec<i32>, Vec<i16>),
    Bytes(Vec<ByteArray>, Vec<i16>),
}

impl Data {
    fn push_null(&mut self) {
        match self {
            Data::Int64(_, d) | Data::Int32(_, d) | Data::Bytes(_, d) => d.push(0),
        }
    }

    fn append(&mut self, other: &mut Data) {
        match (self, other) {
            (Data::Int64(v, d), Data::Int64(ov, od)) => {
                v.append(ov);
                d.append(od);
            }
            (Data::Int32(v, d), Data::Int32(ov, od)) => {
                v.append(ov);
                d.append(od);
            }
            (Data::Bytes(v, d), Data::Bytes(ov, od)) => {
                v.append(ov);
                d.append(od);
            }
            _ => debug_assert!(false, "columns of one export have one layout"),
        }
    }

    fn clear(&mut self) {
        match self {
            Data::Int64(v, d) => {
                v.clear();
                d.clear();
            }
            Data::Int32(v, d) => {
                v.clear();
                d.clear();
            }
            Data::Bytes(v, d) => {
                v.clear();
                d.clear();
            }
        }
    }
}

/// Rows gathered as Parquet columns, in the export's column order (a date takes two).
pub struct Columns {
    kinds: Vec<Kind>,
    data: Vec<Data>,
    rows: usize,
}

impl Columns {
    pub fn new(columns: &[Column]) -> Columns {
        let mut data = Vec::new();
        for c in columns {
            match c.kind {
                Kind::Int | Kind::Key => data.push(Data::Int64(Vec::new(), Vec::new())),
                Kind::Text => data.push(Data::Bytes(Vec::new(), Vec::new())),
                Kind::Date => {
                    data.push(Data::Int32(Vec::new(), Vec::new()));
                    data.push(Data::Bytes(Vec::new(), Vec::new()));
                }
            }
        }
        Columns { kinds: columns.iter().map(|c| c.kind).collect(), data, rows: 0 }
    }

    pub fn push(&mut self, cells: &[Cell<'_>]) {
        let mut at = 0;
        for (cell, kind) in cells.iter().zip(&self.kinds) {
            if *kind == Kind::Date {
                let text = match *cell {
                    Cell::Text(t) => Some(t),
                    _ => None,
                };
                match (&mut self.data[at], text.and_then(days)) {
                    (Data::Int32(v, d), Some(n)) => {
                        v.push(n);
                        d.push(1);
                    }
                    (other, _) => other.push_null(),
                }
                match (&mut self.data[at + 1], text) {
                    (Data::Bytes(v, d), Some(t)) => {
                        v.push(ByteArray::from(t.as_bytes().to_vec()));
                        d.push(1);
                    }
                    (other, _) => other.push_null(),
                }
                at += 2;
                continue;
            }
            match (*cell, &mut self.data[at]) {
                (Cell::Int(n), Data::Int64(v, d)) => {
                    v.push(n);
                    d.push(1);
                }
                (Cell::Key(k), Data::Int64(v, d)) => {
                    // The bits of the unsigned key, which the column's type reads as unsigned.
                    v.push(k as i64);
                    d.push(1);
                }
                (Cell::Text(t), Data::Bytes(v, d)) => {
                    v.push(ByteArray::from(t.as_bytes().to_vec()));
                    d.push(1);
                }
                (_, data) => data.push_null(),
            }
            at += 1;
        }
        self.rows += 1;
    }

    pub fn append(&mut self, other: &mut Columns) {
        for (a, b) in self.data.iter_mut().zip(other.data.iter_mut()) {
            a.append(b);
        }
        self.rows += std::mem::take(&mut other.rows);
    }

    pub fn full(&self) -> bool {
        self.rows >= ROW_GROUP
    }
}

/// The days from 1970-01-01 to the day of an ISO 8601 date (`YYYY-MM-DD…`), if it names a
/// day.
fn days(iso: &str) -> Option<i32> {
    let b = iso.as_bytes();
    if b.len() < 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let number = |s: &str| s.parse::<i32>().ok();
    let (y, m, d) = (number(&iso[..4])?, number(&iso[5..7])?, number(&iso[8..10])?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    // Days from civil (proleptic Gregorian), counting years from March.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

/// A Parquet file being written, a row group at a time.
pub struct ParquetWriter {
    writer: SerializedFileWriter<File>,
}

/// A failure of the Parquet writer. A failure to write the file (a full disk, a closed
/// pipe) is [`Error::Write`], as it is for the other formats, so that the reader going away
/// is known as such and the message says what the system said.
fn parquet_error(e: parquet::errors::ParquetError) -> Error {
    match e {
        parquet::errors::ParquetError::External(e) => match e.downcast::<std::io::Error>() {
            Ok(io) => Error::Write(*io),
            Err(other) => Error::Parquet(other.to_string()),
        },
        other => Error::Parquet(other.to_string()),
    }
}

impl ParquetWriter {
    /// Starts a Parquet file of `columns` in `file`.
    ///
    /// # Errors
    ///
    /// [`Error::Parquet`] when the schema cannot be written.
    pub fn new(file: File, columns: &[Column]) -> Result<ParquetWriter, Error> {
        let field = |name: &str, physical: Physical, logical: LogicalType| {
            Type::primitive_type_builder(name, physical)
                .with_repetition(Repetition::OPTIONAL)
                .with_logical_type(Some(logical))
                .build()
                .map(Arc::new)
        };
        let mut fields = Vec::new();
        for c in columns {
            let built = match c.kind {
                Kind::Int => vec![field(c.name, Physical::INT64, LogicalType::integer(64, true))],
                Kind::Key => vec![field(c.name, Physical::INT64, LogicalType::integer(64, false))],
                Kind::Text => vec![field(c.name, Physical::BYTE_ARRAY, LogicalType::String)],
                Kind::Date => vec![
                    field(c.name, Physical::INT32, LogicalType::Date),
                    field(&format!("{}_iso", c.name), Physical::BYTE_ARRAY, LogicalType::String),
                ],
            };
            for f in built {
                fields.push(f.map_err(parquet_error)?);
            }
        }
        let schema =
            Type::group_type_builder("kifudex").with_fields(fields).build().map_err(parquet_error)?;
        let properties = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_created_by(format!("kifudex {}", env!("CARGO_PKG_VERSION")))
            .build();
        let writer =
            SerializedFileWriter::new(file, Arc::new(schema), Arc::new(properties)).map_err(parquet_error)?;
        Ok(ParquetWriter { writer })
    }

    /// Writes the rows of `columns` as a row group, and empties it.
    ///
    /// # Errors
    ///
    /// [`Error::Parquet`] on a failure to write.
    pub fn write(&mut self, columns: &mut Columns) -> Result<(), Error> {
        if columns.rows == 0 {
            return Ok(());
        }
        let mut group = self.writer.next_row_group().map_err(parquet_error)?;
        let mut data = columns.data.iter_mut();
        while let Some(mut column) = group.next_column().map_err(parquet_error)? {
            let Some(values) = data.next() else { break };
            let written = match values {
                Data::Int64(v, d) => column.typed::<Int64Type>().write_batch(v, Some(d), None),
                Data::Int32(v, d) => column.typed::<Int32Type>().write_batch(v, Some(d), None),
                Data::Bytes(v, d) => column.typed::<ByteArrayType>().write_batch(v, Some(d), None),
            };
            written.map_err(parquet_error)?;
            column.close().map_err(parquet_error)?;
            values.clear();
        }
        group.close().map_err(parquet_error)?;
        columns.rows = 0;
        Ok(())
    }

    /// Ends the file (writes its footer).
    ///
    /// # Errors
    ///
    /// [`Error::Parquet`] on a failure to write.
    pub fn finish(self) -> Result<(), Error> {
        self.writer.close().map_err(parquet_error)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_count_from_the_epoch() {
        assert_eq!(days("1970-01-01"), Some(0));
        assert_eq!(days("1970-01-02T10:00:00"), Some(1));
        assert_eq!(days("1969-12-31"), Some(-1));
        assert_eq!(days("2000-03-01"), Some(11_017));
        assert_eq!(days("2024-02-29"), Some(19_782));
        assert_eq!(days("2014"), None);
        assert_eq!(days("2014-05"), None);
    }
}
