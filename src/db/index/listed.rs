//! The newest games of hot positions: for each hot key, the games a query lists first, so
//! that the list of a position thousands of games reach costs the same as its counts.
//!
//! A list (a row of `hot_lists`: its games in one blob, and its cut) holds exactly the live
//! games that reach the position `keypos` stores for the key and sort at or before the cut,
//! in the order of a query's list (see [`crate::db::newest`]): by the date of the record shown
//! for each game, newest first, then by id. It keeps, for each game, the date the game sorts
//! by and the first ply at which it is there. The writer keeps that true in the transaction
//! that changes the games:
//! - a new game that sorts at or before the cut goes on;
//! - a deleted game comes off;
//! - a game that gains or loses a record, and with it maybe its shown record and date, comes
//!   off and goes on again by its new date;
//! - a list longer than [`LISTED`] is cut at its [`LISTED`]th game, and one that deletions made
//!   shorter than half that is made again from the postings.
//!
//! A key made hot gets its list at the end of the index run, with every other key the run
//! made hot (see [`Maker`]); a run killed or stopped before leaves it to the end of the next.
//!
//! A reader answers from the list alone when it holds every game of the key, or enough of
//! them for the page asked; otherwise from the postings, as for a key without a list.

use std::{cmp::Reverse, collections::HashMap, hash::BuildHasherDefault};

use rusqlite::{Connection, OptionalExtension, params};

use super::{
    cache::KeyHasher,
    lookup::{Occurrence, first_plies},
};
use crate::db::{
    Corrupt, GameFilter, GameId, IdMap, Result,
    codec::{get_varint, put_varint},
    filter::Conditions,
    newest::{Remembered, SortKey, Walked, look_up, newest_shown_remembered, walk_reads_less},
};

/// The games a list keeps at most: a few pages of a query's list.
pub const LISTED: usize = 50;

/// A listed game: where it sorts, and the first ply at which it reaches the position.
type Listed = (SortKey, u32);

/// The order of a list: newest first, then by id, highest first (see [`crate::db::newest`]);
/// a game's first ply decides between two entries of one game.
fn list_order(entry: &Listed) -> (Reverse<&SortKey>, u32) {
    (Reverse(&entry.0), entry.1)
}

/// A row of `hot_lists`.
#[derive(Debug, PartialEq, Eq)]
struct List {
    /// Where the list ends; `None` when it holds every game of the key.
    cut: Option<SortKey>,
    /// Its games, in list order.
    games: Vec<Listed>,
}

impl List {
    /// The list of `key`; `None` when the key has none.
    fn load(conn: &Connection, key: i64) -> Result<Option<List>> {
        let mut stmt =
            conn.prepare_cached("SELECT cut_date, cut_game, games FROM hot_lists WHERE key = ?1")?;
        stmt.query_row([key], |r| {
            let (date, game): (Option<String>, Option<GameId>) = (r.get(0)?, r.get(1)?);
            Ok((game.map(|game| (date, game)), r.get_ref(2)?.as_blob().ok().map(decode)))
        })
        .optional()?
        .map(|(cut, games)| Ok(List { cut, games: games.ok_or(Corrupt("a list's games are not a blob"))?? }))
        .transpose()
    }

    /// Writes it as the list of `key`.
    fn store(&self, conn: &Connection, key: i64) -> Result<()> {
        let (cut_date, cut_game) =
            self.cut.as_ref().map_or((None, None), |(date, game)| (date.as_deref(), Some(game)));
        conn.prepare_cached(
            "INSERT OR REPLACE INTO hot_lists(key, cut_date, cut_game, games) VALUES (?1, ?2, ?3, ?4)",
        )?
        .execute(params![key, cut_date, cut_game, encode(&self.games)])?;
        Ok(())
    }

    /// Cuts it at its [`LISTED`]th game when it is longer (its games in list order), or when
    /// `left_out` games that sort after its last one were not put on it.
    fn trim(&mut self, left_out: bool) {
        if self.games.len() > LISTED || left_out {
            self.games.truncate(LISTED);
            self.cut = self.games.last().map(|(sort, _)| sort.clone()).or(self.cut.take());
        }
    }
}

/// The blob of a list's games (the format is in the migration `0013_hot_lists`).
fn encode(games: &[Listed]) -> Vec<u8> {
    let mut out = Vec::with_capacity(games.len() * 32);
    for ((date, game), ply) in games {
        put_varint(&mut out, game.0 as u64);
        put_varint(&mut out, u64::from(*ply));
        match date {
            None => out.push(0),
            Some(date) => {
                put_varint(&mut out, date.len() as u64 + 1);
                out.extend_from_slice(date.as_bytes());
            }
        }
    }
    out
}

/// The games of a list's blob.
fn decode(blob: &[u8]) -> Result<Vec<Listed>, Corrupt> {
    let mut games = Vec::new();
    let mut at = 0;
    while at < blob.len() {
        let game = i64::try_from(get_varint(blob, &mut at)?)
            .map_err(|_| Corrupt("a listed game's id is too large"))?;
        let ply = u32::try_from(get_varint(blob, &mut at)?)
            .map_err(|_| Corrupt("a listed game's ply is too large"))?;
        let date = match get_varint(blob, &mut at)? {
            0 => None,
            len => {
                let end = usize::try_from(len - 1).ok().and_then(|len| at.checked_add(len));
                let bytes = end
                    .and_then(|end| blob.get(at..end))
                    .ok_or(Corrupt("a listed game's date runs past the end"))?;
                at += bytes.len();
                Some(
                    String::from_utf8(bytes.to_vec())
                        .map_err(|_| Corrupt("a listed game's date is not UTF-8"))?,
                )
            }
        };
        games.push(((date, GameId(game)), ply));
    }
    Ok(games)
}

/// The changes to the lists not yet written, by key.
#[derive(Debug, Default)]
pub(super) struct Lists {
    changes: HashMap<i64, Changes, BuildHasherDefault<KeyHasher>>,
    /// The dates of games stored with one record, theirs, since the last write: the date a
    /// game sorts by is its shown record's, which needs no lookup then. A game taken off a
    /// list (deleted, or its records changed) is forgotten, and its date looked up.
    dated: IdMap<Option<String>>,
}

#[derive(Debug, Default)]
struct Changes {
    /// Games to take off the list.
    off: Vec<GameId>,
    /// Games that go on it if they sort at or before its cut, each with its first ply there.
    on: Vec<(GameId, u32)>,
}

impl Lists {
    /// Takes `game` off the list of `key` (when it is there).
    pub fn take_off(&mut self, key: i64, game: GameId) {
        self.changes.entry(key).or_default().off.push(game);
        self.dated.remove(&game);
    }

    /// Notes that `game`, just stored, has one record, dated `date`.
    pub fn dated(&mut self, game: GameId, date: Option<&str>) {
        self.dated.insert(game, date.map(str::to_string));
    }

    /// Puts `game`, first at `key` at ply `ply`, on the list of `key` when it sorts at or
    /// before the cut. Its date is read when the changes are written, from its records then.
    pub fn put_on(&mut self, key: i64, game: GameId, ply: u32) {
        self.changes.entry(key).or_default().on.push((game, ply));
    }

    /// Writes the changes, inside the writer's transaction, once the records of the games
    /// they concern are written: games come off, then go on. Returns the keys whose lists
    /// deletions left too short, to be made again (see [`make`]) once every posting is in a
    /// run.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn write(&mut self, conn: &Connection) -> Result<Vec<i64>> {
        let mut dates = std::mem::take(&mut self.dated);
        if self.changes.is_empty() {
            return Ok(Vec::new());
        }
        let mut ids: Vec<GameId> = self
            .changes
            .values()
            .flat_map(|c| c.on.iter().map(|&(g, _)| g))
            .filter(|g| !dates.contains_key(g))
            .collect();
        ids.sort_unstable();
        ids.dedup();
        // A game without records (deleted since it went on) has no date and stays off.
        let c = Conditions::new(conn, &GameFilter::default(), "s", "g")?;
        dates.extend(look_up(conn, &ids, &c)?.into_iter().map(|((date, game), _)| (game, date)));
        let mut short = Vec::new();
        for (key, mut changes) in self.changes.drain() {
            let Some(mut list) = List::load(conn, key)? else {
                continue;
            };
            // Each game once, at its first ply; one already listed goes on again by its date now.
            changes.on.sort_unstable();
            changes.on.dedup_by_key(|&mut (game, _)| game);
            changes.off.sort_unstable();
            let listed = list.games.len();
            list.games.retain(|((_, game), _)| {
                changes.off.binary_search(game).is_err()
                    && changes.on.binary_search_by_key(game, |&(on, _)| on).is_err()
            });
            let mut changed = list.games.len() != listed;
            // Borrowed dates: a bulk run offers each hot key most of its games, of which only
            // the first LISTED can stay on a list cut at LISTED, and only those are copied.
            let mut candidates: Vec<(&Option<String>, GameId, u32)> = changes
                .on
                .iter()
                .filter_map(|&(game, ply)| Some((dates.get(&game)?, game, ply)))
                .filter(|&(date, game, _)| {
                    list.cut.as_ref().is_none_or(|cut| (date, game) >= (&cut.0, cut.1))
                })
                .collect();
            if !candidates.is_empty() {
                // Those left out here sort after every one kept: the list must be cut so.
                let left_out = candidates.len() > LISTED;
                if left_out {
                    // List order: newest first, then by id, highest first; then by ply.
                    candidates.select_nth_unstable_by(LISTED - 1, |a, b| {
                        (b.0, b.1).cmp(&(a.0, a.1)).then(a.2.cmp(&b.2))
                    });
                    candidates.truncate(LISTED);
                }
                list.games
                    .extend(candidates.into_iter().map(|(date, game, ply)| ((date.clone(), game), ply)));
                list.games.sort_unstable_by(|a, b| list_order(a).cmp(&list_order(b)));
                list.trim(left_out);
                changed = true;
            }
            if changed {
                list.store(conn, key)?;
            }
            if list.games.len() < LISTED / 2 && list.cut.is_some() {
                short.push(key);
            }
        }
        Ok(short)
    }
}

/// Where a [`Maker`] hands the lists it makes.
pub(super) type Out<'a> = dyn FnMut(Made) -> Result<()> + 'a;

/// A list made for a key, to store.
pub(super) struct Made {
    key: i64,
    list: List,
}

impl Made {
    /// Writes it as the list of its key.
    pub fn store(&self, conn: &Connection) -> Result<()> {
        self.list.store(conn, self.key)
    }
}

/// Makes the lists of many keys, every posting in a run and every record written, and hands
/// each to its caller (which stores it, or sends it to the thread that does): a list whose
/// games are few enough to look up one by one waits, and the games of the waiting lists are
/// looked up together, in the order of their ids (see [`Remembered::fetch`]), when they would
/// fill the memory and at [`Maker::finish`]. Lists of keys made hot over a whole run, each
/// with a few dozen games all over the archive, then read the records' pages about once each
/// instead of a few pages a game at random (at a million games, those reads were half of what
/// the writer read). A list of many games is made at once, by walking the records by date,
/// the walks of all sharing the records read (see [`Walked`]).
#[derive(Default)]
pub(super) struct Maker {
    memory: Remembered,
    walked: Walked,
    /// The keys whose lists wait, each with its games and their first plies.
    waiting: Vec<(i64, Vec<(GameId, u32)>)>,
    /// The games of the waiting lists.
    games: Vec<GameId>,
}

impl Maker {
    /// Makes the list of `key` from `occ`, the occurrences of exactly its stored position
    /// (sorted by game and ply), for `out`, or leaves it waiting.
    ///
    /// # Errors
    ///
    /// Any database failure, and what `out` returns.
    pub fn add(&mut self, conn: &Connection, key: i64, occ: &[Occurrence], out: &mut Out<'_>) -> Result<()> {
        let first = first_plies(occ);
        if first.len() > Remembered::CAPACITY || walk_reads_less(conn, first.len(), first.len(), LISTED)? {
            return out(make(conn, key, &first, &mut self.memory, &mut self.walked)?);
        }
        if self.games.len() + first.len() > Remembered::CAPACITY {
            self.make_waiting(conn, out)?;
        }
        self.games.extend(first.iter().map(|&(game, _)| game));
        self.waiting.push((key, first));
        Ok(())
    }

    /// Makes the lists that wait, for `out`.
    ///
    /// # Errors
    ///
    /// Any database failure, and what `out` returns.
    pub fn finish(mut self, conn: &Connection, out: &mut Out<'_>) -> Result<()> {
        self.make_waiting(conn, out)
    }

    fn make_waiting(&mut self, conn: &Connection, out: &mut Out<'_>) -> Result<()> {
        if self.waiting.is_empty() {
            return Ok(());
        }
        self.games.sort_unstable();
        self.games.dedup();
        let c = Conditions::new(conn, &GameFilter::default(), "s", "g")?;
        self.memory.fetch(conn, &self.games, &c)?;
        for (key, first) in self.waiting.drain(..) {
            out(make(conn, key, &first, &mut self.memory, &mut self.walked)?)?;
        }
        self.games.clear();
        Ok(())
    }
}

/// Makes the list of `key` from `first`, the games that reach exactly its stored position
/// with the first ply at which they do (sorted by game). `memory` holds the records shown for
/// games of lists made before in the same transaction (see [`Remembered`]), and `walked` the
/// records their walks read (see [`Walked`]).
///
/// # Errors
///
/// Any database failure.
fn make(
    conn: &Connection,
    key: i64,
    first: &[(GameId, u32)],
    memory: &mut Remembered,
    walked: &mut Walked,
) -> Result<Made> {
    let ids: Vec<GameId> = first.iter().map(|&(g, _)| g).collect();
    let c = Conditions::new(conn, &GameFilter::default(), "s", "g")?;
    let mut shown = newest_shown_remembered(conn, &ids, &c, LISTED, memory, walked)?;
    shown.sort_unstable_by(|a, b| b.0.cmp(&a.0));
    // Fewer than LISTED found: they are every game there is (a walk stops short only at the
    // end of the records).
    let cut = (shown.len() >= LISTED).then(|| shown[LISTED - 1].0.clone());
    shown.truncate(LISTED);
    let games = shown
        .into_iter()
        .map(|(at, _)| {
            let ply = first[ids.binary_search(&at.1).map_err(|_| Corrupt("a listed game was not asked"))?].1;
            Ok((at, ply))
        })
        .collect::<Result<_>>()?;
    Ok(Made { key, list: List { cut, games } })
}

/// The list of `key` (its games with their first plies, in no particular order), when it
/// holds every game of the key or at least `wanted` of them; `None` otherwise, and when the
/// key has no list.
///
/// # Errors
///
/// [`Corrupt`] for a list that does not decode; any database failure.
pub(in crate::db) fn read(conn: &Connection, key: i64, wanted: usize) -> Result<Option<Vec<(GameId, u32)>>> {
    let Some(list) = List::load(conn, key)? else {
        return Ok(None);
    };
    let games: Vec<(GameId, u32)> = list.games.into_iter().map(|((_, game), ply)| (game, ply)).collect();
    Ok((list.cut.is_none() || games.len() >= wanted).then_some(games))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_blob_is_written_as_its_format_says_and_damaged_ones_are_errors() {
        let games: Vec<Listed> =
            vec![((Some("2024-05-06".to_string()), GameId(5)), 3), ((None, GameId(300)), 0)];
        // Game 5, ply 3, a date of 10 bytes (11); game 300 (0xAC 0x02), ply 0, no date (0).
        let mut want = vec![5, 3, 11];
        want.extend_from_slice(b"2024-05-06");
        want.extend_from_slice(&[0xAC, 0x02, 0, 0]);
        assert_eq!(encode(&games), want);
        assert_eq!(decode(&want).unwrap(), games);
        assert_eq!(decode(&[]).unwrap(), Vec::new());
        // Cut anywhere inside a game, the blob is damaged; between games, it is a shorter list.
        for end in 1..want.len() {
            match end {
                13 => assert_eq!(decode(&want[..end]).unwrap(), games[..1]),
                _ => assert!(decode(&want[..end]).is_err(), "cut at {end}"),
            }
        }
        assert!(decode(&[1, 0, 2, 0xff]).is_err(), "a date that is not UTF-8");
        assert!(decode(&[1, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]).is_err());
        assert!(decode(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0, 0]).is_err());
    }
}
