//! Bit streams for the posting blocks: fields of any width, unary, Rice and exponential
//! Golomb codes, written from the low bit of each byte up. The reader checks every bound
//! and reports [`Corrupt`] instead of reading past the end.

use crate::db::Corrupt;

/// A unary prefix longer than this is no code this format writes: the reader stops there.
pub const MAX_UNARY: u32 = 40;

/// Appends fields to a byte buffer.
#[derive(Debug, Default)]
pub struct BitWriter {
    out: Vec<u8>,
    /// Bits not yet in `out`, the next at bit 0, and how many (fewer than 32 between calls).
    acc: u64,
    held: u32,
}

impl BitWriter {
    /// Bits written so far.
    pub fn len(&self) -> usize {
        self.out.len() * 8 + self.held as usize
    }

    /// Writes the low `bits` bits of `v` (at most 32 at a time).
    #[inline]
    pub fn put(&mut self, v: u64, bits: u32) {
        debug_assert!(bits <= 32 && (bits == 32 || v >> bits == 0));
        // Fewer than 32 bits held and at most 32 added: they fit in the 64 of the buffer, and
        // whole words of 32 bits go out at once.
        self.acc |= v << self.held;
        self.held += bits;
        if self.held >= 32 {
            self.out.extend_from_slice(&(self.acc as u32).to_le_bytes());
            self.acc >>= 32;
            self.held -= 32;
        }
    }

    /// Writes `v` in all 64 bits.
    pub fn put_u64(&mut self, v: u64) {
        self.put(v & 0xFFFF_FFFF, 32);
        self.put(v >> 32, 32);
    }

    /// Writes the low `bits` bits of `v` (at most 64 at a time): several fields gathered in
    /// one number go out in one or two steps instead of one each.
    #[inline]
    pub fn put_long(&mut self, v: u64, bits: u32) {
        debug_assert!(bits <= 64 && (bits == 64 || v >> bits == 0));
        if bits <= 32 {
            self.put(v, bits);
        } else {
            self.put(v & 0xFFFF_FFFF, 32);
            self.put(v >> 32, bits - 32);
        }
    }

    /// Writes `q` one bits and a zero.
    pub fn put_unary(&mut self, mut q: u32) {
        while q >= 32 {
            self.put(0xFFFF_FFFF, 32);
            q -= 32;
        }
        self.put((1 << q) - 1, q + 1);
    }

    /// Writes `v` in the exponential Golomb code of order `k` (see [`eg_len`]).
    #[inline]
    pub fn put_eg(&mut self, v: u64, k: u32) {
        let len = eg_len(v, k) as u32;
        if len <= 64 {
            // The usual code: its ones, its zero and its low bits in one number.
            self.put_long(eg_code(v, k), len);
            return;
        }
        let w = v + (1 << k);
        let low = 63 - w.leading_zeros();
        self.put_unary(low - k);
        self.put(w & 0xFFFF_FFFF, 32);
        self.put((w >> 32) & ((1 << (low - 32)) - 1), low - 32);
    }

    /// Writes `v` in the Rice code of parameter `k`, or, when its quotient would pass
    /// [`MAX_UNARY`], as that many one bits and the whole 64 bits (see [`rice_len`]).
    pub fn put_rice(&mut self, v: u64, k: u32) {
        let q = v >> k;
        if q >= u64::from(MAX_UNARY) {
            self.put_unary_ones(MAX_UNARY);
            self.put_u64(v);
            return;
        }
        let len = q as u32 + 1 + k;
        if len <= 64 {
            // The usual code, at most 64 bits: its ones, its zero and its low bits in one
            // number, written in one or two fields.
            let code = ((1 << q) - 1) | (v & ((1 << k) - 1)) << (q + 1);
            if len <= 32 {
                self.put(code, len);
            } else {
                self.put(code & 0xFFFF_FFFF, 32);
                self.put(code >> 32, len - 32);
            }
        } else {
            self.put_unary(q as u32);
            if k > 32 {
                self.put(v & 0xFFFF_FFFF, 32);
                self.put((v >> 32) & ((1 << (k - 32)) - 1), k - 32);
            } else {
                self.put(v & ((1 << k) - 1), k);
            }
        }
    }

    /// Writes `n` one bits and no zero after them.
    fn put_unary_ones(&mut self, mut n: u32) {
        while n > 0 {
            let now = n.min(32);
            self.put((1u64 << now) - 1, now);
            n -= now;
        }
    }

    /// The bytes, the last one filled up with zero bits.
    pub fn finish(mut self) -> Vec<u8> {
        let bytes = self.held.div_ceil(8) as usize;
        self.out.extend_from_slice(&self.acc.to_le_bytes()[..bytes]);
        self.out
    }
}

/// The bits that [`BitWriter::put_eg`] writes for `v`, in the order written from bit 0 up,
/// when they are at most 64 ([`eg_len`]): the ones, the zero, then the low bits of `v + 2^k`
/// below its top bit.
#[inline]
pub fn eg_code(v: u64, k: u32) -> u64 {
    let w = v + (1 << k);
    let width = 64 - w.leading_zeros();
    let q = width - 1 - k;
    let rest = w & ((1 << (width - 1)) - 1);
    debug_assert!(2 * width - 1 - k <= 64);
    rest << (q + 1) | ((1 << q) - 1)
}

/// Bits that [`BitWriter::put_eg`] writes for `v`.
#[inline]
pub fn eg_len(v: u64, k: u32) -> usize {
    let width = 64 - (v + (1 << k)).leading_zeros();
    (2 * width - 1 - k) as usize
}

/// Bits that [`BitWriter::put_rice`] writes for `v`.
pub fn rice_len(v: u64, k: u32) -> usize {
    let q = v >> k;
    if q >= u64::from(MAX_UNARY) { (MAX_UNARY + 64) as usize } else { (q as u32 + 1 + k) as usize }
}

/// Reads fields from bytes that a [`BitWriter`] wrote.
#[derive(Debug)]
pub struct BitReader<'a> {
    data: &'a [u8],
    /// The next byte not yet in `buf`.
    next: usize,
    /// Bits read ahead, the next at bit 0 (zeros above them), and how many.
    buf: u64,
    held: u32,
}

/// Where a [`BitReader`] stands in its bytes: a reader over the same bytes takes it up there.
#[derive(Clone, Copy, Debug, Default)]
pub struct Mark {
    next: usize,
    buf: u64,
    held: u32,
}

impl<'a> BitReader<'a> {
    pub fn new(data: &'a [u8]) -> BitReader<'a> {
        BitReader { data, next: 0, buf: 0, held: 0 }
    }

    /// A reader of `data` at `mark`, which a reader of the same bytes made.
    #[inline]
    pub fn resume(data: &'a [u8], mark: Mark) -> BitReader<'a> {
        BitReader { data, next: mark.next, buf: mark.buf, held: mark.held }
    }

    /// Where the reader stands.
    #[inline]
    pub fn mark(&self) -> Mark {
        Mark { next: self.next, buf: self.buf, held: self.held }
    }

    /// Reads ahead until at least 57 bits are held, or the data is all held.
    #[inline]
    fn refill(&mut self) {
        if let Some(eight) = self.data.get(self.next..self.next + 8) {
            let word = u64::from_le_bytes(eight.try_into().unwrap_or_default());
            self.buf |= word << self.held;
            let bytes = (63 - self.held) / 8;
            self.next += bytes as usize;
            self.held += bytes * 8;
            // The bits of the word past those bytes were shifted in above them: clear them.
            self.buf &= u64::MAX >> (64 - self.held);
        } else {
            while self.held <= 56 && self.next < self.data.len() {
                self.buf |= u64::from(self.data[self.next]) << self.held;
                self.next += 1;
                self.held += 8;
            }
        }
    }

    /// Bits left to read.
    pub fn remaining(&self) -> usize {
        self.held as usize + (self.data.len() - self.next) * 8
    }

    /// Reads a field of `bits` bits (at most 32).
    #[inline(always)]
    pub fn get(&mut self, bits: u32) -> Result<u64, Corrupt> {
        debug_assert!(bits <= 32);
        if self.held < bits {
            self.refill();
            if self.held < bits {
                return Err(Corrupt("a posting runs past the end of its block"));
            }
        }
        let v = self.buf & ((1u64 << bits) - 1);
        self.buf >>= bits;
        self.held -= bits;
        Ok(v)
    }

    /// Reads a field of `bits` bits (up to 64).
    fn get_wide(&mut self, bits: u32) -> Result<u64, Corrupt> {
        if bits > 32 {
            let low = self.get(32)?;
            Ok(low | self.get(bits - 32)? << 32)
        } else {
            self.get(bits)
        }
    }

    /// Counts one bits up to [`MAX_UNARY`]; reads the zero after them when there are fewer.
    #[inline]
    fn ones(&mut self) -> Result<u32, Corrupt> {
        let mut q = 0;
        loop {
            if self.held < 33 {
                self.refill();
            }
            // Bits above those held are zeros, so a run stops at the last one held.
            let run = (!self.buf).trailing_zeros().min(MAX_UNARY - q);
            if run > self.held {
                return Err(Corrupt("a posting runs past the end of its block"));
            }
            self.buf = self.buf.checked_shr(run).unwrap_or(0);
            self.held -= run;
            q += run;
            if q == MAX_UNARY {
                return Ok(q);
            }
            if self.held > 0 {
                // The zero that ends the code.
                self.buf >>= 1;
                self.held -= 1;
                return Ok(q);
            }
            if self.remaining() == 0 {
                return Err(Corrupt("a posting runs past the end of its block"));
            }
        }
    }

    /// Reads a value that [`BitWriter::put_eg`] wrote.
    #[inline(always)]
    pub fn get_eg(&mut self, k: u32) -> Result<u64, Corrupt> {
        // Most codes are short and held whole: read them in one step.
        if self.held < 57 {
            self.refill();
        }
        let q = (!self.buf).trailing_zeros();
        let len = 2 * q + 1 + k;
        if q < MAX_UNARY && len <= self.held {
            let low = q + k;
            let v = (self.buf >> (q + 1)) & ((1u64 << low) - 1);
            self.buf = self.buf.checked_shr(len).unwrap_or(0);
            self.held -= len;
            return Ok(((1u64 << low) | v) - (1 << k));
        }
        let q = self.ones()?;
        if q >= MAX_UNARY || q + k > 63 {
            return Err(Corrupt("a posting's number is too long"));
        }
        let low = q + k;
        Ok(((1u64 << low) | self.get_wide(low)?) - (1 << k))
    }

    /// Reads a value that [`BitWriter::put_rice`] wrote.
    pub fn get_rice(&mut self, k: u32) -> Result<u64, Corrupt> {
        // Most codes are short and held whole: read them in one step.
        if self.held < 57 {
            self.refill();
        }
        let q = (!self.buf).trailing_zeros();
        let len = q + 1 + k;
        if q < MAX_UNARY && len <= self.held {
            let v = (self.buf >> (q + 1)) & ((1u64 << k) - 1);
            self.buf = self.buf.checked_shr(len).unwrap_or(0);
            self.held -= len;
            return Ok(u64::from(q) << k | v);
        }
        let q = self.ones()?;
        if q == MAX_UNARY {
            return self.get_wide(64);
        }
        Ok(u64::from(q) << k | self.get_wide(k)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_reads_back_what_was_written_in_the_bits_it_says() {
        let values: Vec<u64> = [0u64, 1, 2, 3, 7, 8, 31, 32, 100, 1_000, 65_535, 1 << 32, u64::MAX >> 1]
            .into_iter()
            .chain((0..200).map(|i: u64| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (i % 64)))
            .collect();
        for k in [0, 2, 5, 17, 40, 63] {
            let mut w = BitWriter::default();
            let mut expected = 0;
            for &v in &values {
                if k <= 20 && v < 1 << 40 {
                    w.put_eg(v, k);
                    expected += eg_len(v, k);
                    assert_eq!(w.len(), expected, "eg {v} {k}");
                }
                w.put_rice(v, k);
                expected += rice_len(v, k);
                assert_eq!(w.len(), expected, "rice {v} {k}");
                w.put(v & 0x1F, 5);
                expected += 5;
            }
            let data = w.finish();
            assert_eq!(data.len(), expected.div_ceil(8));
            let mut r = BitReader::new(&data);
            for &v in &values {
                if k <= 20 && v < 1 << 40 {
                    assert_eq!(r.get_eg(k), Ok(v), "eg {v} {k}");
                }
                assert_eq!(r.get_rice(k), Ok(v), "rice {v} {k}");
                assert_eq!(r.get(5), Ok(v & 0x1F));
            }
            assert!(r.remaining() < 8);
        }
    }

    /// The bytes of `bits` (each 0 or 1), from the low bit of each byte up.
    fn pack(bits: &[u8]) -> Vec<u8> {
        bits.chunks(8).map(|c| c.iter().enumerate().map(|(i, &b)| b << i).sum()).collect()
    }

    /// `v` in the exponential Golomb code of order `k`, bit by bit: as many ones as
    /// `v + 2^k` has bits past `k + 1`, a zero, then those bits below its top one, low first.
    fn naive_eg(v: u64, k: u32) -> Vec<u8> {
        let w = u128::from(v) + (1 << k);
        let low = 127 - w.leading_zeros();
        let mut bits = vec![1; (low - k) as usize];
        bits.push(0);
        bits.extend((0..low).map(|i| (w >> i & 1) as u8));
        bits
    }

    /// `v` in the Rice code of parameter `k`, bit by bit (see [`BitWriter::put_rice`]).
    fn naive_rice(v: u64, k: u32) -> Vec<u8> {
        let q = v >> k;
        if q >= u64::from(MAX_UNARY) {
            let mut bits = vec![1; MAX_UNARY as usize];
            bits.extend((0..64).map(|i| (v >> i & 1) as u8));
            return bits;
        }
        let mut bits = vec![1; q as usize];
        bits.push(0);
        bits.extend((0..k).map(|i| (v >> i & 1) as u8));
        bits
    }

    #[test]
    fn codes_are_the_bits_a_naive_writer_writes() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for k in [0, 1, 2, 5, 20, 31, 32, 33, 43, 44, 62, 63] {
            let mut w = BitWriter::default();
            let mut naive = Vec::new();
            for i in 0..2_000 {
                // Values of every width, and odd fields between codes so that they start
                // anywhere in a word.
                let v = next() >> (next() % 64);
                let field = next() % 64;
                let bits = (i % 33) as u32;
                w.put(field & ((1 << bits) - 1), bits);
                naive.extend((0..bits).map(|b| (field >> b & 1) as u8));
                if v < 1 << 40 && k <= 20 {
                    w.put_eg(v, k);
                    naive.extend(naive_eg(v, k));
                }
                let small = (1u64 << k).checked_mul(8).map_or(u64::MAX, |m| m - 1);
                let rice = if i % 3 == 0 { v } else { v & small };
                w.put_rice(rice, k);
                naive.extend(naive_rice(rice, k));
                let long = (next() % 65) as u32;
                let value = if long == 64 { v } else { v & ((1 << long) - 1) };
                w.put_long(value, long);
                naive.extend((0..long).map(|b| (value >> b & 1) as u8));
                assert_eq!(w.len(), naive.len(), "k {k}, value {i}");
            }
            assert_eq!(w.finish(), pack(&naive), "k {k}");
        }
    }

    #[test]
    fn codes_by_hand() {
        // Order 0: 0 is "0"; 1 is "1 0" then one low bit 0; 4 is "1 1 0" then 01.
        let mut w = BitWriter::default();
        w.put_eg(0, 0);
        w.put_eg(1, 0);
        w.put_eg(4, 0);
        assert_eq!(w.finish(), [0b1011_0010, 0b0000_0000]);
        // Rice with k = 2: 9 is quotient 2 ("1 1 0") and remainder 01.
        let mut w = BitWriter::default();
        w.put_rice(9, 2);
        assert_eq!(w.finish(), [0b0000_1011]);
    }

    #[test]
    fn reading_past_the_end_is_corrupt() {
        for data in [&[][..], &[0xFF], &[0xFF; 5], &[0xFF; 9]] {
            let mut r = BitReader::new(data);
            assert!(r.get_eg(0).is_err());
            let mut r = BitReader::new(data);
            assert!(r.get_rice(3).is_err());
        }
        let mut r = BitReader::new(&[0xAB]);
        assert_eq!(r.get(8), Ok(0xAB));
        assert!(r.get(1).is_err());
    }
}
