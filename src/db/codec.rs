//! The byte formats of the games and their records stored in BLOB and TEXT columns: move
//! lists, times, comments and raw headers, and the varints they (and the position index's
//! blocks) are made of. Pure functions, no SQL; every decoder checks its bounds and its
//! values, and reports [`Corrupt`] instead of panicking on damaged data or reading it as
//! something else.

use super::Corrupt;
use crate::shogi::Move;

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

/// Per-move times: `varint(seconds + 1)`, 0 when unknown, and the ending's after the moves'
/// when the record gives it one. `None` when none has a time.
pub fn encode_times(seconds: impl Iterator<Item = Option<u32>>) -> Option<Vec<u8>> {
    // Two bytes a move hold any time under four and a half hours.
    let mut out = Vec::with_capacity(2 * seconds.size_hint().0);
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
        let seconds = v.checked_sub(1).map(u32::try_from).transpose();
        out.push(seconds.map_err(|_| Corrupt("a move time past 32 bits"))?);
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
        let text = std::str::from_utf8(bytes).map_err(|_| Corrupt("a comment is not UTF-8"))?;
        out.push((ply, text.to_string()));
    }
    Ok(out)
}

/// Raw headers as text: `key TAB value LF` per header, with `\\`, `\t` and `\n` escaped.
pub fn encode_headers<'a>(headers: impl Iterator<Item = (&'a str, &'a str)> + Clone) -> Option<String> {
    let mut out = String::with_capacity(headers.clone().map(|(k, v)| k.len() + v.len() + 2).sum());
    for (key, value) in headers {
        escape(&mut out, key);
        out.push('\t');
        escape(&mut out, value);
        out.push('\n');
    }
    (!out.is_empty()).then_some(out)
}

fn escape(out: &mut String, s: &str) {
    // The escaped characters are ASCII, so the text between them is copied whole.
    let mut rest = s;
    while let Some(at) = rest.find(['\\', '\t', '\n']) {
        out.push_str(&rest[..at]);
        out.push_str(match rest.as_bytes()[at] {
            b'\\' => "\\\\",
            b'\t' => "\\t",
            _ => "\\n",
        });
        rest = &rest[at + 1..];
    }
    out.push_str(rest);
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
///
/// # Errors
///
/// [`Corrupt`] for a line that is no `key TAB value`.
pub fn decode_headers(text: &str) -> Result<Vec<(String, String)>, Corrupt> {
    text.split_terminator('\n')
        .map(|line| {
            let (key, value) = line.split_once('\t').ok_or(Corrupt("a header line has no tab"))?;
            Ok((unescape(key), unescape(value)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(decode_comments(&[1, 2, 0xe6, 0xa3]), Err(Corrupt("a comment is not UTF-8")));
        let mut past = Vec::new();
        put_varint(&mut past, u64::from(u32::MAX) + 2);
        assert_eq!(decode_times(&past), Err(Corrupt("a move time past 32 bits")));

        let headers = [("先手", "羽生善治"), ("odd\tkey", "two\nlines \\ here"), ("empty", "")];
        let text = encode_headers(headers.iter().copied()).unwrap();
        let back = decode_headers(&text).unwrap();
        assert_eq!(back.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect::<Vec<_>>(), headers);
        assert_eq!(decode_headers("key without a value\n"), Err(Corrupt("a header line has no tab")));

        let moves: Vec<Move> = ["7g7f", "3c3d", "8h2b+", "B*4e"].iter().map(|m| m.parse().unwrap()).collect();
        assert_eq!(decode_moves(&encode_moves(&moves)).unwrap(), moves);
        assert!(decode_moves(&[1]).is_err());
        assert!(decode_moves(&[0, 0]).is_err());
    }
}
