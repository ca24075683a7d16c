//! The integration tests: one binary, one module per area.

mod util;

mod archive;
mod cli;
mod convert;
mod corpus;
mod duplicates;
mod exports;
mod hardening;
mod hot;
mod index;
mod keys;
mod kifu_kakinoki;
mod kifu_others;
mod large_files;
mod messages;
mod notation;
mod query;
mod query_input;
mod records;
mod research;
mod results;
mod rules;
mod serve;
mod shards;
mod start_numbers;
mod yari;
