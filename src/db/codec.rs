//! The byte formats stored in BLOB and TEXT columns: posting blocks, move lists, times,
//! comments and raw headers. Pure functions, no SQL; every decoder checks its bounds and
//! reports [`Corrupt`] instead of panicking on damaged data.
//!
//! # Packed positions (a stored format)
//!
//! `keypos` stores positions exactly, packed ([`pack_position`]): a first byte with the side
//! to move (bit 0), whether Black's (bit 1) and White's (bit 2) hands hold anything and
//! whether the game is yari shogi (bit 3, whose squares are the first 63); the
//! seven hand counts of each non-empty hand (pawn, lance, knight, silver, gold, bishop,
//! rook); an 11-byte bitmap of the occupied squares (bit `i % 8` of byte `i / 8` for
//! [`Square::index`] `i`); then the pieces on the occupied squares in that order, five bits
//! each (`Piece::index()`), packed from the low bits up. Equal positions pack to equal bytes.
//!
//! # Posting blocks (a stored format)
//!
//! A block holds the postings of consecutive keys, sorted by (key as a signed integer, game,
//! ply), in about [`BLOCK_TARGET`] bytes. Its first key is stored beside it (`pblocks.lo`).
//! A key's postings are in one block, unless they alone overflow one: then they are cut into
//! blocks that each start with that key, so their `lo` is the key (later keys may follow the
//! last piece). A lookup of a key therefore reads the blocks whose `lo` is the greatest not
//! above it: one block, or the pieces of a large key. For each key of a block in turn:
//! - `varint(key − previous key)` (as unsigned 64-bit wrapping difference; 0 for the first);
//! - `varint(count)`;
//! - per posting: `varint(game − previous game of this key)`, `varint(ply << 2 | result)`, and
//!   the move played from the position as two little-endian bytes ([`Move::code`]), or 0 when
//!   the game ends there.

use super::Corrupt;
#[cfg(doc)]
use crate::shogi::Square;
use crate::shogi::{Color, Move, PieceKind, Setup, Variant};

/// One occurrence of a position in the index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Posting {
    /// The position key, as SQLite stores it (signed).
    pub key: i64,
    pub game: u32,
    pub ply: u32,
    /// The code of the move played from the position; 0 when the game ends there.
    pub mv: u16,
    pub result: u8,
}

/// Blocks are cut at about this many bytes so that one fits a 16 KiB page with its row.
pub const BLOCK_TARGET: usize = 16_000;

/// Appends `v` as a LEB128 varint.
pub fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Reads a LEB128 varint at `*at`, advancing it.
#[inline]
pub fn get_varint(data: &[u8], at: &mut usize) -> Result<u64, Corrupt> {
    // Most varints in postings are one byte.
    if let Some(&byte) = data.get(*at) {
        if byte < 0x80 {
            *at += 1;
            return Ok(u64::from(byte));
        }
    }
    get_long_varint(data, at)
}

fn get_long_varint(data: &[u8], at: &mut usize) -> Result<u64, Corrupt> {
    let rest = data.get(*at..).unwrap_or_default();
    let mut v = 0u64;
    for (i, &byte) in rest.iter().take(10).enumerate() {
        v |= u64::from(byte & 0x7f) << (7 * i);
        if byte < 0x80 {
            if i == 9 && byte > 1 {
                return Err(Corrupt("varint overflows 64 bits"));
            }
            *at += i + 1;
            return Ok(v);
        }
    }
    Err(if rest.len() < 10 {
        Corrupt("varint runs past the end")
    } else {
        Corrupt("varint longer than 10 bytes")
    })
}

fn get_u16(data: &[u8], at: &mut usize) -> Result<u16, Corrupt> {
    let bytes = data.get(*at..*at + 2).ok_or(Corrupt("posting move runs past the end"))?;
    *at += 2;
    Ok(u16::from_le_bytes([bytes[0], bytes[1]]))
}

/// A finished block: its first key, its posting count and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub lo: i64,
    pub n: u32,
    pub data: Vec<u8>,
}

/// Cuts a sorted stream of postings into blocks, in memory bounded by the block size
/// whatever the number of postings of a key.
#[derive(Debug, Default)]
pub struct BlockBuilder {
    /// The block being filled, with whole groups: its first key, its postings and its bytes.
    lo: i64,
    n: u32,
    data: Vec<u8>,
    /// The last key encoded in `data`.
    prev_key: i64,
    /// The group being gathered: its key, its postings so far (encoded) and their count.
    key: Option<i64>,
    group: Vec<u8>,
    count: u32,
    prev_game: u32,
    /// Blocks finished and not yet handed out.
    done: Vec<Block>,
}

impl BlockBuilder {
    /// Adds the next posting (postings must come sorted). Yields the blocks it finished.
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
        put_varint(&mut self.group, u64::from(p.game - self.prev_game));
        self.prev_game = p.game;
        put_varint(&mut self.group, u64::from(p.ply) << 2 | u64::from(p.result & 3));
        self.group.extend_from_slice(&p.mv.to_le_bytes());
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
        let delta = (key as u64).wrapping_sub(self.prev_key as u64);
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
pub fn decode_block(lo: i64, data: &[u8], only: Option<i64>, out: &mut Vec<Posting>) -> Result<(), Corrupt> {
    let mut at = 0;
    let mut key = lo as u64;
    let mut first = true;
    while at < data.len() {
        let delta = get_varint(data, &mut at)?;
        if first && delta != 0 {
            return Err(Corrupt("a block's first key delta is not 0"));
        }
        first = false;
        key = key.wrapping_add(delta);
        let count = get_varint(data, &mut at)?;
        let wanted = only.is_none_or(|k| k == key as i64);
        if only.is_some_and(|k| (key as i64) > k) {
            return Ok(());
        }
        if !wanted {
            at = skip_postings(data, at, count)?;
            continue;
        }
        let mut game = 0u64;
        for _ in 0..count {
            game += get_varint(data, &mut at)?;
            let pr = get_varint(data, &mut at)?;
            let mv = get_u16(data, &mut at)?;
            if wanted {
                out.push(Posting {
                    key: key as i64,
                    game: u32::try_from(game).map_err(|_| Corrupt("posting game id past 32 bits"))?,
                    ply: u32::try_from(pr >> 2).map_err(|_| Corrupt("posting ply past 32 bits"))?,
                    mv,
                    result: (pr & 3) as u8,
                });
            }
        }
        if only.is_some_and(|k| k == key as i64) {
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

/// Appends the packed form of `setup`'s position (its game, board, hands, side to move; not
/// the move number) to `out`. The first byte holds the side to move (bit 0), which hands are
/// not empty (bits 1 and 2) and whether the game is yari shogi (bit 3), so that no position of
/// one game packs as one of the other.
pub fn pack_position(setup: &Setup, out: &mut Vec<u8>) {
    let mut flags = u8::from(setup.turn == Color::White);
    for color in Color::ALL {
        if !setup.hand(color).is_empty() {
            flags |= 2 << color.index();
        }
    }
    if setup.variant == Variant::Yari {
        flags |= 8;
    }
    out.push(flags);
    for color in Color::ALL {
        let hand = setup.hand(color);
        if !hand.is_empty() {
            out.extend(PieceKind::HAND.iter().map(|&k| hand.count(k)));
        }
    }
    // One pass: the occupancy bitmap, and the pieces five bits each (40 pieces at most on a
    // legal board, 81 in any case, so 51 bytes at most).
    let mut occupied = 0u128;
    let mut pieces = [0u8; 51];
    let (mut bits, mut n, mut len) = (0u32, 0, 0);
    for (i, piece) in setup.board.iter().enumerate() {
        if let Some(p) = piece {
            occupied |= 1 << i;
            bits |= (p.index() as u32) << n;
            n += 5;
            if n >= 8 {
                pieces[len] = bits as u8;
                len += 1;
                bits >>= 8;
                n -= 8;
            }
        }
    }
    if n > 0 {
        pieces[len] = bits as u8;
        len += 1;
    }
    out.extend_from_slice(&occupied.to_le_bytes()[..11]);
    out.extend_from_slice(&pieces[..len]);
}

/// The move list as stored: two little-endian bytes per move.
pub fn encode_moves(moves: &[Move]) -> Vec<u8> {
    moves.iter().flat_map(|m| m.code().to_le_bytes()).collect()
}

/// The moves of a stored move list.
///
/// # Errors
///
/// [`Corrupt`] on an odd length or a code that is no move.
pub fn decode_moves(blob: &[u8]) -> Result<Vec<Move>, Corrupt> {
    if blob.len() % 2 != 0 {
        return Err(Corrupt("a move list has an odd length"));
    }
    blob.chunks_exact(2)
        .map(|b| {
            Move::from_code(u16::from_le_bytes([b[0], b[1]])).ok_or(Corrupt("a stored move code is no move"))
        })
        .collect()
}

/// Per-move times: `varint(seconds + 1)`, 0 when unknown. `None` when no move has a time.
pub fn encode_times(seconds: impl Iterator<Item = Option<u32>>) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut any = false;
    for s in seconds {
        any |= s.is_some();
        put_varint(&mut out, s.map_or(0, |s| u64::from(s) + 1));
    }
    any.then_some(out)
}

/// The per-move times of [`encode_times`].
///
/// # Errors
///
/// [`Corrupt`] when the bytes are not a time list.
pub fn decode_times(blob: &[u8]) -> Result<Vec<Option<u32>>, Corrupt> {
    let mut at = 0;
    let mut out = Vec::new();
    while at < blob.len() {
        let v = get_varint(blob, &mut at)?;
        out.push(v.checked_sub(1).map(|s| u32::try_from(s).unwrap_or(u32::MAX)));
    }
    Ok(out)
}

/// Comments as `(ply, text)`: ply 0 is before the first move, ply n after move n.
/// Stored as `varint(ply) varint(length) bytes` repeated; `None` when there are none.
pub fn encode_comments<'a>(comments: impl Iterator<Item = (u32, &'a str)>) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    for (ply, text) in comments {
        put_varint(&mut out, u64::from(ply));
        put_varint(&mut out, text.len() as u64);
        out.extend_from_slice(text.as_bytes());
    }
    (!out.is_empty()).then_some(out)
}

/// The comments of [`encode_comments`].
///
/// # Errors
///
/// [`Corrupt`] when the bytes are not a comment list.
pub fn decode_comments(blob: &[u8]) -> Result<Vec<(u32, String)>, Corrupt> {
    let mut at = 0;
    let mut out = Vec::new();
    while at < blob.len() {
        let ply =
            u32::try_from(get_varint(blob, &mut at)?).map_err(|_| Corrupt("comment ply past 32 bits"))?;
        let len = usize::try_from(get_varint(blob, &mut at)?).map_err(|_| Corrupt("comment too long"))?;
        let bytes = blob.get(at..at.saturating_add(len)).ok_or(Corrupt("comment runs past the end"))?;
        at += len;
        out.push((ply, String::from_utf8_lossy(bytes).into_owned()));
    }
    Ok(out)
}

/// Raw headers as text: `key TAB value LF` per header, with `\\`, `\t` and `\n` escaped.
pub fn encode_headers<'a>(headers: impl Iterator<Item = (&'a str, &'a str)>) -> Option<String> {
    let mut out = String::new();
    for (key, value) in headers {
        escape(&mut out, key);
        out.push('\t');
        escape(&mut out, value);
        out.push('\n');
    }
    (!out.is_empty()).then_some(out)
}

fn escape(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// The headers of [`encode_headers`], in order.
pub fn decode_headers(text: &str) -> Vec<(String, String)> {
    text.split_terminator('\n')
        .map(|line| {
            let (key, value) = line.split_once('\t').unwrap_or((line, ""));
            (unescape(key), unescape(value))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn posting(key: i64, game: u32, ply: u32) -> Posting {
        Posting { key, game, ply, mv: (ply as u16) * 7 + 1, result: (game % 4) as u8 }
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

    /// The postings of `key` as a lookup finds them: in the blocks whose first key is the
    /// greatest not above it.
    fn look_up(blocks: &[Block], key: i64) -> Vec<Posting> {
        let mut out = Vec::new();
        let Some(lo) = blocks.iter().map(|b| b.lo).filter(|&lo| lo <= key).max() else {
            return out;
        };
        for b in blocks.iter().filter(|b| b.lo == lo) {
            decode_block(b.lo, &b.data, Some(key), &mut out).unwrap();
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
        for k in 0..8_000i64 {
            let key = k.wrapping_mul(0x9E37_79B9_7F4A_7C15u64 as i64);
            for g in 0..(1 + k % 5) as u32 {
                all.push(posting(key, g * 3 + 1, (k % 200) as u32));
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
                    assert_eq!(p.key, b.lo, "key {} split into a block that does not start with it", p.key);
                }
            }
        }
        let pieces = blocks.iter().filter(|b| b.lo == -7).count();
        assert!((6..=10).contains(&pieces), "30,000 postings of about 4 bytes in {pieces} blocks");
        let holding_42 = blocks
            .iter()
            .filter(|b| {
                let mut here = Vec::new();
                decode_block(b.lo, &b.data, Some(42), &mut here).unwrap();
                !here.is_empty()
            })
            .count();
        assert_eq!(holding_42, 1, "a key that fits a block is not split");
        // Every key looked up alone finds exactly its postings.
        let mut keys: Vec<i64> = all.iter().map(|p| p.key).collect();
        keys.dedup();
        for key in keys {
            let want: Vec<Posting> = all.iter().copied().filter(|p| p.key == key).collect();
            assert_eq!(look_up(&blocks, key), want, "key {key}");
        }
        assert_eq!(look_up(&blocks, 43), Vec::new());
        assert_eq!(look_up(&blocks, i64::MIN), Vec::new());
    }

    #[test]
    fn a_single_key_of_any_size_round_trips() {
        for n in [1, 2, 3_999, 4_000, 4_001, 12_000, 100_000] {
            let all: Vec<Posting> = (0..n).map(|g| posting(99, g + 1, 1)).collect();
            let blocks = build(&all);
            assert!(blocks.iter().all(|b| b.lo == 99));
            assert_eq!(decode_all(&blocks), all, "{n}");
            assert_eq!(look_up(&blocks, 99), all, "{n}");
        }
    }

    #[test]
    fn varints_round_trip_and_bad_ones_are_errors() {
        // Every length from 1 to 10 bytes, and the edges of each.
        let mut values = vec![0, 1, u64::MAX, u64::MAX - 1, 1 << 63];
        for bits in (7..64).step_by(7) {
            values.extend([(1u64 << bits) - 1, 1u64 << bits]);
        }
        for v in values {
            let mut buf = vec![0xAA];
            put_varint(&mut buf, v);
            buf.push(0x55);
            let mut at = 1;
            assert_eq!(get_varint(&buf, &mut at), Ok(v));
            assert_eq!(buf[at], 0x55, "{v}: read exactly its bytes");
        }
        let mut at = 0;
        assert!(get_varint(&[0x80, 0x80], &mut at).is_err(), "runs past the end");
        assert!(
            get_varint(&[0xFF; 9].iter().chain(&[2]).copied().collect::<Vec<_>>(), &mut 0).is_err(),
            "past 64 bits"
        );
        assert!(get_varint(&[0xFF; 11], &mut 0).is_err(), "longer than 10 bytes");
        assert_eq!(at, 0, "a failed read does not move");
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
            let _ = decode_block(block.lo, &block.data[..cut], Some(8), &mut out);
        }
        let mut out = Vec::new();
        assert!(decode_block(0, &[0x80; 12], None, &mut out).is_err());
        assert!(decode_block(0, &[5, 1, 1, 1, 0, 0], None, &mut out).is_err());
    }

    #[test]
    fn packed_positions_are_equal_exactly_when_positions_are() {
        let texts = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 7",
            "lnsgkgsnl/1r5+b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b B 1",
            "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b b 1",
            "4k4/9/9/9/9/9/9/9/4K4 b 2P 1",
            "4k4/9/9/9/9/9/9/9/4K4 b P 1",
            "4k4/9/9/9/9/9/9/9/4K4 b P2p 1",
            // The same squares (4a, 4i) on both boards: the yari bit tells them apart.
            "5k3/9/9/9/9/9/9/9/5K3 b - 1",
            "3k3/7/7/7/7/7/7/7/3K3 b - 1",
        ];
        let packed: Vec<Vec<u8>> = texts
            .iter()
            .map(|t| {
                let mut out = Vec::new();
                pack_position(&t.parse::<Setup>().unwrap(), &mut out);
                out
            })
            .collect();
        for i in 0..texts.len() {
            for j in 0..texts.len() {
                let same_position =
                    texts[i].rsplit_once(' ').unwrap().0 == texts[j].rsplit_once(' ').unwrap().0;
                assert_eq!(packed[i] == packed[j], same_position, "{} vs {}", texts[i], texts[j]);
            }
        }
        assert_eq!(packed[0].len(), 1 + 11 + 25);
    }

    #[test]
    fn side_formats_round_trip() {
        let times = [Some(0), None, Some(59), Some(100_000)];
        let blob = encode_times(times.iter().copied()).unwrap();
        assert_eq!(decode_times(&blob).unwrap(), times);
        assert_eq!(encode_times([None, None].into_iter()), None);

        let comments = [(0, "序盤"), (3, "a\nb"), (3, "")];
        let blob = encode_comments(comments.iter().copied()).unwrap();
        let back = decode_comments(&blob).unwrap();
        assert_eq!(back.iter().map(|(p, t)| (*p, t.as_str())).collect::<Vec<_>>(), comments);
        assert!(decode_comments(&[1, 200]).is_err());

        let headers = [("先手", "羽生善治"), ("odd\tkey", "two\nlines \\ here"), ("empty", "")];
        let text = encode_headers(headers.iter().copied()).unwrap();
        let back = decode_headers(&text);
        assert_eq!(back.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect::<Vec<_>>(), headers);

        let moves: Vec<Move> = ["7g7f", "3c3d", "8h2b+", "B*4e"].iter().map(|m| m.parse().unwrap()).collect();
        assert_eq!(decode_moves(&encode_moves(&moves)).unwrap(), moves);
        assert!(decode_moves(&[1]).is_err());
        assert!(decode_moves(&[0, 0]).is_err());
    }
}
