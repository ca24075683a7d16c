//! Command-line parsing, output and exit codes.
//!
//! Exit codes: 0 success; 1 finished, but some input was rejected or nothing matched; 2 usage
//! or fatal error. Data goes to stdout; messages to stderr.
//!
//! A closed pipe on stdout exits 0, whatever the command: the commands return a failed write
//! as an error like any other, and [`main`] alone tells a closed pipe from the rest.
//!
//! The library's errors say what is wrong in its own terms; where one concerns an option,
//! the command words it with the option's flag (`--since`, `--shard`, `--include`).

/// Writes a message line to stderr, as `eprintln!` does, but never panics: a message that
/// cannot be written (stderr on a full disk or a closed pipe) is lost, never the command's
/// work or its exit status.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod alias;
mod convert;
mod db;
mod diagram;
mod export;
mod filter;
mod games;
mod index;
mod moves;
mod out;
mod players;
mod query;
mod serve;
mod show;
mod table;
mod years;

use std::{
    ffi::OsString,
    fs,
    io::{self, IsTerminal, Read, Write},
    path::Path,
    process::ExitCode,
};

use anyhow::Context;
use clap::{Parser, Subcommand};
use kifudex::query::{NamesOptions, NoGame, QueryOption};

/// Index directories of shogi game records (kifu) into one SQLite database, then query them by
/// opening or position.
#[derive(Debug, Parser)]
#[command(name = "kifudex", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Index(index::IndexArgs),
    Query(query::QueryArgs),
    Show(show::ShowArgs),
    Export(export::ExportArgs),
    Moves(moves::MovesArgs),
    Convert(convert::ConvertArgs),
    Serve(serve::ServeArgs),
    Games(games::GamesArgs),
    Players(players::PlayersArgs),
    Alias(alias::AliasArgs),
}

pub fn main() -> ExitCode {
    catch_file_size_signal();
    let args = csa_moves_as_text(std::env::args_os().collect());
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) if e.kind() == clap::error::ErrorKind::InvalidUtf8 => {
            say!("kifudex: {}", not_utf8(&args));
            return ExitCode::from(2);
        }
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            // Help and the version go to stdout: a failure to write them (a full disk) is
            // an error like any other output's, and a closed pipe is not.
            let written = e.print().and_then(|()| io::stdout().flush());
            return match written {
                Err(w) if code == 0 && w.kind() != io::ErrorKind::BrokenPipe => {
                    say!("kifudex: cannot write to stdout: {w}");
                    ExitCode::from(2)
                }
                _ => ExitCode::from(code),
            };
        }
    };
    let result = match cli.command {
        Command::Index(args) => index::run(args),
        Command::Query(args) => query::run(args),
        Command::Show(args) => show::run(&args),
        Command::Export(args) => export::run(args),
        Command::Moves(args) => moves::run(&args),
        Command::Convert(args) => convert::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Games(args) => games::run(args),
        Command::Players(args) => players::run(args),
        Command::Alias(args) => alias::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            // The message may quote a record's text or a file name: what would act on the
            // terminal or reorder the line is shown, as the tables show it, a line break
            // included (an error is one line).
            say!("kifudex: {}", table::visible(format!("{e:#}")));
            ExitCode::from(2)
        }
    }
}

/// Says `message` on stderr, on one line after `kifudex: `; what in it would act on the
/// terminal, reorder the line or break it (a name or a record's text may hold it) is shown, as
/// the tables show it, so that no text given can pass for a line of its own.
/// A path as messages show it: its [`path_text`](kifudex::ingest::path_text) with control
/// characters written as `\xNN`, so that a file name holding a line break cannot start a line
/// of its own.
pub fn shown_path(path: &std::path::Path) -> String {
    table::visible(kifudex::ingest::path_text(path))
}

pub fn note(message: std::fmt::Arguments<'_>) {
    say!("kifudex: {}", table::visible(message.to_string()));
}

/// Why the command line `args` was refused as not UTF-8, naming the argument at fault: the
/// first that clap still refuses with every other one made UTF-8 (paths may hold any bytes;
/// names, events and moves are text), and the option it is the value of.
fn not_utf8(args: &[OsString]) -> String {
    use std::os::unix::ffi::OsStrExt;
    let lossy = |a: &OsString| OsString::from(a.to_string_lossy().into_owned());
    // The program's own name (0) is no argument.
    let culprit = (1..args.len()).filter(|&i| args[i].to_str().is_none()).find(|&i| {
        let tried: Vec<OsString> =
            args.iter().enumerate().map(|(j, a)| if j == i { a.clone() } else { lossy(a) }).collect();
        Cli::try_parse_from(tried).is_err_and(|e| e.kind() == clap::error::ErrorKind::InvalidUtf8)
    });
    let shown =
        |bytes: &[u8]| kifudex::ingest::path_text(std::path::Path::new(std::ffi::OsStr::from_bytes(bytes)));
    let what = match culprit {
        None => "an argument".to_string(),
        Some(i) => {
            let arg = args[i].as_bytes();
            let option = arg.iter().position(|&b| b == b'=').filter(|_| arg.starts_with(b"--"));
            let before = args[i - 1].to_str().filter(|b| i > 1 && b.starts_with('-') && !b.contains('='));
            match (option, before) {
                (Some(eq), _) => {
                    format!(
                        "the value of {} '{}'",
                        String::from_utf8_lossy(&arg[..eq]),
                        shown(&arg[eq + 1..])
                    )
                }
                (None, Some(flag)) => format!("the value of {flag} '{}'", shown(arg)),
                (None, None) => format!("the argument '{}'", shown(arg)),
            }
        }
    };
    format!(
        "{what} is not UTF-8 text: names, events, dates and moves are read as UTF-8 (text in Shift_JIS can \
         be converted with iconv -f SHIFT_JIS -t UTF-8); only paths may hold other bytes"
    )
}

/// The command line, with each move text (of `kifudex moves`, or the value of `query --moves`;
/// before a `--`) that starts with a CSA move of White's (`-3334FU`, `"-3334FU +2726FU"`,
/// `-3334FU!`) given a space before it: the parser would take it for a flag, and the move
/// reader skips the space.
fn csa_moves_as_text(mut args: Vec<OsString>) -> Vec<OsString> {
    let command = args.get(1).cloned().unwrap_or_default();
    if command != "moves" && command != "query" {
        return args;
    }
    let starts_with_csa_move = |arg: &OsString| {
        let b = arg.as_encoded_bytes();
        b.len() >= 7
            && b[0] == b'-'
            && b[1..5].iter().all(u8::is_ascii_digit)
            && b[5..7].iter().all(u8::is_ascii_uppercase)
            && b.get(7).is_none_or(|c| !c.is_ascii_alphanumeric())
    };
    let mut after_flag = false;
    for arg in args.iter_mut().skip(2).take_while(|a| *a != "--") {
        let text = command == "moves" || after_flag;
        after_flag = arg == "--moves";
        if text && starts_with_csa_move(arg) {
            let mut spaced = OsString::from(" ");
            spaced.push(&*arg);
            *arg = spaced;
        }
    }
    args
}

/// The bytes of a record or diagram named on the command line (`path`), or of stdin (`None`),
/// at most [`MAX_FILE_BYTES`](kifudex::ingest::MAX_FILE_BYTES) of them, as `index` reads at
/// most: a larger regular file is refused unread, and a pipe or device that gives more (a link
/// to `/dev/zero`) is refused once it has.
pub fn read_input(path: Option<&Path>) -> anyhow::Result<Vec<u8>> {
    const LIMIT: u64 = kifudex::ingest::MAX_FILE_BYTES;
    let name = path.map_or_else(|| "standard input".to_string(), kifudex::ingest::path_text);
    let too_large =
        || anyhow::anyhow!("cannot read {name}: it holds over {} MiB, more than any record", LIMIT >> 20);
    let failed = || format!("cannot read {name}");
    let mut bytes = Vec::new();
    let mut source: Box<dyn Read> = match path {
        Some(path) => {
            let file = fs::File::open(path).with_context(failed)?;
            let meta = file.metadata().with_context(failed)?;
            if meta.is_file() {
                if meta.len() > LIMIT {
                    return Err(too_large());
                }
                bytes.reserve_exact(meta.len() as usize);
            }
            Box::new(file)
        }
        None => Box::new(io::stdin().lock()),
    };
    // Read a piece at a time, so that the buffer never grows past the limit.
    let limit = LIMIT as usize;
    let mut piece = vec![0; 1 << 16];
    loop {
        let n = match source.read(&mut piece) {
            Ok(0) => return Ok(bytes),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e).with_context(failed),
        };
        if bytes.len() + n > limit {
            return Err(too_large());
        }
        if bytes.capacity() - bytes.len() < n {
            let want = (bytes.capacity() * 2).clamp(bytes.len() + n, limit);
            bytes.reserve_exact(want - bytes.len());
        }
        bytes.extend_from_slice(&piece[..n]);
    }
}

/// Whether the error is a write to a closed pipe (the reader of our output went away).
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>().is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
            || c.downcast_ref::<kifudex::export::Error>().is_some_and(kifudex::export::Error::is_broken_pipe)
    })
}

/// A library refusal of query options in the command's words: each option it names is a
/// flag (`--since`).
fn in_flags(e: impl NamesOptions) -> anyhow::Error {
    anyhow::Error::msg(e.message(&|option: QueryOption| format!("--{option}")))
}

/// Says on stderr that `--offset` left out every game of a list of `total`, when it did: a
/// list that is empty for that reason says nothing by itself.
fn note_offset_past_end(offset: usize, total: u64) {
    if let Some(past) = kifudex::query::offset_past_end(offset, total) {
        note(format_args!("{past}"));
    }
}

/// Whether a progress line is on the terminal (stderr), for a signal that ends the process to
/// clear it: the prompt would otherwise come after it, on the same line.
static PROGRESS_SHOWN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes the first SIGINT or SIGTERM run `first`, then end the process with status 128 + the
/// signal's number, as the signal does by default, also where the process started with it
/// ignored; a progress line shown ([`PROGRESS_SHOWN`]) is cleared first. Where the handlers
/// cannot be set up, the signals keep their disposition.
fn exit_on_signals(first: impl FnOnce() + Send + 'static) {
    use signal_hook::{
        consts::{SIGINT, SIGTERM},
        iterator::Signals,
    };
    let Ok(mut signals) = Signals::new([SIGINT, SIGTERM]) else {
        return;
    };
    let _ = std::thread::Builder::new().name("kifudex-signals".into()).spawn(move || {
        if let Some(signal) = signals.forever().next() {
            if PROGRESS_SHOWN.load(std::sync::atomic::Ordering::Relaxed) {
                use std::io::Write as _;
                let _ = write!(std::io::stderr(), "\r\x1b[2K");
            }
            first();
            std::process::exit(128 + signal);
        }
    });
}

/// Catches SIGXFSZ, which a write past the file-size limit (`ulimit -f`) raises: its default
/// ends the process with no word, leaving a run's side files and an export's partial file.
/// Caught, the write fails (EFBIG) and is said and cleaned up as any failed write is.
fn catch_file_size_signal() {
    #[cfg(unix)]
    {
        let caught = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let _ = signal_hook::flag::register(signal_hook::consts::SIGXFSZ, caught);
    }
}

/// Says on stderr why no game came out, when the filters keep none
/// ([`kifudex::query::no_game_kept`]).
fn note_no_game_kept(
    snapshot: &kifudex::db::Snapshot<'_>,
    filter: &kifudex::db::GameFilter,
) -> anyhow::Result<NoGame> {
    let (kept, why) = kifudex::query::no_game_kept(snapshot, filter)?;
    if let Some(why) = why {
        note(format_args!("{why}"));
    }
    Ok(kept)
}

/// Says on stderr which stored aliases the command's own (`--aliases FILE`) make name
/// another player, for the command's answers: the file's rows win, and this says where.
fn note_overridden_aliases(
    snapshot: &kifudex::db::Snapshot<'_>,
    filter: &kifudex::db::GameFilter,
) -> anyhow::Result<()> {
    for (alias, was, now) in snapshot.aliases_overridden(&filter.aliases)? {
        note(format_args!(
            "note: '{}' is stored as an alias of '{was}'; with --aliases it names '{now}' in this command's \
             answers",
            alias.alias
        ));
    }
    Ok(())
}

/// Says on stderr when `moves`, played from `start`, go on past a fourth occurrence of a
/// position, where by the rules the game ends; for a query (`of_stored`), that indexed games
/// end there too.
fn note_moves_past_repetition(
    start: &kifudex::shogi::Setup,
    moves: &[kifudex::shogi::Move],
    of_stored: bool,
) {
    if let Some(at) = kifudex::replay::ends_by_repetition_before(start, moves) {
        let after = moves.len() - at;
        let s = if after == 1 { "" } else { "s" };
        let then = match of_stored {
            true => format!("and no stored game plays the {after} move{s} after it"),
            false => format!("before the {after} move{s} after it"),
        };
        say!(
            "kifudex: note: after move {at} a position occurs for the fourth time (千日手): by the rules the \
             game ends there, {then}"
        );
    }
}

/// Says on stderr which moves of `text`, read from `start`, could promote and write no
/// promotion mark where their notation must, which are read as not promoting (a record's
/// such moves are `promotion_unmarked` warnings).
fn note_unmarked_promotions(start: &kifudex::shogi::Setup, text: &str) {
    let Ok(start) = kifudex::shogi::Position::from_setup(start.clone()) else { return };
    for found in kifudex::notation::unmarked_promotions(&start, text) {
        say!("kifudex: note: {found}");
    }
}

/// Writes `text` to stdout, and flushes it.
fn print(text: &str) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).context("cannot write to stdout")
}

/// Prints a record's text (`show`, `convert`): into a pipe or a file as it is; on a terminal,
/// its control characters, which would act on the terminal, and its bidirectional controls,
/// which would reorder a line, shown as the tables show them (see [`table::visible_lines`]).
fn print_record(text: &str) -> anyhow::Result<()> {
    if io::stdout().is_terminal() { print(&table::visible_lines(text)) } else { print(text) }
}
