//! `kifudex query`: the games that reach a position, the moves played next and their results.

use kifudex::ingest::path_text;
use std::{
    ffi::{OsStr, OsString},
    path::{Path, PathBuf},
    process::ExitCode,
};

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use kifudex::{
    query::{self, Answer, NEXT_MOVE_COLUMNS, Query, Target, fit_variant, target_from_text},
    shogi::{Handicap, Variant},
};

use super::{
    db::{DbOpt, warn_unindexed},
    diagram::diagram,
    filter::FilterOpt,
    table::TextTable,
};

/// Which games reach a position (by any move order), what was played next, and how it went.
///
/// The position is given by moves from the start (--moves, in any notation), an SFEN (--sfen), a
/// board diagram (--bod), or a game of a record file and a ply (--position); with none of
/// them it is the start position (--start). Exit status 1 when no game reaches it.
#[derive(Debug, Args)]
pub struct QueryArgs {
    /// Moves from the start, in any notation: "7g7f 3c3d", "▲７六歩△３四歩", "1.P-76 P-34"
    #[arg(long, value_name = "TEXT", group = "target")]
    moves: Option<String>,
    /// Where --moves start: an SFEN, `startpos`, or a handicap name (香落ち, 2-piece, …)
    #[arg(
        long,
        value_name = "SFEN|startpos|HANDICAP",
        default_value = "startpos",
        conflicts_with_all = ["sfen", "bod", "position"]
    )]
    start: String,
    /// The position as SFEN
    #[arg(long, value_name = "SFEN", group = "target")]
    sfen: Option<String>,
    /// The position as a board diagram in FILE, or on stdin with `-`: a BOD, or for yari shogi
    /// the lettered diagram `query` draws
    #[arg(long, value_name = "FILE", group = "target")]
    bod: Option<PathBuf>,
    /// The position after PLY moves of a game in a record file (after all of them without PLY)
    #[arg(long, value_name = "FILE[:PLY]", group = "target")]
    position: Option<OsString>,
    /// With --position: the game of the file (0 for the first)
    #[arg(long, value_name = "N", default_value_t = 0, requires = "position", conflicts_with_all = ["moves", "sfen", "bod"], value_parser = kifudex::query::parse_count::<usize>, allow_negative_numbers = true)]
    game: usize,
    /// Only the games that played exactly these moves from the start (not other move orders)
    #[arg(long)]
    exact_sequence: bool,
    #[command(flatten)]
    filter: FilterOpt,
    /// List at most N games (the counts cover them all; 0 prints the counts alone) [default: 20]
    #[arg(long, value_name = "N", value_parser = kifudex::query::parse_count::<usize>, allow_negative_numbers = true)]
    limit: Option<usize>,
    /// Leave out the newest N games of the list, to page through them all [default: 0]
    #[arg(long, value_name = "N", value_parser = kifudex::query::parse_count::<usize>, allow_negative_numbers = true)]
    offset: Option<usize>,
    /// Output format (csv when only --csv is given, else table)
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// The CSV table to write (moves when not given); implies --format csv
    #[arg(long, value_enum)]
    csv: Option<List>,
    /// Count the games year by year too: the position's and each next move's (in CSV, the
    /// table of --csv years)
    #[arg(long, value_enum, value_name = "year")]
    by: Option<By>,
    #[command(flatten)]
    db: DbOpt,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Aligned tables, with a board diagram
    Table,
    /// One JSON object
    Json,
    /// One CSV table (see --csv)
    Csv,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum By {
    /// By the year of each game's date
    Year,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum List {
    /// The next moves
    Moves,
    /// The games that reach the position
    Games,
    /// The counts by year: a row per year for the position (no move), and a row per year for
    /// each move played that year
    Years,
}

pub fn run(args: QueryArgs) -> anyhow::Result<ExitCode> {
    let (format, list) = output(&args)?;
    let mut filter = args.filter.filter()?;
    let target = target(&args, filter.variant, filter.handicap)?;
    fit_variant(&target, &mut filter).map_err(super::in_flags)?;
    let query = Query {
        target,
        filter,
        limit: args.limit.unwrap_or(LIMIT),
        offset: args.offset.unwrap_or(0),
        exact_sequence: args.exact_sequence,
        by_year: args.by == Some(By::Year) || list == List::Years,
    };
    let mut reader = args.db.reader()?;
    let snapshot = reader.snapshot()?;
    super::note_overridden_aliases(&snapshot, &query.filter)?;
    warn_unindexed(&snapshot, &args.db.path())?;
    let answer = query::run(&snapshot, &query).map_err(super::in_flags)?;
    let text = match format {
        Format::Table => table(&query, &answer),
        Format::Json => query::to_json(&answer) + "\n",
        Format::Csv => csv(&answer, list)?,
    };
    let listed = query.offset as u64 + answer.list.len() as u64;
    for note in &answer.notes {
        super::note(format_args!("{note}"));
    }
    if format == Format::Csv && list == List::Games && !answer.list.is_empty() && listed < answer.games.games
    {
        say!(
            "kifudex: listed games {} to {} of {}, newest first (--limit N lists more)",
            query.offset + 1,
            listed,
            answer.games.games
        );
    }
    super::print(&text)?;
    Ok(if answer.games.games == 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// The output format and, for CSV, the table: `--csv` alone means CSV, and a table of counts
/// by year needs `--csv years`, since the next moves' table has no year.
fn output(args: &QueryArgs) -> anyhow::Result<(Format, List)> {
    let format = match (args.format, args.csv) {
        (Some(format), Some(list)) if format != Format::Csv => {
            let list = list.to_possible_value().expect("a listed value");
            bail!("--csv {} is a table of --format csv, not of --format {}", list.get_name(), format.name())
        }
        (Some(format), _) => format,
        (None, Some(_)) => Format::Csv,
        (None, None) => Format::Table,
    };
    let list = args.csv.unwrap_or(List::Moves);
    if format == Format::Csv && args.by.is_some() && list != List::Years {
        bail!(
            "the counts by year of --by year are the CSV table --csv years (the next moves' table has no year)"
        );
    }
    // Given for a table that lists no game, they would change nothing without a word.
    let paging = [("--limit", args.limit.is_some()), ("--offset", args.offset.is_some())];
    if format == Format::Csv && list != List::Games {
        let table = list.to_possible_value().expect("a listed value");
        for (option, _) in paging.iter().filter(|(_, given)| *given) {
            super::note(format_args!(
                "{option} pages the list of games, which --csv {} does not write: it writes every row \
                 (--csv games writes the list)",
                table.get_name()
            ));
        }
    }
    Ok((format, list))
}

/// The games listed when --limit is not given.
const LIMIT: usize = 20;

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Table => "table",
            Format::Json => "json",
            Format::Csv => "csv",
        }
    }
}

/// The position asked about; `variant`, the game `--variant` names, and `handicap`, the
/// handicap `--handicap` names, if any.
fn target(args: &QueryArgs, variant: Option<Variant>, handicap: Option<Handicap>) -> anyhow::Result<Target> {
    if let Some(sfen) = &args.sfen {
        return Ok(Target::from_sfen(sfen)?);
    }
    if let Some(path) = &args.bod {
        // Stdin is read as a file is: in any encoding a record file may have.
        let (bytes, name) = if path == Path::new("-") {
            (super::read_input(None)?, "stdin".to_string())
        } else {
            (super::read_input(Some(path))?, path_text(path))
        };
        let text = kifudex::kifu::encoding::decode(&bytes).with_context(|| format!("{name}: not text"))?.text;
        return Ok(Target::from_bod(&text)?);
    }
    if let Some(spec) = &args.position {
        let (path, ply) = file_and_ply(spec)?;
        let bytes = super::read_input(Some(&path))?;
        return Ok(Target::from_record(&path, &bytes, args.game, ply)?);
    }
    let target = target_from_text(args.moves.as_deref(), None, &args.start, variant, handicap)
        .map_err(super::in_flags)?;
    if let (Some(moves), Some((start, played))) = (&args.moves, &target.sequence) {
        super::note_unmarked_promotions(start, moves);
        super::note_moves_past_repetition(start, played, true);
    }
    Ok(target)
}

/// `FILE` or `FILE:PLY`; a file whose own name ends in `:…` is taken whole when it exists.
/// The file's name need not be UTF-8.
///
/// # Errors
///
/// A selector after the colon of an existing file that is no ply (`-1`, `x`, nothing, a
/// number past any game's end), in words that say so; a file that is not there is left to
/// the reading to report.
fn file_and_ply(spec: &OsStr) -> anyhow::Result<(PathBuf, Option<usize>)> {
    let whole = PathBuf::from(spec);
    let bytes = spec.as_encoded_bytes();
    let split = bytes.iter().rposition(|&b| b == b':').filter(|&colon| colon > 0).and_then(|colon| {
        let file = os_prefix(spec, colon)?;
        Some((file, String::from_utf8_lossy(&bytes[colon + 1..]).into_owned()))
    });
    let Some((file, selector)) = split.filter(|_| !whole.exists()) else {
        return Ok((whole, None));
    };
    let digits = !selector.is_empty() && selector.bytes().all(|b| b.is_ascii_digit());
    if !file.exists() {
        // A file that is not there, named as it was meant: before a ply, or the whole text.
        return Ok((if digits { file } else { whole }, None));
    }
    if !digits {
        bail!(
            "--position {}: '{selector}' after the colon is no ply: a ply is a number of moves from \
             the start (0 for the start itself, as in {}:40); without ':PLY' the position is the \
             game's last",
            path_text(&whole),
            path_text(&file)
        );
    }
    match selector.parse::<usize>() {
        Ok(ply) => Ok((file, Some(ply))),
        Err(_) => bail!(
            "--position {}: ply {selector} is past the end of any game: a ply is a number of moves \
             from the start",
            path_text(&whole)
        ),
    }
}

/// The first `len` bytes of `text` (as [`OsStr::as_encoded_bytes`] gives them), which end
/// before an ASCII character.
#[cfg(unix)]
fn os_prefix(text: &OsStr, len: usize) -> Option<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    Some(OsStr::from_bytes(&text.as_bytes()[..len]).into())
}

/// The first `len` bytes of `text`, when they are UTF-8 (elsewhere than Unix, a name that is
/// not is taken whole only).
#[cfg(not(unix))]
fn os_prefix(text: &OsStr, len: usize) -> Option<PathBuf> {
    std::str::from_utf8(&text.as_encoded_bytes()[..len]).ok().map(PathBuf::from)
}

fn percent(score: Option<f64>) -> String {
    score.map(|s| format!("{:.1}%", 100.0 * s)).unwrap_or_default()
}

fn table(query: &Query, answer: &Answer) -> String {
    let mut out = String::new();
    out.push_str(&format!("Position: {}\n", answer.sfen));
    if let Some((_, moves)) = query.target.sequence.as_ref().filter(|(_, m)| !m.is_empty()) {
        let usi: Vec<String> = moves.iter().map(ToString::to_string).collect();
        out.push_str(&format!("After: {}\n", usi.join(" ")));
    }
    out.push('\n');
    out.push_str(&diagram(query.target.position.setup()));
    out.push('\n');
    let which = if query.exact_sequence { " that played exactly these moves" } else { "" };
    let (games, reach) = if answer.games.games == 1 { ("game", "reaches") } else { ("games", "reach") };
    let occurrences = if answer.occurrences == 1 { "occurrence" } else { "occurrences" };
    let draws = if answer.games.draws == 1 { "draw" } else { "draws" };
    out.push_str(&format!(
        "{} {games}{which} {reach} it ({} {occurrences}): black won {}, white won {}, {} {draws}\n",
        answer.games.games,
        answer.occurrences,
        answer.games.black_wins,
        answer.games.white_wins,
        answer.games.draws
    ));
    if !answer.moves.is_empty() {
        out.push('\n');
        let mut t = TextTable::new(&[
            "usi", "japanese", "western", "played", "reached", "black", "white", "draws", "score",
        ]);
        t.right_from(3);
        for m in &answer.moves {
            t.row(vec![
                m.usi.clone(),
                m.japanese.clone(),
                m.western.clone(),
                m.played.games.to_string(),
                m.reached.to_string(),
                m.played.black_wins.to_string(),
                m.played.white_wins.to_string(),
                m.played.draws.to_string(),
                percent(m.score),
            ]);
        }
        out.push_str(&t.render());
        out.push_str(
            "(black, white, draws: results of the games that played the move; score: the mover's)\n",
        );
    }
    out.push_str(&super::years::table(answer));
    if !answer.list.is_empty() {
        out.push('\n');
        let mut t = TextTable::new(&["id", "date", "event", "black", "white", "result", "ply"]);
        for g in &answer.list {
            let row = &g.game;
            t.row(vec![
                row.id.to_string(),
                row.date.clone().unwrap_or_default(),
                row.event.clone().unwrap_or_default(),
                row.black.clone().unwrap_or_default(),
                row.white.clone().unwrap_or_default(),
                row.result.name().to_string(),
                g.ply.to_string(),
            ]);
        }
        out.push_str(&t.render());
        if query.offset > 0 {
            out.push_str(&format!(
                "(games {} to {} of {}, newest first; --offset and --limit choose others)\n",
                query.offset + 1,
                query.offset + answer.list.len(),
                answer.games.games
            ));
        } else if (answer.list.len() as u64) < answer.games.games {
            out.push_str(&format!(
                "(the newest {} of {} games; --limit N lists more)\n",
                answer.list.len(),
                answer.games.games
            ));
        }
    }
    out
}

/// The columns of `--csv years`: `games` is the games that reach the position (no move) or
/// that played the move, that year; the results are theirs.
const YEAR_COLUMNS: [&str; 8] =
    ["year", "usi", "japanese", "western", "games", "black_wins", "white_wins", "draws"];

fn csv(answer: &Answer, list: List) -> anyhow::Result<String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    match list {
        List::Moves => {
            w.write_record(NEXT_MOVE_COLUMNS)?;
            for m in &answer.moves {
                w.write_record([
                    m.usi.as_str(),
                    &m.japanese,
                    &m.western,
                    &m.played.games.to_string(),
                    &m.reached.to_string(),
                    &m.played.black_wins.to_string(),
                    &m.played.white_wins.to_string(),
                    &m.played.draws.to_string(),
                    &m.score.map(|s| format!("{s:.4}")).unwrap_or_default(),
                ])?;
            }
        }
        List::Games => {
            w.write_record(["id", "date", "event", "black", "white", "result", "ply"])?;
            for g in &answer.list {
                let r = &g.game;
                let text = |v: &Option<String>| v.clone().unwrap_or_default();
                w.write_record([
                    r.id.to_string(),
                    text(&r.date),
                    text(&r.event),
                    text(&r.black),
                    text(&r.white),
                    r.result.name().to_string(),
                    g.ply.to_string(),
                ])?;
            }
        }
        List::Years => {
            w.write_record(YEAR_COLUMNS)?;
            let Some(by) = &answer.by_year else {
                bail!("the answer has no counts by year");
            };
            // The position's row and then the moves', year by year; a move only in the years
            // it was played.
            for (year, tally) in &by.position {
                let year_cell = if year == query::years::UNKNOWN_YEAR { "" } else { year.as_str() };
                let mut row = |notations: [&str; 3], t: &kifudex::db::Stats| {
                    let counts = [t.games, t.black_wins, t.white_wins, t.draws].map(|n| n.to_string());
                    let [usi, japanese, western] = notations;
                    w.write_record([
                        year_cell, usi, japanese, western, &counts[0], &counts[1], &counts[2], &counts[3],
                    ])
                };
                row(["", "", ""], tally)?;
                for (m, years) in answer.moves.iter().zip(&by.moves) {
                    if let Some(t) = years.get(year) {
                        row([&m.usi, &m.japanese, &m.western], t)?;
                    }
                }
            }
        }
    }
    Ok(String::from_utf8(w.into_inner()?)?)
}
