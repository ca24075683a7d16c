//! The integration tests: one binary, one module per area.

mod usi_lines;
mod util;

mod index;
mod keys;
mod rules;
