//! What the writer does to the position index: the postings of new games, buffered and
//! written as a run inside the transaction that stores the games; the exactness check of
//! their early positions; tombstones for deleted games; and merges.
//!
//! Postings are buffered in memory and written as a run when the buffer holds
//! [`RUN_POSTINGS`] (so memory stays bounded whatever the corpus size) and before every
//! commit ([`IndexWriter::flush`]): a game's postings are committed with it, so a reader never
//! sees a game that its position lookups miss. Runs are therefore as small as a transaction's
//! games; the runs a tier has filled are merged after each commit (see the policy in
//! [`runs`](super::runs)), so their number stays bounded during a run too, and the end of a
//! run also merges away the postings of deleted games.

use std::{
    collections::HashSet,
    path::Path,
    sync::atomic::{AtomicBool, Ordering},
};

use rusqlite::{Connection, TransactionBehavior, params};

use super::{
    FirstSeen, KEYPOS_MAX_PLY,
    buffer::PostingBuffer,
    cache::KeyPositions,
    check_depth,
    hot::{Hit, Hot, scan_once},
    packed::{Packer, pack_position},
    posting_game, runs, stored_position_packing,
};
use crate::{
    db::{
        Corrupt, Error, GameId, GameResult, Result,
        codec::decode_moves,
        play::{Unplayable, play_stored, reached},
        read::start_setup,
    },
    shogi::{Move, PositionKey, Setup},
};

/// Postings held in memory before they are written as a run (16 MiB; about 10,000 games).
pub const RUN_POSTINGS: usize = 1 << 20;
/// Room for the postings of the game that fills a run, beyond the run itself.
const RESERVE_SLACK: usize = 1 << 16;

/// A new game's part of the index, prepared on a worker thread: its moves, the key of every
/// position, and the exact positions of the early ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamePositions {
    start: Setup,
    moves: Vec<Move>,
    /// The key of every position, plies 0 to the end.
    keys: Vec<PositionKey>,
    /// The packed positions of plies 0 to `min(plies, KEYPOS_MAX_PLY)`, one after the other;
    /// `early_ends[i]` is where ply `i` ends.
    early: Vec<u8>,
    early_ends: Vec<u32>,
}

impl GamePositions {
    /// The positions of the game that plays `moves` (legal, as a replay found them) from
    /// `start`, whose keys are `keys` (one per position, the last after every move).
    pub fn new(start: &Setup, moves: Vec<Move>, keys: Vec<PositionKey>) -> GamePositions {
        let n = moves.len().min(KEYPOS_MAX_PLY as usize);
        let mut early = Vec::with_capacity(56 * (n + 1));
        let mut early_ends = Vec::with_capacity(n + 1);
        let mut setup = start.clone();
        let mut packer = Packer::new(&setup);
        packer.pack(&setup, &mut early);
        early_ends.push(early.len() as u32);
        for &mv in &moves[..n] {
            setup.play_legal(mv);
            if let Move::Normal { from, .. } = mv {
                packer.update(&setup, from);
            }
            packer.update(&setup, mv.to());
            packer.pack(&setup, &mut early);
            early_ends.push(early.len() as u32);
        }
        GamePositions { start: start.clone(), moves, keys, early, early_ends }
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The packed positions of the early plies, from ply 0.
    fn early(&self) -> impl Iterator<Item = &[u8]> {
        let starts = std::iter::once(0).chain(self.early_ends.iter().copied());
        starts.zip(&self.early_ends).map(|(start, &end)| &self.early[start as usize..end as usize])
    }
}

/// What the index needs of a deleted game: the row it had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemovedGame {
    pub plies: i64,
    pub start: Option<String>,
    pub moves: Vec<u8>,
    pub result: GameResult,
}

/// The writer's side of the index.
pub struct IndexWriter {
    postings: PostingBuffer,
    /// The games deleted since the buffer was last written whose postings it may hold.
    deleted: HashSet<u32>,
    keypos: KeyPositions,
    /// Early occurrences of keys the cache does not hold, checked against `keypos` in key
    /// order by [`IndexWriter::settle`].
    unsettled: Unsettled,
    hot: Hot,
    /// A game's occurrences of hot positions (reused from game to game).
    hits: Vec<Hit>,
    /// The highest game id indexed so far.
    last_game: GameId,
    run_postings: usize,
}

impl IndexWriter {
    /// The index of the database of `conn`.
    ///
    /// # Errors
    ///
    /// [`Corrupt`] when the database records no depth it may have been checked to (see
    /// [`check_depth`]); any database failure.
    pub fn open(conn: &Connection) -> Result<IndexWriter> {
        check_depth(conn)?;
        let empty = conn.query_row("SELECT NOT EXISTS(SELECT 1 FROM keypos)", [], |r| r.get(0))?;
        Ok(IndexWriter {
            postings: PostingBuffer::default(),
            deleted: HashSet::new(),
            keypos: KeyPositions::new(empty),
            unsettled: Unsettled::default(),
            hot: Hot::load(conn)?,
            hits: Vec::new(),
            last_game: GameId(0),
            run_postings: RUN_POSTINGS,
        })
    }

    /// Sets the number of postings buffered before a run is written (at least 1).
    pub fn set_run_postings(&mut self, n: usize) {
        self.run_postings = n.max(1);
    }

    /// Sets the number of games that make a position hot (see [`hot`](super::hot)).
    pub fn set_hot_games(&mut self, games: u32) {
        self.hot.set_threshold(games);
    }

    /// Gives back the memory of the buffer, the cache and the unsettled occurrences (a merge
    /// needs none of it).
    pub fn release_memory(&mut self) {
        self.postings = PostingBuffer::default();
        self.keypos = KeyPositions::new(false);
        // Empty once the last batch was written; its room is given back.
        self.unsettled = Unsettled::default();
    }

    /// Adds the postings of the new game `id` (greater than any indexed before), which has
    /// `result`, checks its early positions against `keypos`, and counts it in the hot
    /// positions it reaches.
    ///
    /// # Errors
    ///
    /// [`Corrupt`] for an id past 32 bits; any database failure.
    pub fn add_game(
        &mut self,
        conn: &Connection,
        id: GameId,
        result: GameResult,
        positions: &GamePositions,
    ) -> Result<()> {
        let game = posting_game(id)?;
        self.last_game = id;
        if self.postings.len() == 0 {
            // Room for a full run at once, so the buffer never grows by copying.
            self.postings
                .reserve(self.run_postings.saturating_add(RESERVE_SLACK).min(RUN_POSTINGS + RESERVE_SLACK));
        }
        let next = positions.moves.iter().copied().map(Some).chain(std::iter::once(None));
        self.postings.push_game(game, result, positions.keys.iter().copied().zip(next));
        let mut hits = std::mem::take(&mut self.hits);
        hits.clear();
        let next = |ply: usize| positions.moves.get(ply).copied();
        for (ply, (&key, position)) in positions.keys.iter().zip(positions.early()).enumerate() {
            let ply = ply as u32;
            if !self.hot.contains(key.to_i64()) {
                self.check_early(conn, key, position, id, ply)?;
            } else if self.compare_now(conn, key.to_i64(), position, id, ply)? {
                hits.push((key.to_i64(), next(ply as usize), ply));
            }
        }
        if !self.hot.is_empty() {
            // Later occurrences of hot keys (rare: a return to an opening position) were not
            // checked: compare their positions now.
            let early = positions.early_ends.len();
            let late: Vec<usize> = (early..positions.keys.len())
                .filter(|&ply| self.hot.contains(positions.keys[ply].to_i64()))
                .collect();
            if let Some(&last) = late.last() {
                let mut setup = positions.start.clone();
                let mut packed = Vec::with_capacity(64);
                for (ply, &mv) in positions.moves[..last].iter().enumerate() {
                    setup.play_legal(mv);
                    if late.binary_search(&(ply + 1)).is_ok() {
                        let key = positions.keys[ply + 1].to_i64();
                        packed.clear();
                        pack_position(&setup, &mut packed);
                        if self.is_stored(conn, key, &packed)? {
                            hits.push((key, next(ply + 1), ply as u32 + 1));
                        }
                    }
                }
            }
        }
        self.hot.count_game(id, &mut hits, result, 1);
        self.hits = hits;
        Ok(())
    }

    /// Notes that the game `id`, just added, has one record, dated `date`: the lists of the
    /// newest games sort it by that date without looking it up.
    pub fn dated(&mut self, id: GameId, date: Option<&str>) {
        self.hot.dated(id, date);
    }

    /// Whether `position` is the one `keypos` stores for `key` (false when it stores none),
    /// compared where the cache holds it.
    fn is_stored(&mut self, conn: &Connection, key: i64, position: &[u8]) -> Result<bool> {
        Ok(self.stored_is(conn, key, position)?.unwrap_or(false))
    }

    /// Whether `position` is the one `keypos` stores for `key`; `None` when it stores none.
    fn stored_is(&mut self, conn: &Connection, key: i64, position: &[u8]) -> Result<Option<bool>> {
        if let Some(p) = self.keypos.get(key) {
            return Ok(Some(p == position));
        }
        if self.keypos.complete() {
            return Ok(None);
        }
        Ok(stored_position_packing(conn, key)?.map(|p| {
            let same = p == position;
            self.keypos.insert(key, p.into());
            same
        }))
    }

    /// Checks an early occurrence against the position stored for its key: at once when the
    /// cache holds it, otherwise with the other such occurrences, in key order, by
    /// [`IndexWriter::settle`]. A key's first occurrence is stored for it when it has none;
    /// one that differs from the stored position is recorded as a collision.
    fn check_early(
        &mut self,
        conn: &Connection,
        key: PositionKey,
        position: &[u8],
        game: GameId,
        ply: u32,
    ) -> Result<()> {
        let key = key.to_i64();
        match self.keypos.get(key) {
            Some(stored) => {
                if stored != position {
                    collision(conn, key, game, ply)?;
                }
            }
            None => {
                self.unsettled.push(key, position, game, ply);
                if self.unsettled.len() >= UNSETTLED {
                    self.settle(conn)?;
                }
            }
        }
        Ok(())
    }

    /// Compares an early occurrence of a key whose position is stored (a hot key) with it,
    /// records a collision when it differs, and returns whether it is the same.
    fn compare_now(
        &mut self,
        conn: &Connection,
        key: i64,
        position: &[u8],
        game: GameId,
        ply: u32,
    ) -> Result<bool> {
        let same = self.stored_is(conn, key, position)?.ok_or(Corrupt("a hot key has no stored position"))?;
        if !same {
            collision(conn, key, game, ply)?;
        }
        Ok(same)
    }

    /// Checks the occurrences [`IndexWriter::check_early`] left, key after key, so that the
    /// pages of `keypos` are read and written in order, each once: for a key the table does
    /// not hold, the first occurrence (by game, then ply) is stored.
    fn settle(&mut self, conn: &Connection) -> Result<()> {
        let mut entries = std::mem::take(&mut self.unsettled.entries);
        // A key's occurrences in the order they came, by game and then ply (no two share both).
        entries.sort_unstable_by_key(|e| (e.key, e.game, e.ply));
        let mut insert =
            conn.prepare_cached("INSERT INTO keypos(key, position) VALUES (?1, ?2) ON CONFLICT DO NOTHING")?;
        for group in entries.chunk_by(|a, b| a.key == b.key) {
            let key = group[0].key;
            let first = &group[0];
            let seen = FirstSeen { game: first.game, ply: first.ply };
            let stored: Box<[u8]> = if insert.execute(params![key, seen.code()])? == 1 {
                self.unsettled.position(first).into()
            } else {
                stored_position_packing(conn, key)?.ok_or(Corrupt("a key of keypos has no row"))?.into()
            };
            for e in group {
                if *self.unsettled.position(e) != *stored {
                    collision(conn, key, e.game, e.ply)?;
                }
            }
            self.keypos.insert(key, stored);
        }
        entries.clear();
        self.unsettled.entries = entries;
        self.unsettled.bytes.clear();
        Ok(())
    }

    /// Takes game `id`, about to be deleted, out of the index: its postings are dead until
    /// their runs are merged, its collisions are forgotten, it is taken off the hot positions
    /// it reached, and the rows of `keypos` that name its occurrences get their positions
    /// instead (all played back from `stored`, its row). Its row must still be stored.
    ///
    /// # Errors
    ///
    /// [`Corrupt`] when the game does not play back; any database failure.
    pub fn remove_game(&mut self, conn: &Connection, id: GameId, stored: &RemovedGame) -> Result<()> {
        // Its own occurrences still waiting to be checked (those of a game added in this
        // batch) are stored, and may be named, before the rows that name it are rewritten.
        // (Others meet those rows rewritten.) They come in the order of their games.
        let entries = &self.unsettled.entries;
        if entries.first().is_some_and(|e| e.game <= id) && entries.last().is_some_and(|e| e.game >= id) {
            self.settle(conn)?;
        }
        self.keep_positions(conn, id, stored)?;
        conn.prepare_cached("INSERT OR REPLACE INTO dead(game, postings) VALUES (?1, ?2)")?
            .execute(params![id, stored.plies + 1])?;
        if !self.hot.is_empty() {
            let mut hits = self.hot_hits(conn, stored.start.as_deref(), &stored.moves)?;
            self.hot.count_game(id, &mut hits, stored.result, -1);
            self.hits = hits;
        }
        conn.prepare_cached("DELETE FROM collisions WHERE game = ?1")?.execute([id])?;
        let game = posting_game(id)?;
        if self.postings.may_hold(game) {
            self.deleted.insert(game);
        }
        Ok(())
    }

    /// Writes into the rows of `keypos` that name an occurrence of game `id` (played back
    /// from `stored`) its position, so that they no longer need the game.
    fn keep_positions(&mut self, conn: &Connection, id: GameId, stored: &RemovedGame) -> Result<()> {
        let mut early = Vec::new();
        reached(play_stored(
            &start_setup(stored.start.as_deref())?,
            &decode_moves(&stored.moves)?,
            |ply, pos, _| {
                let mut packed = Vec::with_capacity(64);
                pack_position(pos.setup(), &mut packed);
                early.push((pos.key().to_i64(), FirstSeen { game: id, ply: ply as u32 }.code(), packed));
                Ok::<_, Unplayable>(ply < KEYPOS_MAX_PLY as usize)
            },
        ))?;
        let mut keep =
            conn.prepare_cached("UPDATE keypos SET position = ?3 WHERE key = ?1 AND position = ?2")?;
        for (key, seen, packed) in early {
            keep.execute(params![key, seen, packed])?;
        }
        Ok(())
    }

    /// Sorts stored game `id` again in the lists of the newest games of the hot positions it
    /// reaches: it gained or lost a record, and the record shown for it may have changed.
    ///
    /// # Errors
    ///
    /// [`Corrupt`] when the game does not play back; any database failure.
    pub fn records_changed(&mut self, conn: &Connection, id: GameId) -> Result<()> {
        if self.hot.is_empty() {
            return Ok(());
        }
        let (start, moves): (Option<String>, Vec<u8>) = conn
            .prepare_cached("SELECT start, moves FROM games WHERE id = ?1")?
            .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))?;
        let mut hits = self.hot_hits(conn, start.as_deref(), &moves)?;
        self.hot.sort_again(id, &mut hits);
        self.hits = hits;
        Ok(())
    }

    /// The occurrences of hot positions in the stored game that plays `moves` (encoded) from
    /// `start` (a SFEN, `None` for the even start), found by playing it back.
    fn hot_hits(&mut self, conn: &Connection, start: Option<&str>, moves: &[u8]) -> Result<Vec<Hit>> {
        let mut hits = std::mem::take(&mut self.hits);
        hits.clear();
        let mut keys = Vec::new();
        let played = play_stored(&start_setup(start)?, &decode_moves(moves)?, |ply, pos, next| {
            if self.hot.contains(pos.key().to_i64()) {
                let mut packed = Vec::with_capacity(64);
                pack_position(pos.setup(), &mut packed);
                keys.push((pos.key().to_i64(), next, ply as u32, packed));
            }
            Ok::<_, Unplayable>(true)
        });
        reached(played)?;
        for (key, next, ply, packed) in keys {
            if self.is_stored(conn, key, &packed)? {
                hits.push((key, next, ply));
            }
        }
        Ok(hits)
    }

    /// Writes the buffer as a run when it is full.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn flush_if_full(&mut self, conn: &Connection) -> Result<()> {
        if self.postings.len() >= self.run_postings {
            self.flush(conn)?;
        }
        Ok(())
    }

    /// Writes the buffer as a run, and records that every game indexed so far has its
    /// postings in a run; inside the transaction that stores the games.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn flush(&mut self, conn: &Connection) -> Result<()> {
        self.settle(conn)?;
        self.hot.write(conn)?;
        let deleted = std::mem::take(&mut self.deleted);
        if let Some((min, max)) = self.postings.sort(&deleted) {
            let mut candidates = self.hot.candidates();
            let postings = self.postings.postings().inspect(|p| candidates.see(p));
            runs::write(conn, postings, self.postings.len(), min, max)?;
            // Counted after the run is written, so that the count takes its postings in.
            let made = self.hot.promote(conn, candidates.finish())?;
            self.hot.extend(made);
        }
        self.postings.clear();
        self.hot.make_short_lists(conn)?;
        conn.prepare_cached(
            "UPDATE meta SET value = ?1 WHERE key = 'indexed_through' AND CAST(value AS INTEGER) < ?1",
        )?
        .execute([self.last_game.0.to_string()])?;
        Ok(())
    }

    /// Counts, once per database, the runs written before hot positions existed (see
    /// [`hot`](super::hot)), in a transaction of its own.
    ///
    /// # Errors
    ///
    /// Any database failure.
    pub fn scan_hot(&mut self, conn: &mut Connection) -> Result<()> {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let made = scan_once(&tx, &self.hot)?;
        tx.commit()?;
        self.hot.extend(made);
        Ok(())
    }

    /// Checks the early occurrences of the stored games past the depth the database was
    /// checked to, up to [`KEYPOS_MAX_PLY`], and records that depth (see the module
    /// documentation of the index). Games a run left out of the index are left to
    /// [`IndexWriter::recover`], which checks them as new games. Inside the caller's
    /// transaction: a run killed meanwhile leaves the database as it was.
    ///
    /// # Errors
    ///
    /// [`Corrupt`] when a stored game does not play back; any database failure.
    pub fn deepen(&mut self, conn: &Connection) -> Result<()> {
        let depth = check_depth(conn)?;
        if depth == KEYPOS_MAX_PLY {
            return Ok(());
        }
        let through: i64 = indexed_through(conn)?;
        let mut stmt = conn.prepare("SELECT id, start, moves FROM games WHERE id <= ?1 ORDER BY id")?;
        let mut rows = stmt.query([through])?;
        // The positions of plies past the depth: (ply, key, where its packed form ends).
        let (mut late, mut packed) = (Vec::new(), Vec::with_capacity(64 * 8));
        while let Some(row) = rows.next()? {
            let (id, start, moves): (GameId, Option<String>, Vec<u8>) =
                (row.get(0)?, row.get(1)?, row.get(2)?);
            let (start, moves) = (start_setup(start.as_deref())?, decode_moves(&moves)?);
            late.clear();
            packed.clear();
            // A game whose start is not a legal position reaches none (see `reached`).
            reached(play_stored(&start, &moves, |ply, pos, _| {
                let ply = ply as u32;
                if ply > depth {
                    pack_position(pos.setup(), &mut packed);
                    late.push((ply, pos.key(), packed.len()));
                }
                Ok::<_, Unplayable>(ply < KEYPOS_MAX_PLY)
            }))?;
            let mut from = 0;
            for &(ply, key, end) in &late {
                self.check_early(conn, key, &packed[from..end], id, ply)?;
                from = end;
            }
        }
        self.settle(conn)?;
        conn.execute(
            "UPDATE meta SET value = ?1 WHERE key = 'keypos_max_ply'",
            [KEYPOS_MAX_PLY.to_string()],
        )?;
        Ok(())
    }

    /// Makes the lists of the newest games of the hot keys that have none, from the live runs,
    /// at the end of an index run: the keys it made hot, those of a run that did not end
    /// (killed or stopped), and those of a database made before the lists existed. Until then
    /// a reader answers such a key from the postings.
    ///
    /// # Errors
    ///
    /// [`Error::Interrupted`] as soon as `stop` returns true; [`Corrupt`] when a game to check
    /// does not replay; any database failure.
    pub fn list_hot(
        &mut self,
        conn: &Connection,
        threads: Option<ReaderThreads<'_>>,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Result<()> {
        let keys: Vec<i64> = conn
            .prepare("SELECT key FROM hot WHERE move = 0 AND key NOT IN (SELECT key FROM hot_lists)")?
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        let threads = match threads {
            Some(t) if conn.query_row("PRAGMA journal_mode", [], |r| r.get::<_, String>(0))? == "wal" => {
                Some(t)
            }
            _ => None,
        };
        self.hot.make_lists(conn, keys, threads, stop)
    }

    /// Adds stored game `id` (greater than any indexed before), which plays `moves` from
    /// `start` and has `result`, as [`IndexWriter::add_game`] does, its positions found by
    /// playing it back. A game whose start is not a legal position (only an older kifudex
    /// stored such games) reaches none.
    ///
    /// # Errors
    ///
    /// [`Corrupt`] when a move is illegal; any database failure.
    pub fn add_stored_game(
        &mut self,
        conn: &Connection,
        id: GameId,
        result: GameResult,
        start: &Setup,
        moves: Vec<Move>,
    ) -> Result<()> {
        let mut keys = Vec::with_capacity(moves.len() + 1);
        if reached(play_stored(start, &moves, |_, pos, _| {
            keys.push(pos.key());
            Ok::<_, Unplayable>(true)
        }))? {
            self.add_game(conn, id, result, &GamePositions::new(start, moves, keys))?;
        }
        Ok(())
    }

    /// Rebuilds, inside the transaction of `conn`, the postings of the games that a run of an
    /// older kifudex, which committed games before their postings, left out of the runs when
    /// it was killed.
    ///
    /// # Errors
    ///
    /// [`Corrupt`] when `meta.indexed_through` is not a number or a game does not play back;
    /// any database failure.
    pub fn recover(&mut self, conn: &Connection) -> Result<()> {
        let through = indexed_through(conn)?;
        let ids: Vec<GameId> = conn
            .prepare("SELECT id FROM games WHERE id > ?1 ORDER BY id")?
            .query_map([through], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        if ids.is_empty() {
            return Ok(());
        }
        for id in ids {
            let (start, moves, result): (Option<String>, Vec<u8>, GameResult) = conn
                .prepare_cached("SELECT start, moves, result FROM games WHERE id = ?1")?
                .query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
            self.add_stored_game(conn, id, result, &start_setup(start.as_deref())?, decode_moves(&moves)?)?;
            self.last_game = id;
        }
        self.flush(conn)
    }
}

/// Occurrences left to [`IndexWriter::settle`] before it is called mid-batch, so that their
/// memory stays bounded (about 64 bytes each).
const UNSETTLED: usize = 1 << 17;

/// Early occurrences not yet checked: the key, game and ply of each, and its packed position.
#[derive(Debug, Default)]
struct Unsettled {
    entries: Vec<UnsettledEntry>,
    bytes: Vec<u8>,
}

#[derive(Clone, Copy, Debug)]
struct UnsettledEntry {
    key: i64,
    game: GameId,
    ply: u32,
    /// Where its packed position lies in `bytes`.
    start: u32,
    end: u32,
}

impl Unsettled {
    fn push(&mut self, key: i64, position: &[u8], game: GameId, ply: u32) {
        let start = self.bytes.len() as u32;
        self.bytes.extend_from_slice(position);
        self.entries.push(UnsettledEntry { key, game, ply, start, end: self.bytes.len() as u32 });
    }

    fn len(&self) -> usize {
        self.entries.len()
    }

    fn position(&self, e: &UnsettledEntry) -> &[u8] {
        &self.bytes[e.start as usize..e.end as usize]
    }
}

/// Records that occurrence `ply` of game `game` under `key` is not of the position stored for
/// the key.
fn collision(conn: &Connection, key: i64, game: GameId, ply: u32) -> Result<()> {
    conn.prepare_cached("INSERT OR IGNORE INTO collisions(key, game, ply) VALUES (?1, ?2, ?3)")?
        .execute(params![key, game, ply])?;
    Ok(())
}

/// The highest game id whose postings the index holds (games above it are recovered).
fn indexed_through(conn: &Connection) -> Result<i64> {
    Ok(conn
        .query_row("SELECT value FROM meta WHERE key = 'indexed_through'", [], |r| r.get::<_, String>(0))?
        .parse()
        .map_err(|_| Corrupt("meta.indexed_through is not a number"))?)
}

/// Threads that share out the work of the end of a run, each reading the database file at
/// `path` on a connection of its own: a merge of at least a full run's postings (as the index
/// writer buffers them) is cut into this many ranges of keys, each merged on a thread, and the
/// lists of newest games of the keys a run made hot are made on them too. Smaller merges,
/// those of a run that indexed a few files, and a few lists, are not worth the threads.
#[derive(Clone, Copy, Debug)]
pub struct ReaderThreads<'a> {
    pub path: &'a Path,
    pub threads: usize,
}

/// Merges runs as the policy in [`runs`] says, each merge in a transaction of its own; with
/// `all`, also every run when dead games fill too much of them. Returns the runs merged, and
/// whether `stop` cut the merges short (the one under way is then rolled back). Large merges
/// take `threads` when the connection is in WAL mode, where other connections read what the
/// last commit left while a transaction writes.
///
/// # Errors
///
/// [`Corrupt`] when a run does not decode; any database failure.
pub fn merge_runs(
    conn: &mut Connection,
    index: &mut IndexWriter,
    all: bool,
    stop: Option<&AtomicBool>,
    threads: Option<ReaderThreads<'_>>,
) -> Result<(usize, bool)> {
    let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
    let threads = match threads.filter(|t| t.threads > 1) {
        Some(t) if conn.query_row("PRAGMA journal_mode", [], |r| r.get::<_, String>(0))? == "wal" => Some(t),
        _ => None,
    };
    let mut merged = 0;
    loop {
        let live = runs::live(conn)?;
        let dead_postings: i64 = if all {
            conn.query_row("SELECT coalesce(sum(postings), 0) FROM dead", [], |r| r.get(0))?
        } else {
            0
        };
        let Some(plan) = runs::plan(&live, all, dead_postings) else {
            return Ok((merged, false));
        };
        if stopped() {
            return Ok((merged, true));
        }
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        // One bit a game id: a set of any size in little memory, and the fastest test.
        let mut dead: Vec<u64> = Vec::new();
        {
            let mut stmt = tx.prepare_cached("SELECT game FROM dead")?;
            for id in stmt.query_map([], |r| r.get::<_, GameId>(0))? {
                let id = posting_game(id?)? as usize;
                if dead.len() <= id / 64 {
                    dead.resize(id / 64 + 1, 0);
                }
                dead[id / 64] |= 1 << (id % 64);
            }
        }
        let is_dead = |g: GameId| dead.get(g.0 as usize / 64).is_some_and(|w| w & (1 << (g.0 % 64)) != 0);
        let candidates = index.hot.candidates();
        let postings: i64 = plan.iter().map(|r| r.postings).sum();
        let found = match threads.filter(|_| postings >= index.run_postings as i64) {
            Some(t) => runs::merge_parallel(
                &tx,
                t.path,
                &runs::KeyRange::split(t.threads),
                &plan,
                is_dead,
                stopped,
                || candidates.clone(),
                |c, p| c.see(p),
            )
            .map(|(_, parts)| parts.into_iter().flat_map(|c| c.finish()).collect()),
            None => {
                let mut candidates = candidates;
                runs::merge(&tx, &plan, is_dead, stopped, |p| candidates.see(p)).map(|_| candidates.finish())
            }
        };
        let found: Vec<i64> = match found {
            Err(Error::Interrupted) => {
                tx.rollback()?;
                return Ok((merged, true));
            }
            found => found?,
        };
        tx.execute(
            "DELETE FROM dead WHERE NOT EXISTS
               (SELECT 1 FROM runs WHERE dead.game BETWEEN runs.min_game AND runs.max_game)",
            [],
        )?;
        let made = index.hot.promote(&tx, found)?;
        tx.commit()?;
        index.hot.extend(made);
        merged += plan.len();
    }
}
