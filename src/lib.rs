//! kifudex: a shogi game database.
//!
//! It walks directories of game records (kifu), reads them in every common format and
//! encoding, replays every move through a rules engine, and stores games, moves and every
//! position in one SQLite file that answers opening and position queries.
//!
//! The layers, each using only those before it (and the crate-private `text` module of
//! character classes that the readers share):
//! - [`shogi`]: squares, pieces, moves, positions, handicaps, the frozen position key.
//! - [`notation`]: one move in text, to and from a move: Japanese, Western, USI, CSA.
//! - [`kifu`]: whole records: detection, decoding, the readers, the game model.
//! - [`replay`]: a record's moves checked against the rules; keys, result and status.
//! - [`write`]: a replayed record as text again, in every format.
//! - [`walk`]: finding record files under the paths given.
//! - [`db`]: the SQLite database: schema, migrations, the typed writer and reader.
//! - [`ingest`]: indexing paths into the database, in parallel, incrementally.
//! - [`query`]: position queries: the games that reach a position and the moves played next.
//! - [`export`]: CSV exports of the database, and stored games as records again.
//! - [`serve`]: the database over HTTP: the browser page and its JSON API.
//!
//! # Errors
//!
//! Every error says each thing once. An error that wraps another either shows the inner
//! error's message in its own (and then does not return it as its
//! [`source`](std::error::Error::source)) or is transparent; none does both, so the command,
//! which prints an error followed by its causes, never prints a message twice. The errors of
//! this crate show their inner message: they are also printed alone, as the messages kept
//! with rejects. (SQLite errors are shown and not returned as sources for the same reason:
//! their own causes repeat their message.)

#![forbid(unsafe_code)]

pub mod db;
pub mod export;
pub mod ingest;
pub mod kifu;
pub mod notation;
pub mod query;
pub mod replay;
pub mod serve;
pub mod shogi;
mod text;
pub mod walk;
pub mod write;
