//! Command-line parsing, output and exit codes.
//!
//! Exit codes: 0 success; 1 finished, but some input was rejected or nothing matched; 2 usage
//! or fatal error. A closed pipe on stdout exits 0. Data goes to stdout; messages to stderr.

use std::process::ExitCode;

use clap::Parser;

/// Index directories of shogi game records (kifu) into one SQLite database, then query them by
/// opening or position.
#[derive(Debug, Parser)]
#[command(name = "kifudex", version, about, long_about = None)]
struct Cli {}

pub fn main() -> ExitCode {
    let _cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    ExitCode::SUCCESS
}
