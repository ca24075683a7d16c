//! Posting blocks, a stored format: how a run's postings are cut into compressed blocks, and
//! read back. Pure functions, no SQL; decoding checks every bound and every value, and reports
//! [`Corrupt`] instead of panicking on damaged data or reading it as something else.
//!
//! A block holds the postings of consecutive keys, sorted by (key as a signed integer, game,
//! ply), in about [`BLOCK_TARGET`] bytes. Its first key is stored beside it (`pblocks.lo`).
//! A key's postings are in one block, unless they alone overflow one: then they are cut into
//! blocks that each start with that key, so their `lo` is the key (later keys may follow the
//! last piece). A lookup of a key therefore reads the blocks whose `lo` is the greatest not
//! above it: one block, or the pieces of a large key.
//!
//! # The second format (written since schema 11)
//!
//! A header of bytes: the format number 2; the Rice parameter `k` of the block's key gaps;
//! the width `w` in bits of its first games; `varint(base)`, the least game the run may hold;
//! `varint(keys)`, the keys in the block. Then a stream of bits (from the low bit of each
//! byte up), for each key in turn:
//! - unless it is the block's first key, the gap from the previous key (unsigned 64-bit
//!   wrapping difference) in the Rice code of parameter `k`, or 40 one bits and the whole
//!   64-bit gap;
//! - its posting count: a 0 bit for one posting; else a 1 bit and `count − 2` in the
//!   exponential Golomb code of order 0 (EG0);
//! - per posting: its game, in `w` bits as `game − base` for the key's first posting, else
//!   as the gap from the previous one in EG2; its ply in EG5; its result in 2 bits
//!   ([`GameResult::code`]); and, only at plies up to [`MOVES_THROUGH`], the move played from
//!   the position in 16 bits ([`Move::code`]), 0 when the game ends there.
//!
//! Past [`MOVES_THROUGH`] a posting does not say what move was played: a lookup plays the
//! games of such occurrences back to check them, and reads the move there. The key gaps are
//! nearly all of a block's bits, and `k` is chosen for each block from the gaps of the one
//! before (the first from the size of the run), so that they take about two bits more than
//! their logarithm.
//!
//! # The first format
//!
//! Blocks written before schema 11, still read: for each key in turn,
//! `varint(key − previous key)` (0 for the first), `varint(count)`, and per posting
//! `varint(game − previous game of this key)`, `varint(ply << 2 | result)` and the move as
//! two little-endian bytes. Its first byte is therefore always 0.

use super::{
    Posting,
    bits::{BitReader, BitWriter, Mark, eg_code, eg_len, rice_len},
};
use crate::{
    db::{
        Corrupt, GameId, GameResult,
        codec::{get_varint, put_varint},
    },
    shogi::{Move, PositionKey},
};

/// Blocks are cut at about this many bytes, so that one fills a 16 KiB page with its row.
pub const BLOCK_TARGET: usize = 16_272;

/// The most bytes a block of the second format takes: the target, its header (11 bytes at
/// most), and the last posting of a key cut into pieces (12 bytes at most, and its count).
pub const BLOCK_MAX: usize = BLOCK_TARGET + 40;

// SQLite keeps a row in its 16 KiB leaf page when the row is at most 16,349 bytes; a
// `pblocks` row's other columns and header take 20 bytes at most. A longer block would spill
// into an overflow page of its own.
const _: () = assert!(BLOCK_MAX + 20 <= 16_349);

/// Postings store the move played from their position up to this ply: the plies whose
/// occurrences a lookup may trust without playing their game back
/// ([`KEYPOS_MAX_PLY`](super::KEYPOS_MAX_PLY) at most).
pub const MOVES_THROUGH: u32 = 24;

/// The first byte of a block of the second format.
const FORMAT_2: u8 = 2;

/// The exponential Golomb orders of a posting's game gap and ply.
const GAME_ORDER: u32 = 2;
const PLY_ORDER: u32 = 5;

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

/// A posting as a block stores it: past [`MOVES_THROUGH`], without its move.
pub fn as_stored(mut p: Posting) -> Posting {
    if p.ply > MOVES_THROUGH {
        p.next = None;
    }
    p
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

/// What a run's blocks are cut for: how many postings it holds, and the range of its games.
#[derive(Clone, Copy, Debug)]
pub struct RunShape {
    pub postings: u64,
    pub min_game: u32,
    pub max_game: u32,
}

/// The Rice parameter for gaps of about `mean`: the floor of the logarithm of `mean · ln 2`.
fn rice_parameter(mean: f64) -> u32 {
    if mean < 2.0 { 0 } else { ((mean * std::f64::consts::LN_2).log2().floor() as u32).min(62) }
}

/// Cuts a sorted stream of postings into blocks, in memory bounded by the block size
/// whatever the number of postings of a key.
#[derive(Debug)]
pub struct BlockBuilder {
    /// The least game and the width of a first game's field, for every block of the run.
    base: u32,
    width: u32,
    /// The block being filled: its first key, Rice parameter, keys, postings, bits, the sum
    /// of its key gaps and the last key in it.
    lo: PositionKey,
    k: u32,
    keys: u64,
    n: u32,
    bits: BitWriter,
    gaps: u128,
    prev_key: PositionKey,
    /// The group being gathered: its key, its postings so far, and their bits.
    key: Option<PositionKey>,
    group: Vec<Posting>,
    group_bits: usize,
    /// Blocks finished and not yet handed out.
    done: Vec<Block>,
}

impl BlockBuilder {
    /// A builder for the blocks of a run of `shape`.
    pub fn new(shape: RunShape) -> BlockBuilder {
        let span = shape.max_game.saturating_sub(shape.min_game);
        BlockBuilder {
            base: shape.min_game,
            width: 32 - span.leading_zeros(),
            lo: PositionKey(0),
            // Keys spread evenly over the 64-bit space: the gap is its size over their number.
            k: rice_parameter(2f64.powi(64) / shape.postings.max(1) as f64),
            keys: 0,
            n: 0,
            bits: BitWriter::default(),
            gaps: 0,
            prev_key: PositionKey(0),
            key: None,
            group: Vec::new(),
            group_bits: 0,
            done: Vec::new(),
        }
    }

    /// Adds the next posting (postings must come sorted, their game ids within the run's
    /// shape). Yields the blocks it finished.
    pub fn push(&mut self, p: Posting) -> std::vec::Drain<'_, Block> {
        if self.key != Some(p.key) {
            self.close_group();
            self.key = Some(p.key);
        } else if self.group_bits >= 8 * BLOCK_TARGET {
            // A key with more postings than a block holds: its postings so far make a block
            // of their own, and the rest go on in the next.
            self.take();
            self.close_group();
            self.take();
        }
        let game = posting_game(p.game);
        debug_assert!(game >= self.base && u64::from(game - self.base) >> self.width == 0);
        self.group_bits += match self.group.last() {
            None => self.width as usize,
            Some(prev) => eg_len(u64::from(game - posting_game(prev.game)), GAME_ORDER),
        } + eg_len(u64::from(p.ply), PLY_ORDER)
            + 2
            + if p.ply <= MOVES_THROUGH { 16 } else { 0 };
        self.group.push(p);
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
        let Some(key) = self.key.filter(|_| !self.group.is_empty()) else {
            return;
        };
        let count = self.group.len() as u64;
        let count_bits = if count == 1 { 1 } else { 1 + eg_len(count - 2, 0) };
        let gap = (key.to_i64() as u64).wrapping_sub(self.prev_key.to_i64() as u64);
        if self.keys > 0
            && self.bits.len() + rice_len(gap, self.k) + count_bits + self.group_bits > 8 * BLOCK_TARGET
        {
            self.take();
        }
        if self.keys == 0 {
            self.lo = key;
        } else {
            self.bits.put_rice(gap, self.k);
            self.gaps += u128::from(gap);
        }
        if count == 1 {
            self.bits.put(0, 1);
        } else {
            self.bits.put(1, 1);
            self.bits.put_eg(count - 2, 0);
        }
        let mut prev = None;
        for p in self.group.drain(..) {
            let game = posting_game(p.game);
            // The game: the first in `width` bits, the others as the gap from the one before.
            let (game_field, game_len) = match prev {
                None => (u64::from(game - self.base), self.width),
                Some(prev) => {
                    let gap = u64::from(game - prev);
                    (eg_code(gap, GAME_ORDER), eg_len(gap, GAME_ORDER) as u32)
                }
            };
            prev = Some(game);
            let ply = u64::from(p.ply);
            let ply_len = eg_len(ply, PLY_ORDER) as u32;
            let (mv, move_len) =
                if p.ply <= MOVES_THROUGH { (u64::from(next_code(p.next)), 16) } else { (0, 0) };
            if game_len + ply_len + 2 + move_len <= 64 {
                // Every field of the posting in one number, in the order they are written.
                let fields = game_field
                    | eg_code(ply, PLY_ORDER) << game_len
                    | u64::from(p.result.code()) << (game_len + ply_len)
                    | mv << (game_len + ply_len + 2);
                self.bits.put_long(fields, game_len + ply_len + 2 + move_len);
            } else {
                self.bits.put_long(game_field, game_len);
                self.bits.put_eg(ply, PLY_ORDER);
                self.bits.put(u64::from(p.result.code()), 2);
                self.bits.put(mv, move_len);
            }
        }
        self.keys += 1;
        self.n += count as u32;
        self.prev_key = key;
        self.group_bits = 0;
    }

    /// Moves the block being filled, if it holds anything, to the finished ones, and sets the
    /// Rice parameter of the next from its gaps.
    fn take(&mut self) {
        if self.keys == 0 {
            return;
        }
        let mut data = Vec::with_capacity(self.bits.len() / 8 + 24);
        data.extend_from_slice(&[FORMAT_2, self.k as u8, self.width as u8]);
        put_varint(&mut data, u64::from(self.base));
        put_varint(&mut data, self.keys);
        data.extend_from_slice(&std::mem::take(&mut self.bits).finish());
        if self.keys > 1 {
            self.k = rice_parameter(self.gaps as f64 / (self.keys - 1) as f64);
        }
        let n = std::mem::take(&mut self.n);
        self.done.push(Block { lo: self.lo, n, data });
        (self.keys, self.gaps) = (0, 0);
    }
}

/// A posting's game id as 32 bits (see [`Posting`]).
fn posting_game(game: GameId) -> u32 {
    game.0 as u32
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
    match &only {
        Some(key) => decode_wanted(lo, data, Want::Keys(std::slice::from_ref(key)), out),
        None => decode_wanted(lo, data, Want::All, out),
    }
}

/// [`decode_block`] keeping the postings of `keys` alone, which are in ascending order as
/// signed integers (the order of a block's keys), each once; it stops once past the last. A
/// block that holds several of them is decoded once, where a decoding for each would pass
/// over the keys before it again.
///
/// # Errors
///
/// [`Corrupt`] when the bytes are not a block.
pub fn decode_block_keys(
    lo: PositionKey,
    data: &[u8],
    keys: &[i64],
    out: &mut Vec<Posting>,
) -> Result<(), Corrupt> {
    debug_assert!(keys.is_sorted() && keys.windows(2).all(|w| w[0] != w[1]), "keys ascend, each once");
    decode_wanted(lo, data, Want::Keys(keys), out)
}

/// The keys whose postings a decoding keeps.
#[derive(Clone, Copy, Debug)]
enum Want<'a> {
    All,
    /// These, ascending as signed integers, each once.
    Keys(&'a [i64]),
}

impl Want<'_> {
    /// Whether `key` comes after every key wanted: the decoding can stop there.
    fn past(self, key: i64) -> bool {
        match self {
            Want::All => false,
            Want::Keys(keys) => keys.last().is_none_or(|&last| key > last),
        }
    }

    fn keeps(self, key: i64) -> bool {
        match self {
            Want::All => true,
            Want::Keys([only]) => key == *only,
            Want::Keys(keys) => keys.binary_search(&key).is_ok(),
        }
    }

    /// Whether `key`, kept, is the last wanted: the decoding can stop after its postings.
    fn ends_at(self, key: i64) -> bool {
        match self {
            Want::All => false,
            Want::Keys(keys) => keys.last() == Some(&key),
        }
    }
}

fn decode_wanted(
    lo: PositionKey,
    data: &[u8],
    want: Want<'_>,
    out: &mut Vec<Posting>,
) -> Result<(), Corrupt> {
    match data.first() {
        Some(0) => decode_first_format(lo, data, want, out),
        Some(&FORMAT_2) => decode_second_format(lo, data, want, out),
        _ => Err(Corrupt("a posting block of no known format")),
    }
}

/// The postings of a block, decoded one at a time: a block being read takes the memory of its
/// bytes (at most [`BLOCK_MAX`]), however many postings they hold, as a merge of many runs
/// needs.
#[derive(Debug)]
pub struct BlockPostings {
    data: Vec<u8>,
    reading: Reading,
}

#[derive(Debug)]
enum Reading {
    /// A block of the first format, decoded whole (databases not merged since schema 11).
    First(std::vec::IntoIter<Posting>),
    /// A block of the second format: where its bits start, where the reader stands in them.
    Second { state: SecondFormat, at: usize, mark: Mark },
}

impl BlockPostings {
    /// The postings of the block `data`, whose first key is `lo`.
    ///
    /// # Errors
    ///
    /// [`Corrupt`] when the bytes are not a block (or, for the first format, hold a damaged
    /// posting).
    pub fn new(lo: PositionKey, data: Vec<u8>) -> Result<BlockPostings, Corrupt> {
        let reading = match data.first() {
            Some(0) => {
                let mut out = Vec::new();
                decode_first_format(lo, &data, Want::All, &mut out)?;
                Reading::First(out.into_iter())
            }
            Some(&FORMAT_2) => {
                let (state, at) = SecondFormat::new(lo, &data)?;
                Reading::Second { state, at, mark: Mark::default() }
            }
            _ => return Err(Corrupt("a posting block of no known format")),
        };
        Ok(BlockPostings { data, reading })
    }

    /// The next posting; `None` after the last.
    ///
    /// # Errors
    ///
    /// [`Corrupt`] when the rest of the bytes do not hold the postings the block says.
    #[inline]
    pub fn read(&mut self) -> Result<Option<Posting>, Corrupt> {
        match &mut self.reading {
            Reading::First(postings) => Ok(postings.next()),
            Reading::Second { state, at, mark } => {
                let mut r = BitReader::resume(&self.data[*at..], *mark);
                if state.left == 0 && !state.group(&mut r)? {
                    return Ok(None);
                }
                let p = state.posting(&mut r)?;
                *mark = r.mark();
                Ok(Some(p))
            }
        }
    }
}

fn decode_second_format(
    lo: PositionKey,
    data: &[u8],
    want: Want<'_>,
    out: &mut Vec<Posting>,
) -> Result<(), Corrupt> {
    let (mut block, at) = SecondFormat::new(lo, data)?;
    let mut r = BitReader::new(&data[at..]);
    while block.group(&mut r)? {
        let key = block.key as i64;
        if want.past(key) {
            return Ok(());
        }
        let keep = want.keeps(key);
        while block.left > 0 {
            let p = block.posting(&mut r)?;
            if keep {
                out.push(p);
            }
        }
        if keep && want.ends_at(key) {
            return Ok(());
        }
    }
    Ok(())
}

/// Where the decoding of a block of the second format stands, between its keys and postings.
#[derive(Clone, Copy, Debug)]
struct SecondFormat {
    k: u32,
    width: u32,
    base: u64,
    /// Keys not yet begun.
    keys: u64,
    /// The key being read, and whether it is the block's first (read no gap before it).
    key: u64,
    first: bool,
    /// Postings of the key not yet read, the game of the last one read, and whether none is.
    left: u64,
    game: u64,
    fresh: bool,
}

impl SecondFormat {
    /// Reads the header of the block `data`, whose first key is `lo`; returns the state
    /// before its first key, and where its bits start.
    fn new(lo: PositionKey, data: &[u8]) -> Result<(SecondFormat, usize), Corrupt> {
        let (k, width) = match data.get(1..3) {
            Some(&[k, width]) if k < 64 && width <= 32 => (u32::from(k), u32::from(width)),
            _ => return Err(Corrupt("a posting block's header is damaged")),
        };
        let mut at = 3;
        let base = get_varint(data, &mut at)?;
        let keys = get_varint(data, &mut at)?;
        let key = lo.to_i64() as u64;
        Ok((SecondFormat { k, width, base, keys, key, first: true, left: 0, game: 0, fresh: false }, at))
    }

    /// Begins the next key: its gap and its count of postings; false when none is left.
    #[inline(always)]
    fn group(&mut self, r: &mut BitReader<'_>) -> Result<bool, Corrupt> {
        if self.keys == 0 {
            return Ok(false);
        }
        self.keys -= 1;
        if !self.first {
            self.key = self.key.wrapping_add(r.get_rice(self.k)?);
        }
        self.first = false;
        self.left = if r.get(1)? == 0 { 1 } else { r.get_eg(0)?.saturating_add(2) };
        (self.game, self.fresh) = (0, true);
        Ok(true)
    }

    /// Reads the next posting of the key begun (whose `left` is not 0).
    #[inline(always)]
    fn posting(&mut self, r: &mut BitReader<'_>) -> Result<Posting, Corrupt> {
        let step = if self.fresh {
            self.base.checked_add(r.get(self.width)?)
        } else {
            self.game.checked_add(r.get_eg(GAME_ORDER)?)
        };
        self.fresh = false;
        self.left -= 1;
        self.game = step.ok_or(Corrupt("posting game id past 32 bits"))?;
        let ply = r.get_eg(PLY_ORDER)?;
        let result = GameResult::from_code(r.get(2)? as u8);
        let next = if ply <= u64::from(MOVES_THROUGH) { next_move(r.get(16)? as u16)? } else { None };
        Ok(Posting {
            key: PositionKey::from_i64(self.key as i64),
            game: GameId(i64::from(
                u32::try_from(self.game).map_err(|_| Corrupt("posting game id past 32 bits"))?,
            )),
            ply: u32::try_from(ply).map_err(|_| Corrupt("posting ply past 32 bits"))?,
            next,
            result,
        })
    }
}

fn decode_first_format(
    lo: PositionKey,
    data: &[u8],
    want: Want<'_>,
    out: &mut Vec<Posting>,
) -> Result<(), Corrupt> {
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
        if want.past(key as i64) {
            return Ok(());
        }
        if !want.keeps(key as i64) {
            at = skip_postings(data, at, count)?;
            continue;
        }
        let mut game = 0u64;
        for _ in 0..count {
            game = game
                .checked_add(get_varint(data, &mut at)?)
                .ok_or(Corrupt("posting game id past 32 bits"))?;
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
        if want.ends_at(key as i64) {
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
        let code = (ply as u16).wrapping_mul(7).wrapping_add(1);
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

    /// Every posting of `blocks`, read one at a time as a merge reads them.
    fn stream_all(blocks: &[Block]) -> Vec<Posting> {
        let mut out = Vec::new();
        for b in blocks {
            let mut postings = BlockPostings::new(b.lo, b.data.clone()).unwrap();
            while let Some(p) = postings.read().unwrap() {
                out.push(p);
            }
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

    /// The shape of a run of `postings`.
    fn shape(postings: &[Posting]) -> RunShape {
        RunShape {
            postings: postings.len() as u64,
            min_game: postings.iter().map(|p| p.game.0 as u32).min().unwrap_or(0),
            max_game: postings.iter().map(|p| p.game.0 as u32).max().unwrap_or(0),
        }
    }

    /// `postings` as blocks return them.
    fn stored(postings: &[Posting]) -> Vec<Posting> {
        postings.iter().copied().map(as_stored).collect()
    }

    fn build(postings: &[Posting]) -> Vec<Block> {
        let mut builder = BlockBuilder::new(shape(postings));
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
        assert_eq!(decode_all(&blocks), stored(&all));
        assert_eq!(stream_all(&blocks), stored(&all));
        let mut first_block_of = std::collections::HashMap::new();
        for (i, b) in blocks.iter().enumerate() {
            let mut here = Vec::new();
            decode_block(b.lo, &b.data, None, &mut here).unwrap();
            // A block is over the target only by the last posting of a piece of one key.
            assert!(b.data.len() <= BLOCK_MAX, "{}", b.data.len());
            for p in here {
                let first = *first_block_of.entry(p.key).or_insert(i);
                if first != i {
                    assert_eq!(p.key, b.lo, "key {:?} split into a block that does not start with it", p.key);
                }
            }
        }
        let pieces = blocks.iter().filter(|b| b.lo == key(-7)).count();
        assert!((3..=10).contains(&pieces), "30,000 postings of 2 to 4 bytes in {pieces} blocks");
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
            let want: Vec<Posting> = stored(&all).into_iter().filter(|p| p.key == k).collect();
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
            assert_eq!(decode_all(&blocks), stored(&all), "{n}");
            assert_eq!(stream_all(&blocks), stored(&all), "{n}");
            assert_eq!(look_up(&blocks, 99), stored(&all), "{n}");
        }
    }

    #[test]
    fn damaged_blocks_are_errors_not_panics() {
        let mut builder = BlockBuilder::new(RunShape { postings: 49, min_game: 1, max_game: 49 });
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
            if let Ok(mut postings) = BlockPostings::new(block.lo, block.data[..cut].to_vec()) {
                while let Ok(Some(_)) = postings.read() {}
            }
        }
        // Every byte of a block of the second format changed, in turn: an error or some
        // postings, never a panic.
        for at in 0..block.data.len() {
            for flip in [0x01, 0x10, 0x80, 0xFF] {
                let mut data = block.data.clone();
                data[at] ^= flip;
                for only in [None, Some(key(7))] {
                    let _ = decode_block(block.lo, &data, only, &mut Vec::new());
                }
                // Read one at a time, the postings before the first error are those read
                // whole, and an error comes where the whole reading has one.
                let mut whole = Vec::new();
                let whole_ok = decode_block(block.lo, &data, None, &mut whole).is_ok();
                let mut one_by_one = Vec::new();
                let mut ok = true;
                match BlockPostings::new(block.lo, data.clone()) {
                    Ok(mut postings) => loop {
                        match postings.read() {
                            Ok(Some(p)) => one_by_one.push(p),
                            Ok(None) => break,
                            Err(_) => {
                                ok = false;
                                break;
                            }
                        }
                    },
                    Err(_) => ok = false,
                }
                assert_eq!(ok, whole_ok, "byte {at} ^ {flip:#x}");
                if ok {
                    assert_eq!(one_by_one, whole, "byte {at} ^ {flip:#x}");
                }
            }
        }
        let mut out = Vec::new();
        assert!(decode_block(key(0), &[], None, &mut out).is_err());
        assert!(decode_block(key(0), &[3, 0, 0, 0, 0], None, &mut out).is_err());
        assert!(decode_block(key(0), &[2, 64, 0, 0, 1, 0], None, &mut out).is_err(), "k past 63");
        assert!(decode_block(key(0), &[2, 3, 33, 0, 1, 0], None, &mut out).is_err(), "width past 32");
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

    /// Bytes whose bits, from the low bit of each byte up, are `bits` ('0' and '1'; spaces
    /// ignored).
    fn bytes_of(bits: &str) -> Vec<u8> {
        let bits: Vec<u8> = bits.bytes().filter(|b| *b != b' ').map(|b| b - b'0').collect();
        bits.chunks(8).map(|c| c.iter().enumerate().map(|(i, &b)| b << i).sum()).collect()
    }

    #[test]
    fn a_block_of_the_second_format_by_hand() {
        let seven_six: Move = "7g7f".parse().unwrap();
        let p = |k: i64, game: i64, ply: u32, next: Option<Move>, result: GameResult| Posting {
            key: key(k),
            game: GameId(game),
            ply,
            next,
            result,
        };
        let all = [
            p(100, 11, 0, Some(seven_six), GameResult::BlackWin),
            p(109, 10, 30, Some(seven_six), GameResult::WhiteWin),
            p(109, 13, 2, None, GameResult::Unknown),
        ];
        // A run of 2^60 postings: gaps of about 16, Rice parameter 3 (16 · ln 2 is 11.1).
        let mut builder = BlockBuilder::new(RunShape { postings: 1 << 60, min_game: 10, max_game: 13 });
        for q in all {
            assert_eq!(builder.push(q).count(), 0);
        }
        let blocks: Vec<Block> = builder.finish().collect();
        let code = format!("{:016b}", seven_six.code()).chars().rev().collect::<String>();
        let bits = [
            // Key 100, the first: no gap. One posting: game 11 is 1 in two bits, ply 0 in EG5
            // ("0" and 00000), Black won (1), the move.
            "0",
            "10",
            "000000",
            "10",
            &code,
            // Key 109: gap 9 with k = 3 ("10" and 001 from the low bit up). Two postings ("1"
            // and 0 in EG0). Game 10 (0); ply 30 in EG5 ("0", then 30 + 32 = 0b111110 less its
            // top bit, from the low bit up); White won (2); no move past ply 24.
            "10 100",
            "1 0",
            "00",
            "0 01111",
            "01",
            // Game 13: gap 3 in EG2 ("0", then 3 + 4 = 0b111 less its top bit); ply 2 in EG5
            // ("0" and 34 = 0b100010 less its top bit); unknown result; the game ends there.
            "0 11",
            "0 01000",
            "00",
            "0000000000000000",
        ]
        .concat();
        let mut data = vec![2, 3, 2, 10, 2];
        data.extend(bytes_of(&bits));
        assert_eq!(blocks, [Block { lo: key(100), n: 3, data }]);
        let mut want = all.to_vec();
        want[1].next = None;
        assert_eq!(decode_all(&blocks), want);
        assert_eq!(look_up(&blocks, 109), want[1..]);
    }

    #[test]
    fn moves_are_stored_through_ply_24_and_games_at_the_ends_of_any_range() {
        for (min, max) in [(5, 5), (0, 1), (1, u32::MAX), (0, u32::MAX), (70_000, 1_100_000)] {
            let games = [min, max, min / 2 + max / 2];
            let mut all: Vec<Posting> = (0..60u32)
                .flat_map(|ply| games.map(|g| posting(i64::from(ply % 7) - 3, g.max(min), ply)))
                .collect();
            all.sort();
            all.dedup();
            let blocks = build(&all);
            let back = decode_all(&blocks);
            assert_eq!(back, stored(&all), "{min} {max}");
            for (p, q) in all.iter().zip(&back) {
                assert_eq!(q.next, if p.ply <= 24 { p.next } else { None }, "{p:?}");
            }
        }
    }

    #[test]
    fn blocks_of_the_first_format_are_still_read() {
        // Keys 4 and 9: game 3 at ply 1 (Black won, 7g7f); games 2 and 7 at plies 30 and 0
        // (a draw, moves kept past ply 24 in this format; the game ends there).
        let seven_six: Move = "7g7f".parse().unwrap();
        let mut data = vec![0, 1, 3, 1 << 2 | 1];
        data.extend_from_slice(&seven_six.code().to_le_bytes());
        data.extend_from_slice(&[5, 2, 2, 30 << 2 | 3]);
        data.extend_from_slice(&seven_six.code().to_le_bytes());
        data.extend_from_slice(&[5, 0, 0, 0]);
        let p = |k: i64, game: i64, ply: u32, next: Option<Move>, result: GameResult| Posting {
            key: key(k),
            game: GameId(game),
            ply,
            next,
            result,
        };
        let mut out = Vec::new();
        decode_block(key(4), &data, None, &mut out).unwrap();
        assert_eq!(
            out,
            [
                p(4, 3, 1, Some(seven_six), GameResult::BlackWin),
                p(9, 2, 30, Some(seven_six), GameResult::Draw),
                p(9, 7, 0, None, GameResult::Unknown),
            ]
        );
        out.clear();
        decode_block(key(4), &data, Some(key(9)), &mut out).unwrap();
        assert_eq!(out.len(), 2);

        // A damaged block whose second game gap runs past 64 bits: an error, not a panic.
        let mut data = vec![0, 2, 5, 1 << 2];
        data.extend_from_slice(&seven_six.code().to_le_bytes());
        data.extend_from_slice(&[0xff; 9]);
        data.extend_from_slice(&[1, 1 << 2]);
        data.extend_from_slice(&seven_six.code().to_le_bytes());
        assert_eq!(
            decode_block(key(4), &data, None, &mut Vec::new()),
            Err(Corrupt("posting game id past 32 bits"))
        );
    }

    #[test]
    fn a_block_is_never_longer_than_its_page_allows() {
        // The widest postings: games over the whole 32-bit range, plies past any real game,
        // one key cut into pieces, and keys far apart.
        let mut all: Vec<Posting> = (0..40_000u32)
            .map(|i| posting(77, i.wrapping_mul(0x9E37_79B9), u32::MAX - i))
            .chain((0..40_000i64).map(|i| posting(i.wrapping_mul(0x5851_F42D_4C95_7F2D), u32::MAX - 1, 3)))
            .collect();
        all.sort();
        all.dedup_by_key(|p| (p.key, p.game, p.ply));
        let mut builder = BlockBuilder::new(RunShape { postings: 4, min_game: 0, max_game: u32::MAX });
        let mut blocks = Vec::new();
        for &p in &all {
            blocks.extend(builder.push(p));
        }
        blocks.extend(builder.finish());
        let longest = blocks.iter().map(|b| b.data.len()).max().unwrap();
        assert!(longest <= BLOCK_MAX, "{longest}");
        assert!(longest > BLOCK_TARGET - 100, "{longest}");
        assert_eq!(decode_all(&blocks), stored(&all));
    }
}
