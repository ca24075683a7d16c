//! kifudex: a shogi game database.
//!
//! It walks directories of game records (kifu), reads them in every common format and
//! encoding, replays every move through a rules engine, and stores games, moves and every
//! position in one SQLite file that answers opening and position queries.
//!
//! The layers, each using only those before it (and the crate-private `text` module of
//! character classes that the readers share):
//! - [`shogi`]: squares, pieces, moves, positions, handicaps, the frozen position key.
//! - [`shard`]: one of N disjoint shares of a tree of files, picked by a hash of each path
//!   (the walk takes a shard's files; the database records the shard it holds).
//! - [`name_key`]: players' names split from their titles, and the keys names are compared by
//!   (the readers split names with it; the database keys and matches them with it).
//! - [`notation`]: one move in text, to and from a move: Japanese, Western, USI, CSA.
//! - [`kifu`]: whole records: detection, decoding, the readers, the game model.
//! - [`replay`]: a record's moves checked against the rules; keys, result and status.
//! - [`write`](mod@write): a replayed record as text again, in every format.
//! - [`walk`]: finding record files under the paths given.
//! - [`db`]: the SQLite database: schema, migrations, the typed writer and reader.
//! - [`store`]: records as the database stores them, and stored games as records again.
//! - [`ingest`]: indexing paths into the database, in parallel, incrementally.
//! - [`query`]: position queries: the games that reach a position and the moves played next.
//! - [`export`]: CSV, JSON Lines and Parquet exports of the database.
//! - [`serve`]: the database over HTTP: the browser page and its JSON API.
//!
//! # Example
//!
//! Read a record, replay it, index it, and look up the position after its second move:
//!
//! ```
//! use kifudex::{db::Reader, ingest, kifu, replay::replay, shogi::Setup};
//!
//! let text = "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n";
//! let file = kifu::read_file(None, text.as_bytes())?;
//! assert_eq!(file.format, kifu::Format::Kif);
//! let replayed = replay(&file.games[0]);
//! assert_eq!(replayed.moves.len(), 2);
//!
//! // The same record in a folder, indexed into a database.
//! let dir = tempfile::tempdir()?;
//! std::fs::create_dir(dir.path().join("games"))?;
//! std::fs::write(dir.path().join("games/game.kif"), text)?;
//! let db = dir.path().join("kifudex.sqlite");
//! let options = ingest::Options::new(vec![dir.path().join("games")], db.clone());
//! let summary = ingest::run(&options, &ingest::Quiet)?;
//! assert_eq!(summary.games_added, 1);
//!
//! // The position after ▲７六歩 △３四歩, by any move order: the game reaches it, and the
//! // position's key is the one replay gave the game at ply 2.
//! let after_two: Setup = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3".parse()?;
//! let mut reader = Reader::open(&db)?;
//! let stats = reader.snapshot()?.position_stats(&after_two, None)?;
//! assert_eq!(stats.games.games, 1);
//! assert_eq!(replayed.keys[2], kifudex::shogi::Position::from_setup(after_two)?.key());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
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
pub mod name_key;
pub mod notation;
pub mod query;
pub mod replay;
pub mod serve;
pub mod shard;
pub mod shogi;
pub mod store;
mod text;
pub mod walk;
pub mod write;
