//! Command-line parsing, output and exit codes.
//!
//! Exit codes: 0 success; 1 finished, but some input was rejected or nothing matched; 2 usage
//! or fatal error. A closed pipe on stdout exits 0. Data goes to stdout; messages to stderr.

mod alias;
mod convert;
mod db;
mod diagram;
mod export;
mod filter;
mod games;
mod index;
mod moves;
mod players;
mod query;
mod serve;
mod show;
mod table;
mod years;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
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
            eprintln!("kifudex: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Whether the error is a write to a closed pipe (the reader of our output went away).
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
