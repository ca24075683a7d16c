//! The writer's bounded memory of the exact positions stored for early keys (`keypos`).
//!
//! Two generations of at most [`GENERATION`] entries each: a hit in the older one moves the
//! entry to the newer one, and when the newer one is full the older one is dropped. Keys met
//! again and again (the openings) therefore stay, while memory stays under two generations
//! whatever the size of the corpus.

use std::{
    collections::HashMap,
    hash::{BuildHasherDefault, Hasher},
};

/// Entries per generation (about 10 MB each). An early key met again that the cache no
/// longer holds is looked up in `keypos`, and its first game read and played back: at a
/// million games, generations of 131,072 entries took those lookups from 572,294 to 341,808
/// (16,384 before), about 3.5 µs of CPU a game, for 20 MB more of peak memory.
pub(super) const GENERATION: usize = 131_072;

type Map = HashMap<i64, Box<[u8]>, BuildHasherDefault<KeyHasher>>;

/// The cache.
#[derive(Debug)]
pub(super) struct KeyPositions {
    current: Map,
    previous: Map,
    /// Whether the cache holds every row of the table, so a miss needs no lookup: true while
    /// the table was empty when the writer opened and no entry was dropped since.
    complete: bool,
}

impl KeyPositions {
    /// A cache of a table that is empty (`complete`) or not.
    pub fn new(complete: bool) -> KeyPositions {
        KeyPositions { current: Map::default(), previous: Map::default(), complete }
    }

    /// Whether a key that is not cached is not in the table either.
    pub fn complete(&self) -> bool {
        self.complete
    }

    /// The position cached for `key`.
    pub fn get(&mut self, key: i64) -> Option<&[u8]> {
        if !self.current.contains_key(&key) {
            let position = self.previous.remove(&key)?;
            self.insert(key, position);
        }
        self.current.get(&key).map(|p| &**p)
    }

    /// Caches the position of `key`.
    pub fn insert(&mut self, key: i64, position: Box<[u8]>) {
        if self.current.len() >= GENERATION {
            self.previous = std::mem::take(&mut self.current);
            self.complete = false;
        }
        self.current.insert(key, position);
    }
}

/// Hashes position keys, which are already uniformly distributed, as themselves.
#[derive(Default)]
pub(super) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_i64(&mut self, v: i64) {
        self.0 = v as u64;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_in_use_survive_and_memory_stays_bounded() {
        let mut cache = KeyPositions::new(true);
        cache.insert(-1, Box::new([1]));
        for key in 0..10 * GENERATION as i64 {
            assert_eq!(cache.get(-1), Some(&[1u8][..]), "a key used all along stays");
            cache.insert(key, Box::new([2]));
            assert!(cache.current.len() + cache.previous.len() <= 2 * GENERATION);
        }
        assert!(!cache.complete(), "entries were dropped");
        assert_eq!(cache.get(0), None, "an old key was dropped");
        assert_eq!(cache.get(10 * GENERATION as i64 - 1), Some(&[2u8][..]));
    }
}
