//! The `kifudex` command. Everything it does lives in [`cli`].

#![forbid(unsafe_code)]

use std::process::ExitCode;

mod cli;

/// mimalloc, not the system allocator: on a long index run, the C library's per-thread
/// arenas hold on to more and more freed memory (the peak resident size crept up by 6 MB
/// from 100,000 to 400,000 games while the live heap stayed flat), where mimalloc stays
/// within a few MB. Built without transparent huge pages, which would count whole 2 MB
/// pages as resident.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    cli::main()
}
