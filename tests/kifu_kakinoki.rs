//! The Kakinoki formats: decoding, KIF, KI2, board diagrams, header normalization, writers.

mod corpus;
mod fixtures;
mod resolve;
mod round_trip;
