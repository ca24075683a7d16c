//! The postings of new games, held in memory until they are written as a run.
//!
//! An entry takes 16 bytes (key, game, ply, move); the result is kept once per game beside
//! them. Games arrive in increasing id order and each game's positions in ply order, so a
//! stable sort by key alone puts the entries in the (key, game, ply) order of a run.
//! Positions past ply 65,535 of a game are not indexed (no real game comes near).

use std::collections::HashSet;

use super::codec::Posting;

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: i64,
    game: u32,
    ply: u16,
    mv: u16,
}

/// The buffer.
#[derive(Debug, Default)]
pub(super) struct PostingBuffer {
    entries: Vec<Entry>,
    /// The first game id in the buffer; `results[i]` is the result of game `first + i`.
    first: u32,
    results: Vec<u8>,
}

impl PostingBuffer {
    /// The number of postings held.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Makes room for `n` more postings.
    pub fn reserve(&mut self, n: usize) {
        self.entries.reserve(n);
    }

    /// Adds the positions of `game` (its id must be greater than any held): `(key, move
    /// played from it, 0 at the end)` for plies 0, 1, ….
    pub fn push_game(&mut self, game: u32, result: u8, positions: impl Iterator<Item = (i64, u16)>) {
        if self.results.is_empty() {
            self.first = game;
        }
        debug_assert!(game >= self.first + self.results.len() as u32);
        let offset = (game - self.first) as usize;
        self.results.resize(offset, 0);
        self.results.push(result);
        for (ply, (key, mv)) in positions.take(usize::from(u16::MAX) + 1).enumerate() {
            self.entries.push(Entry { key, game, ply: ply as u16, mv });
        }
    }

    /// Sorts the postings into run order and leaves out those of `deleted` games. Returns
    /// the lowest and highest game ids left (`None` when none is).
    pub fn sort(&mut self, deleted: &HashSet<u32>) -> Option<(u32, u32)> {
        if !deleted.is_empty() {
            self.entries.retain(|e| !deleted.contains(&e.game));
        }
        self.entries.sort_by_key(|e| e.key);
        let min = self.entries.iter().map(|e| e.game).min()?;
        let max = self.entries.iter().map(|e| e.game).max()?;
        Some((min, max))
    }

    /// The postings, in the order they are held (run order after [`PostingBuffer::sort`]).
    pub fn postings(&self) -> impl Iterator<Item = Posting> + '_ {
        self.entries.iter().map(|e| Posting {
            key: e.key,
            game: e.game,
            ply: u32::from(e.ply),
            mv: e.mv,
            result: self.results.get((e.game - self.first) as usize).copied().unwrap_or(0),
        })
    }

    /// Empties the buffer (keeping its memory for the next postings).
    pub fn clear(&mut self) {
        self.entries.clear();
        self.results.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drains_in_run_order_with_results() {
        let mut b = PostingBuffer::default();
        b.push_game(5, 1, [(30, 7), (10, 8), (30, 0)].into_iter());
        b.push_game(8, 2, [(10, 9), (20, 0)].into_iter());
        b.push_game(9, 3, [(40, 0)].into_iter());
        assert_eq!(b.len(), 6);
        assert_eq!(b.sort(&HashSet::from([9])), Some((5, 8)));
        let got: Vec<(i64, u32, u32, u16, u8)> =
            b.postings().map(|p| (p.key, p.game, p.ply, p.mv, p.result)).collect();
        assert_eq!(
            got,
            [(10, 5, 1, 8, 1), (10, 8, 0, 9, 2), (20, 8, 1, 0, 2), (30, 5, 0, 7, 1), (30, 5, 2, 0, 1)]
        );
        b.clear();
        assert_eq!(b.len(), 0);
        assert_eq!(b.sort(&HashSet::new()), None);
    }
}
