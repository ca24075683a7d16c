//! The postings of new games, held in memory until they are written as a run.
//!
//! An entry takes 16 bytes (key, game, ply, move code); the result is kept once per game
//! beside them. Games arrive in increasing id order and each game's positions in ply order, so a
//! stable sort by key alone puts the entries in the (key, game, ply) order of a run.
//! Positions past ply 65,535 of a game are not indexed (no real game comes near).
//!
//! Sorting: keys are hashes, so their top bits spread the entries evenly. In-place passes
//! of a most-significant-digit radix sort, eight bits at a time, leave buckets of a few
//! dozen entries, each then sorted by (key, game, ply) on its own. That is several times
//! fewer instructions than a comparison sort of the whole buffer, and, unlike a stable merge
//! sort, needs no second buffer of half the entries (the buffer is the writer's largest
//! memory).

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

impl Entry {
    /// The order of a run: key (as a signed integer), game, ply.
    fn order(&self) -> (i64, u32, u16) {
        (self.key, self.game, self.ply)
    }
}

/// Buckets this small are sorted by comparison.
const SMALL_SORT: usize = 48;

/// The buffer.
#[derive(Debug, Default)]
pub(super) struct PostingBuffer {
    entries: Vec<Entry>,
    /// The first game id in the buffer; `results[i]` is the result of game `first + i`.
    first: u32,
    results: Vec<GameResult>,
}

impl PostingBuffer {
    /// The number of postings held.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the postings of `game` may be held (it is not older than the first game held).
    pub fn may_hold(&self, game: u32) -> bool {
        !self.results.is_empty() && game >= self.first
    }

    /// Makes room for `n` more postings.
    pub fn reserve(&mut self, n: usize) {
        self.entries.reserve(n);
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
        for (ply, (key, next)) in positions.take(usize::from(u16::MAX) + 1).enumerate() {
            self.entries.push(Entry { key: key.to_i64(), game, ply: ply as u16, mv: next_code(next) });
        }
    }

    /// Sorts the postings into run order and leaves out those of `deleted` games. Returns
    /// the lowest and highest game ids left (`None` when none is).
    pub fn sort(&mut self, deleted: &HashSet<u32>) -> Option<(u32, u32)> {
        if !deleted.is_empty() {
            self.entries.retain(|e| !deleted.contains(&e.game));
        }
        sort_entries(&mut self.entries);
        let min = self.entries.iter().map(|e| e.game).min()?;
        let max = self.entries.iter().map(|e| e.game).max()?;
        Some((min, max))
    }

    /// The postings, in the order they are held (run order after [`PostingBuffer::sort`]).
    pub fn postings(&self) -> impl Iterator<Item = Posting> + '_ {
        self.entries.iter().map(|e| Posting {
            key: PositionKey::from_i64(e.key),
            game: GameId(i64::from(e.game)),
            ply: u32::from(e.ply),
            next: Move::from_code(e.mv),
            result: self.results[(e.game - self.first) as usize],
        })
    }

    /// Empties the buffer (keeping its memory for the next postings).
    pub fn clear(&mut self) {
        self.entries.clear();
        self.results.clear();
    }
}

/// Sorts `entries` into run order (see the module documentation): an in-place radix pass
/// on the next eight bits of the key, then each bucket the same way on the following eight,
/// until buckets are small enough for a comparison sort. With 256 buckets, the slots being
/// filled fit in the first-level cache, so each pass reads and writes memory nearly in order.
fn sort_entries(entries: &mut [Entry]) {
    sort_from_bit(entries, 64);
}

fn sort_from_bit(entries: &mut [Entry], high: u32) {
    if entries.len() <= SMALL_SORT || high < 8 {
        entries.sort_unstable_by_key(Entry::order);
        return;
    }
    let shift = high - 8;
    // The sign bit flipped, so that unsigned order is the keys' signed order.
    let digit = |e: &Entry| ((((e.key as u64) ^ (1 << 63)) >> shift) & 0xff) as usize;
    let mut ends = [0usize; 256];
    for e in entries.iter() {
        ends[digit(e)] += 1;
    }
    let mut sum = 0;
    for end in &mut ends {
        sum += *end;
        *end = sum;
    }
    // heads[b] is the first slot of bucket b that does not hold one of its entries yet.
    let mut heads = [0usize; 256];
    heads[1..].copy_from_slice(&ends[..255]);
    for b in 0..256 {
        while heads[b] < ends[b] {
            let target = digit(&entries[heads[b]]);
            if target == b {
                heads[b] += 1;
            } else {
                entries.swap(heads[b], heads[target]);
                heads[target] += 1;
            }
        }
    }
    let mut start = 0;
    for end in ends {
        sort_from_bit(&mut entries[start..end], shift);
        start = end;
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
    fn the_radix_sort_agrees_with_a_stable_sort_by_key() {
        // Keys from a small set (many equal keys), spread over the whole signed range, and
        // entries pushed in (game, ply) order as the writer pushes them.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let keys: Vec<i64> =
            (0..3_000).map(|_| next() as i64).chain([i64::MIN, -1, 0, 1, i64::MAX]).collect();
        for n in [0, 1, 100, SMALL_SORT, SMALL_SORT + 1, 50_000] {
            let mut entries = Vec::with_capacity(n);
            let mut game = 0;
            while entries.len() < n {
                game += 1 + (next() % 3) as u32;
                let plies = 1 + next() % 120;
                for ply in 0..plies.min((n - entries.len()) as u64) {
                    let key = keys[(next() % keys.len() as u64) as usize];
                    entries.push(Entry { key, game, ply: ply as u16, mv: next() as u16 });
                }
            }
            let mut expected = entries.clone();
            expected.sort_by_key(|e| e.key);
            sort_entries(&mut entries);
            let fields = |v: &[Entry]| v.iter().map(|e| (e.key, e.game, e.ply, e.mv)).collect::<Vec<_>>();
            assert_eq!(fields(&entries), fields(&expected), "{n} entries");
        }
    }
}
