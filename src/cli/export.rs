//! `kifudex export games|moves|positions|tree|rejects`: CSV on stdout or into `--out FILE`.

use std::{
    fs::File,
    io::{self, BufWriter, Write},
    path::PathBuf,
    process::ExitCode,
};

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use kifudex::{db::Reader, export};

use super::{
    db::{DbOpt, warn_unindexed},
    filter::FilterOpt,
};

/// What to export.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Table {
    /// One row per game occurrence (file and index in it)
    Games,
    /// One row per move: game_id, ply, usi, japanese, western, sfen_before, key_before, time_seconds, comment
    Moves,
    /// One row per position of each main line: game_id, ply, key, sfen, usi (the move played from it)
    Positions,
    /// One row per position and move, for positions reached up to --max-ply: sfen, key, ply, games, usi,
    /// japanese, western, played, reached, black_wins, white_wins, draws
    Tree,
    /// One row per rejected file or game
    Rejects,
}

/// Export the database as CSV (with a header row), streamed at constant memory.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// What to export
    what: Table,
    /// Write to FILE instead of stdout
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// For `tree`: the positions reached at this ply or earlier
    #[arg(long, value_name = "PLY", default_value_t = 10)]
    max_ply: u32,
    #[command(flatten)]
    filter: FilterOpt,
    #[command(flatten)]
    db: DbOpt,
}

pub fn run(args: ExportArgs) -> anyhow::Result<ExitCode> {
    let filter = args.filter.filter()?;
    if args.what == Table::Rejects && !filter.is_empty() {
        bail!(
            "rejects are files and games that were not indexed whole: the game filters do not apply to them"
        );
    }
    let mut reader = Reader::open(&args.db.path())?;
    let snapshot = reader.snapshot()?;
    if args.what == Table::Tree {
        warn_unindexed(&snapshot, &args.db.path())?;
    }
    let out: Box<dyn Write> = match &args.out {
        Some(path) => Box::new(BufWriter::new(
            File::create(path).with_context(|| format!("cannot create {}", path.display()))?,
        )),
        None => Box::new(BufWriter::new(io::stdout().lock())),
    };
    let written = match args.what {
        Table::Games => export::games(&snapshot, &filter, out),
        Table::Moves => export::moves(&snapshot, &filter, out),
        Table::Positions => export::positions(&snapshot, &filter, out),
        Table::Tree => export::tree(&snapshot, &filter, args.max_ply, out),
        Table::Rejects => export::rejects(&snapshot, out, |_| true),
    };
    match written {
        Ok(_) => Ok(ExitCode::SUCCESS),
        Err(e) if e.is_broken_pipe() => Ok(ExitCode::SUCCESS),
        Err(e) => Err(e.into()),
    }
}
