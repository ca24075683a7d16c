//! `kifudex export games|moves|positions|tree|rejects|warnings`: CSV, JSON Lines or Parquet
//! on stdout or into `--out FILE` (Parquet never to a terminal). Exit status 0, or 1 when the
//! filters keep no game (the export is written, with no row) or a stored game could not be
//! played back and was left out (each is named on stderr).
//!
//! `--out-dir DIR` writes the export as one part of a dataset partitioned by shard, in the
//! layout DuckDB and Spark read as one table (Hive style): `DIR/shard=I/TABLE-I-of-N.EXT`,
//! I/N being the shard the database holds (1/1 when it holds every file). The file is
//! written under a name starting with `.` (which both skip) and renamed when complete, so a
//! reader of the dataset never meets half a part.

use kifudex::ingest::path_text;
use std::{
    io::{self, BufWriter, IsTerminal, Write},
    path::PathBuf,
    process::ExitCode,
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use kifudex::{
    db::GameId,
    export::{self, Output},
    shard::Shard,
};

use super::{
    db::{DbOpt, warn_unindexed},
    filter::FilterOpt,
    out::Replacing,
};

/// What to export.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Table {
    /// One row per game occurrence (file and index in it)
    Games,
    /// One row per move: game_id, ply, usi, japanese, western, sfen_before, key_before, time_seconds, comment,
    /// eval (centipawns from black's side)
    Moves,
    /// One row per position of each main line: game_id, ply, key, sfen, usi (the move played from it),
    /// result, game_key (the same game's in any database)
    Positions,
    /// One row per position and move, for positions reached up to --max-ply: sfen, key, ply, games, usi,
    /// japanese, western, played, reached, black_wins, white_wins, draws (and year, with --by year)
    Tree,
    /// One row per rejected file or game
    Rejects,
    /// One row per warning about a game that was kept (a line read past, an ending the moves
    /// contradict): path, game_index, line, ply, code, message
    Warnings,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// CSV with a header row
    Csv,
    /// JSON Lines: one object a row
    Jsonl,
    /// Parquet, typed columns (into --out, or into stdout when it is no terminal)
    Parquet,
}

impl FormatArg {
    /// The format to write: `format` as given, else the one the extension of `out` names, else
    /// CSV. A `format` that contradicts the extension is refused: a file named `games.parquet`
    /// holding CSV would fail in every tool that opens it.
    fn chosen(format: Option<FormatArg>, out: Option<&PathBuf>) -> anyhow::Result<FormatArg> {
        let named = out.and_then(|out| Some((out, FormatArg::of_extension(out)?)));
        match (format, named) {
            (Some(format), Some((out, named))) if format != named => bail!(
                "--out {} names a {} file, and --format {} writes {}: give --format {}, or a name with another extension",
                path_text(out),
                named.name(),
                format.arg_name(),
                format.name(),
                named.arg_name(),
            ),
            (Some(format), _) => Ok(format),
            (None, named) => Ok(named.map_or(FormatArg::Csv, |(_, named)| named)),
        }
    }

    /// The format a file's extension names, if it names one.
    fn of_extension(path: &std::path::Path) -> Option<FormatArg> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "csv" => Some(FormatArg::Csv),
            "jsonl" | "ndjson" => Some(FormatArg::Jsonl),
            "parquet" => Some(FormatArg::Parquet),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            FormatArg::Csv => "CSV",
            FormatArg::Jsonl => "JSON Lines",
            FormatArg::Parquet => "Parquet",
        }
    }

    /// The value of `--format` that names this format.
    fn arg_name(self) -> String {
        self.to_possible_value().map_or_else(String::new, |v| v.get_name().to_string())
    }
}

/// Export the database as CSV (with a header row), JSON Lines or Parquet, streamed at
/// constant memory.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// What to export
    what: Table,
    /// Write to FILE instead of stdout (`-` is stdout)
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Write into DIR as one part of a dataset partitioned by shard, as DuckDB and Spark read
    /// one: DIR/shard=I/TABLE-I-of-N.EXT, I/N the database's shard (1/1 without one)
    #[arg(long, value_name = "DIR", conflicts_with = "out")]
    out_dir: Option<PathBuf>,
    /// For `tree`: the positions reached at this ply or earlier [default: 10]
    #[arg(long, value_name = "PLY", value_parser = kifudex::query::parse_count::<u32>, allow_negative_numbers = true)]
    max_ply: Option<u32>,
    /// The file format (parquet is not written to a terminal) [default: the one --out's
    /// extension names (.csv .jsonl .ndjson .parquet), else csv]. An extension of another
    /// format is refused
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// For `tree`: a row per position, move and year, with a `year` column
    #[arg(long, value_enum, value_name = "year")]
    by: Option<super::query::By>,
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
    if args.what == Table::Warnings && !filter.is_empty() {
        bail!("warnings are about places in files: the game filters do not apply to them");
    }
    if args.by.is_some() && args.what != Table::Tree {
        bail!("--by year is for `export tree`");
    }
    if args.max_ply.is_some() && args.what != Table::Tree {
        bail!("--max-ply is for `export tree`: the other tables hold whole games");
    }
    let format = match FormatArg::chosen(args.format, super::out::named(&args.out))? {
        FormatArg::Csv => export::Format::Csv,
        FormatArg::Jsonl => export::Format::Jsonl,
        FormatArg::Parquet => export::Format::Parquet,
    };
    if let Some(out) = super::out::named(&args.out) {
        super::db::refuse_database_as_output(out, "--out", Some(&args.db.path()))?;
        super::db::refuse_records_as_output(out, "--out")?;
        args.filter.refuse_as_output(out, "--out")?;
    }
    let mut reader = args.db.reader()?;
    let snapshot = reader.snapshot()?;
    super::note_overridden_aliases(&snapshot, &filter)?;
    // A file is written under a hidden name, then renamed (see `out`).
    let file = match (super::out::named(&args.out), &args.out_dir) {
        (Some(path), _) => Some(path.clone()),
        (None, Some(dir)) => {
            let shard = snapshot.shard()?.unwrap_or(Shard::new(1, 1)?);
            // A part stands for its whole shard where the parts are gathered, and nothing in
            // it could say that it holds less.
            if snapshot.unfinished_run()?.is_some() {
                bail!(
                    "--out-dir: a part of the dataset stands for all of shard {shard}, and the last index run on \
                     {} did not finish (see the warning above): finish it first, or write a file that is no part \
                     with --out",
                    path_text(&args.db.path())
                );
            }
            let part = partition(dir, shard, args.what, format)?;
            super::db::refuse_database_as_output(&part, "--out-dir", Some(&args.db.path()))?;
            super::db::refuse_records_as_output(&part, "--out-dir")?;
            args.filter.refuse_as_output(&part, "--out-dir")?;
            // A selection may be what the dataset is meant to be, but the part cannot say it.
            if !filter.is_empty() {
                super::note(format_args!(
                    "note: the part of shard {shard} holds only the games the filters keep; the dataset is that \
                     selection as long as every shard's part is written with the same filters"
                ));
            }
            Some(part)
        }
        // Parquet is written through a file, stdout's here: never to a terminal (see below).
        (None, None) if format == export::Format::Parquet => Some(PathBuf::from("-")),
        (None, None) => None,
    };
    if args.what == Table::Tree {
        warn_unindexed(&snapshot, &args.db.path())?;
    }
    let table = match args.what {
        Table::Games => export::Table::Games,
        Table::Moves => export::Table::Moves,
        Table::Positions => export::Table::Positions,
        Table::Tree => export::Table::Tree,
        Table::Rejects => export::Table::Rejects,
        Table::Warnings => export::Table::Warnings,
    };
    let options = export::Options {
        max_ply: args.max_ply.unwrap_or(export::Options::default().max_ply),
        by_year: args.by.is_some(),
    };
    let columns = export::columns(table, &options);
    // A failure to write says where: the file, or stdout.
    let to =
        file.as_ref().filter(|p| p.as_os_str() != "-").map_or_else(|| "stdout".to_string(), |p| path_text(p));
    let failed = |e: export::Error| match e {
        export::Error::Write(e) => anyhow::Error::new(e).context(format!("cannot write the export to {to}")),
        e => e.into(),
    };
    let (replacing, output): (_, Output<Box<dyn Write>>) = match &file {
        Some(path) => {
            let (replacing, file) = Replacing::create(path)?;
            // By any name (`-`, `/dev/stdout`, a terminal's device): binary data is no text to show.
            if format == export::Format::Parquet && file.is_terminal() {
                bail!(
                    "--format parquet writes binary data, and {to} is a terminal: give a file with --out FILE \
                     (or --out-dir DIR), or send stdout to a file or a pipe"
                );
            }
            let output = match format {
                export::Format::Parquet => Output::parquet(file, columns),
                _ => Output::text(format, Box::new(BufWriter::new(file)) as Box<dyn Write>, columns),
            };
            (Some(replacing), output.map_err(failed)?)
        }
        None => (
            None,
            Output::text(format, Box::new(BufWriter::new(io::stdout().lock())) as Box<dyn Write>, columns)
                .map_err(failed)?,
        ),
    };
    // A game an older version stored that cannot be played back is named, and left out.
    let mut skipped = 0u64;
    let mut skip = |id: GameId, why: &export::Unplayable| {
        skipped += 1;
        super::note(format_args!("game {id} is left out: {why}"));
    };
    let written = Arc::new(AtomicU64::new(0));
    let output = output.counted(Arc::clone(&written));
    let progress = Progress::start(written, &to, file.is_some());
    let wrote = export::write(&snapshot, table, &filter, &options, output, &mut skip);
    drop(progress);
    wrote.map_err(failed)?;
    if let Some(replacing) = replacing {
        replacing.commit()?;
    }
    // Filters that keep no game are "nothing matched", as for `games` and `query`; the export,
    // with no row, is written all the same. A database that holds no game is said to, as
    // they say it, but is no failure: a shard of a small archive may hold none. (Rejects and
    // warnings are of files, not games.)
    let unmatched = !matches!(args.what, Table::Rejects | Table::Warnings)
        && super::note_no_game_kept(&snapshot, &filter)? == kifudex::query::NoGame::Matched;
    Ok(if skipped > 0 || unmatched { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// The rows an export has written so far, shown on stderr when it is a terminal and the rows
/// do not go to it too (a tree exported deep, or a large archive's moves, take minutes), from
/// its first second on; cleared when it is dropped, as the export ends.
struct Progress {
    done: Arc<AtomicBool>,
    ticker: Option<std::thread::JoinHandle<()>>,
}

impl Progress {
    /// How long an export runs before its progress is shown.
    const AFTER: Duration = Duration::from_secs(1);

    /// Shows `written` going up, the rows written to `to` (a file when `to_file`, else stdout).
    fn start(written: Arc<AtomicU64>, to: &str, to_file: bool) -> Progress {
        let done = Arc::new(AtomicBool::new(false));
        if !io::stderr().is_terminal() || !to_file && io::stdout().is_terminal() {
            return Progress { done, ticker: None };
        }
        let (stop, to) = (Arc::clone(&done), to.to_string());
        let ticker = std::thread::Builder::new()
            .name("kifudex-progress".into())
            .spawn(move || {
                let began = Instant::now();
                while began.elapsed() < Progress::AFTER {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    std::thread::park_timeout(Progress::AFTER.saturating_sub(began.elapsed()));
                }
                // Drawn first with the rows written so far, not with none.
                let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
                    .with_elapsed(began.elapsed())
                    .with_position(written.load(Ordering::Relaxed));
                bar.set_style(
                    ProgressStyle::with_template("{elapsed_precise} {human_pos} rows written to {msg}")
                        .expect("the template is valid"),
                );
                bar.set_message(to);
                super::PROGRESS_SHOWN.store(true, Ordering::Relaxed);
                while !stop.load(Ordering::Relaxed) {
                    bar.set_position(written.load(Ordering::Relaxed));
                    std::thread::park_timeout(Duration::from_millis(200));
                }
                bar.finish_and_clear();
                super::PROGRESS_SHOWN.store(false, Ordering::Relaxed);
            })
            .ok();
        Progress { done, ticker }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(ticker) = self.ticker.take() {
            ticker.thread().unpark();
            let _ = ticker.join();
        }
    }
}

/// The part to write under `dir` for shard `shard` of `what` in `format`; makes the shard's
/// directory.
fn partition(
    dir: &std::path::Path,
    shard: Shard,
    what: Table,
    format: export::Format,
) -> anyhow::Result<PathBuf> {
    let table = what.to_possible_value().map(|v| v.get_name().to_string()).unwrap_or_default();
    let ext = match format {
        export::Format::Csv => "csv",
        export::Format::Jsonl => "jsonl",
        export::Format::Parquet => "parquet",
    };
    // Parts that readers of the directory would take as one dataset with this one.
    if let Some((other, why)) = foreign_part(dir, &table, ext, shard.count()) {
        let what = match why {
            Foreign::Split => {
                format!("of a split into another number of shards; parts of {} shards", shard.count())
            }
            Foreign::Misplaced => "outside its shard's folder; the part in its folder".to_string(),
        };
        bail!(
            "--out-dir {}: it holds {}, a part {what} beside it would be read as one table with it: write \
             into another directory, or remove that part",
            path_text(dir),
            path_text(&other),
        );
    }
    let folder = dir.join(format!("shard={}", shard.index()));
    // Said in the user's terms: which of the two is no directory.
    for d in [dir, folder.as_path()] {
        match std::fs::symlink_metadata(d) {
            Ok(m) if m.is_symlink() && !d.exists() => {
                bail!("--out-dir: {} is a symbolic link to nothing", path_text(d))
            }
            Ok(_) if !d.is_dir() => bail!("--out-dir: {} is a file, not a directory", path_text(d)),
            _ => {}
        }
    }
    // A directory made here is named: one mistyped would otherwise take the part unseen.
    let new = !dir.exists();
    std::fs::create_dir_all(&folder).with_context(|| format!("cannot create {}", path_text(&folder)))?;
    if new {
        super::note(format_args!("--out-dir: created {}", path_text(dir)));
    }
    let name = format!("{table}-{}-of-{}.{ext}", shard.index(), shard.count());
    Ok(folder.join(name))
}

/// How a part found under an `--out-dir` differs from the one to write beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Foreign {
    /// Of the same table, split into another number of shards: read together, the two splits
    /// count every game twice.
    Split,
    /// Of the same split, outside its place (`shard=I/`): a copy, which readers would count
    /// beside the part in its place.
    Misplaced,
}

/// A part of `table` in `ext` (`TABLE-I-of-M.EXT`) under `dir`, as deep as the globs that
/// read a dataset reach (`DIR/**/*.parquet`) but no deeper than a few folders, that readers
/// would count beside a part of `count` shards: another split's, or one outside its place;
/// with how it differs. (Parts of other tables and formats are told apart by their names,
/// which a reader's glob names.)
fn foreign_part(dir: &std::path::Path, table: &str, ext: &str, count: u32) -> Option<(PathBuf, Foreign)> {
    let walk = walkdir::WalkDir::new(dir).min_depth(1).max_depth(4).into_iter().flatten();
    for entry in walk.filter(|e| e.file_type().is_file()) {
        let Some(name) = entry.file_name().to_str() else {
            continue;
        };
        let Some((stem, found_ext)) = name.rsplit_once('.') else {
            continue;
        };
        if found_ext != ext {
            continue;
        }
        // TABLE-I-of-M
        let Some((head, of)) = stem.rsplit_once("-of-") else {
            continue;
        };
        let Some((found_table, index)) = head.rsplit_once('-') else {
            continue;
        };
        let (Ok(found_index), Ok(found_count)) = (index.parse::<u32>(), of.parse::<u32>()) else {
            continue;
        };
        if found_table != table {
            continue;
        }
        let in_place = entry.depth() == 2
            && entry.path().parent().and_then(|p| p.file_name()).and_then(|n| n.to_str())
                == Some(format!("shard={found_index}").as_str());
        let why = if found_count != count {
            Foreign::Split
        } else if !in_place {
            Foreign::Misplaced
        } else {
            continue;
        };
        return Some((entry.into_path(), why));
    }
    None
}
