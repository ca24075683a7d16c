//! The byte formats stored in BLOB and TEXT columns: posting blocks, move lists, times,
//! comments and raw headers. Pure functions, no SQL; every decoder checks its bounds and
//! reports [`Corrupt`] instead of panicking on damaged data.
//!
//! # Packed positions (a stored format)
//!
//! `keypos` stores positions exactly, packed ([`pack_position`]): a first byte with the side
//! to move (bit 0) and whether Black's (bit 1) and White's (bit 2) hands hold anything; the
//! seven hand counts of each non-empty hand (pawn, lance, knight, silver, gold, bishop,
//! rook); an 11-byte bitmap of the occupied squares (bit `i % 8` of byte `i / 8` for
//! [`Square::index`] `i`); then the pieces on the occupied squares in that order, five bits
//! each (`Piece::index()`), packed from the low bits up. Equal positions pack to equal bytes.
//!
//! # Posting blocks (a stored format)
//!
//! A block holds the postings of consecutive keys, sorted by (key as a signed integer, game,
//! ply); a key is never split across blocks, so a lookup reads one block per run. Its first
//! key is stored beside it (`pblocks.lo`). For each key in turn:
//! - `varint(key − previous key)` (as unsigned 64-bit wrapping difference; 0 for the first);
//! - `varint(count)`;
//! - per posting: `varint(game − previous game of this key)`, `varint(ply << 2 | result)`, and
//!   the move played from the position as two little-endian bytes ([`Move::code`]), or 0 when
//!   the game ends there.

use super::Corrupt;
#[cfg(doc)]
use crate::shogi::Square;
use crate::shogi::{Color, Move, PieceKind, Setup};

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

/// Cuts a sorted stream of postings into blocks.
#[derive(Debug, Default)]
pub struct BlockBuilder {
    data: Vec<u8>,
    lo: i64,
    n: u32,
    prev_key: i64,
    group: Vec<Posting>,
}

impl BlockBuilder {
    /// Adds the next posting (postings must come sorted). Returns a block when one is full.
    pub fn push(&mut self, p: Posting) -> Option<Block> {
        let out = match self.group.first() {
            Some(g) if g.key != p.key => self.close_group(),
            _ => None,
        };
        self.group.push(p);
        out
    }

    /// The blocks still held (at most two), once every posting has been pushed.
    pub fn finish(&mut self) -> Vec<Block> {
        let mut out: Vec<Block> = self.close_group().into_iter().collect();
        out.extend(self.take());
        out
    }

    /// Encodes the postings of the current key at the end of the block; when they overflow
    /// it, the block is closed before them and they start the next one.
    fn close_group(&mut self) -> Option<Block> {
        let key = self.group.first()?.key;
        let mut out = None;
        let mark = self.data.len();
        if mark == 0 {
            self.lo = key;
            self.data.reserve(BLOCK_TARGET + 64);
            encode_group(&mut self.data, 0, &self.group);
        } else {
            encode_group(&mut self.data, (key as u64).wrapping_sub(self.prev_key as u64), &self.group);
            if self.data.len() > BLOCK_TARGET {
                self.data.truncate(mark);
                out = self.take();
                self.lo = key;
                self.data.reserve(BLOCK_TARGET + 64);
                encode_group(&mut self.data, 0, &self.group);
            }
        }
        self.n += self.group.len() as u32;
        self.prev_key = key;
        self.group.clear();
        out
    }

    fn take(&mut self) -> Option<Block> {
        if self.data.is_empty() {
            return None;
        }
        let n = std::mem::take(&mut self.n);
        Some(Block { lo: self.lo, n, data: std::mem::take(&mut self.data) })
    }
}

/// Appends the postings of one key (`delta` from the previous key) to `out`.
fn encode_group(out: &mut Vec<u8>, delta: u64, group: &[Posting]) {
    put_varint(out, delta);
    put_varint(out, group.len() as u64);
    let mut prev_game = 0;
    for p in group {
        put_varint(out, u64::from(p.game - prev_game));
        prev_game = p.game;
        put_varint(out, u64::from(p.ply) << 2 | u64::from(p.result & 3));
        out.extend_from_slice(&p.mv.to_le_bytes());
    }
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

/// Appends the packed form of `setup`'s position (board, hands, side to move; not the move
/// number) to `out`.
pub fn pack_position(setup: &Setup, out: &mut Vec<u8>) {
    let mut flags = u8::from(setup.turn == Color::White);
    for color in Color::ALL {
        if !setup.hand(color).is_empty() {
            flags |= 2 << color.index();
        }
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

    #[test]
    fn blocks_round_trip_and_never_split_a_key() {
        let mut all: Vec<Posting> = Vec::new();
        for k in 0..8_000i64 {
            let key = k.wrapping_mul(0x9E37_79B9_7F4A_7C15u64 as i64);
            for g in 0..(1 + k % 5) as u32 {
                all.push(posting(key, g * 3 + 1, (k % 200) as u32));
            }
        }
        // one hot key with many postings
        for g in 0..3_000 {
            all.push(posting(42, g + 1, 0));
        }
        all.sort();
        let mut builder = BlockBuilder::default();
        let mut blocks: Vec<Block> = all.iter().filter_map(|&p| builder.push(p)).collect();
        blocks.extend(builder.finish());
        assert!(blocks.len() > 5, "{}", blocks.len());
        let mut back = Vec::new();
        let mut seen_keys = std::collections::HashSet::new();
        for b in &blocks {
            let mut here = Vec::new();
            decode_block(b.lo, &b.data, None, &mut here).unwrap();
            assert_eq!(here.len() as u32, b.n);
            assert_eq!(here[0].key, b.lo);
            let keys: std::collections::BTreeSet<i64> = here.iter().map(|p| p.key).collect();
            for k in keys {
                assert!(seen_keys.insert(k), "key {k} split across blocks");
            }
            assert!(b.data.len() <= BLOCK_TARGET || here.iter().all(|p| p.key == b.lo));
            back.extend(here);
        }
        assert_eq!(back, all);
        // a single key out of a block
        let b = blocks.iter().find(|b| b.lo <= 42 && b.lo >= 0).map(|b| b.lo);
        let block = blocks.iter().rev().find(|b| b.lo <= 42).unwrap();
        let mut only = Vec::new();
        decode_block(block.lo, &block.data, Some(42), &mut only).unwrap();
        assert_eq!(only.len(), 3_000, "{b:?}");
        // Every key found alone, past the keys skipped before it, is its full-decode postings.
        for block in &blocks {
            let mut here = Vec::new();
            decode_block(block.lo, &block.data, None, &mut here).unwrap();
            for key in here.iter().map(|p| p.key).collect::<std::collections::BTreeSet<_>>() {
                let mut alone = Vec::new();
                decode_block(block.lo, &block.data, Some(key), &mut alone).unwrap();
                let want: Vec<Posting> = here.iter().copied().filter(|p| p.key == key).collect();
                assert_eq!(alone, want);
            }
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
            assert!(builder.push(posting(7, g, g)).is_none());
        }
        let block = builder.finish().pop().unwrap();
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
