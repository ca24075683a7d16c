//! The postings of new games, held in memory until they are written as a run.
//!
//! An entry takes 16 bytes (key, game, ply, move code); the result is kept once per game
//! beside them. Games arrive in increasing id order and each game's positions in ply order, so a
//! stable sort by key alone puts the entries in the (key, game, ply) order of a run.
//! Positions past ply 65,535 of a game are not indexed (no real game comes near).
//!
//! Sorting: keys are hashes, so their top bits spread the entries evenly. The buffer keeps
//! entries apart by the top eight bits of their key as they arrive, each part in the order
//! pushed; sorting then takes each part (a few thousand entries, which the caches hold) and
//! spreads it by the next eight bits into a scratch part, keeping that order, which leaves
//! groups of a few dozen entries for an insertion sort by key. Every step is stable, so no
//! step compares games or plies, and beyond the entries the sort needs only one part's
//! scratch (the buffer is the writer's largest memory). On the entries of the 100,000-game
//! bench corpus this takes a quarter of the time of an in-place radix sort of the whole
//! buffer followed by comparison sorts of its buckets.

use std::collections::HashSet;

use super::{Posting, blocks::next_code};
use crate::{
    db::{GameId, GameResult},
    shogi::{Move, PositionKey},
};

/// A posting in 16 bytes: the key as a signed integer, the game in 32 bits, the ply, and the
/// move as its code ([`next_code`]), which [`Move::from_code`] turns back into the move.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: i64,
    game: u32,
    ply: u16,
    mv: u16,
}

/// Groups this small, after the second spreading, are sorted by insertion.
const SMALL_SORT: usize = 32;

/// The parts of the buffer: one per value of the top eight bits of the key.
const PARTS: usize = 256;

/// The buffer.
#[derive(Debug)]
pub(super) struct PostingBuffer {
    /// The entries by the top eight bits of their key, sign bit flipped (so that the parts
    /// are in the keys' signed order), each in the order pushed until sorted.
    parts: Vec<Vec<Entry>>,
    len: usize,
    /// The first game id in the buffer; `results[i]` is the result of game `first + i`.
    first: u32,
    results: Vec<GameResult>,
}

impl Default for PostingBuffer {
    fn default() -> PostingBuffer {
        PostingBuffer { parts: vec![Vec::new(); PARTS], len: 0, first: 0, results: Vec::new() }
    }
}

/// The part of `key`: its top eight bits, with the sign bit flipped.
fn part(key: i64) -> usize {
    (((key as u64) ^ (1 << 63)) >> 56) as usize
}

impl PostingBuffer {
    /// The number of postings held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the postings of `game` may be held (it is not older than the first game held).
    pub fn may_hold(&self, game: u32) -> bool {
        !self.results.is_empty() && game >= self.first
    }

    /// Makes room for `n` more postings (keys spread evenly, so each part takes a share, with
    /// room for the keys many games reach).
    pub fn reserve(&mut self, n: usize) {
        let share = n / PARTS + n / PARTS / 4;
        for part in &mut self.parts {
            part.reserve(share);
        }
    }

    /// Adds the positions of `game` (its id must be greater than any held): `(key, move
    /// played from it, `None` at the end)` for plies 0, 1, ….
    pub fn push_game(
        &mut self,
        game: u32,
        result: GameResult,
        positions: impl Iterator<Item = (PositionKey, Option<Move>)>,
    ) {
        if self.results.is_empty() {
            self.first = game;
        }
        debug_assert!(game >= self.first + self.results.len() as u32);
        let offset = (game - self.first) as usize;
        self.results.resize(offset, GameResult::Unknown);
        self.results.push(result);
        for (ply, (key, next)) in positions.take(super::MAX_INDEXED_PLY as usize + 1).enumerate() {
            let key = key.to_i64();
            self.parts[part(key)].push(Entry { key, game, ply: ply as u16, mv: next_code(next) });
            self.len += 1;
        }
    }

    /// Sorts the postings into run order and leaves out those of `deleted` games. Returns
    /// the lowest and highest game ids left (`None` when none is).
    pub fn sort(&mut self, deleted: &HashSet<u32>) -> Option<(u32, u32)> {
        if !deleted.is_empty() {
            for part in &mut self.parts {
                part.retain(|e| !deleted.contains(&e.game));
            }
            self.len = self.parts.iter().map(Vec::len).sum();
        }
        let mut scratch = Vec::new();
        for part in &mut self.parts {
            sort_part(part, &mut scratch);
        }
        let games = || self.parts.iter().flatten().map(|e| e.game);
        Some((games().min()?, games().max()?))
    }

    /// The postings, in the order they are held (run order after [`PostingBuffer::sort`]).
    pub fn postings(&self) -> impl Iterator<Item = Posting> + '_ {
        self.parts.iter().flatten().map(|e| Posting {
            key: PositionKey::from_i64(e.key),
            game: GameId(i64::from(e.game)),
            ply: u32::from(e.ply),
            next: Move::from_code(e.mv),
            result: self.results[(e.game - self.first) as usize],
        })
    }

    /// Empties the buffer (keeping its memory for the next postings).
    pub fn clear(&mut self) {
        for part in &mut self.parts {
            part.clear();
        }
        self.len = 0;
        self.results.clear();
    }
}

/// Sorts one part by key, keeping the order of equal keys (see the module documentation):
/// spread by the next eight bits of the key into `scratch`, then each group by insertion.
/// The sorted entries end up in `part` (whose memory may be swapped with `scratch`'s).
fn sort_part(part: &mut Vec<Entry>, scratch: &mut Vec<Entry>) {
    if part.len() <= SMALL_SORT {
        insertion_sort_by_key(part);
        return;
    }
    let digit = |e: &Entry| ((e.key as u64 >> 48) & 0xff) as usize;
    let mut starts = [0usize; 257];
    for e in part.iter() {
        starts[digit(e) + 1] += 1;
    }
    for d in 1..257 {
        starts[d] += starts[d - 1];
    }
    let bounds = starts;
    scratch.clear();
    scratch.resize(part.len(), Entry { key: 0, game: 0, ply: 0, mv: 0 });
    for e in part.iter() {
        let slot = &mut starts[digit(e)];
        scratch[*slot] = *e;
        *slot += 1;
    }
    for group in bounds.windows(2) {
        let group = &mut scratch[group[0]..group[1]];
        if group.len() <= SMALL_SORT {
            insertion_sort_by_key(group);
        } else {
            // A key many games reach, or a few such keys: a stable sort finds its runs.
            group.sort_by_key(|e| e.key);
        }
    }
    std::mem::swap(part, scratch);
}

/// Sorts a few entries by key, keeping the order of equal keys.
fn insertion_sort_by_key(entries: &mut [Entry]) {
    for i in 1..entries.len() {
        let e = entries[i];
        let mut j = i;
        while j > 0 && entries[j - 1].key > e.key {
            entries[j] = entries[j - 1];
            j -= 1;
        }
        entries[j] = e;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drains_in_run_order_with_results() {
        let mut b = PostingBuffer::default();
        let k = PositionKey::from_i64;
        let m = |usi: &str| Some(usi.parse::<Move>().unwrap());
        b.push_game(
            5,
            GameResult::BlackWin,
            [(k(30), m("7g7f")), (k(10), m("3c3d")), (k(30), None)].into_iter(),
        );
        b.push_game(8, GameResult::WhiteWin, [(k(10), m("P*5e")), (k(20), None)].into_iter());
        b.push_game(9, GameResult::Draw, [(k(40), None)].into_iter());
        assert_eq!(b.len(), 6);
        assert_eq!(b.sort(&HashSet::from([9])), Some((5, 8)));
        let got: Vec<(PositionKey, GameId, u32, Option<Move>, GameResult)> =
            b.postings().map(|p| (p.key, p.game, p.ply, p.next, p.result)).collect();
        let (black, white) = (GameResult::BlackWin, GameResult::WhiteWin);
        assert_eq!(
            got,
            [
                (k(10), GameId(5), 1, m("3c3d"), black),
                (k(10), GameId(8), 0, m("P*5e"), white),
                (k(20), GameId(8), 1, None, white),
                (k(30), GameId(5), 0, m("7g7f"), black),
                (k(30), GameId(5), 2, None, black),
            ]
        );
        b.clear();
        assert_eq!(b.len(), 0);
        assert_eq!(b.sort(&HashSet::new()), None);
    }

    #[test]
    fn the_sort_agrees_with_a_stable_sort_by_key() {
        // Keys from a small set (many equal keys), spread over the whole signed range, and
        // games pushed in id order as the writer pushes them.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let keys: Vec<i64> =
            (0..3_000).map(|_| next() as i64).chain([i64::MIN, -1, 0, 1, i64::MAX]).collect();
        // 400,000 postings put several hundred groups past the insertion sort.
        for n in [0, 1, 100, SMALL_SORT, SMALL_SORT + 1, 50_000, 400_000] {
            let mut buffer = PostingBuffer::default();
            let mut expected = Vec::with_capacity(n);
            let mut game = 0;
            while expected.len() < n {
                game += 1 + (next() % 3) as u32;
                let plies = (1 + next() % 120).min((n - expected.len()) as u64);
                let positions: Vec<(i64, Option<Move>)> = (0..plies)
                    .map(|_| {
                        (keys[(next() % keys.len() as u64) as usize], Move::from_code(next() as u16 % 4096))
                    })
                    .collect();
                for (ply, &(key, mv)) in positions.iter().enumerate() {
                    expected.push((key, game, ply as u32, mv));
                }
                let positions = positions.into_iter().map(|(key, mv)| (PositionKey::from_i64(key), mv));
                buffer.push_game(game, GameResult::Unknown, positions);
            }
            expected.sort_by_key(|e| e.0);
            assert_eq!(buffer.len(), n);
            let range = buffer.sort(&HashSet::new());
            let got: Vec<(i64, u32, u32, Option<Move>)> =
                buffer.postings().map(|p| (p.key.to_i64(), p.game.0 as u32, p.ply, p.next)).collect();
            assert_eq!(got, expected, "{n} postings");
            let games = || expected.iter().map(|e| e.1);
            assert_eq!(range, games().min().zip(games().max()));
        }
    }
}
