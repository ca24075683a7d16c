//! Hot positions: the counts of the positions that many games reach, kept per position and
//! move, so that answering them costs the same whatever the size of the archive.
//!
//! A key becomes hot when one run, as it is written or merged, holds early occurrences (at a
//! ply up to [`KEYPOS_MAX_PLY`]) of it from at least [`HOT_GAMES`] games; the first index run
//! on a database made before hot positions existed also counts its runs once (`hot_scan`).
//! From then on the `hot` table holds the counts of the position `keypos` stores for the key,
//! over every live game and at any ply: its games (each once) with their results and its
//! occurrences (move 0), and for each move played from it, the games that played it (each
//! once) with their results. A key stays hot.
//!
//! The counts are exact:
//! - only occurrences of exactly the stored position count: early ones as the exactness check
//!   of the index found them, later ones by comparing the position itself;
//! - they change inside the transaction that changes the games: a new game adds itself to the
//!   hot keys it reaches, a deleted game takes itself off (played back from its stored moves),
//!   and a key that becomes hot is counted once from the postings, made exact as lookups make
//!   them. A commit therefore never holds counts and postings that disagree, and a killed run
//!   leaves both as the last commit wrote them.
//!
//! A reader answers a position from its hot rows when the position is the one `keypos`
//! stores for its key, and from the postings otherwise. A position that is not hot has fewer
//! than [`HOT_GAMES`] games in each run, so its postings are few.

use std::{
    collections::{HashMap, HashSet},
    hash::BuildHasherDefault,
};

use rusqlite::{Connection, OptionalExtension, params};

use super::{
    KEYPOS_MAX_PLY, Posting,
    cache::KeyHasher,
    listed::{self, Lists},
    lookup::{Occurrence, View, count},
    readers::on_readers,
    runs::{self, Run},
    stored_position,
    writer::ReaderThreads,
};
use crate::{
    db::{Error, GameId, GameResult, Result, Stats},
    shogi::Move,
};

/// Games with an early occurrence of a key in one run that make the key hot. An answer takes
/// the `reached` count of each next position that is not hot from its postings, a block
/// decoded for each; the more games, the more rare next moves, so the threshold decides how
/// an answer's time grows with the archive. At 16 (it was 32), the median answer after 10
/// plies took 0.37 ms at a million games instead of 1.59 ms (0.87 ms at 100,000 either way),
/// for five times as many hot keys at a million games and 11 bytes more a game.
pub const HOT_GAMES: u32 = 16;

pub(super) type KeySet = HashSet<i64, BuildHasherDefault<KeyHasher>>;

/// Keys whose occurrences are found together, to be counted or listed (see
/// [`each_occurrences`]): their postings are held at once.
const FOUND_TOGETHER: usize = 256;

/// The change to one `hot` row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Delta {
    games: i64,
    black_wins: i64,
    white_wins: i64,
    draws: i64,
    occurrences: i64,
}

impl Delta {
    fn add(&mut self, result: GameResult, sign: i64, occurrences: i64) {
        let stats = Stats::from(result);
        self.games += sign;
        self.black_wins += sign * stats.black_wins as i64;
        self.white_wins += sign * stats.white_wins as i64;
        self.draws += sign * stats.draws as i64;
        self.occurrences += sign * occurrences;
    }
}

/// An occurrence of exactly the position of a hot key in one game: (key, move played from
/// there, ply).
pub(super) type Hit = (i64, Option<Move>, u32);

/// The writer's side of the hot positions: which keys are hot, and the changes to their
/// counts and lists not yet written.
#[derive(Debug, Default)]
pub(super) struct Hot {
    keys: KeySet,
    /// Games that make a key hot ([`HOT_GAMES`] unless set otherwise).
    threshold: u32,
    /// Changes by (key, move code; 0 for the position).
    deltas: HashMap<(i64, u16), Delta, BuildHasherDefault<KeyHasher>>,
    /// Whether a game was taken off since the last write (rows may have fallen to zero).
    removed: bool,
    /// The changes to the lists of their newest games.
    lists: Lists,
    /// Keys whose lists are to be made again once every posting is in a run.
    short: Vec<i64>,
}

impl Hot {
    /// The hot keys of the database of `conn`.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn load(conn: &Connection) -> Result<Hot> {
        Ok(Hot { keys: keys(conn)?, threshold: HOT_GAMES, ..Hot::default() })
    }

    /// Sets the number of games that make a key hot (at least 1).
    pub fn set_threshold(&mut self, games: u32) {
        self.threshold = games.max(1);
    }

    /// A finder of the keys a stream of postings makes hot.
    pub fn candidates(&self) -> Candidates {
        Candidates { threshold: self.threshold, ..Candidates::default() }
    }

    /// Whether `key` is hot.
    pub fn contains(&self, key: i64) -> bool {
        self.keys.contains(&key)
    }

    /// Whether no key is hot.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Adds game `game` (`sign` 1) or takes it off (`sign` -1): `hits` are its occurrences of
    /// exactly the positions of hot keys, in any order.
    pub fn count_game(&mut self, game: GameId, hits: &mut [Hit], result: GameResult, sign: i64) {
        if hits.is_empty() {
            return;
        }
        self.removed |= sign < 0;
        hits.sort_unstable_by_key(|&(key, next, ply)| (key, next.map_or(0, Move::code), ply));
        for group in hits.chunk_by(|a, b| a.0 == b.0) {
            let key = group[0].0;
            self.deltas.entry((key, 0)).or_default().add(result, sign, group.len() as i64);
            let mut last = None;
            for &(_, next, _) in group {
                if let Some(mv) = next.filter(|&mv| last != Some(mv)) {
                    last = Some(mv);
                    self.deltas.entry((key, mv.code())).or_default().add(result, sign, 0);
                }
            }
            if sign > 0 {
                self.lists.put_on(key, game, first_ply(group));
            } else {
                self.lists.take_off(key, game);
            }
        }
    }

    /// Notes that `game`, just stored, has one record, dated `date` (see [`Lists::dated`]).
    pub fn dated(&mut self, game: GameId, date: Option<&str>) {
        self.lists.dated(game, date);
    }

    /// Sorts game `game` again in the lists of the hot keys it reaches (`hits`, as for
    /// [`Hot::count_game`]): its records changed, and with them maybe the date it sorts by.
    pub fn sort_again(&mut self, game: GameId, hits: &mut [Hit]) {
        hits.sort_unstable_by_key(|&(key, _, ply)| (key, ply));
        for group in hits.chunk_by(|a, b| a.0 == b.0) {
            self.lists.take_off(group[0].0, game);
            self.lists.put_on(group[0].0, game, first_ply(group));
        }
    }

    /// Writes the changes, inside the writer's transaction.
    ///
    /// # Errors
    ///
    /// Any database failure (a count below zero among them: the counts disagreed with the
    /// games).
    pub fn write(&mut self, conn: &Connection) -> Result<()> {
        // An update, else an insert: a row's CHECK holds for the row it makes, and an
        // insert of a negative change would fail it even where the row exists.
        let mut update = conn.prepare_cached(
            "UPDATE hot SET games = games + ?3, black_wins = black_wins + ?4, white_wins = white_wins + ?5,
               draws = draws + ?6, occurrences = occurrences + ?7
             WHERE key = ?1 AND move = ?2",
        )?;
        let mut insert = conn.prepare_cached(
            "INSERT INTO hot(key, move, games, black_wins, white_wins, draws, occurrences)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        for ((key, mv), d) in self.deltas.drain() {
            if d != Delta::default() {
                let values = params![key, mv, d.games, d.black_wins, d.white_wins, d.draws, d.occurrences];
                if update.execute(values)? == 0 {
                    insert.execute(values)?;
                }
            }
        }
        if std::mem::take(&mut self.removed) {
            // A move nobody plays any more is no next move; the position's row stays, with
            // the key hot.
            conn.prepare_cached("DELETE FROM hot WHERE move != 0 AND games = 0")?.execute([])?;
        }
        let short = self.lists.write(conn)?;
        self.short.extend(short);
        Ok(())
    }

    /// Makes again the lists that [`Hot::write`] left too short, once every posting is in a
    /// run.
    ///
    /// # Errors
    ///
    /// [`Corrupt`](crate::db::Corrupt) when a game to check does not replay; any database
    /// failure.
    pub fn make_short_lists(&mut self, conn: &Connection) -> Result<()> {
        let keys = std::mem::take(&mut self.short);
        self.make_lists(conn, keys, None, &|| false)
    }

    /// Makes the list of each of `keys` from the live runs. With `threads`, and keys enough
    /// to share, the lists are made on that many threads, each reading the file on a
    /// connection of its own as the last commit left it (so only between commits, or with the
    /// connection of `conn` in WAL mode), and stored here.
    ///
    /// # Errors
    ///
    /// [`Error::Interrupted`] as soon as `stop` returns true (the lists stored by then are
    /// to be rolled back, or kept: each is whole); as for [`Hot::make_short_lists`]; a failure
    /// to open or read the file on another connection.
    pub fn make_lists(
        &self,
        conn: &Connection,
        keys: Vec<i64>,
        threads: Option<ReaderThreads<'_>>,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<()> {
        match threads.filter(|t| t.threads > 1 && keys.len() >= SHARED_LISTS) {
            Some(t) => {
                let shares: Vec<&[i64]> = keys.chunks(keys.len().div_ceil(t.threads)).collect();
                let store = |made: listed::Made| made.store(conn);
                // A thread halts when another failed, or at `stop`.
                let lists = |c: &Connection, k: &&[i64], h: &dyn Fn() -> bool, out: &mut listed::Out<'_>| {
                    lists_of(c, k, &|| h() || stop(), out)
                };
                on_readers(t.path, "kifudex-lists", &shares, LISTS_IN_FLIGHT, lists, store)?;
                Ok(())
            }
            None => lists_of(conn, &keys.as_slice(), stop, &mut |made| made.store(conn)),
        }
    }

    /// Makes `keys` hot (those that are not yet), each counted from the live runs. Returns
    /// the keys it made hot; the caller adds them with [`Hot::extend`] once their rows are
    /// committed. Their lists of newest games are made at the end of the index run, all
    /// together (see [`IndexWriter::list_hot`](super::writer::IndexWriter::list_hot)).
    ///
    /// # Errors
    ///
    /// [`Corrupt`](crate::db::Corrupt) when a game to check does not replay; any database
    /// failure.
    pub fn promote(&self, conn: &Connection, keys: Vec<i64>) -> Result<Vec<i64>> {
        let keys: Vec<i64> = keys.into_iter().filter(|k| !self.keys.contains(k)).collect();
        if keys.is_empty() {
            return Ok(keys);
        }
        let (live, dead) = live_and_dead(conn)?;
        // The writer checked the database to its own depth when it opened it.
        let view = View { conn, runs: &live, dead: &dead, depth: KEYPOS_MAX_PLY };
        let mut insert = conn.prepare_cached(
            "INSERT INTO hot(key, move, games, black_wins, white_wins, draws, occurrences)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        let mut made = Vec::with_capacity(keys.len());
        each_occurrences(&view, &keys, |key, occurrences| {
            if Hot::promote_one(conn, &view, &mut insert, key, occurrences)? {
                made.push(key);
            }
            Ok(())
        })?;
        Ok(made)
    }

    /// Counts `key` from `occurrences`, all those indexed under it, for [`Hot::promote`];
    /// returns whether it was made hot (a key `keypos` stores no position for is not).
    fn promote_one(
        conn: &Connection,
        view: &View<'_>,
        insert: &mut rusqlite::CachedStatement<'_>,
        key: i64,
        occurrences: Vec<Occurrence>,
    ) -> Result<bool> {
        let Some(position) = stored_position(conn, key)? else {
            return Ok(false);
        };
        let k = crate::shogi::PositionKey::from_i64(key);
        let occ = view.exact(&position, k, occurrences)?;
        let (games, moves) = count(&occ);
        let mut row = |mv: u16, s: Stats, occurrences: u64| {
            insert.execute(params![key, mv, s.games, s.black_wins, s.white_wins, s.draws, occurrences])
        };
        row(0, games, occ.len() as u64)?;
        for (mv, s) in moves {
            row(mv.code(), s, 0)?;
        }
        // Every answer about a hot position compares it with the one stored for its key:
        // kept packed, that needs no game played back.
        conn.prepare_cached(
            "UPDATE keypos SET position = ?2 WHERE key = ?1 AND typeof(position) = 'integer'",
        )?
        .execute(params![key, position])?;
        Ok(true)
    }

    /// Records keys made hot by [`Hot::promote`], once their rows are in.
    pub fn extend(&mut self, keys: impl IntoIterator<Item = i64>) {
        self.keys.extend(keys);
    }
}

/// Keys whose lists are worth threads of their own to make (a run over 100,000 games makes
/// more than a thousand hot).
const SHARED_LISTS: usize = 64;

/// Lists made on threads waiting to be stored, at most (about a kilobyte each).
const LISTS_IN_FLIGHT: usize = 1_024;

/// Makes the list of each of `keys` from the live runs read on `conn`, for `out`, until `halt`
/// says to give up.
fn lists_of(
    conn: &Connection,
    keys: &&[i64],
    halt: &dyn Fn() -> bool,
    out: &mut listed::Out<'_>,
) -> Result<()> {
    if keys.is_empty() {
        return Ok(());
    }
    let (live, dead) = live_and_dead(conn)?;
    let view = View { conn, runs: &live, dead: &dead, depth: KEYPOS_MAX_PLY };
    let mut lists = listed::Maker::default();
    each_occurrences(&view, keys, |key, occurrences| {
        if halt() {
            return Err(Error::Interrupted);
        }
        if let Some(position) = stored_position(conn, key)? {
            let k = crate::shogi::PositionKey::from_i64(key);
            lists.add(conn, key, &view.exact(&position, k, occurrences)?, out)?;
        }
        Ok(())
    })?;
    lists.finish(conn, out)
}

/// Calls `each(key, occurrences)` for each of `keys` in turn, with every occurrence indexed
/// under it ([`View::occurrences`]); the occurrences of [`FOUND_TOGETHER`] keys at a time are
/// found together, the blocks they share read once ([`View::occurrences_many`]).
fn each_occurrences(
    view: &View<'_>,
    keys: &[i64],
    mut each: impl FnMut(i64, Vec<Occurrence>) -> Result<()>,
) -> Result<()> {
    for chunk in keys.chunks(FOUND_TOGETHER) {
        let mut sorted = chunk.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        let mut found: Vec<Option<Vec<Occurrence>>> =
            view.occurrences_many(&sorted)?.into_iter().map(Some).collect();
        for &key in chunk {
            let i = sorted.binary_search(&key).expect("a chunk's keys are among its sorted keys");
            // A key given twice is looked up again.
            let occurrences = match found[i].take() {
                Some(occurrences) => occurrences,
                None => view.occurrences(crate::shogi::PositionKey::from_i64(key))?,
            };
            each(key, occurrences)?;
        }
    }
    Ok(())
}

/// The first ply of a group of hits of one key.
fn first_ply(group: &[Hit]) -> u32 {
    group.iter().map(|&(_, _, ply)| ply).min().unwrap_or(0)
}

/// The live runs, and the games whose postings in them are dead.
fn live_and_dead(conn: &Connection) -> Result<(Vec<Run>, HashSet<GameId>)> {
    let dead: HashSet<GameId> = {
        let mut stmt = conn.prepare_cached("SELECT game FROM dead")?;
        stmt.query_map([], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?
    };
    Ok((runs::live(conn)?, dead))
}

/// Finds the keys a sorted stream of postings makes hot: those with early occurrences from
/// [`HOT_GAMES`] games or more.
#[derive(Clone, Debug, Default)]
pub(super) struct Candidates {
    threshold: u32,
    key: Option<i64>,
    last_game: Option<GameId>,
    games: u32,
    found: Vec<i64>,
}

impl Candidates {
    /// Looks at the next posting of the stream.
    pub fn see(&mut self, p: &Posting) {
        let key = p.key.to_i64();
        if self.key != Some(key) {
            self.close();
            self.key = Some(key);
            self.last_game = None;
            self.games = 0;
        }
        if p.ply <= KEYPOS_MAX_PLY && self.last_game != Some(p.game) {
            self.last_game = Some(p.game);
            self.games += 1;
        }
    }

    fn close(&mut self) {
        if let Some(key) = self.key.filter(|_| self.games >= self.threshold) {
            self.found.push(key);
        }
    }

    /// The keys found, once the stream has ended.
    pub fn finish(mut self) -> Vec<i64> {
        self.close();
        self.found
    }
}

/// Counts every live run for keys to make hot, once per database: those written before hot
/// positions existed (see the module documentation). Returns the keys made hot.
///
/// # Errors
///
/// Any database failure.
pub(super) fn scan_once(conn: &Connection, hot: &Hot) -> Result<Vec<i64>> {
    let pending = conn
        .query_row("SELECT value FROM meta WHERE key = 'hot_scan'", [], |r| r.get::<_, String>(0))
        .optional()?
        .is_some_and(|v| v == "pending");
    if !pending {
        return Ok(Vec::new());
    }
    let live: Vec<Run> = runs::live(conn)?;
    let mut candidates = hot.candidates();
    runs::for_each_key(conn, &live, |_, postings| {
        for p in postings {
            candidates.see(p);
        }
        Ok(true)
    })?;
    let made = hot.promote(conn, candidates.finish())?;
    conn.execute("UPDATE meta SET value = 'done' WHERE key = 'hot_scan'", [])?;
    Ok(made)
}

/// The rows of a hot key: the position's games and occurrences, and each move's games; `None`
/// when the key is not hot.
/// The hot keys of the database of `conn`.
///
/// # Errors
///
/// Any database failure.
pub(super) fn keys(conn: &Connection) -> Result<KeySet> {
    let mut stmt = conn.prepare_cached("SELECT key FROM hot WHERE move = 0")?;
    Ok(stmt.query_map([], |r| r.get(0))?.collect::<rusqlite::Result<KeySet>>()?)
}

pub(in crate::db) type HotRows = (Stats, u64, Vec<(u16, Stats)>);

/// Reads the rows of `key`.
///
/// # Errors
///
/// Any database failure.
pub(in crate::db) fn rows(conn: &Connection, key: i64) -> Result<Option<HotRows>> {
    let mut stmt = conn.prepare_cached(
        "SELECT move, games, black_wins, white_wins, draws, occurrences FROM hot WHERE key = ?1 ORDER BY move",
    )?;
    let mut found = stmt.query([key])?;
    let mut out: Option<HotRows> = None;
    while let Some(r) = found.next()? {
        let mv: u16 = r.get(0)?;
        let stats =
            Stats { games: r.get(1)?, black_wins: r.get(2)?, white_wins: r.get(3)?, draws: r.get(4)? };
        match &mut out {
            None if mv == 0 => out = Some((stats, r.get(5)?, Vec::new())),
            None => return Err(crate::db::Corrupt("a hot key has moves but no position row").into()),
            Some((_, _, moves)) => moves.push((mv, stats)),
        }
    }
    Ok(out)
}
