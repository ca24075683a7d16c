//! Shards: one of N disjoint shares of a tree of files, picked by a stable hash of each
//! file's path, so that N machines holding the same tree each index their share, and together
//! all of it, without talking to each other.
//!
//! Policy (a stored format: databases record their shard, and moving a file to another shard
//! would split an archive differently on each release, so none of it ever changes):
//! - A shard is written `I/N`: I counts from 1 (`1/4` to `4/4`), N is at least 1. `1/1` is
//!   every file.
//! - The path hashed is the file's path relative to the directory given on the command line
//!   that holds it (the outer one, when one given directory is inside another): its
//!   components joined by `/`, each as the bytes of its name as the file system gives it
//!   (no Unicode normalization, no case folding). A file given on the command line itself is
//!   hashed by its name. So every machine must give the same directory, wherever it is
//!   mounted: `/mnt/a/kifu` on one and `/home/x/kifu` on another is the same tree.
//! - The hash is 64-bit FNV-1a of those bytes (offset basis `0xcbf29ce484222325`, prime
//!   `0x100000001b3`), and the shard is `1 + floor(hash * N / 2^64)`: the high bits choose,
//!   because FNV-1a's low bits depend only on the low bits of the bytes hashed.
//!
//! Every file the walk finds is sharded this way, so each is one machine's. An entry the walk
//! cannot read (a path given that does not exist, a directory that cannot be listed, a link
//! loop) is every machine's to report, since it may hide files of any shard.
//!
//! This module uses nothing else of the crate: the walk picks a shard's files with it, the
//! database records the shard it holds, and neither reaches the other (nor the readers)
//! through it.

use std::{
    fmt,
    path::{Component, Path},
    str::FromStr,
};

/// One of `count` shares of a tree, numbered from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u32,
    count: u32,
}

/// Text that is not a shard.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    #[error("'{0}' is not a shard: write I/N, I from 1 to N (1/4 to 4/4 for four shares)")]
    NotShard(String),
    #[error("'{0}' has no shard: N must be at least 1")]
    NoShares(String),
    #[error("'{text}' is no shard of {count}: I counts from 1 to {count}")]
    OutOfRange { text: String, count: u32 },
}

impl Shard {
    /// Shard `index` of `count` (`index` from 1 to `count`).
    ///
    /// # Errors
    ///
    /// [`ShardError`] when `count` is 0 or `index` is not from 1 to `count`.
    pub fn new(index: u32, count: u32) -> Result<Shard, ShardError> {
        let text = format!("{index}/{count}");
        if count == 0 {
            return Err(ShardError::NoShares(text));
        }
        if index == 0 || index > count {
            return Err(ShardError::OutOfRange { text, count });
        }
        Ok(Shard { index, count })
    }

    /// The shard's number, from 1.
    pub fn index(self) -> u32 {
        self.index
    }

    /// The number of shards.
    pub fn count(self) -> u32 {
        self.count
    }

    /// The shard (from 1 to `count`) that takes a file whose path, relative to the directory
    /// given, is `relative` (see the module documentation). `count` must not be 0.
    pub fn of_bytes(relative: &[u8], count: u32) -> u32 {
        let wide = u128::from(fnv1a64(relative)) * u128::from(count);
        // Below `count`, since the hash is below 2^64.
        1 + (wide >> 64) as u32
    }

    /// Whether this shard takes the file at `relative`, its path under the directory given.
    pub fn takes(self, relative: &Path) -> bool {
        Shard::of_bytes(&path_bytes(relative), self.count) == self.index
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let number = |t: &str| {
            let t = t.trim();
            let digits = !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
            if digits { t.parse::<u32>().ok() } else { None }
        };
        let parsed = s.split_once('/').and_then(|(i, n)| Some((number(i)?, number(n)?)));
        let (index, count) = parsed.ok_or_else(|| ShardError::NotShard(s.to_string()))?;
        Shard::new(index, count).map_err(|e| match e {
            ShardError::NoShares(_) => ShardError::NoShares(s.to_string()),
            ShardError::OutOfRange { count, .. } => ShardError::OutOfRange { text: s.to_string(), count },
            other => other,
        })
    }
}

/// 64-bit FNV-1a of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The bytes hashed for a relative path: its components' names joined by `/` (a `.` is
/// left out, and `..` kept as written; walked paths hold neither).
pub fn path_bytes(relative: &Path) -> Vec<u8> {
    let mut out = Vec::with_capacity(relative.as_os_str().len());
    for part in relative.components() {
        let name = match part {
            Component::Normal(name) => name.as_encoded_bytes(),
            Component::ParentDir => b"..",
            Component::CurDir | Component::RootDir | Component::Prefix(_) => continue,
        };
        if !out.is_empty() {
            out.push(b'/');
        }
        out.extend_from_slice(name);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_gives_the_published_test_vectors() {
        // From the FNV reference's table of 64-bit FNV-1a values.
        assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x85944171f73967e8);
    }

    #[test]
    fn the_shard_of_a_path_is_pinned() {
        // Worked out by hand from the vectors above: floor(h * N / 2^64) + 1 is the top bits
        // of h for N a power of two. 0xaf63… is 1010… in binary: 3 of 4, 2 of 2, 6 of 8.
        assert_eq!(Shard::of_bytes(b"a", 4), 3);
        assert_eq!(Shard::of_bytes(b"a", 2), 2);
        assert_eq!(Shard::of_bytes(b"a", 8), 6);
        // 0x8594… is 1000 0101…: 3 of 4, 9 of 16.
        assert_eq!(Shard::of_bytes(b"foobar", 4), 3);
        assert_eq!(Shard::of_bytes(b"foobar", 16), 9);
        // 0xcbf2… / 2^64 is 0.7966…: shard 3 of 3 (2.39 → 2, plus 1), 8 of 10.
        assert_eq!(Shard::of_bytes(b"", 3), 3);
        assert_eq!(Shard::of_bytes(b"", 10), 8);
        for n in [1, 2, 3, 7, 1000, u32::MAX] {
            let s = Shard::of_bytes(b"pro/2024/game.kif", n);
            assert!((1..=n).contains(&s), "{s} of {n}");
        }
    }

    #[test]
    fn paths_are_hashed_as_names_joined_by_slashes() {
        assert_eq!(path_bytes(Path::new("pro/2024/a.kif")), b"pro/2024/a.kif");
        assert_eq!(path_bytes(Path::new("./pro//a.kif")), b"pro/a.kif");
        assert_eq!(path_bytes(Path::new("a.kif")), b"a.kif");
        #[cfg(unix)]
        {
            use std::{ffi::OsStr, os::unix::ffi::OsStrExt};
            // A CP932 name stays its bytes.
            let name = Path::new(OsStr::from_bytes(b"d/\x8a\xfb\x95\x88.kif"));
            assert_eq!(path_bytes(name), b"d/\x8a\xfb\x95\x88.kif");
        }
    }

    #[test]
    fn every_file_falls_in_exactly_one_shard_and_the_shares_are_even() {
        let mut counts = [0u32; 4];
        for i in 0..40_000 {
            let path = format!("d{:02}/g{i:05}.kif", i / 1000);
            let picked: Vec<u32> =
                (1..=4).filter(|&s| Shard::new(s, 4).unwrap().takes(Path::new(&path))).collect();
            assert_eq!(picked.len(), 1, "{path}");
            counts[picked[0] as usize - 1] += 1;
        }
        // 10,000 each on average, with a standard deviation of 87 for a fair split: 400 off
        // would be a bias, not chance.
        for c in counts {
            assert!((9_600..=10_400).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn shards_read_and_write_as_i_of_n_and_bad_ones_are_refused() {
        let s: Shard = "2/4".parse().unwrap();
        assert_eq!((s.index(), s.count(), s.to_string()), (2, 4, "2/4".to_string()));
        assert_eq!(" 1 / 1 ".parse::<Shard>().unwrap().to_string(), "1/1");
        for (text, message) in [
            ("0/4", "'0/4' is no shard of 4: I counts from 1 to 4"),
            ("5/4", "'5/4' is no shard of 4: I counts from 1 to 4"),
            ("1/0", "'1/0' has no shard: N must be at least 1"),
            ("0/0", "'0/0' has no shard: N must be at least 1"),
            ("junk", "'junk' is not a shard: write I/N, I from 1 to N (1/4 to 4/4 for four shares)"),
            ("1/4/2", "'1/4/2' is not a shard: write I/N, I from 1 to N (1/4 to 4/4 for four shares)"),
            ("-1/4", "'-1/4' is not a shard: write I/N, I from 1 to N (1/4 to 4/4 for four shares)"),
            ("+1/4", "'+1/4' is not a shard: write I/N, I from 1 to N (1/4 to 4/4 for four shares)"),
            (
                "1/99999999999",
                "'1/99999999999' is not a shard: write I/N, I from 1 to N (1/4 to 4/4 for four shares)",
            ),
            ("", "'' is not a shard: write I/N, I from 1 to N (1/4 to 4/4 for four shares)"),
        ] {
            assert_eq!(text.parse::<Shard>().unwrap_err().to_string(), message, "{text}");
        }
    }
}
