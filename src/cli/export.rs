//! `kifudex export games|rejects`: CSV on stdout or into `--out FILE`.

use std::{
    fs::File,
    io::{self, BufWriter, Write},
    path::PathBuf,
    process::ExitCode,
};

use anyhow::Context;
use clap::{Args, ValueEnum};

use super::db::DbOpt;
use kifudex::{db::Reader, export};

/// What to export.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Table {
    /// One row per game occurrence (file and index in it)
    Games,
    /// One row per rejected file or game
    Rejects,
}

/// Export the database as CSV.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// What to export
    what: Table,
    /// Write to FILE instead of stdout
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    #[command(flatten)]
    db: DbOpt,
}

pub fn run(args: ExportArgs) -> anyhow::Result<ExitCode> {
    let mut reader = Reader::open(&args.db.path())?;
    let snapshot = reader.snapshot()?;
    let out: Box<dyn Write> = match &args.out {
        Some(path) => Box::new(BufWriter::new(
            File::create(path).with_context(|| format!("cannot create {}", path.display()))?,
        )),
        None => Box::new(BufWriter::new(io::stdout().lock())),
    };
    let written = match args.what {
        Table::Games => export::games(&snapshot, out),
        Table::Rejects => export::rejects(&snapshot, out, |_| true),
    };
    match written {
        Ok(_) => Ok(ExitCode::SUCCESS),
        Err(e) if e.is_broken_pipe() => Ok(ExitCode::SUCCESS),
        Err(e) => Err(e.into()),
    }
}
