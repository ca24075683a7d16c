//! `kifudex show`: a stored game in any format kifudex writes.

use kifudex::ingest::path_text;
use std::{
    path::{Path, PathBuf},
    process::ExitCode,
};

use anyhow::{Context, bail};
use kifudex::{
    db::GameId,
    kifu::Format,
    shogi::Variant,
    store::{stop_note, stored_replay},
    write::lost::{Lost, parts_note},
};

use super::{
    convert::{To, write_file},
    db::DbOpt,
    filter::FilterOpt,
};

/// Print a stored game, with its headers, in any format kifudex writes.
///
/// A game found in several files has a record (headers, times, comments, ending) from each;
/// the one shown is the first in path order that the filters match (the first in path order
/// without filters), and it ends as its file says, though the game counts the ending of its
/// first record. What the format cannot hold is said as `convert` says it: a note for what the
/// format has no place for (move times in KI2, headers in USI), a warning and exit status 1
/// for what the game loses (an ending USI has no word for). The database keeps each game's
/// main line: a record's variations are in its file, which `convert` writes. Exit status 1
/// also when the filters match none of its records. On a terminal, control
/// characters of the record's text are shown as `\xNN` and bidirectional controls as
/// `<U+202E>`; a pipe or --out gets the text as it is.
#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// The game's id (as `query` and `export games` show it)
    #[arg(value_name = "GAME_ID", allow_negative_numbers = true, value_parser = game_id)]
    id: i64,
    /// The format to write [default: the one --out's extension names (.kif .kifu .ki2 .ki2u
    /// .csa .jkf .json .usi .sfen .psn), else kif; western for a yari shogi game, which has no
    /// CSA form, and a KIF, KI2 or JKF form only from the yari start]
    #[arg(long, value_enum)]
    to: Option<To>,
    /// Write to FILE instead of stdout (`-` is stdout; KIF or KI2 in a `.kif` or `.ki2` file in
    /// Shift_JIS, others in UTF-8). An extension of another format than --to's is refused, and
    /// so is a record file this database has indexed
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    #[command(flatten)]
    filter: FilterOpt,
    #[command(flatten)]
    db: DbOpt,
}

pub fn run(args: &ShowArgs) -> anyhow::Result<ExitCode> {
    let filter = args.filter.filter()?;
    if let Some(out) = super::out::named(&args.out) {
        super::db::refuse_database_as_output(out, "--out", Some(&args.db.path()))?;
        args.filter.refuse_as_output(out, "--out")?;
    }
    let mut reader = args.db.reader()?;
    if let Some(out) = super::out::named(&args.out) {
        refuse_indexed_file(&reader, out, &args.db.path())?;
    }
    let snapshot = reader.snapshot()?;
    super::note_overridden_aliases(&snapshot, &filter)?;
    let Some(stored) = snapshot.game_matching(GameId(args.id), &filter)? else {
        if filter.is_empty() || snapshot.game(GameId(args.id))?.is_none() {
            bail!("there is no game {} in {}", args.id, path_text(&args.db.path()));
        }
        say!("kifudex: no record of game {} matches the filters", args.id);
        return Ok(ExitCode::from(1));
    };
    let variant = stored.start.variant;
    let default = if variant == Variant::Standard { To::Kif } else { To::Western };
    let to = To::chosen(args.to, super::out::named(&args.out).map(PathBuf::as_path), default)?;
    if !Format::from(to).holds_start(&stored.start) {
        bail!(
            "game {} is a {} game, which a {} record cannot hold ({}); show it with --to {}",
            args.id,
            variant.title().to_lowercase(),
            Format::from(to).name().to_uppercase(),
            kifudex::kifu::WHY_NOT_HELD,
            To::those_holding(&stored.start),
        );
    }
    let (record, replayed) =
        stored_replay(&stored).with_context(|| format!("game {} cannot be played back", args.id))?;
    let text = to.write(&record, &replayed);
    match super::out::named(&args.out) {
        Some(path) => write_file(path, Format::from(to), &text, None)?,
        None => super::print_record(&text)?,
    }
    // Said as `convert` says it, once the record is written.
    let lost = Lost::of(Format::from(to), &record, &replayed);
    let warnings: Vec<String> = stop_note(&stored).into_iter().chain(lost.warnings).collect();
    for message in &warnings {
        super::note(format_args!("game {}: {message}", args.id));
    }
    if !lost.parts.is_empty() {
        say!("kifudex: game {}: note: {}", args.id, parts_note(Format::from(to), &lost.parts));
    }
    Ok(if warnings.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// Refuses `out` when it is a record file the database has indexed: written over, the
/// archive would lose the record as it was (what the format written cannot say goes with it).
fn refuse_indexed_file(reader: &kifudex::db::Reader, out: &Path, db: &Path) -> anyhow::Result<()> {
    let paths = [std::fs::canonicalize(out).ok(), std::path::absolute(out).ok()];
    for path in paths.iter().flatten() {
        if reader.file_state(&kifudex::ingest::path_text(path))?.is_some() {
            bail!(
                "--out {} is a record file indexed in {}: writing there would replace the record; give another file",
                path_text(out),
                path_text(db)
            );
        }
    }
    Ok(())
}

/// A game id as given: a number, however large (none past the largest id is stored, which
/// the command then says), or a clear refusal.
fn game_id(text: &str) -> Result<i64, String> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    match text.parse::<i64>() {
        Ok(id) => Ok(id),
        Err(_) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
            Err(format!("there is no game {text}: game ids go from 1 to {}", i64::MAX))
        }
        Err(_) => Err("not a game id: give a number, as `query` and `export games` show it".to_string()),
    }
}
