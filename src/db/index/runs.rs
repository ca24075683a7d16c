//! Runs of posting blocks: writing a sorted run, looking a key up, and merging runs.
//!
//! Runs are immutable. A run is written in the transaction that empties the postings
//! buffer; a merge writes one new run from several, dropping the postings of dead games, and
//! deletes the old ones, all in one transaction.
//!
//! Merge policy (size-tiered): a run's tier grows by one for every factor of
//! [`TIER_FACTOR`] in its size past [`TIER_BASE`] postings. At the end of an index run, a
//! tier that holds [`TIER_FACTOR`] runs is merged into one run of the next tier. During an
//! index run (the writer checks after every commit) a tier waits until it holds
//! [`RUN_TIER_FILL`] runs: the end of the run merges them anyway, mostly all at once, so a
//! merge during the run would rewrite its postings once more for nothing but the lookups of
//! readers in the meantime (a block per run). At the end of an index run every run is merged
//! when dead games account for more than a fifth of all postings, or when the runs besides the largest hold a quarter of
//! them or more (what index runs added since the last such merge): a bulk index run leaves
//! one run, so that a lookup reads one block rather than one in each of ten runs (the first
//! answers of the serving benchmark took a quarter less CPU), and a posting is rewritten by
//! these merges a bounded number of times as the archive grows. Between index runs a lookup
//! reads at most `TIER_FACTOR - 1` runs per tier (`RUN_TIER_FILL - 1` during one), and each
//! posting is rewritten about once per tier. So a bulk run of up to about 128 commits (a
//! million games) writes each posting twice, once in its run and once in the final merge,
//! whatever its size.
//!
//! A large merge runs on threads, each merging a range of keys: it reads the old runs on a
//! read-only connection of its own, as the last commit left them, and hands the blocks it
//! makes and the old blocks it has read through to the writer's connection, which writes
//! the one transaction. Over the 100,000-game bench corpus, two threads took the final merge
//! from 0.95 s to 0.62 s.
//!
//! Runs are as small as the transactions that write them, down to a single game. Sixteen
//! runs of a tier above the first always merge into a run of the next tier; the first tier
//! takes runs of any size below [`TIER_BASE`] × [`TIER_FACTOR`] postings, so tiny runs are
//! merged with the run their predecessors made until it leaves the tier. Keeping the base
//! small bounds that rewriting.

use std::{
    cmp::Reverse,
    collections::{BinaryHeap, binary_heap::PeekMut},
    path::Path,
};

use rusqlite::{Connection, OptionalExtension, params};

use super::{
    Posting,
    blocks::{Block, BlockBuilder, BlockPostings, RunShape, decode_block, decode_block_keys},
    readers::on_readers,
};
use crate::{
    db::{Corrupt, Error, GameId, Result},
    shogi::PositionKey,
};

/// Runs smaller than this many postings, times [`TIER_FACTOR`], are all in the first tier
/// (4,096 postings, a few dozen games).
const TIER_BASE: i64 = 1 << 8;
/// Runs per tier before they are merged, and the size ratio between tiers. Sixteen: a
/// lookup reads one block per run (a few for the commonest keys), cheap next to rewriting
/// every posting once more per tier.
const TIER_FACTOR: usize = 16;

/// Runs per tier before they are merged during an index run (see the module documentation).
/// Until the run ends, a lookup reads up to a block in each of this many runs per tier: a run
/// stopped at 880,000 games left 88 runs, and answers after 10 plies took 70 ms instead of
/// 9.3 ms with the 14 runs that merging at [`TIER_FACTOR`] leaves; the million-game run took
/// 182 µs of CPU a game instead of 206.
pub(super) const RUN_TIER_FILL: usize = 128;

/// Postings a merge reads between two looks at its stop flag.
const STOP_CHECK: u32 = 1 << 14;

/// A live run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    pub id: i64,
    pub postings: i64,
}

/// Writes `count` postings (sorted, of games `min` to `max`) as a new run. Returns its id.
pub(super) fn write(
    conn: &Connection,
    postings: impl Iterator<Item = Posting>,
    count: usize,
    min: u32,
    max: u32,
) -> Result<i64> {
    conn.prepare_cached("INSERT INTO runs(postings, min_game, max_game) VALUES (?1, ?2, ?3)")?
        .execute(params![count as i64, min, max])?;
    let run = conn.last_insert_rowid();
    let mut builder = BlockBuilder::new(RunShape { postings: count as u64, min_game: min, max_game: max });
    for p in postings {
        for block in builder.push(p) {
            insert_block(conn, run, &block)?;
        }
    }
    for block in builder.finish() {
        insert_block(conn, run, &block)?;
    }
    Ok(run)
}

fn insert_block(conn: &Connection, run: i64, block: &Block) -> Result<()> {
    conn.prepare_cached("INSERT INTO pblocks(run, lo, n, data) VALUES (?1, ?2, ?3, ?4)")?
        .execute(params![run, block.lo.to_i64(), block.n, block.data])?;
    Ok(())
}

/// The live runs, oldest first.
pub fn live(conn: &Connection) -> Result<Vec<Run>> {
    let mut stmt = conn.prepare_cached("SELECT id, postings FROM runs ORDER BY id")?;
    let runs = stmt.query_map([], |r| Ok(Run { id: r.get(0)?, postings: r.get(1)? }))?;
    Ok(runs.collect::<rusqlite::Result<_>>()?)
}

/// Appends the postings of `key` in every run of `runs` to `out` (run by run; each run's
/// postings sorted by game and ply).
pub(super) fn lookup(
    conn: &Connection,
    runs: &[Run],
    key: PositionKey,
    out: &mut Vec<Posting>,
) -> Result<()> {
    // The block whose first key is the greatest not above `key`, or every piece of `key`
    // when its postings fill several (see the block format in `codec`).
    let mut stmt = conn.prepare_cached(
        "SELECT lo, data FROM pblocks
         WHERE run = ?1 AND lo = (SELECT lo FROM pblocks WHERE run = ?1 AND lo <= ?2 ORDER BY lo DESC LIMIT 1)
         ORDER BY id",
    )?;
    for run in runs {
        // Decoded where SQLite holds them, without copying the blocks out.
        let mut rows = stmt.query(params![run.id, key.to_i64()])?;
        while let Some(row) = rows.next()? {
            decode_block(PositionKey::from_i64(row.get(0)?), row.get_ref(1)?.as_blob()?, Some(key), out)?;
        }
    }
    Ok(())
}

/// [`lookup`] for each of `keys` (ascending as signed integers, each once): the postings of
/// `keys[i]` in `out[i]`, in the order [`lookup`] gives them. The keys a block holds are found
/// in one decoding of it, up to the last of them, where a lookup each reads the block and
/// decodes it from its start again.
pub(super) fn lookup_many(conn: &Connection, runs: &[Run], keys: &[i64]) -> Result<Vec<Vec<Posting>>> {
    debug_assert!(keys.is_sorted() && keys.windows(2).all(|w| w[0] != w[1]), "keys ascend, each once");
    let mut out = vec![Vec::new(); keys.len()];
    let mut first =
        conn.prepare_cached("SELECT lo FROM pblocks WHERE run = ?1 AND lo <= ?2 ORDER BY lo DESC LIMIT 1")?;
    let mut next = conn.prepare_cached("SELECT min(lo) FROM pblocks WHERE run = ?1 AND lo > ?2")?;
    let mut blocks =
        conn.prepare_cached("SELECT data FROM pblocks WHERE run = ?1 AND lo = ?2 ORDER BY id")?;
    let mut found = Vec::new();
    for run in runs {
        let mut i = 0;
        while i < keys.len() {
            // The blocks whose `lo` is the greatest not above `keys[i]` hold every key below
            // the next `lo`.
            let lo: Option<i64> = first.query_row(params![run.id, keys[i]], |r| r.get(0)).optional()?;
            let Some(lo) = lo else {
                i += 1;
                continue;
            };
            let next: Option<i64> = next.query_row(params![run.id, lo], |r| r.get(0))?;
            let end = i + keys[i..].partition_point(|&k| next.is_none_or(|next| k < next));
            let group = &keys[i..end];
            found.clear();
            // Decoded where SQLite holds them, without copying the blocks out.
            let mut rows = blocks.query(params![run.id, lo])?;
            while let Some(row) = rows.next()? {
                decode_block_keys(PositionKey::from_i64(lo), row.get_ref(0)?.as_blob()?, group, &mut found)?;
            }
            for p in found.drain(..) {
                let at = group
                    .binary_search(&p.key.to_i64())
                    .map_err(|_| Corrupt("a block gave a key not asked for"))?;
                out[i + at].push(p);
            }
            i = end;
        }
    }
    Ok(out)
}

/// The tier of a run of `postings` postings.
fn tier(postings: i64) -> u32 {
    let mut t = 0;
    let mut size = postings / TIER_BASE;
    while size >= TIER_FACTOR as i64 {
        size /= TIER_FACTOR as i64;
        t += 1;
    }
    t
}

/// The runs to merge next, if any (see the module documentation): at the end of an index run
/// (`at_end`), when `dead_postings` are the postings of dead games; else during one.
pub(super) fn plan(runs: &[Run], at_end: bool, dead_postings: i64) -> Option<Vec<Run>> {
    let total: i64 = runs.iter().map(|r| r.postings).sum();
    let largest = runs.iter().map(|r| r.postings).max().unwrap_or(0);
    if at_end && runs.len() > 1 && (dead_postings * 5 > total || (total - largest) * 4 >= total) {
        return Some(runs.to_vec());
    }
    full_tier(runs, if at_end { TIER_FACTOR } else { RUN_TIER_FILL })
}

/// The runs of the lowest tier that holds `fill` runs or more.
fn full_tier(runs: &[Run], fill: usize) -> Option<Vec<Run>> {
    let mut tiers: Vec<u32> = runs.iter().map(|r| tier(r.postings)).collect();
    tiers.sort_unstable();
    tiers.dedup();
    tiers.into_iter().find_map(|t| {
        let members: Vec<Run> = runs.iter().copied().filter(|r| tier(r.postings) == t).collect();
        (members.len() >= fill).then_some(members)
    })
}

/// A range of keys, as SQLite orders them (signed): from `start` on, up to `end` if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct KeyRange {
    pub start: i64,
    pub end: Option<i64>,
}

impl KeyRange {
    /// Every key.
    pub const ALL: KeyRange = KeyRange { start: i64::MIN, end: None };

    fn contains(&self, key: i64) -> bool {
        key >= self.start && self.end.is_none_or(|end| key < end)
    }

    /// `parts` ranges of about equal width, in key order, that cover every key: keys are
    /// spread evenly over the 64-bit space, so their postings are about equal too.
    pub fn split(parts: usize) -> Vec<KeyRange> {
        let parts = parts.max(1) as i128;
        let bound = |i: i128| (i64::MIN as i128 + (i * (1i128 << 64)) / parts) as i64;
        (0..parts).map(|i| KeyRange { start: bound(i), end: (i + 1 < parts).then(|| bound(i + 1)) }).collect()
    }
}

/// One run being read block by block, in key order, over a range of keys. In a merge
/// (`consume`), the blocks it has read through are listed in `through`, for the merge to
/// delete: the pages they free take the merged blocks written after them, so the file does
/// not grow by the size of the merge (all in the merge's one transaction, so readers see the
/// old runs until it commits). A block whose first key lies before the range belongs to the
/// range before, which lists it.
struct Cursor {
    run: i64,
    range: KeyRange,
    consume: bool,
    last: Option<(i64, i64)>,
    /// The block being read, and its posting under the cursor.
    block: Option<BlockPostings>,
    head: Option<Posting>,
    through: Vec<i64>,
}

impl Cursor {
    /// A cursor on the postings of `run` in `range`, at the first of them; `None` when the
    /// run has none.
    fn open(conn: &Connection, run: i64, range: KeyRange, consume: bool) -> Result<Option<Cursor>> {
        let mut c = Cursor { run, range, consume, last: None, block: None, head: None, through: Vec::new() };
        if !c.advance(conn)? {
            return Ok(None);
        }
        while c.current().key.to_i64() < range.start {
            if !c.step(conn)? {
                return Ok(None);
            }
        }
        if !range.contains(c.current().key.to_i64()) {
            // The first posting of the range's keys is past its end.
            c.read_through();
            return Ok(None);
        }
        Ok(Some(c))
    }

    /// The posting under the cursor.
    fn current(&self) -> Posting {
        self.head.expect("a cursor that has not ended is on a posting")
    }

    /// Moves to the next posting of the range, loading the next block when needed; false at
    /// the end.
    fn step(&mut self, conn: &Connection) -> Result<bool> {
        self.head = match &mut self.block {
            Some(block) => block.read()?,
            None => None,
        };
        let more = self.head.is_some() || self.advance(conn)?;
        if more && self.range.end.is_some_and(|end| self.current().key.to_i64() >= end) {
            // The rest of the block is the next range's, but the block is this range's to
            // delete when it starts in it.
            self.read_through();
            return Ok(false);
        }
        Ok(more)
    }

    /// Lists the block under the cursor as read through, when it is the range's.
    fn read_through(&mut self) {
        if let Some((id, _)) = self.last.filter(|&(_, lo)| self.consume && self.range.contains(lo)) {
            self.through.push(id);
        }
    }

    /// Loads the run's next block (the first that may hold a key of the range, at first);
    /// false when there is none.
    fn advance(&mut self, conn: &Connection) -> Result<bool> {
        let next = |r: &rusqlite::Row<'_>| Ok((r.get(0)?, r.get(1)?, r.get(2)?));
        let block: Option<(i64, i64, Vec<u8>)> = match self.last {
            // The range's keys start in the last block whose first key is not above its
            // start (in the first piece of that key when its postings fill several), or in
            // the first block when there is none.
            None => conn
                .prepare_cached(
                    "SELECT id, lo, data FROM pblocks WHERE run = ?1
                       AND lo >= coalesce((SELECT max(lo) FROM pblocks WHERE run = ?1 AND lo <= ?2), ?2)
                     ORDER BY lo, id LIMIT 1",
                )?
                .query_row(params![self.run, self.range.start], next)
                .optional()?,
            Some((id, lo)) => {
                self.read_through();
                conn.prepare_cached(
                    "SELECT id, lo, data FROM pblocks WHERE run = ?1 AND (lo, id) > (?2, ?3)
                     ORDER BY lo, id LIMIT 1",
                )?
                .query_row(params![self.run, lo, id], next)
                .optional()?
            }
        };
        (self.block, self.head) = (None, None);
        let Some((id, lo, data)) = block else {
            return Ok(false);
        };
        self.last = Some((id, lo));
        let mut postings = BlockPostings::new(PositionKey::from_i64(lo), data)?;
        self.head = postings.read()?;
        self.block = Some(postings);
        Ok(self.head.is_some())
    }
}

/// Which cursor of a merge holds the next posting: a heap of each cursor's posting (its
/// place in run order) with the cursor's index, smallest first. The top is replaced in place
/// as its cursor steps on, one sift instead of a pop and a push.
struct Heads(BinaryHeap<Reverse<(u128, usize)>>);

impl Heads {
    /// The heap entry of cursor `i` at posting `p`: its key, game and ply (no two postings
    /// share them) in one number that sorts as they do, then the cursor.
    fn entry(p: &Posting, i: usize) -> Reverse<(u128, usize)> {
        // The key's sign bit flipped sorts it as a signed number; game ids of postings fit
        // in 32 bits, and so do plies.
        let key = (p.key.to_i64() as u64 ^ 1 << 63) as u128;
        Reverse((key << 64 | (p.game.0 as u32 as u128) << 32 | p.ply as u128, i))
    }

    /// The cursor whose posting comes next; `None` when every cursor has ended.
    fn top(&self) -> Option<usize> {
        self.0.peek().map(|Reverse(e)| e.1)
    }

    /// Moves the top cursor on: `next` is its posting now, `None` when it has ended.
    fn advance(&mut self, next: Option<Posting>) {
        if let Some(mut top) = self.0.peek_mut() {
            match next {
                Some(p) => *top = Heads::entry(&p, top.0.1),
                None => drop(PeekMut::pop(top)),
            }
        }
    }
}

/// A cursor on each run of `runs` that has postings, and the heads of a merge in posting
/// order over them.
fn open_cursors(
    conn: &Connection,
    runs: &[Run],
    range: KeyRange,
    consume: bool,
) -> Result<(Vec<Cursor>, Heads)> {
    let mut cursors = Vec::with_capacity(runs.len());
    let mut heap = BinaryHeap::with_capacity(runs.len());
    for run in runs {
        if let Some(c) = Cursor::open(conn, run.id, range, consume)? {
            heap.push(Heads::entry(&c.current(), cursors.len()));
            cursors.push(c);
        }
    }
    Ok((cursors, Heads(heap)))
}

/// Calls `each(key, postings)` for every key of `runs`, in key order, with all its postings
/// (sorted by game and ply), reading one block per run at a time; `each` returns false to
/// stop.
pub(super) fn for_each_key(
    conn: &Connection,
    runs: &[Run],
    each: impl FnMut(PositionKey, &[Posting]) -> Result<bool>,
) -> Result<()> {
    for_each_key_gathered(conn, runs, |_| Ok(false), |_| true, each)
}

/// [`for_each_key`] with the postings `live` keeps, except that for a key for which
/// `lowest_only(key)` is true, `each` gets only the first of its postings of the lowest ply:
/// then memory stays within a block per run, however many games a key has.
pub(super) fn for_each_key_gathered(
    conn: &Connection,
    runs: &[Run],
    mut lowest_only: impl FnMut(PositionKey) -> Result<bool>,
    live: impl Fn(&Posting) -> bool,
    mut each: impl FnMut(PositionKey, &[Posting]) -> Result<bool>,
) -> Result<()> {
    let (mut cursors, mut heads) = open_cursors(conn, runs, KeyRange::ALL, false)?;
    let mut group: Vec<Posting> = Vec::new();
    let (mut key, mut lowest) = (None, false);
    while let Some(i) = heads.top() {
        let p = cursors[i].current();
        if key != Some(p.key) {
            if let Some(key) = key {
                if !each(key, &group)? {
                    return Ok(());
                }
                group.clear();
            }
            key = Some(p.key);
            lowest = lowest_only(p.key)?;
        }
        if live(&p) {
            if !lowest {
                group.push(p);
            } else if group.first().is_none_or(|g| p.ply < g.ply) {
                group.clear();
                group.push(p);
            }
        }
        let c = &mut cursors[i];
        heads.advance(c.step(conn)?.then(|| c.current()));
    }
    if let Some(key) = key {
        each(key, &group)?;
    }
    Ok(())
}

/// The shape of the run that merging `runs` makes: at most their postings, within the range
/// of their games.
fn merged_shape(conn: &Connection, runs: &[Run]) -> Result<RunShape> {
    let mut stmt = conn.prepare_cached("SELECT min_game, max_game FROM runs WHERE id = ?1")?;
    let mut shape = RunShape { postings: 0, min_game: u32::MAX, max_game: 0 };
    for run in runs {
        let (min, max): (i64, i64) = stmt.query_row([run.id], |r| Ok((r.get(0)?, r.get(1)?)))?;
        let min = u32::try_from(min).map_err(|_| Corrupt("a run's games are past 32 bits"))?;
        let max = u32::try_from(max).map_err(|_| Corrupt("a run's games are past 32 bits"))?;
        shape.postings += run.postings.max(0) as u64;
        shape.min_game = shape.min_game.min(min);
        shape.max_game = shape.max_game.max(max);
    }
    shape.max_game = shape.max_game.max(shape.min_game);
    Ok(shape)
}

/// Merges `merged` into one new run, leaving out the postings of games for which `dead`
/// is true, and deletes the old runs; `see` sees every posting written, in order. Must run
/// inside a transaction. Returns the postings written.
///
/// # Errors
///
/// [`Error::Interrupted`] as soon as `stop` returns true (the transaction must then be
/// rolled back); any database failure.
pub(super) fn merge(
    conn: &Connection,
    merged: &[Run],
    dead: impl Fn(GameId) -> bool,
    stop: impl Fn() -> bool,
    mut see: impl FnMut(&Posting),
) -> Result<i64> {
    let shape = merged_shape(conn, merged)?;
    let run = new_run(conn)?;
    let made = merge_range(conn, merged, KeyRange::ALL, shape, &dead, &stop, &mut see, &mut |made| {
        write_made(conn, run, made)
    })?;
    end_merge(conn, merged, run, made)
}

/// [`merge`] on a thread for each of `ranges` (in key order, covering every key), each
/// reading its range of the old runs on a read-only connection of its own to the file at
/// `path`, as the last commit left it (so the connection of the transaction must be in WAL
/// mode), while this thread writes what they make. Each thread's postings are seen by a
/// watcher of its own, made by `watch`, with `see`; returns the postings written and the
/// watchers, in key order.
///
/// # Errors
///
/// As [`merge`]; also a failure to open or read the file on another connection.
#[allow(clippy::too_many_arguments)]
pub(super) fn merge_parallel<W: Send>(
    conn: &Connection,
    path: &Path,
    ranges: &[KeyRange],
    merged: &[Run],
    dead: impl Fn(GameId) -> bool + Sync,
    stop: impl Fn() -> bool + Sync,
    watch: impl Fn() -> W + Sync,
    see: impl Fn(&mut W, &Posting) + Sync,
) -> Result<(i64, Vec<W>)> {
    let shape = merged_shape(conn, merged)?;
    let run = new_run(conn)?;
    let parts = on_readers(
        path,
        "kifudex-merge",
        ranges,
        MADE_IN_FLIGHT,
        |reader, &range, halt, made| {
            let mut watcher = watch();
            let halt = || stop() || halt();
            let see = &mut |p: &Posting| see(&mut watcher, p);
            let merged = merge_range(reader, merged, range, shape, &dead, &halt, see, &mut |m| made(m))?;
            Ok((merged, watcher))
        },
        |made| write_made(conn, run, made),
    )?;
    let mut total = Merged::default();
    let mut watchers = Vec::with_capacity(parts.len());
    for (made, watcher) in parts {
        total.add(made);
        watchers.push(watcher);
    }
    Ok((end_merge(conn, merged, run, total)?, watchers))
}

/// Blocks a merge has in flight between its threads and the writer, at most: a few
/// megabytes.
const MADE_IN_FLIGHT: usize = 256;

/// What merging a range of keys makes: a block of the new run, or an old block read
/// through, to delete.
enum Made {
    Block(Block),
    ReadThrough(i64),
}

/// What a merge of a range of keys wrote: postings, and the range of their games.
#[derive(Clone, Copy, Debug)]
struct Merged {
    written: i64,
    min: i64,
    max: i64,
}

impl Default for Merged {
    fn default() -> Merged {
        Merged { written: 0, min: i64::MAX, max: 0 }
    }
}

impl Merged {
    fn add(&mut self, other: Merged) {
        self.written += other.written;
        self.min = self.min.min(other.min);
        self.max = self.max.max(other.max);
    }
}

/// A new run, empty until its merge ends.
fn new_run(conn: &Connection) -> Result<i64> {
    conn.prepare_cached("INSERT INTO runs(postings, min_game, max_game) VALUES (0, 0, 0)")?.execute([])?;
    Ok(conn.last_insert_rowid())
}

fn write_made(conn: &Connection, run: i64, made: Made) -> Result<()> {
    match made {
        Made::Block(block) => insert_block(conn, run, &block),
        Made::ReadThrough(id) => {
            conn.prepare_cached("DELETE FROM pblocks WHERE id = ?1")?.execute([id])?;
            Ok(())
        }
    }
}

/// Merges the postings of `range` in the runs `merged`, read on `conn`, into blocks cut for
/// a run of `shape`: each block made, and each old block read through, goes to `made`.
#[allow(clippy::too_many_arguments)]
fn merge_range(
    conn: &Connection,
    merged: &[Run],
    range: KeyRange,
    shape: RunShape,
    dead: &impl Fn(GameId) -> bool,
    stop: &impl Fn() -> bool,
    see: &mut impl FnMut(&Posting),
    made: &mut impl FnMut(Made) -> Result<()>,
) -> Result<Merged> {
    let (mut cursors, mut heads) = open_cursors(conn, merged, range, true)?;
    let mut builder = BlockBuilder::new(shape);
    let mut done = Merged::default();
    let mut read = 0u32;
    while let Some(i) = heads.top() {
        let p = cursors[i].current();
        read = read.wrapping_add(1);
        if read % STOP_CHECK == 0 && stop() {
            return Err(Error::Interrupted);
        }
        if !dead(p.game) {
            if !(i64::from(shape.min_game)..=i64::from(shape.max_game)).contains(&p.game.0) {
                return Err(Corrupt("a run holds a game outside the range it records").into());
            }
            see(&p);
            done.add(Merged { written: 1, min: p.game.0, max: p.game.0 });
            for block in builder.push(p) {
                made(Made::Block(block))?;
            }
        }
        let c = &mut cursors[i];
        heads.advance(c.step(conn)?.then(|| c.current()));
        for id in c.through.drain(..) {
            made(Made::ReadThrough(id))?;
        }
    }
    for block in builder.finish() {
        made(Made::Block(block))?;
    }
    Ok(done)
}

/// Deletes the old runs of a merge, and records the new run `run` that `made` filled (or
/// deletes it, empty). Returns its postings.
fn end_merge(conn: &Connection, merged: &[Run], run: i64, made: Merged) -> Result<i64> {
    for old in merged {
        conn.prepare_cached("DELETE FROM pblocks WHERE run = ?1")?.execute([old.id])?;
        conn.prepare_cached("DELETE FROM runs WHERE id = ?1")?.execute([old.id])?;
    }
    if made.written == 0 {
        conn.prepare_cached("DELETE FROM runs WHERE id = ?1")?.execute([run])?;
    } else {
        conn.prepare_cached("UPDATE runs SET postings = ?2, min_game = ?3, max_game = ?4 WHERE id = ?1")?
            .execute(params![run, made.written, made.min, made.max])?;
    }
    Ok(made.written)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(sizes: &[i64]) -> Vec<Run> {
        sizes.iter().enumerate().map(|(i, &postings)| Run { id: i as i64 + 1, postings }).collect()
    }

    fn posting(key: i64, game: u32, ply: u32) -> Posting {
        Posting {
            key: PositionKey::from_i64(key),
            game: GameId(i64::from(game)),
            ply,
            next: crate::shogi::Move::from_code(1 + ply as u16),
            result: crate::db::GameResult::from_code((game % 3) as u8),
        }
    }

    /// Each run's postings: a hot key with 10,000 postings (several blocks), and keys on
    /// either side of it.
    fn sample_runs() -> Vec<Vec<Posting>> {
        (0..3u32)
            .map(|r| {
                let games = r * 20_000 + 1..r * 20_000 + 10_001;
                let mut run: Vec<Posting> = games.clone().map(|g| posting(500, g, 0)).collect();
                for g in games.step_by(7) {
                    run.extend([posting(i64::from(g) * 1_000_003, g, 3), posting(-i64::from(g), g, 9)]);
                }
                run.sort();
                run
            })
            .collect()
    }

    #[test]
    fn lookups_walks_and_merges_read_keys_cut_into_several_blocks() {
        let mut conn = Connection::open_in_memory().unwrap();
        crate::db::migrate::migrate(&mut conn).unwrap();
        let runs_in = sample_runs();
        for run in &runs_in {
            let game = |p: &Posting| p.game.0 as u32;
            let (min, max) = (run.iter().map(game).min().unwrap(), run.iter().map(game).max().unwrap());
            write(&conn, run.iter().copied(), run.len(), min, max).unwrap();
        }
        let pieces: i64 =
            conn.query_row("SELECT count(*) FROM pblocks WHERE lo = 500", [], |r| r.get(0)).unwrap();
        assert!(pieces >= 6, "10,000 postings of a key in each run fill {pieces} blocks");
        let all: Vec<Posting> = {
            let mut all: Vec<Posting> = runs_in.concat();
            all.sort();
            all
        };
        check(&conn, &all);
        let dead = |g: GameId| g.0 % 5 == 0;
        let written = merge(&conn, &live(&conn).unwrap(), dead, || false, |_| {}).unwrap();
        let survivors: Vec<Posting> = all.iter().copied().filter(|p| !dead(p.game)).collect();
        assert_eq!(written, survivors.len() as i64);
        assert_eq!(live(&conn).unwrap().len(), 1);
        check(&conn, &survivors);
    }

    /// The runs of `conn` hold exactly `all`: looked up key by key, and walked in order.
    fn check(conn: &Connection, all: &[Posting]) {
        let live = live(conn).unwrap();
        let mut keys: Vec<PositionKey> = all.iter().map(|p| p.key).collect();
        keys.dedup();
        for &key in keys.iter().step_by(13).chain([&PositionKey::from_i64(500)]) {
            let mut found = Vec::new();
            lookup(conn, &live, key, &mut found).unwrap();
            found.sort();
            let want: Vec<Posting> = all.iter().copied().filter(|p| p.key == key).collect();
            assert_eq!(found, want, "key {key:?}");
        }
        // Looked up together, keys that share blocks, keys below every block and absent ones
        // among them, each gets what a lookup of its own gets, in the same order.
        let mut many: Vec<i64> = keys.iter().map(|k| k.to_i64()).step_by(3).collect();
        many.extend([i64::MIN, 500, 501, i64::MAX]);
        many.sort_unstable();
        many.dedup();
        let found = lookup_many(conn, &live, &many).unwrap();
        for (&key, found) in many.iter().zip(&found) {
            let mut alone = Vec::new();
            lookup(conn, &live, PositionKey::from_i64(key), &mut alone).unwrap();
            assert_eq!(found, &alone, "key {key}");
        }
        let mut walked = Vec::new();
        for_each_key(conn, &live, |key, postings| {
            assert!(postings.iter().all(|p| p.key == key));
            walked.extend_from_slice(postings);
            Ok(true)
        })
        .unwrap();
        assert_eq!(walked, all);
    }

    /// A database file in WAL mode holding the sample runs, and their postings in order.
    fn sample_file(dir: &Path) -> (Connection, std::path::PathBuf, Vec<Posting>) {
        let path = dir.join("k.sqlite");
        let mut conn = Connection::open(&path).unwrap();
        crate::db::migrate::migrate(&mut conn).unwrap();
        assert_eq!(
            conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get::<_, String>(0)).unwrap(),
            "wal"
        );
        let runs_in = sample_runs();
        for run in &runs_in {
            write(&conn, run.iter().copied(), run.len(), 1, 60_000).unwrap();
        }
        let mut all = runs_in.concat();
        all.sort();
        (conn, path, all)
    }

    #[test]
    fn a_merge_on_threads_makes_the_run_one_thread_makes_and_frees_the_old_blocks_as_it_goes() {
        let dir = tempfile::tempdir().unwrap();
        let (mut conn, path, all) = sample_file(dir.path());
        let pages =
            |conn: &Connection| conn.query_row("PRAGMA page_count", [], |r| r.get::<_, i64>(0)).unwrap();
        let blocks_pages = pages(&conn) - {
            let empty = Connection::open_in_memory().unwrap();
            empty.pragma_update(None, "page_size", crate::db::PAGE_SIZE).unwrap();
            let mut empty = empty;
            crate::db::migrate::migrate(&mut empty).unwrap();
            pages(&empty)
        };
        // Ranges that cut runs inside their blocks: one ends just before the key whose
        // postings fill several blocks, one holds only that key, and the next starts right
        // after it, inside its last block.
        let ranges = [
            KeyRange { start: i64::MIN, end: Some(-30_000) },
            KeyRange { start: -30_000, end: Some(500) },
            KeyRange { start: 500, end: Some(501) },
            KeyRange { start: 501, end: Some(7_000_021_000) },
            KeyRange { start: 7_000_021_000, end: None },
        ];
        let dead = |g: GameId| g.0 % 5 == 0;
        let survivors: Vec<Posting> = all.iter().copied().filter(|p| !dead(p.game)).collect();
        let before = pages(&conn);
        let tx = conn.transaction().unwrap();
        let (written, seen) = merge_parallel(
            &tx,
            &path,
            &ranges,
            &live(&tx).unwrap(),
            dead,
            || false,
            Vec::new,
            |seen: &mut Vec<Posting>, p| seen.push(*p),
        )
        .unwrap();
        tx.commit().unwrap();
        assert_eq!(written, survivors.len() as i64);
        assert_eq!(seen.len(), ranges.len());
        for (range, seen) in ranges.iter().zip(&seen) {
            assert!(seen.iter().all(|p| range.contains(p.key.to_i64())), "{range:?}");
        }
        assert_eq!(seen.concat(), survivors, "each thread saw its range's postings, in order");
        assert_eq!(live(&conn).unwrap().len(), 1);
        check(&conn, &survivors);
        // Had the old blocks been deleted only at the end, the file would have grown by about
        // the pages they held.
        let grown = pages(&conn) - before;
        assert!(grown * 4 < blocks_pages, "the file grew by {grown} pages, its blocks held {blocks_pages}");
        // Cut anywhere, the ranges give the same postings.
        for parts in [1, 2, 7] {
            let ranges = KeyRange::split(parts);
            assert_eq!(ranges.len(), parts);
            assert_eq!((ranges[0].start, ranges[parts - 1].end), (i64::MIN, None));
            assert!(ranges.windows(2).all(|w| w[0].end == Some(w[1].start) && w[0].start < w[1].start));
        }
    }

    #[test]
    fn a_merge_on_threads_that_is_stopped_says_so_and_leaves_the_runs() {
        let dir = tempfile::tempdir().unwrap();
        let (mut conn, path, all) = sample_file(dir.path());
        let tx = conn.transaction().unwrap();
        let runs = live(&tx).unwrap();
        let merged =
            merge_parallel(&tx, &path, &KeyRange::split(3), &runs, |_| false, || true, || (), |_, _| {});
        assert!(matches!(merged, Err(Error::Interrupted)), "{:?}", merged.map(|m| m.0));
        tx.rollback().unwrap();
        assert_eq!(live(&conn).unwrap(), runs);
        check(&conn, &all);
    }

    #[test]
    fn a_stopped_merge_says_so() {
        let mut conn = Connection::open_in_memory().unwrap();
        crate::db::migrate::migrate(&mut conn).unwrap();
        for run in sample_runs() {
            write(&conn, run.iter().copied(), run.len(), 1, 60_000).unwrap();
        }
        let merged = merge(&conn, &live(&conn).unwrap(), |_| false, || true, |_| {});
        assert!(matches!(merged, Err(Error::Interrupted)), "{merged:?}");
    }

    #[test]
    fn runs_of_any_size_stay_few_and_are_rewritten_a_bounded_number_of_times() {
        // 3,000 runs written one after another, from runs of one posting to runs of a thousand
        // games, each tier merged once it holds `fill` runs: sixteen, as between index runs,
        // and 128, as during one.
        for fill in [TIER_FACTOR, RUN_TIER_FILL] {
            for size in [1, 20, 100, 5_000, 100_000] {
                let (mut live, mut next_id, mut rewritten) = (Vec::new(), 1, 0i64);
                for _ in 0..3_000 {
                    live.push(Run { id: next_id, postings: size });
                    next_id += 1;
                    while let Some(plan) = full_tier(&live, fill) {
                        let sum: i64 = plan.iter().map(|r| r.postings).sum();
                        rewritten += sum;
                        live.retain(|r| !plan.contains(r));
                        live.push(Run { id: next_id, postings: sum });
                        next_id += 1;
                    }
                    let tiers = tier(live.iter().map(|r| r.postings).sum()) as usize + 1;
                    assert!(live.len() < tiers * fill, "{} runs of {size} postings", live.len());
                }
                if size < TIER_BASE * TIER_FACTOR as i64 {
                    // The first tier rewrites what its small runs made until it leaves the
                    // tier, so small runs cost more rewriting than their size, but never more
                    // than a first tier's worth (4,096 postings) a run, on average.
                    let bound = 3_000 * TIER_BASE * TIER_FACTOR as i64;
                    assert!(rewritten <= bound, "runs of {size}: {rewritten} postings rewritten");
                } else if fill == TIER_FACTOR {
                    // Above it, every posting is rewritten once a tier: groups of 16 runs,
                    // then of 256 (3,000 runs make 187 groups of 16, 11 of 256).
                    assert_eq!(rewritten, (187 * 16 + 11 * 256) * size, "runs of {size}");
                } else {
                    // 3,000 runs make 23 groups of 128, and 23 merged runs fill no tier.
                    assert_eq!(rewritten, 23 * 128 * size, "runs of {size}");
                }
            }
        }
    }

    #[test]
    fn tiers_merge_when_full() {
        assert_eq!(plan(&runs(&[2_000_000; 5]), false, 0), None);
        assert_eq!(plan(&runs(&[100; RUN_TIER_FILL - 1]), false, 0), None);
        // Sixteen runs of a tier wait during an index run, and are merged at its end.
        let mut sizes = vec![30_000_000];
        sizes.extend([100; TIER_FACTOR]);
        assert_eq!(plan(&runs(&sizes), false, 0), None);
        let small = plan(&runs(&sizes), true, 0).unwrap();
        assert_eq!(small.len(), TIER_FACTOR);
        assert!(small.iter().all(|r| r.postings == 100));
        let mut sizes = vec![2_000_000, 2_000_000];
        sizes.extend([100; RUN_TIER_FILL]);
        let small = plan(&runs(&sizes), false, 0).unwrap();
        assert_eq!(small.len(), RUN_TIER_FILL);
        assert!(small.iter().all(|r| r.postings == 100));
        assert_eq!(plan(&runs(&[1_000, 1_000]), true, 500).map(|r| r.len()), Some(2));
        assert_eq!(plan(&runs(&[1_000]), true, 900), None);
        // At the end of a run, every run when those besides the largest hold a quarter of the
        // postings or more: what the run added since the last such merge.
        let bulk = [16_000_000, 16_000_000, 1_000_000, 1_000_000];
        assert_eq!(plan(&runs(&bulk), false, 0), None);
        assert_eq!(plan(&runs(&bulk), true, 0).map(|r| r.len()), Some(4));
        assert_eq!(plan(&runs(&[30_000_000, 10_000_000]), true, 0).map(|r| r.len()), Some(2));
        assert_eq!(plan(&runs(&[30_000_000, 9_000_000]), true, 0), None);
        assert_eq!(plan(&runs(&[100_000_000, 1_000_000, 1_000_000]), true, 0), None);
    }

    #[test]
    fn runs_of_the_first_block_format_are_read_and_merged_into_the_second() {
        let mut conn = Connection::open_in_memory().unwrap();
        crate::db::migrate::migrate(&mut conn).unwrap();
        // A run written by an older kifudex, one block of the first format, by hand: per key
        // varint(key gap) and varint(count), per posting varint(game gap),
        // varint(ply << 2 | result) and the move in two bytes. Its late posting has a move.
        let old = [posting(-5, 4, 2), posting(-5, 9, 30), posting(70, 4, 3)];
        let mut data = vec![0, 2];
        for (i, p) in old.iter().enumerate() {
            if i == 2 {
                data.extend([75, 1]);
            }
            let gap = if i == 1 { 5 } else { 4 };
            data.extend([gap, (p.ply << 2) as u8 | p.result.code()]);
            data.extend(p.next.unwrap().code().to_le_bytes());
        }
        conn.execute("INSERT INTO runs(id, postings, min_game, max_game) VALUES (1, 3, 4, 9)", []).unwrap();
        conn.execute("INSERT INTO pblocks(run, lo, n, data) VALUES (1, -5, 3, ?1)", [&data]).unwrap();
        let new = [posting(-5, 12, 40), posting(70, 11, 1)];
        write(&conn, new.iter().copied(), 2, 11, 12).unwrap();
        let find = |conn: &Connection, key: i64| {
            let mut found = Vec::new();
            lookup(conn, &live(conn).unwrap(), PositionKey::from_i64(key), &mut found).unwrap();
            found.sort();
            found
        };
        let late = |p: Posting| Posting { next: None, ..p };
        assert_eq!(find(&conn, -5), [old[0], old[1], late(new[0])]);
        assert_eq!(find(&conn, 70), [old[2], new[1]]);
        merge(&conn, &live(&conn).unwrap(), |_| false, || false, |_| {}).unwrap();
        let format: Vec<u8> = conn.query_row("SELECT data FROM pblocks", [], |r| r.get(0)).unwrap();
        assert_eq!(format[0], 2, "the merged run is of the second format");
        assert_eq!(find(&conn, -5), [old[0], late(old[1]), late(new[0])]);
        assert_eq!(find(&conn, 70), [old[2], new[1]]);
    }
}
