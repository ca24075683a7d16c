//! The position index: a *posting* (key, game, ply, move played, result) for every position
//! of every main line, in immutable sorted runs of compressed blocks, made exact by the
//! stored positions of early keys. The [module documentation](super) says why it is not a
//! plain table.
//!
//! - [`blocks`]: the block format of a run's postings.
//! - [`packed`]: the exact positions of `keypos`.
//! - `buffer`: the postings of new games, held in the writer's memory until a commit writes
//!   them as a run.
//! - `runs`: writing a run, looking a key up in every run, and merging runs.
//! - `cache`: the writer's bounded memory of `keypos`.
//! - `writer`: what the writer does to the index: postings, the exactness check, runs and
//!   merges, tombstones.
//! - `hot`: the counts of hot positions (those many games reach), kept per position and
//!   move so that their answers cost the same whatever the size of the archive.
//! - `lookup`: the readers' side: the occurrences of a position, made exact, and the counts
//!   of the moves played from it.
//!
//! # Exactness
//!
//! Keys are 64-bit hashes, so two positions can share one. Every occurrence at a ply up to
//! [`KEYPOS_MAX_PLY`] is compared, when indexed, with the exact position stored for its key
//! (`keypos`); an occurrence that differs is listed in `collisions`. A reader trusts the
//! early occurrences of a key whose stored position is the one asked for, and replays the
//! others, so a collision never puts a game in an answer.
//!
//! The depth is [`KEYPOS_MAX_PLY`], and nothing else: the database records it (the `meta` row
//! `keypos_max_ply`, written by the first migration) only so that a database checked to
//! another depth is never read as if it were checked to this one. The writer and every
//! snapshot compare the row with the constant (`check_depth`), and a database whose row
//! differs is [`Corrupt`]: it is refused, never answered from.

pub mod blocks;
mod buffer;
mod cache;
mod hot;
mod lookup;
pub mod packed;
mod runs;
mod writer;

use std::cmp::Ordering;

use rusqlite::{Connection, OptionalExtension};

pub use self::{
    hot::HOT_GAMES,
    lookup::{MoveStats, Occurrence, PositionStats},
    writer::{GamePositions, RUN_POSTINGS},
};
pub(super) use self::{
    runs::{Run, live as live_runs},
    writer::{IndexWriter, RemovedGame, merge_runs},
};
use super::{Corrupt, GameId, GameResult, Result};
use crate::shogi::{Move, PositionKey};

/// Occurrences up to this ply are compared, when indexed, with the position stored for their
/// key (see the module documentation). Changing it needs a migration that checks the stored
/// games to the new depth and records it in `meta`.
pub const KEYPOS_MAX_PLY: u32 = 16;

/// One occurrence of a position in the index.
///
/// Postings store game ids in 32 bits: a game whose id does not fit is refused when it is
/// indexed, so every posting's game fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Posting {
    /// The key of the position.
    pub key: PositionKey,
    pub game: GameId,
    /// The ply at which the game reaches the position (0 is the start).
    pub ply: u32,
    /// The move played from the position; `None` when the game ends there.
    pub next: Option<Move>,
    pub result: GameResult,
}

impl Posting {
    /// The order of a run: key as a signed integer (as SQLite stores it), game, ply; the rest
    /// only so that the order agrees with equality.
    fn order(&self) -> (i64, GameId, u32, Option<Move>, GameResult) {
        (self.key.to_i64(), self.game, self.ply, self.next, self.result)
    }
}

impl Ord for Posting {
    fn cmp(&self, other: &Posting) -> Ordering {
        self.order().cmp(&other.order())
    }
}

impl PartialOrd for Posting {
    fn partial_cmp(&self, other: &Posting) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The game id as postings store it: 32 bits.
///
/// # Errors
///
/// [`Corrupt`] for an id past 32 bits.
pub(super) fn posting_game(id: GameId) -> Result<u32, Corrupt> {
    u32::try_from(id.0).map_err(|_| Corrupt("game id past 32 bits"))
}

/// The position `keypos` stores for `key` (packed, see [`packed::pack_position`]), if any.
///
/// # Errors
///
/// Any database failure.
fn stored_position(conn: &Connection, key: i64) -> Result<Option<Vec<u8>>> {
    Ok(conn
        .prepare_cached("SELECT position FROM keypos WHERE key = ?1")?
        .query_row([key], |r| r.get(0))
        .optional()?)
}

/// Checks that the database records [`KEYPOS_MAX_PLY`] as the depth its early occurrences
/// were checked to (see the module documentation).
///
/// # Errors
///
/// [`Corrupt`] when the `meta` row is missing or says another depth; any database failure.
pub(super) fn check_depth(conn: &Connection) -> Result<()> {
    let row: Option<String> = conn
        .prepare_cached("SELECT value FROM meta WHERE key = 'keypos_max_ply'")?
        .query_row([], |r| r.get(0))
        .optional()?;
    match row.map(|v| v.parse::<u32>()) {
        Some(Ok(KEYPOS_MAX_PLY)) => Ok(()),
        None => Err(Corrupt("meta.keypos_max_ply is missing").into()),
        Some(_) => Err(Corrupt("meta.keypos_max_ply is not the depth kifudex checks positions to").into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_migration_records_the_depth_the_writer_checks() {
        let mut conn = Connection::open_in_memory().unwrap();
        super::super::migrate::migrate(&mut conn).unwrap();
        let row: String =
            conn.query_row("SELECT value FROM meta WHERE key = 'keypos_max_ply'", [], |r| r.get(0)).unwrap();
        assert_eq!(row, KEYPOS_MAX_PLY.to_string(), "a new database and this build disagree");
        check_depth(&conn).unwrap();
        for (value, why) in [
            ("8", "meta.keypos_max_ply is not the depth kifudex checks positions to"),
            ("17", "meta.keypos_max_ply is not the depth kifudex checks positions to"),
            ("sixteen", "meta.keypos_max_ply is not the depth kifudex checks positions to"),
        ] {
            conn.execute("UPDATE meta SET value = ?1 WHERE key = 'keypos_max_ply'", [value]).unwrap();
            assert!(
                matches!(check_depth(&conn), Err(crate::db::Error::Corrupt(Corrupt(w))) if w == why),
                "{value}"
            );
        }
        conn.execute("DELETE FROM meta WHERE key = 'keypos_max_ply'", []).unwrap();
        assert!(matches!(
            check_depth(&conn),
            Err(crate::db::Error::Corrupt(Corrupt("meta.keypos_max_ply is missing")))
        ));
    }

    #[test]
    fn postings_sort_by_key_as_a_signed_integer_then_game_then_ply() {
        let p = |key: u64, game: i64, ply: u32| Posting {
            key: PositionKey(key),
            game: GameId(game),
            ply,
            next: None,
            result: GameResult::Unknown,
        };
        let mut all =
            vec![p(1, 2, 0), p(u64::MAX, 9, 9), p(1, 1, 5), p(1 << 63, 3, 1), p(1, 1, 2), p(0, 7, 0)];
        all.sort();
        assert_eq!(
            all,
            [p(1 << 63, 3, 1), p(u64::MAX, 9, 9), p(0, 7, 0), p(1, 1, 2), p(1, 1, 5), p(1, 2, 0)]
        );
    }
}
