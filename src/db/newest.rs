//! The game list of a query: the newest of a set of games, each with the record shown for it.
//!
//! Each game is listed with one of its records, the first in path order that matches the
//! filter's record conditions (see [`GameFilter`]), and the list is ordered by that record's
//! date, newest first, then by id, highest first; games without a date come last.
//!
//! Few games are looked up directly. Many are found by walking the records in date order,
//! newest first, until the list is settled: a game met for the first time at date `d` shows
//! a record dated `d` or earlier, and every game not met yet shows one dated no later than
//! the walk's place, so once `limit` games show records that sort before that place, no other
//! game can come before them.

use std::{
    collections::{BinaryHeap, HashMap},
    rc::Rc,
};

use rusqlite::{Connection, OptionalExtension, params_from_iter, types::Value, vtab::array::Array};

use super::{
    GameId, IdMap, Result,
    codec::decode_moves,
    filter::{Conditions, GameFilter},
    index::packed::pack_position,
    play::{play_stored, reached},
    read::{GAME_COLUMNS, GameRow, RECORD_JOINS, Snapshot, game_row, start_setup},
};
use crate::shogi::{PositionKey, Setup};

/// How many records the walk reads, in the date index's order, for the cost of looking one
/// game's records up (a few random pages where the walk reads one page for many records).
const LOOK_UP_COST: u128 = 16;

/// Where a game sorts in the list: by date, then id, both descending (so the greatest key
/// comes first).
pub(in crate::db) type SortKey = (Option<String>, GameId);

/// The record shown for a game: where the game sorts, and the record's id.
pub(in crate::db) type Shown = (SortKey, i64);

impl Snapshot<'_> {
    /// The list entries of `ids` (sorted, without repeats), newest first, the first `offset`
    /// left out, at most `limit`, each with the record `filter` shows for it (see the module
    /// documentation).
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn newest_games(
        &self,
        ids: &[GameId],
        filter: &GameFilter,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<GameRow>> {
        Ok(self.newest_records(ids, filter, offset, limit)?.into_iter().map(|(row, _)| row).collect())
    }

    /// [`Snapshot::newest_games`], each with the id of the record shown for it (a `sources`
    /// row), for reading more of that record.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn newest_records(
        &self,
        ids: &[GameId],
        filter: &GameFilter,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<(GameRow, i64)>> {
        if ids.len() <= offset || limit == 0 {
            return Ok(Vec::new());
        }
        // The first `offset` entries are settled as the others are, then left out.
        let limit = offset.saturating_add(limit);
        // The ids are the games the filter keeps: only its record conditions choose the record.
        let records_only = GameFilter { result: None, handicap: None, variant: None, ..filter.clone() };
        let c = Conditions::new(&self.tx, &records_only, "s", "g")?;
        let shown = newest_shown(&self.tx, ids, &c, limit)?;
        self.listed(shown, offset, limit)
    }

    /// About as many games (and records) as were ever stored: the highest game id, read at
    /// once where a count would read them all.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn game_count_bound(&self) -> Result<i64> {
        game_count_bound(&self.tx)
    }

    /// The newest games that reach exactly `position` (a position most games reach), the first
    /// `offset` left out, at most `limit`, each with its first record and the first ply at
    /// which it is there: found by walking the records by date and playing each game met back,
    /// which costs about `limit` games over the share of games that reach the position,
    /// whatever the size of the archive.
    ///
    /// # Errors
    ///
    /// Any database failure, or [`super::Corrupt`] when a game does not play back.
    pub fn newest_reaching(
        &self,
        position: &Setup,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<(GameRow, u32)>> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let key = PositionKey::of(position);
        let mut packed = Vec::with_capacity(64);
        pack_position(position, &mut packed);
        let mut first: HashMap<GameId, u32> = HashMap::new();
        let c = Conditions::new(&self.tx, &GameFilter::default(), "s", "g")?;
        let limit = offset.saturating_add(limit);
        let shown = walk(
            &self.tx,
            &mut |game| {
                let ply = self.first_ply(game, key, &packed)?;
                first.extend(ply.map(|ply| (game, ply)));
                Ok(ply.is_some())
            },
            &c,
            limit,
        )?;
        let rows = self.listed(shown, offset, limit)?;
        Ok(rows
            .into_iter()
            .map(|(row, _)| {
                let ply = first.get(&row.id).copied().unwrap_or(0);
                (row, ply)
            })
            .collect())
    }

    /// The first ply at which game `game` is in exactly the position `packed` (whose key is
    /// `key`).
    fn first_ply(&self, game: GameId, key: PositionKey, packed: &[u8]) -> Result<Option<u32>> {
        let Some((start, moves)) = self.start_and_moves(game)? else {
            return Ok(None);
        };
        let mut found = None;
        let mut scratch = Vec::with_capacity(64);
        reached(play_stored(&start_setup(start.as_deref())?, &decode_moves(&moves)?, |ply, pos, _| {
            if pos.key() == key {
                scratch.clear();
                pack_position(pos.setup(), &mut scratch);
                if scratch == packed {
                    found = Some(ply as u32);
                }
            }
            Ok(found.is_none())
        }))?;
        Ok(found)
    }

    /// The list from the shown records `shown` (at least the newest `limit` of the games):
    /// the newest `limit`, the first `offset` left out, with their rows and record ids.
    fn listed(&self, mut shown: Vec<Shown>, offset: usize, limit: usize) -> Result<Vec<(GameRow, i64)>> {
        shown.sort_by(|a, b| b.0.cmp(&a.0));
        shown.truncate(limit);
        shown.drain(..offset.min(shown.len()));
        // Names and results for the listed games only.
        let array: Array = Rc::new(shown.iter().map(|&(_, record)| Value::Integer(record)).collect());
        let mut stmt = self.tx.prepare_cached(&format!(
            "SELECT {GAME_COLUMNS}, s.id FROM sources s JOIN games g ON g.id = s.game {RECORD_JOINS}
             WHERE s.id IN rarray(?1)"
        ))?;
        let mut by_record: std::collections::HashMap<i64, GameRow> =
            stmt.query_map([array], |r| Ok((r.get(6)?, game_row(r)?)))?.collect::<rusqlite::Result<_>>()?;
        Ok(shown.iter().filter_map(|&(_, record)| Some((by_record.remove(&record)?, record))).collect())
    }

    /// The date of the record shown for each of `ids` (sorted, without repeats) under
    /// `filter` (see the module documentation), `None` for a record without one; a game none
    /// of whose records matches is left out.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn shown_dates(&self, ids: &[GameId], filter: &GameFilter) -> Result<Vec<(GameId, Option<String>)>> {
        let records_only = GameFilter { result: None, handicap: None, ..filter.clone() };
        let c = Conditions::new(&self.tx, &records_only, "s", "g")?;
        Ok(look_up(&self.tx, ids, &c)?.into_iter().map(|((date, game), _)| (game, date)).collect())
    }
}

/// About as many games (and records) as were ever stored: the highest game id.
pub(in crate::db) fn game_count_bound(conn: &Connection) -> Result<i64> {
    Ok(conn.query_row("SELECT ifnull(max(id), 0) FROM games", [], |r| r.get(0))?)
}

/// The shown records (see the module documentation) of at least the newest `limit` of `ids`
/// (sorted, without repeats) under the record conditions `c`, in no particular order: looked
/// up, or found by walking the records by date when that reads less.
pub(in crate::db) fn newest_shown(
    conn: &Connection,
    ids: &[GameId],
    c: &Conditions,
    limit: usize,
) -> Result<Vec<Shown>> {
    if walk_reads_less(conn, ids.len(), ids.len(), limit)? {
        walk(conn, &mut |game| Ok(ids.binary_search(&game).is_ok()), c, limit)
    } else {
        look_up(conn, ids, c)
    }
}

/// Whether finding the newest `limit` of `games` by walking the records reads less than
/// looking up the records of `missing` of them: walking reads about limit × records / games
/// rows.
pub(in crate::db) fn walk_reads_less(
    conn: &Connection,
    games: usize,
    missing: usize,
    limit: usize,
) -> Result<bool> {
    let records = game_count_bound(conn)?;
    Ok(games as u128 * missing as u128 * LOOK_UP_COST > limit as u128 * records.max(1) as u128)
}

/// Games whose shown records were looked up, with the record (`None`: no record passes the
/// conditions), for [`newest_shown_remembered`]. Right only while no record changes and for
/// one set of conditions: the writer keeps one for the lists it makes in one go, in one
/// transaction.
#[derive(Debug, Default)]
pub(in crate::db) struct Remembered(IdMap<Option<Shown>>);

/// Games [`Remembered`] keeps at most (about 100 bytes each); it forgets them all past that.
const REMEMBERED: usize = 1 << 17;

/// [`newest_shown`], which looks up only the games that `memory` does not hold, and adds them
/// to it, and walks the records `walked` has read. Lists made one after the other share many
/// games (each hot position reached on the way to another is made hot with it) and walk the
/// same records.
pub(in crate::db) fn newest_shown_remembered(
    conn: &Connection,
    ids: &[GameId],
    c: &Conditions,
    limit: usize,
    memory: &mut Remembered,
    walked: &mut Walked,
) -> Result<Vec<Shown>> {
    let mut missing: Vec<GameId> = ids.iter().copied().filter(|id| !memory.0.contains_key(id)).collect();
    if walk_reads_less(conn, ids.len(), missing.len(), limit)? {
        return walked.newest_shown(conn, ids, c, limit, memory);
    }
    if memory.0.len() + missing.len() > REMEMBERED {
        memory.0.clear();
        missing = ids.to_vec();
    }
    memory.look_up(conn, &missing, c)?;
    Ok(ids.iter().filter_map(|id| memory.0.get(id).cloned().flatten()).collect())
}

impl Remembered {
    /// The games it can hold.
    pub(in crate::db) const CAPACITY: usize = REMEMBERED;

    /// Forgets every game, and looks up the shown records of `ids` (sorted, without repeats,
    /// at most [`Remembered::CAPACITY`]) at once: [`newest_shown_remembered`] then finds them
    /// here. Looked up in the order of their ids, many games read the records' pages in order
    /// instead of one page each at random.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub(in crate::db) fn fetch(&mut self, conn: &Connection, ids: &[GameId], c: &Conditions) -> Result<()> {
        self.0.clear();
        self.look_up(conn, ids, c)
    }

    fn look_up(&mut self, conn: &Connection, ids: &[GameId], c: &Conditions) -> Result<()> {
        let found = look_up(conn, ids, c)?;
        self.0.extend(ids.iter().map(|&id| (id, None)));
        self.0.extend(found.into_iter().map(|shown| (shown.0.1, Some(shown))));
        Ok(())
    }
}

/// The records in the walk's order (by date, newest first), read as far as the lists made in
/// one go need: their walks share it. Each list finds where its games were first met by
/// looking them up here, instead of reading the date index again and asking of every record
/// met whether its game is one of the list's (at 100,000 games, the lists of the thousand
/// positions most games reach walked 3.4 million records, 0.8 s of the writer's time).
/// Right only while no record changes: the writer keeps one for the lists it makes in one go,
/// in one transaction, as [`Remembered`].
#[derive(Debug, Default)]
pub(in crate::db) struct Walked {
    /// Where each record read sorts, in the walk's order.
    places: Vec<SortKey>,
    /// The index in `places` of each game's first record.
    first: IdMap<u32>,
    /// Whether every record has been read.
    ended: bool,
}

/// Records [`Walked`] reads at most; a list whose walk goes further walks alone.
const WALKED: usize = REMEMBERED;

/// Games whose shown records [`Walked::newest_shown`] looks up at once.
const LOOK_AHEAD: usize = 64;

impl Walked {
    /// What [`newest_shown`] finds by walking the records, for the games `ids` (sorted,
    /// without repeats), their shown records looked up in `memory`.
    fn newest_shown(
        &mut self,
        conn: &Connection,
        ids: &[GameId],
        c: &Conditions,
        limit: usize,
        memory: &mut Remembered,
    ) -> Result<Vec<Shown>> {
        loop {
            let mut met: Vec<(u32, GameId)> =
                ids.iter().filter_map(|id| Some((*self.first.get(id)?, *id))).collect();
            met.sort_unstable();
            if let Some(shown) = self.settle(conn, &met, ids.len(), c, limit, memory)? {
                return Ok(shown);
            }
            if self.places.len() >= WALKED {
                return walk(conn, &mut |game| Ok(ids.binary_search(&game).is_ok()), c, limit);
            }
            self.read(conn, (2 * self.places.len()).clamp(4_096, WALKED))?;
        }
    }

    /// The walk of the records read, meeting the games of `met` (each with the index of its
    /// first record, in that order) of the `games` a list has: what the walk over every
    /// record finds, or `None` when it needs records not read yet.
    fn settle(
        &self,
        conn: &Connection,
        met: &[(u32, GameId)],
        games: usize,
        c: &Conditions,
        limit: usize,
        memory: &mut Remembered,
    ) -> Result<Option<Vec<Shown>>> {
        let mut pending: BinaryHeap<Shown> = BinaryHeap::new();
        let mut settled: Vec<Shown> = Vec::new();
        for (i, &(at, game)) in met.iter().enumerate() {
            // The records between two games met hold neither: only the place moves on.
            settle_before(&mut pending, &mut settled, &self.places[at as usize]);
            if settled.len() >= limit {
                settled.extend(pending);
                return Ok(Some(settled));
            }
            if !memory.0.contains_key(&game) {
                let next: Vec<GameId> = met[i..]
                    .iter()
                    .map(|&(_, game)| game)
                    .filter(|game| !memory.0.contains_key(game))
                    .take(LOOK_AHEAD)
                    .collect();
                if memory.0.len() + next.len() > REMEMBERED {
                    memory.0.clear();
                }
                memory.look_up(conn, &next, c)?;
            }
            pending.extend(memory.0.get(&game).cloned().flatten());
        }
        if met.len() < games && !self.ended {
            // Games not met yet show records that sort no earlier than the last one read.
            if let Some(last) = self.places.last() {
                settle_before(&mut pending, &mut settled, last);
            }
            if settled.len() < limit {
                return Ok(None);
            }
        }
        settled.extend(pending);
        Ok(Some(settled))
    }

    /// Reads the records up to the `to`th (or the last).
    fn read(&mut self, conn: &Connection, to: usize) -> Result<()> {
        // Records of one game on one date may come in either order between two reads; they
        // sort at the same place, so the places read are the same.
        let mut stmt = conn.prepare_cached(
            "SELECT game, date FROM sources ORDER BY date DESC, game DESC LIMIT ?1 OFFSET ?2",
        )?;
        let from = self.places.len();
        let mut rows = stmt.query([(to - from) as i64, from as i64])?;
        while let Some(r) = rows.next()? {
            let place: SortKey = (r.get(1)?, r.get(0)?);
            self.first.entry(place.1).or_insert(self.places.len() as u32);
            self.places.push(place);
        }
        self.ended = self.places.len() < to;
        Ok(())
    }
}

/// Settles the pending games that sort before `place` (see the module documentation).
fn settle_before(pending: &mut BinaryHeap<Shown>, settled: &mut Vec<Shown>, place: &SortKey) {
    while pending.peek().is_some_and(|top| &top.0 > place) {
        settled.extend(pending.pop());
    }
}

/// The shown record of each of `ids`, in no particular order.
pub(in crate::db) fn look_up(conn: &Connection, ids: &[GameId], c: &Conditions) -> Result<Vec<Shown>> {
    let array: Array = Rc::new(ids.iter().map(|id| Value::Integer(id.0)).collect());
    let mut stmt = conn.prepare(&format!(
        "SELECT s.game, s.date, s.id FROM sources s JOIN files f ON f.id = s.file
         WHERE s.game IN rarray(?{}){} ORDER BY s.game, f.path, s.idx",
        c.next_arg(),
        c.record
    ))?;
    let mut rows = stmt.query(params_from_iter(c.args_with(&[&array])))?;
    let mut out: Vec<Shown> = Vec::new();
    while let Some(r) = rows.next()? {
        let game: GameId = r.get(0)?;
        if out.last().is_none_or(|last| last.0.1 != game) {
            out.push(((r.get(1)?, game), r.get(2)?));
        }
    }
    Ok(out)
}

/// The shown records of the newest `limit` (at least) of the games for which `member`
/// is true, found by walking the records by date (`member` is asked once per game).
fn walk(
    conn: &Connection,
    member: &mut dyn FnMut(GameId) -> Result<bool>,
    c: &Conditions,
    limit: usize,
) -> Result<Vec<Shown>> {
    // Every record is walked, whether it matches or not: a game's shown record is dated
    // no later than any of its records met first, so the order argument holds all the same,
    // and the walk reads the date index alone.
    let mut walk = conn.prepare("SELECT game, date FROM sources ORDER BY date DESC, game DESC")?;
    let mut shown = conn.prepare(&format!(
        "SELECT s.date, s.id FROM sources s JOIN files f ON f.id = s.file
         WHERE s.game = ?{}{} ORDER BY f.path, s.idx LIMIT 1",
        c.next_arg(),
        c.record
    ))?;
    let mut met = std::collections::HashSet::new();
    let mut pending: BinaryHeap<(SortKey, i64)> = BinaryHeap::new();
    let mut settled: Vec<Shown> = Vec::new();
    let mut records = walk.query([])?;
    while settled.len() < limit {
        let Some(r) = records.next()? else {
            break;
        };
        let place: SortKey = (r.get(1)?, r.get(0)?);
        if met.insert(place.1) && member(place.1)? {
            // (A game none of whose records matches has no place in the list.)
            let found = shown
                .query_row(params_from_iter(c.args_with(&[&place.1])), |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()?;
            if let Some((date, record)) = found {
                pending.push(((date, place.1), record));
            }
        }
        settle_before(&mut pending, &mut settled, &place);
    }
    settled.extend(std::iter::from_fn(|| pending.pop()));
    Ok(settled)
}

#[cfg(test)]
mod tests {
    use rusqlite::params;

    use super::*;

    /// A small xorshift, for records that do not depend on anything outside the test.
    struct Random(u64);

    impl Random {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    /// `games` games, most with one record, some with two or three in other files at other
    /// dates, dates from a few hundred days (many shared) or none.
    fn records(games: i64) -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        rusqlite::vtab::array::load_module(&conn).unwrap();
        conn.execute_batch(
            "CREATE TABLE games(id INTEGER PRIMARY KEY);
             CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT NOT NULL);
             CREATE TABLE sources(id INTEGER PRIMARY KEY, file INTEGER NOT NULL, idx INTEGER NOT NULL,
                                  game INTEGER NOT NULL, date TEXT);
             CREATE INDEX sources_game ON sources(game);
             CREATE INDEX sources_date ON sources(date, game);",
        )
        .unwrap();
        let mut random = Random(0x9e37_79b9_7f4a_7c15);
        let date = |random: &mut Random| {
            (random.below(20) != 0)
                .then(|| format!("20{:02}-{:02}-01", random.below(25), 1 + random.below(12)))
        };
        for file in 1..=40 {
            conn.execute(
                "INSERT INTO files VALUES (?1, ?2)",
                params![file, format!("f{:02}", random.below(100))],
            )
            .unwrap();
        }
        let add = |conn: &Connection, random: &mut Random, game: i64, date: Option<String>| {
            conn.execute(
                "INSERT INTO sources(file, idx, game, date) VALUES (?1, ?2, ?3, ?4)",
                params![1 + random.below(40) as i64, game, game, date],
            )
            .unwrap();
        };
        for game in 1..=games {
            conn.execute("INSERT INTO games VALUES (?1)", [game]).unwrap();
            let d = date(&mut random);
            add(&conn, &mut random, game, d);
            for _ in 0..random.below(8).saturating_sub(5) {
                let d = date(&mut random);
                add(&conn, &mut random, game, d);
            }
        }
        conn
    }

    #[test]
    fn walks_sharing_the_records_read_list_the_games_that_sort_first_as_looking_every_game_up_does() {
        let conn = records(12_000);
        let c = Conditions::new(&conn, &GameFilter::default(), "s", "g").unwrap();
        let (mut walked, mut memory) = (Walked::default(), Remembered::default());
        let mut random = Random(7);
        let mut sets: Vec<Vec<GameId>> = Vec::new();
        for size in [1, 3, 40, 60, 300, 2_000, 9_000, 12_000] {
            for _ in 0..3 {
                let mut ids: Vec<GameId> =
                    (0..size).map(|_| GameId(1 + random.below(12_000) as i64)).collect();
                ids.sort_unstable();
                ids.dedup();
                sets.push(ids);
            }
        }
        // Games all of whose records are among the oldest, or undated: a walk reads them last.
        let mut old: Vec<GameId> = conn
            .prepare("SELECT game FROM sources GROUP BY game ORDER BY max(ifnull(date, '')), game LIMIT 120")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        old.sort_unstable();
        sets.push(old);
        for (i, ids) in sets.iter().enumerate() {
            let newest = |mut shown: Vec<Shown>| {
                shown.sort_unstable_by(|a, b| b.0.cmp(&a.0));
                shown.truncate(50);
                shown
            };
            // Every game looked up, then sorted.
            let want = newest(look_up(&conn, ids, &c).unwrap());
            let got = walked.newest_shown(&conn, ids, &c, 50, &mut memory).unwrap();
            assert_eq!(newest(got), want, "set {i} of {} games", ids.len());
        }
        assert!(walked.places.len() > 4_096, "the records were read more than once");
    }
}
