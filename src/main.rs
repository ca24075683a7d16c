//! The `kifudex` command. Everything it does lives in [`cli`].

use std::process::ExitCode;

mod cli;

fn main() -> ExitCode {
    cli::main()
}
