//! Hardening: the fuzzers' seeds and findings, fault injection (a full disk, a read-only
//! database, files that change under the walk, killed runs), and inputs built to break
//! things (binary files, huge lines and games, deep trees, odd file names, SQL in text).

#[path = "../../fuzz/src/checks.rs"]
mod checks;

mod bad_input;
mod db_files;
mod db_runs;
mod faults;
mod fuzz_inputs;
mod harness;
mod sql_text;
