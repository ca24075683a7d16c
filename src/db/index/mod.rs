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
//! (`keypos`); an occurrence that differs is listed in `collisions`. The position stored is
//! that of the key's first occurrence, and its row names that occurrence (its game and ply:
//! about 20 bytes a row instead of 64), whose game is played back when the position is
//! needed; before the game is deleted, the rows that name it get the position itself, packed,
//! and so do the row of a key made hot and the row of a key the writer met again after its
//! cache dropped it (a key met again is often met more: its game is then played back once).
//! A reader trusts the
//! early occurrences of a key whose stored position is the one asked for, and replays the
//! others, so a collision never puts a game in an answer.
//!
//! The depth a database was checked to is the `meta` row `keypos_max_ply`, and a reader
//! trusts early occurrences up to that depth and no further (`check_depth`). The writer checks
//! new games to [`KEYPOS_MAX_PLY`]; a database checked to less (kifudex checked to
//! [`OLDEST_DEPTH`] before) is checked deeper when a writer opens it, its stored games played
//! back, and only then does its row say the new depth. A row that is missing, or outside
//! [`OLDEST_DEPTH`] to [`KEYPOS_MAX_PLY`], is [`Corrupt`]: the database is refused, never
//! answered from.
//!
//! Twenty-four plies cover the openings an explorer is asked about: past the depth, each
//! occurrence of a position is checked by reading its game and playing it back, which made
//! the answers about positions 17 to 20 plies deep the slowest of all (a position 18 plies
//! deep, reached by 1,309 of 100,000 games, read 1,309 games for one answer). Checking eight
//! more plies stores about 200 more bytes a game on the bench corpus.

mod bits;
pub mod blocks;
mod buffer;
mod cache;
mod hot;
mod listed;
mod lookup;
pub mod packed;
mod readers;
mod runs;
mod writer;

use std::cmp::Ordering;

use rusqlite::{Connection, OptionalExtension, params, types::ValueRef};

use self::packed::pack_position;
pub use self::{
    hot::HOT_GAMES,
    listed::LISTED,
    lookup::{MoveStats, Occurrence, PositionStats, first_plies},
    writer::{GamePositions, RUN_POSTINGS},
};
pub(super) use self::{
    runs::{Run, live as live_runs},
    writer::{IndexWriter, ReaderThreads, RemovedGame, merge_runs},
};
use super::{
    Corrupt, GameId, GameResult, Result,
    codec::decode_moves,
    play::{Unplayable, play_stored, reached},
    read::start_setup,
};
use crate::shogi::{Move, PositionKey, Setup};

/// Occurrences up to this ply are compared, when indexed, with the position stored for their
/// key (see the module documentation); a writer checks a database checked to less this deep
/// before it writes.
pub const KEYPOS_MAX_PLY: u32 = 24;

/// The last ply whose position a game's postings hold (a posting's ply is 16 bits): a game
/// longer than that, which no game played is, has its later positions in `export positions`
/// but not in the index, and a warning says so.
pub const MAX_INDEXED_PLY: u32 = u16::MAX as u32;

/// The depth the first migration records, which kifudex checked to before
/// [`KEYPOS_MAX_PLY`]: the least depth a database may record.
pub const OLDEST_DEPTH: u32 = 16;

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
    /// The move played from the position; `None` when the game ends there, and in a posting
    /// read from a block past [`blocks::MOVES_THROUGH`], where blocks do not store it.
    pub next: Option<Move>,
    pub result: GameResult,
}

// A lookup trusts occurrences up to the depth checked without playing their games back, and
// takes the move played from their postings.
const _: () = assert!(KEYPOS_MAX_PLY <= blocks::MOVES_THROUGH);

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

/// The occurrence whose position `keypos` names for a key: the first one stored for it (see
/// the [module documentation](self)). A row names it as the integer `game * 32 + ply`; a row
/// of a database written before holds the packed position instead, as do the row of a key
/// whose occurrence's game was deleted and the row of a hot key (which every answer about
/// its position reads).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FirstSeen {
    game: GameId,
    ply: u32,
}

// The ply of a `FirstSeen` takes the low five bits of its code.
const _: () = assert!(KEYPOS_MAX_PLY < 32);

impl FirstSeen {
    fn code(self) -> i64 {
        self.game.0 << 5 | i64::from(self.ply)
    }

    fn of_code(code: i64) -> Result<FirstSeen, Corrupt> {
        let (game, ply) = (code >> 5, (code & 31) as u32);
        if game <= 0 || ply > KEYPOS_MAX_PLY {
            return Err(Corrupt("a row of keypos names no occurrence"));
        }
        Ok(FirstSeen { game: GameId(game), ply })
    }

    /// The packed position of the occurrence, from its game played back, which must have
    /// `key` there.
    fn position(self, conn: &Connection, key: i64) -> Result<Vec<u8>> {
        let setup = position_in(conn, self.game, self.ply)?
            .filter(|s| PositionKey::of(s).to_i64() == key)
            .ok_or(Corrupt("a row of keypos names no stored occurrence of its key"))?;
        let mut packed = Vec::with_capacity(64);
        pack_position(&setup, &mut packed);
        Ok(packed)
    }
}

/// The position of stored game `game` after `ply` moves; `None` when no such game is stored
/// or it has fewer moves.
///
/// # Errors
///
/// [`Corrupt`] when the game does not play back that far; any database failure.
fn position_in(conn: &Connection, game: GameId, ply: u32) -> Result<Option<Setup>> {
    let row: Option<(Option<String>, Vec<u8>)> = conn
        .prepare_cached("SELECT start, moves FROM games WHERE id = ?1")?
        .query_row([game], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    let Some((start, moves)) = row else {
        return Ok(None);
    };
    // Two bytes a move: only those played before the position are decoded.
    let before = &moves[..moves.len().min(2 * ply as usize)];
    let mut found = None;
    reached(play_stored(&start_setup(start.as_deref())?, &decode_moves(before)?, |at, pos, _| {
        if at == ply as usize {
            found = Some(pos.setup().clone());
        }
        Ok::<_, Unplayable>(at < ply as usize)
    }))?;
    Ok(found)
}

/// The position `keypos` stores for `key` (packed, see [`packed::pack_position`]), if any.
///
/// # Errors
///
/// [`Corrupt`] when the row names an occurrence that is not stored, or holds neither a
/// position nor an occurrence; any database failure.
fn stored_position(conn: &Connection, key: i64) -> Result<Option<Vec<u8>>> {
    Ok(stored_row(conn, key)?.map(|(position, _)| position))
}

/// [`stored_position`], for the writer: a row that names an occurrence gets the position
/// instead, so that the next time the key is met its game need not be played back.
///
/// # Errors
///
/// As for [`stored_position`].
fn stored_position_packing(conn: &Connection, key: i64) -> Result<Option<Vec<u8>>> {
    let Some((position, named)) = stored_row(conn, key)? else {
        return Ok(None);
    };
    if named {
        conn.prepare_cached("UPDATE keypos SET position = ?2 WHERE key = ?1")?
            .execute(params![key, position])?;
    }
    Ok(Some(position))
}

/// The position `keypos` stores for `key`, and whether its row names an occurrence (rather
/// than holding the position).
fn stored_row(conn: &Connection, key: i64) -> Result<Option<(Vec<u8>, bool)>> {
    enum Row {
        Packed(Vec<u8>),
        At(i64),
        Other,
    }
    let row = conn
        .prepare_cached("SELECT position FROM keypos WHERE key = ?1")?
        .query_row([key], |r| {
            Ok(match r.get_ref(0)? {
                ValueRef::Blob(b) => Row::Packed(b.to_vec()),
                ValueRef::Integer(code) => Row::At(code),
                _ => Row::Other,
            })
        })
        .optional()?;
    match row {
        None => Ok(None),
        Some(Row::Packed(position)) => Ok(Some((position, false))),
        Some(Row::At(code)) => Ok(Some((FirstSeen::of_code(code)?.position(conn, key)?, true))),
        Some(Row::Other) => Err(Corrupt("a row of keypos holds neither a position nor an occurrence").into()),
    }
}

/// The depth the database records its early occurrences were checked to (see the module
/// documentation).
///
/// # Errors
///
/// [`Corrupt`] when the `meta` row is missing or outside [`OLDEST_DEPTH`] to
/// [`KEYPOS_MAX_PLY`]; any database failure.
pub(super) fn check_depth(conn: &Connection) -> Result<u32> {
    let row: Option<String> = conn
        .prepare_cached("SELECT value FROM meta WHERE key = 'keypos_max_ply'")?
        .query_row([], |r| r.get(0))
        .optional()?;
    match row.map(|v| v.parse::<u32>()) {
        Some(Ok(depth)) if (OLDEST_DEPTH..=KEYPOS_MAX_PLY).contains(&depth) => Ok(depth),
        None => Err(Corrupt("meta.keypos_max_ply is missing").into()),
        Some(_) => Err(Corrupt("meta.keypos_max_ply is not a depth kifudex checks positions to").into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_that_names_an_occurrence_gives_its_position_or_an_error() {
        let mut conn = Connection::open_in_memory().unwrap();
        super::super::migrate::migrate(&mut conn).unwrap();
        let moves: Vec<u8> =
            ["7g7f", "3c3d"].iter().flat_map(|m| m.parse::<Move>().unwrap().code().to_le_bytes()).collect();
        conn.execute(
            "INSERT INTO games(id, movehash, plies, moves, end_sfen, result) VALUES (5, 0, 2, ?1, '', 0)",
            [moves],
        )
        .unwrap();
        // The position after 7g7f, by hand.
        let after: Setup =
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2".parse().unwrap();
        let key = PositionKey::of(&after).to_i64();
        let mut packed = Vec::new();
        pack_position(&after, &mut packed);
        let set = |value: rusqlite::types::Value| {
            conn.execute(
                "INSERT OR REPLACE INTO keypos(key, position) VALUES (?1, ?2)",
                rusqlite::params![key, value],
            )
            .unwrap();
        };
        set((5 * 32 + 1).into());
        assert_eq!(stored_position(&conn, key).unwrap(), Some(packed.clone()), "game 5, ply 1");
        set(packed.clone().into());
        assert_eq!(stored_position(&conn, key).unwrap(), Some(packed), "the packed position itself");
        assert_eq!(stored_position(&conn, key ^ 1).unwrap(), None, "a key with no row");
        // Codes of no occurrence, of a game not stored, of a ply past the game's end, and of a
        // ply whose position has another key; and a value of neither kind.
        let damaged: [rusqlite::types::Value; 7] = [
            0.into(),
            (-5 * 32 - 1).into(),
            (5 * 32 + 25).into(),
            (6 * 32 + 1).into(),
            (5 * 32 + 3).into(),
            (5 * 32 + 2).into(),
            "5:1".to_string().into(),
        ];
        for value in damaged {
            set(value.clone());
            assert!(matches!(stored_position(&conn, key), Err(crate::db::Error::Corrupt(_))), "{value:?}");
        }
    }

    #[test]
    fn a_database_records_a_depth_between_the_oldest_and_the_writer_s() {
        let mut conn = Connection::open_in_memory().unwrap();
        super::super::migrate::migrate(&mut conn).unwrap();
        // The first migration records the depth kifudex first checked to; the writer checks
        // deeper when it opens the database.
        let row: String =
            conn.query_row("SELECT value FROM meta WHERE key = 'keypos_max_ply'", [], |r| r.get(0)).unwrap();
        assert_eq!(row, OLDEST_DEPTH.to_string());
        assert_eq!(check_depth(&conn).unwrap(), 16);
        for (value, depth) in [("17", 17), ("24", 24)] {
            conn.execute("UPDATE meta SET value = ?1 WHERE key = 'keypos_max_ply'", [value]).unwrap();
            assert_eq!(check_depth(&conn).unwrap(), depth);
        }
        for value in ["8", "15", "25", "sixteen"] {
            conn.execute("UPDATE meta SET value = ?1 WHERE key = 'keypos_max_ply'", [value]).unwrap();
            assert!(
                matches!(check_depth(&conn), Err(crate::db::Error::Corrupt(Corrupt(w)))
                    if w == "meta.keypos_max_ply is not a depth kifudex checks positions to"),
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
