//! Position lookups on a snapshot: the occurrences of a position, made exact, and the
//! next-move tree with played and reached counts and results.
//!
//! Exactness: postings are found by key, and two positions may share a key. An occurrence
//! is kept only when its position is the one asked for:
//! - an occurrence at a ply up to the snapshot's `keypos` limit is trusted when the position
//!   stored for its key is the one asked for and the occurrence is not listed as a
//!   collision (every such occurrence was compared with that position when indexed);
//! - any other is checked by replaying its game. Occurrences are grouped by start and move
//!   prefix, because the same start and the same moves make the same position, so one
//!   replay decides a whole group.

use std::collections::{HashMap, HashSet};

use rusqlite::{Connection, OptionalExtension, params};

use super::{
    Posting,
    blocks::next_move,
    hot::{self, HotRows},
    listed,
    packed::pack_position,
    position_in,
    runs::{self, Run},
    stored_position,
};
use crate::{
    db::{
        Corrupt, Error, GameId, GameResult, Result, Stats,
        codec::decode_moves,
        play::{play_stored, reached},
        read::{Snapshot, start_setup},
    },
    shogi::{Move, Position, PositionKey, Setup},
};

/// One occurrence of a position in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Occurrence {
    pub game: GameId,
    pub ply: u32,
    /// The move played from the position, `None` when the game ends there.
    pub next: Option<Move>,
    pub result: GameResult,
}

/// Counts for one move from a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveStats {
    pub mv: Move,
    /// The games that played this move from the position, with their results.
    pub played: Stats,
    /// Games that reached the resulting position, by any move order.
    pub reached: u64,
}

/// A position's games and next moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PositionStats {
    /// The games that reach the position, with their results.
    pub games: Stats,
    /// Times it occurs (a game may reach it more than once).
    pub occurrences: u64,
    /// The moves played from it, most played first (then by move code).
    pub moves: Vec<MoveStats>,
}

/// What a lookup reads: a connection inside a transaction, the live runs, and the deleted
/// games whose postings some run still holds. Readers make one from their snapshot, the writer
/// from its own transaction (to count a key that becomes hot).
pub(in crate::db) struct View<'a> {
    pub conn: &'a Connection,
    pub runs: &'a [Run],
    pub dead: &'a HashSet<GameId>,
    /// The ply up to which early occurrences were checked when indexed.
    pub depth: u32,
}

impl View<'_> {
    /// Every occurrence indexed under `key`, dead games left out, sorted by game and ply.
    pub fn occurrences(&self, key: PositionKey) -> Result<Vec<Occurrence>> {
        let mut postings: Vec<Posting> = Vec::new();
        runs::lookup(self.conn, self.runs, key, &mut postings)?;
        Ok(self.live_occurrences(postings))
    }

    /// [`View::occurrences`] of each of `keys` (ascending as signed integers, each once), in
    /// that order, the blocks they share read once (see [`runs::lookup_many`]).
    pub fn occurrences_many(&self, keys: &[i64]) -> Result<Vec<Vec<Occurrence>>> {
        let postings = runs::lookup_many(self.conn, self.runs, keys)?;
        Ok(postings.into_iter().map(|p| self.live_occurrences(p)).collect())
    }

    /// The occurrences of `postings`, a key's in every run, dead games left out, sorted by game
    /// and ply.
    fn live_occurrences(&self, postings: Vec<Posting>) -> Vec<Occurrence> {
        let mut out: Vec<Occurrence> =
            postings.into_iter().filter(|p| !self.dead.contains(&p.game)).map(Occurrence::from).collect();
        if self.runs.len() > 1 {
            out.sort_unstable();
        }
        out
    }

    /// The occurrences among `occ` (found under `key`) that are of exactly the position
    /// `packed` (see [`pack_position`]).
    pub fn exact(&self, packed: &[u8], key: PositionKey, occ: Vec<Occurrence>) -> Result<Vec<Occurrence>> {
        if occ.is_empty() {
            return Ok(occ);
        }
        let stored = stored_position(self.conn, key.to_i64())?;
        let early_trusted = stored.as_deref() == Some(packed);
        let collisions: HashSet<(GameId, u32)> = {
            let mut stmt = self.conn.prepare_cached("SELECT game, ply FROM collisions WHERE key = ?1")?;
            let rows = stmt.query_map(params![key.to_i64()], |r| Ok((r.get(0)?, r.get(1)?)))?;
            rows.collect::<rusqlite::Result<_>>()?
        };
        let trusted =
            |o: &Occurrence| early_trusted && o.ply <= self.depth && !collisions.contains(&(o.game, o.ply));
        if occ.iter().all(trusted) {
            return Ok(occ);
        }
        // Check the others by replay, one replay per distinct start and move prefix.
        let mut scratch = Vec::with_capacity(64);
        let mut verdicts: HashMap<(Option<String>, Vec<u8>), bool> = HashMap::new();
        let mut keep = Vec::with_capacity(occ.len());
        for o in occ {
            if trusted(&o) {
                keep.push(o);
                continue;
            }
            let Some((start, mut moves)) = self.start_and_moves(o.game)? else {
                continue;
            };
            // Postings past `MOVES_THROUGH` do not store the move played: the game says it.
            let at = 2 * o.ply as usize;
            let next = match moves.get(at..at + 2) {
                Some(&[a, b]) => next_move(u16::from_le_bytes([a, b]))?,
                _ => None,
            };
            moves.truncate(at);
            let group = (start, moves);
            let same = match verdicts.get(&group) {
                Some(&v) => v,
                None => {
                    let mut same = false;
                    let start = start_setup(group.0.as_deref())?;
                    reached(play_stored(&start, &decode_moves(&group.1)?, |ply, pos, _| {
                        if ply == o.ply as usize {
                            scratch.clear();
                            pack_position(pos.setup(), &mut scratch);
                            same = scratch == packed;
                        }
                        Ok(ply < o.ply as usize)
                    }))?;
                    verdicts.insert(group, same);
                    same
                }
            };
            if same {
                keep.push(Occurrence { next, ..o });
            }
        }
        Ok(keep)
    }

    /// The start and stored moves of game `id`, `None` when there is no such game.
    pub fn start_and_moves(&self, id: GameId) -> Result<Option<(Option<String>, Vec<u8>)>> {
        let mut stmt = self.conn.prepare_cached("SELECT start, moves FROM games WHERE id = ?1")?;
        Ok(stmt.query_row([id], |r| Ok((r.get(0)?, r.get(1)?))).optional()?)
    }
}

/// The games of `occ` (the occurrences of one position, sorted by game and ply) and, for each
/// move played from it, the games that played it: each game once.
/// Each game of `occ` (sorted by game and ply) once, with the first ply at which it is there.
pub fn first_plies(occ: &[Occurrence]) -> Vec<(GameId, u32)> {
    let mut first: Vec<(GameId, u32)> = Vec::new();
    for o in occ {
        if first.last().is_none_or(|&(g, _)| g != o.game) {
            first.push((o.game, o.ply));
        }
    }
    first
}

pub(super) fn count(occ: &[Occurrence]) -> (Stats, HashMap<Move, Stats>) {
    let mut games = Stats::default();
    let mut moves: HashMap<Move, Stats> = HashMap::new();
    let mut credited: Vec<Move> = Vec::new();
    let mut current = None;
    for o in occ {
        if current != Some(o.game) {
            current = Some(o.game);
            credited.clear();
            games += o.result;
        }
        let Some(mv) = o.next else {
            continue;
        };
        if !credited.contains(&mv) {
            credited.push(mv);
            *moves.entry(mv).or_default() += o.result;
        }
    }
    (games, moves)
}

impl Snapshot<'_> {
    pub(in crate::db) fn view(&self) -> View<'_> {
        View { conn: &self.tx, runs: &self.runs, dead: &self.dead, depth: self.depth }
    }

    /// Every occurrence indexed under `key`, dead games left out, sorted by game and ply.
    /// Not exact: another position with the same key would be among them, and occurrences
    /// past [`MOVES_THROUGH`](super::blocks::MOVES_THROUGH) do not say the move played (see
    /// [`Snapshot::exact_occurrences`], which has both from the games).
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn occurrences(&self, key: PositionKey) -> Result<Vec<Occurrence>> {
        self.view().occurrences(key)
    }

    /// The occurrences of exactly `position` (board, hands and side to move), optionally
    /// only in the games of `games`.
    ///
    /// # Errors
    ///
    /// Any database failure, or [`Corrupt`] when a game to check does not replay.
    pub fn exact_occurrences(
        &self,
        position: &Setup,
        games: Option<&HashSet<GameId>>,
    ) -> Result<Vec<Occurrence>> {
        let key = PositionKey::of(position);
        let mut occ = self.occurrences(key)?;
        if let Some(set) = games {
            occ.retain(|o| set.contains(&o.game));
        }
        self.exact(position, key, occ)
    }

    /// The occurrences among `occ` (found under `key`, the key of `position`) that are of
    /// exactly `position`.
    fn exact(&self, position: &Setup, key: PositionKey, occ: Vec<Occurrence>) -> Result<Vec<Occurrence>> {
        let mut packed = Vec::with_capacity(64);
        pack_position(position, &mut packed);
        self.view().exact(&packed, key, occ)
    }

    /// The games that reach `position` and the moves played from it, with their counts,
    /// optionally only over the games of `games`.
    ///
    /// # Errors
    ///
    /// Any database failure, or [`Corrupt`] when a game does not replay.
    pub fn position_stats(&self, position: &Setup, games: Option<&HashSet<GameId>>) -> Result<PositionStats> {
        let occ = self.exact_occurrences(position, games)?;
        self.stats(position, &occ, games)
    }

    /// The counts of `occ`, the occurrences of `position` sorted by game and ply; `games`
    /// restricts the games counted as reaching each next position.
    ///
    /// # Errors
    ///
    /// Any database failure, or [`Corrupt`] when a game does not replay.
    pub fn stats(
        &self,
        position: &Setup,
        occ: &[Occurrence],
        games: Option<&HashSet<GameId>>,
    ) -> Result<PositionStats> {
        let (games_stats, played) = count(occ);
        self.answer(position, games_stats, occ.len() as u64, played.into_iter().collect(), games)
    }

    /// The counts of exactly `position` from its hot rows (the `hot` table): `None`
    /// when it is not hot, and the caller counts it from the postings. The same answer as
    /// [`Snapshot::position_stats`] without a filter.
    ///
    /// # Errors
    ///
    /// Any database failure, or [`Corrupt`] when a hot row names a move that is not legal
    /// there.
    pub fn hot_stats(&self, position: &Setup) -> Result<Option<PositionStats>> {
        let Some((games, occurrences, rows)) = self.hot_rows(position)? else {
            return Ok(None);
        };
        let here =
            Position::from_setup(position.clone()).map_err(|_| Corrupt("a hot position is not legal"))?;
        let mut played = Vec::with_capacity(rows.len());
        for (code, stats) in rows {
            match Move::from_code(code).filter(|&mv| here.is_legal(mv)) {
                Some(mv) => played.push((mv, stats)),
                None => return Err(Corrupt("a hot position's move is not legal there").into()),
            }
        }
        self.answer(position, games, occurrences, played, None).map(Some)
    }

    /// The newest games of `position` as its list keeps them when it is hot (the table
    /// `hot_lists`), each with the first ply at which it is there, in no
    /// particular order: when they are every game there or at least `wanted` of them, else
    /// `None` (and for a position that is not hot, or a database without the lists).
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn hot_newest(&self, position: &Setup, wanted: usize) -> Result<Option<Vec<(GameId, u32)>>> {
        let key = PositionKey::of(position);
        // Only hot keys have lists; one is of the position when it is the one stored.
        if !self.hot
            || !crate::db::names::has_table(&self.tx, "hot_lists")?
            || !self.is_stored(key, position)?
        {
            return Ok(None);
        }
        listed::read(&self.tx, key.to_i64(), wanted)
    }

    /// The hot rows of `position`, when its key is hot and the position is the one `keypos`
    /// stores for it.
    fn hot_rows(&self, position: &Setup) -> Result<Option<HotRows>> {
        if !self.hot {
            return Ok(None);
        }
        let key = PositionKey::of(position);
        let Some(rows) = hot::rows(&self.tx, key.to_i64())? else {
            return Ok(None);
        };
        Ok(self.is_stored(key, position)?.then_some(rows))
    }

    /// Whether `position` (whose key is `key`) is the position `keypos` stores for its key.
    fn is_stored(&self, key: PositionKey, position: &Setup) -> Result<bool> {
        let stored = stored_position(&self.tx, key.to_i64())?;
        let mut packed = Vec::with_capacity(64);
        pack_position(position, &mut packed);
        Ok(stored.as_deref() == Some(packed.as_slice()))
    }

    /// A position's answer from its counts (`played`: the moves, legal there, with the games
    /// that played them): each move's `reached` counted over the games of `games` (all
    /// without it: then from the hot rows of the position after the move, when it is hot),
    /// most played moves first.
    fn answer(
        &self,
        position: &Setup,
        games_stats: Stats,
        occurrences: u64,
        played: Vec<(Move, Stats)>,
        games: Option<&HashSet<GameId>>,
    ) -> Result<PositionStats> {
        let mut moves = Vec::with_capacity(played.len());
        for (mv, played) in played {
            let mut child = position.clone();
            child.play_legal(mv);
            let hot = match games {
                None => self.hot_rows(&child)?,
                Some(_) => None,
            };
            let reached = match hot {
                Some((child_games, _, _)) => child_games.games,
                None => distinct_games(&self.exact_occurrences(&child, games)?),
            };
            moves.push(MoveStats { mv, played, reached });
        }
        moves.sort_by(|a, b| b.played.games.cmp(&a.played.games).then(a.mv.code().cmp(&b.mv.code())));
        Ok(PositionStats { games: games_stats, occurrences, moves })
    }
}

impl Snapshot<'_> {
    /// Calls `each(position, stats, first ply)` for every position that some game `games`
    /// keeps reaches at a ply up to `max_ply`, once each, in key order; `stats` counts every
    /// occurrence of the position (at any ply) in those games, and `first ply` is the lowest
    /// ply it was reached at. Memory stays bounded: the index is read a block per run at a time,
    /// and without `games`, a hot key (whose counts are kept) up to the checked depth is read
    /// for its lowest ply alone, however many games reach it. `each` returns false to stop.
    ///
    /// # Errors
    ///
    /// Any database failure, a game that does not replay, or the first error `each` returns.
    pub fn for_each_position<E: From<Error>>(
        &self,
        max_ply: u32,
        games: Option<&HashSet<GameId>>,
        mut each: impl FnMut(&Setup, &PositionStats, u32) -> Result<bool, E>,
    ) -> Result<(), E> {
        let mut failure = None;
        // A hot key none of whose early occurrences is a collision stands for one position up
        // to the checked depth, which the hot rows count: its occurrence of the lowest ply is all
        // the walk needs of it.
        let (hot, collided) = match games {
            None if self.hot && max_ply <= self.depth => (hot::keys(&self.tx)?, collided_keys(&self.tx)?),
            _ => Default::default(),
        };
        let lowest_only = std::cell::Cell::new(false);
        let walked = runs::for_each_key_gathered(
            &self.tx,
            &self.runs,
            |key| {
                let key = key.to_i64();
                lowest_only.set(hot.contains(&key) && !collided.contains(&key));
                Ok(lowest_only.get())
            },
            |p| !self.dead.contains(&p.game),
            |key, postings| {
                let mut occ: Vec<Occurrence> = postings
                    .iter()
                    .map(|&p| Occurrence::from(p))
                    .filter(|o| games.is_none_or(|set| set.contains(&o.game)))
                    .collect();
                // A key may stand for several positions: take them one at a time, each found by
                // replaying its first early occurrence.
                while let Some(first) = occ.iter().filter(|o| o.ply <= max_ply).min_by_key(|o| o.ply).copied()
                {
                    let Some(setup) = self.position_in(first.game, first.ply)? else {
                        occ.retain(|o| o.game != first.game);
                        continue;
                    };
                    let mine = self.exact(&setup, key, occ.clone())?;
                    // `mine` is a subsequence of `occ` (both sorted by game and ply; past
                    // `MOVES_THROUGH`, with the move played filled in): drop it.
                    let mut k = 0;
                    occ.retain(|o| {
                        if mine.get(k).is_some_and(|m| (m.game, m.ply) == (o.game, o.ply)) {
                            k += 1;
                            return false;
                        }
                        *o != first
                    });
                    let hot = match games {
                        None => self.hot_stats(&setup)?,
                        Some(_) => None,
                    };
                    let stats = match hot {
                        Some(stats) => stats,
                        None if lowest_only.get() => return Err(Corrupt("a hot key has no hot rows").into()),
                        None => self.stats(&setup, &mine, games)?,
                    };
                    let lowest = mine.iter().map(|o| o.ply).min().unwrap_or(first.ply);
                    match each(&setup, &stats, lowest) {
                        Ok(true) => {}
                        Ok(false) => return Ok(false),
                        Err(e) => {
                            failure = Some(e);
                            return Ok(false);
                        }
                    }
                }
                Ok(true)
            },
        );
        match (walked, failure) {
            (_, Some(e)) => Err(e),
            (Err(e), None) => Err(e.into()),
            (Ok(()), None) => Ok(()),
        }
    }

    /// The position of game `game` after `ply` moves, `None` when there is no such game.
    fn position_in(&self, game: GameId, ply: u32) -> Result<Option<Setup>> {
        position_in(&self.tx, game, ply)
    }
}

/// The keys some early occurrence of which is a collision.
fn collided_keys(conn: &Connection) -> Result<HashSet<i64>> {
    let mut stmt = conn.prepare_cached("SELECT DISTINCT key FROM collisions")?;
    Ok(stmt.query_map([], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?)
}

impl From<Posting> for Occurrence {
    fn from(p: Posting) -> Occurrence {
        Occurrence { game: p.game, ply: p.ply, next: p.next, result: p.result }
    }
}

/// The number of distinct games among occurrences sorted by game.
pub fn distinct_games(occ: &[Occurrence]) -> u64 {
    let mut n = 0;
    let mut last = None;
    for o in occ {
        if last != Some(o.game) {
            last = Some(o.game);
            n += 1;
        }
    }
    n
}
