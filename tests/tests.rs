//! The integration tests: one binary, one module per area.

mod util;

mod keys;
mod notation;
mod rules;
