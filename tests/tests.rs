//! The integration tests: one binary, one module per area.

mod util;

mod corpus;
mod keys;
mod kifu_kakinoki;
mod kifu_others;
mod notation;
mod rules;
