//! Command-line parsing, output and exit codes.
//!
//! Exit codes: 0 success; 1 finished, but some input was rejected or nothing matched; 2 usage
//! or fatal error. A closed pipe on stdout exits 0. Data goes to stdout; messages to stderr.

use std::process::ExitCode;

use clap::Parser;

mod moves;

/// Index directories of shogi game records (kifu) into one SQLite database, then query them by
/// opening or position.
#[derive(Debug, Parser)]
#[command(name = "kifudex", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    Moves(moves::MovesArgs),
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match &cli.command {
        Command::Moves(args) => moves::run(args),
    };
    result.unwrap_or_else(|e| {
        eprintln!("kifudex: {e:#}");
        ExitCode::from(2)
    })
}
