//! The Kakinoki formats: decoding, KIF, KI2, board diagrams, header normalization, writers.

mod concatenated;
mod corpus;
mod decoding;
mod dialects;
mod endings;
mod fixtures;
mod robustness;
mod round_trip;
mod sources;
mod writers;
