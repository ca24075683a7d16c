//! The `kifudex` command. Everything it does lives in [`cli`].

#![forbid(unsafe_code)]

use std::process::ExitCode;

mod cli;

fn main() -> ExitCode {
    cli::main()
}
