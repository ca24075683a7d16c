//! The integration tests: one binary, one module per area.

mod usi_lines;
mod util;

mod cli;
mod convert;
mod corpus;
mod hardening;
mod index;
mod keys;
mod kifu_kakinoki;
mod kifu_others;
mod notation;
mod query;
mod records;
mod rules;
mod yari;
