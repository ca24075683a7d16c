//! Posting blocks, a stored format: how a run's postings are cut into compressed blocks, and
//! read back. Pure functions, no SQL; decoding checks every bound and every value, and reports
//! [`Corrupt`] instead of panicking on damaged data or reading it as something else.
//!
//! A block holds the postings of consecutive keys, sorted by (key as a signed integer, game,
//! ply), in about [`BLOCK_TARGET`] bytes. Its first key is stored beside it (`pblocks.lo`).
//! A key's postings are in one block, unless they alone overflow one: then they are cut into
//! blocks that each start with that key, so their `lo` is the key (later keys may follow the
//! last piece). A lookup of a key therefore reads the blocks whose `lo` is the greatest not
//! above it: one block, or the pieces of a large key. For each key of a block in turn:
//! - `varint(key − previous key)` (as unsigned 64-bit wrapping difference; 0 for the first);
//! - `varint(count)`;
//! - per posting: `varint(game − previous game of this key)`, `varint(ply << 2 | result)`
//!   ([`GameResult::code`]), and the move played from the position as two little-endian bytes
//!   ([`Move::code`]), or 0 when the game ends there.

use super::Posting;
use crate::{
    db::{
        Corrupt, GameId, GameResult,
        codec::{get_varint, put_varint},
    },
    shogi::{Move, PositionKey},
};

/// Blocks are cut at about this many bytes so that one fits a 16 KiB page with its row.
pub const BLOCK_TARGET: usize = 16_000;

/// The stored code of the move played from a position: 0 when the game ends there.
pub fn next_code(next: Option<Move>) -> u16 {
    next.map_or(0, Move::code)
}

/// The move a stored code stands for (see [`next_code`]).
///
/// # Errors
///
/// [`Corrupt`] for a code that is no move: it is never taken for the end of the game.
pub fn next_move(code: u16) -> Result<Option<Move>, Corrupt> {
    match code {
        0 => Ok(None),
        code => Move::from_code(code).map(Some).ok_or(Corrupt("a posting's move code is no move")),
    }
}

fn get_u16(data: &[u8], at: &mut usize) -> Result<u16, Corrupt> {
    let bytes = data.get(*at..*at + 2).ok_or(Corrupt("posting move runs past the end"))?;
    *at += 2;
    Ok(u16::from_le_bytes([bytes[0], bytes[1]]))
}

/// A finished block: its first key, its posting count and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub lo: PositionKey,
    pub n: u32,
    pub data: Vec<u8>,
}

/// Cuts a sorted stream of postings into blocks, in memory bounded by the block size
/// whatever the number of postings of a key.
#[derive(Debug, Default)]
pub struct BlockBuilder {
    /// The block being filled, with whole groups: its first key, its postings and its bytes.
    lo: PositionKey,
    n: u32,
    data: Vec<u8>,
    /// The last key encoded in `data`.
    prev_key: PositionKey,
    /// The group being gathered: its key, its postings so far (encoded) and their count.
    key: Option<PositionKey>,
    group: Vec<u8>,
    count: u32,
    prev_game: i64,
    /// Blocks finished and not yet handed out.
    done: Vec<Block>,
}

impl BlockBuilder {
    /// Adds the next posting (postings must come sorted, and their game ids fit 32 bits, as
    /// [`Posting`] requires). Yields the blocks it finished.
    pub fn push(&mut self, p: Posting) -> std::vec::Drain<'_, Block> {
        if self.key != Some(p.key) {
            self.close_group();
            self.key = Some(p.key);
        } else if self.group.len() >= BLOCK_TARGET {
            // A key with more postings than a block holds: its postings so far make a block
            // of their own, and the rest go on in the next.
            self.take();
            self.close_group();
            self.take();
        }
        debug_assert!(p.game.0 >= self.prev_game && p.game.0 <= i64::from(u32::MAX));
        put_varint(&mut self.group, (p.game.0 - self.prev_game) as u64);
        self.prev_game = p.game.0;
        put_varint(&mut self.group, u64::from(p.ply) << 2 | u64::from(p.result.code()));
        self.group.extend_from_slice(&next_code(p.next).to_le_bytes());
        self.count += 1;
        self.done.drain(..)
    }

    /// Yields the blocks still held, once every posting has been pushed.
    pub fn finish(&mut self) -> std::vec::Drain<'_, Block> {
        self.close_group();
        self.key = None;
        self.take();
        self.done.drain(..)
    }

    /// Appends the gathered postings, with their key and count, at the end of the block;
    /// when they would overflow it, the block is closed before them and they start the next.
    fn close_group(&mut self) {
        let Some(key) = self.key.filter(|_| self.count > 0) else {
            return;
        };
        let delta = (key.to_i64() as u64).wrapping_sub(self.prev_key.to_i64() as u64);
        let len = varint_len(delta) + varint_len(u64::from(self.count)) + self.group.len();
        if !self.data.is_empty() && self.data.len() + len > BLOCK_TARGET {
            self.take();
        }
        if self.data.is_empty() {
            self.lo = key;
            self.data.reserve(BLOCK_TARGET + 64);
            put_varint(&mut self.data, 0);
        } else {
            put_varint(&mut self.data, delta);
        }
        put_varint(&mut self.data, u64::from(self.count));
        self.data.extend_from_slice(&self.group);
        self.n += self.count;
        self.prev_key = key;
        self.group.clear();
        self.count = 0;
        self.prev_game = 0;
    }

    /// Moves the block being filled, if it holds anything, to the finished ones.
    fn take(&mut self) {
        if !self.data.is_empty() {
            let n = std::mem::take(&mut self.n);
            self.done.push(Block { lo: self.lo, n, data: std::mem::take(&mut self.data) });
        }
    }
}

/// The length of `v` as a varint.
fn varint_len(v: u64) -> usize {
    (64 - v.leading_zeros() as usize).max(1).div_ceil(7)
}

/// Decodes the postings of a block whose first key is `lo`. With `only`, keeps the postings
/// of that key alone (and stops once past it).
///
/// # Errors
///
/// [`Corrupt`] when the bytes are not a block.
pub fn decode_block(
    lo: PositionKey,
    data: &[u8],
    only: Option<PositionKey>,
    out: &mut Vec<Posting>,
) -> Result<(), Corrupt> {
    let only = only.map(PositionKey::to_i64);
    let mut at = 0;
    let mut key = lo.to_i64() as u64;
    let mut first = true;
    while at < data.len() {
        let delta = get_varint(data, &mut at)?;
        if first && delta != 0 {
            return Err(Corrupt("a block's first key delta is not 0"));
        }
        first = false;
        key = key.wrapping_add(delta);
        let count = get_varint(data, &mut at)?;
        if only.is_some_and(|k| (key as i64) > k) {
            return Ok(());
        }
        if only.is_some_and(|k| k != key as i64) {
            at = skip_postings(data, at, count)?;
            continue;
        }
        let mut game = 0u64;
        for _ in 0..count {
            game += get_varint(data, &mut at)?;
            let pr = get_varint(data, &mut at)?;
            let next = next_move(get_u16(data, &mut at)?)?;
            let game = u32::try_from(game).map_err(|_| Corrupt("posting game id past 32 bits"))?;
            out.push(Posting {
                key: PositionKey::from_i64(key as i64),
                game: GameId(i64::from(game)),
                ply: u32::try_from(pr >> 2).map_err(|_| Corrupt("posting ply past 32 bits"))?,
                next,
                result: GameResult::from_code((pr & 3) as u8),
            });
        }
        if only.is_some() {
            return Ok(());
        }
    }
    Ok(())
}

/// The offset just past `count` postings starting at `at`, found without decoding them: a
/// lookup passes over the keys before the one it wants this way.
fn skip_postings(data: &[u8], mut at: usize, count: u64) -> Result<usize, Corrupt> {
    for _ in 0..count {
        // Two varints (each ends at its first byte below 0x80), then the two-byte move.
        for _ in 0..2 {
            let len = data.get(at..).and_then(|rest| rest.iter().position(|&b| b < 0x80));
            at += len.ok_or(Corrupt("varint runs past the end"))? + 1;
        }
        at += 2;
        if at > data.len() {
            return Err(Corrupt("posting move runs past the end"));
        }
    }
    Ok(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(k: i64) -> PositionKey {
        PositionKey::from_i64(k)
    }

    fn posting(k: i64, game: u32, ply: u32) -> Posting {
        let code = (ply as u16) * 7 + 1;
        Posting {
            key: key(k),
            game: GameId(i64::from(game)),
            ply,
            next: Move::from_code(code).filter(|_| ply % 5 != 4),
            result: GameResult::from_code((game % 4) as u8),
        }
    }

    /// Every posting of `blocks`, decoded.
    fn decode_all(blocks: &[Block]) -> Vec<Posting> {
        let mut out = Vec::new();
        for b in blocks {
            let before = out.len();
            decode_block(b.lo, &b.data, None, &mut out).unwrap();
            assert_eq!(out.len() - before, b.n as usize);
            assert_eq!(out[before].key, b.lo);
        }
        out
    }

    /// The postings of `k` as a lookup finds them: in the blocks whose first key is the
    /// greatest not above it.
    fn look_up(blocks: &[Block], k: i64) -> Vec<Posting> {
        let mut out = Vec::new();
        let Some(lo) = blocks.iter().map(|b| b.lo.to_i64()).filter(|&lo| lo <= k).max() else {
            return out;
        };
        for b in blocks.iter().filter(|b| b.lo.to_i64() == lo) {
            decode_block(b.lo, &b.data, Some(key(k)), &mut out).unwrap();
        }
        out
    }

    fn build(postings: &[Posting]) -> Vec<Block> {
        let mut builder = BlockBuilder::default();
        let mut blocks = Vec::new();
        for &p in postings {
            blocks.extend(builder.push(p));
        }
        blocks.extend(builder.finish());
        blocks
    }

    #[test]
    fn blocks_round_trip_and_a_key_is_split_only_when_it_overflows_a_block() {
        let mut all: Vec<Posting> = Vec::new();
        for i in 0..8_000i64 {
            let k = i.wrapping_mul(0x9E37_79B9_7F4A_7C15u64 as i64);
            for g in 0..(1 + i % 5) as u32 {
                all.push(posting(k, g * 3 + 1, (i % 200) as u32));
            }
        }
        // A key with 3,000 postings (about 12 KB: one block), and one with 30,000 (several).
        for g in 0..3_000 {
            all.push(posting(42, g + 1, 0));
        }
        for g in 0..30_000 {
            all.push(posting(-7, 2 * g + 5, g % 300));
        }
        all.sort();
        let blocks = build(&all);
        assert!(blocks.len() > 10, "{}", blocks.len());
        assert_eq!(decode_all(&blocks), all);
        let mut first_block_of = std::collections::HashMap::new();
        for (i, b) in blocks.iter().enumerate() {
            let mut here = Vec::new();
            decode_block(b.lo, &b.data, None, &mut here).unwrap();
            // A block is over the target only by the last posting of a piece of one key.
            assert!(b.data.len() <= BLOCK_TARGET + 20, "{}", b.data.len());
            for p in here {
                let first = *first_block_of.entry(p.key).or_insert(i);
                if first != i {
                    assert_eq!(p.key, b.lo, "key {:?} split into a block that does not start with it", p.key);
                }
            }
        }
        let pieces = blocks.iter().filter(|b| b.lo == key(-7)).count();
        assert!((6..=10).contains(&pieces), "30,000 postings of about 4 bytes in {pieces} blocks");
        let holding_42 = blocks
            .iter()
            .filter(|b| {
                let mut here = Vec::new();
                decode_block(b.lo, &b.data, Some(key(42)), &mut here).unwrap();
                !here.is_empty()
            })
            .count();
        assert_eq!(holding_42, 1, "a key that fits a block is not split");
        // Every key looked up alone finds exactly its postings.
        let mut keys: Vec<PositionKey> = all.iter().map(|p| p.key).collect();
        keys.dedup();
        for k in keys {
            let want: Vec<Posting> = all.iter().copied().filter(|p| p.key == k).collect();
            assert_eq!(look_up(&blocks, k.to_i64()), want, "key {k:?}");
        }
        assert_eq!(look_up(&blocks, 43), Vec::new());
        assert_eq!(look_up(&blocks, i64::MIN), Vec::new());
    }

    #[test]
    fn a_single_key_of_any_size_round_trips() {
        for n in [1, 2, 3_999, 4_000, 4_001, 12_000, 100_000] {
            let all: Vec<Posting> = (0..n).map(|g| posting(99, g + 1, 1)).collect();
            let blocks = build(&all);
            assert!(blocks.iter().all(|b| b.lo == key(99)));
            assert_eq!(decode_all(&blocks), all, "{n}");
            assert_eq!(look_up(&blocks, 99), all, "{n}");
        }
    }

    #[test]
    fn damaged_blocks_are_errors_not_panics() {
        let mut builder = BlockBuilder::default();
        for g in 1..50 {
            assert_eq!(builder.push(posting(7, g, g)).count(), 0);
        }
        let block = builder.finish().next_back().unwrap();
        for cut in 0..block.data.len() {
            let mut out = Vec::new();
            let _ = decode_block(block.lo, &block.data[..cut], None, &mut out);
        }
        for cut in 0..block.data.len() {
            let mut out = Vec::new();
            let _ = decode_block(block.lo, &block.data[..cut], Some(key(8)), &mut out);
        }
        let mut out = Vec::new();
        assert!(decode_block(key(0), &[0x80; 12], None, &mut out).is_err());
        assert!(decode_block(key(0), &[5, 1, 1, 1, 0, 0], None, &mut out).is_err());
    }

    #[test]
    fn a_move_code_that_is_no_move_is_corrupt_not_the_end_of_the_game() {
        // Key delta 0, one posting: game 1, ply 3 and result 1, then the move code.
        let block = |code: u16| {
            let mut data = vec![0, 1, 1, 3 << 2 | 1];
            data.extend_from_slice(&code.to_le_bytes());
            data
        };
        let mut out = Vec::new();
        decode_block(key(5), &block(0), None, &mut out).unwrap();
        assert_eq!(out[0].next, None, "0 is the end of the game");
        let seven_six: Move = "7g7f".parse().unwrap();
        out.clear();
        decode_block(key(5), &block(seven_six.code()), None, &mut out).unwrap();
        assert_eq!(
            (out[0].game, out[0].ply, out[0].next, out[0].result),
            (GameId(1), 3, Some(seven_six), GameResult::BlackWin)
        );
        // From a square to itself: no move has this code.
        let same_square = 40 * 81 + 40;
        assert_eq!(Move::from_code(same_square), None);
        for only in [None, Some(key(5))] {
            out.clear();
            assert_eq!(
                decode_block(key(5), &block(same_square), only, &mut out),
                Err(Corrupt("a posting's move code is no move"))
            );
        }
    }
}
