//! Bytes to text and back: the encodings game records come in, and the lines of the text.
//!
//! Policy: the encoding is decided by the bytes, never by the file name.
//! 1. A UTF-8 byte order mark means UTF-8, and a UTF-16 one UTF-16 of its byte order (the
//!    mark is dropped). Bytes that switch to JIS X 0208 as ISO-2022-JP does (`ESC $ B`,
//!    `ESC $ @`) and are valid ISO-2022-JP are ISO-2022-JP: that 7-bit text is valid UTF-8
//!    too, but as UTF-8 it would keep the escapes.
//! 2. Bytes that are valid UTF-8 are UTF-8 (pure ASCII included). Japanese text in CP932 or
//!    EUC-JP is practically never valid UTF-8, so this is safe even when a file declares
//!    another encoding (real files lie: `#KIF version=2.0 encoding=UTF-8` heads CP932 files).
//! 3. Otherwise CP932 (Windows Shift_JIS) and EUC-JP are both tried without replacement. When
//!    only one decodes, it is the one. When both do, the declaration (`#KIF … encoding=…`,
//!    `'CSA encoding=…`, `'encoding=…`) decides if it names one of them, else the decoding
//!    that reads as more plausible Japanese (EUC-JP bytes read as CP932 turn into half-width
//!    katakana and rare symbols).
//! 4. Bytes that decode in none of them are a [`DecodeError`] naming the line and byte;
//!    [`decode`] never produces a replacement character.
//!
//! A record file is not lost over a few lines: [`decode_lossy`] reads it a line at a time in
//! the encoding most of its lines are in (on a tie, the one the file declares, else the one
//! whose reading is the more plausible Japanese), a line of UTF-8 or one that is text only in
//! another encoding in that one (two files joined by `cat`), and the bytes of a line that is
//! text in none (a stray byte, a file cut inside a character) as U+FFFD, in the encoding that
//! reads the most of the line, telling each such line ([`LineFix`]). UTF-16, whose bytes are
//! no lines of the others', is read unit by unit, a unit that is no text (half of a surrogate
//! pair, a last odd byte) as U+FFFD. A text with fewer good lines than bad is still a
//! [`DecodeError`]: that is no record. Its lines end as [`lines`] ends them.
//!
//! [`lines`] splits text at CRLF, LF or a lone CR, with or without a final line break, for
//! every reader.

use std::borrow::Cow;

use encoding_rs::{DecoderResult, EUC_JP, EncoderResult, ISO_2022_JP, SHIFT_JIS, UTF_16BE, UTF_16LE};

/// An encoding records are written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// UTF-8 without a byte order mark (plain ASCII included).
    Utf8,
    /// UTF-8 with a byte order mark.
    Utf8Bom,
    /// Windows Shift_JIS (CP932, Windows-31J).
    ShiftJis,
    /// EUC-JP.
    EucJp,
    /// ISO-2022-JP (JIS), seven bits with escapes.
    Iso2022Jp,
    /// UTF-16, little-endian, with a byte order mark.
    Utf16Le,
    /// UTF-16, big-endian, with a byte order mark.
    Utf16Be,
}

impl Encoding {
    /// The name stored in the database: `utf-8`, `utf-8-bom`, `cp932`, `euc-jp`,
    /// `iso-2022-jp`, `utf-16le`, `utf-16be`.
    pub const fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::Utf8Bom => "utf-8-bom",
            Encoding::ShiftJis => "cp932",
            Encoding::EucJp => "euc-jp",
            Encoding::Iso2022Jp => "iso-2022-jp",
            Encoding::Utf16Le => "utf-16le",
            Encoding::Utf16Be => "utf-16be",
        }
    }
}

/// Decoded text and the encoding it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded<'a> {
    /// The text, borrowed from the bytes when they were UTF-8 already.
    pub text: Cow<'a, str>,
    pub encoding: Encoding,
}

/// Bytes that are text in none of the supported encodings, or not in the one a byte order
/// mark declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column} (byte {offset}): byte 0x{byte:02X} is not text in {}", self.read_as())]
pub struct DecodeError {
    /// The byte offset of the first undecodable byte, in the encoding that read furthest.
    pub offset: usize,
    /// Its 1-based line.
    pub line: u32,
    /// Its 1-based byte column in that line.
    pub column: usize,
    /// The byte itself.
    pub byte: u8,
    /// The encoding the file's byte order mark declares, the only one it was read in; `None`
    /// when it has none, and UTF-8, CP932 and EUC-JP were each tried.
    pub declared: Option<Encoding>,
}

impl DecodeError {
    /// The encodings the bytes were read in, as the message names them.
    fn read_as(&self) -> &'static str {
        match self.declared {
            Some(Encoding::Utf8Bom) => "UTF-8, which the byte order mark at its start declares",
            Some(Encoding::Utf16Le) => {
                "UTF-16 (little-endian), which the byte order mark at its start declares"
            }
            Some(Encoding::Utf16Be) => "UTF-16 (big-endian), which the byte order mark at its start declares",
            _ => "UTF-8, CP932 (Shift_JIS) or EUC-JP",
        }
    }

    /// The error at `offset` of `bytes` read as the byte order mark `declared` says.
    fn declared(bytes: &[u8], offset: usize, declared: Encoding) -> DecodeError {
        DecodeError { declared: Some(declared), ..DecodeError::at(bytes, offset) }
    }

    fn at(bytes: &[u8], offset: usize) -> DecodeError {
        let offset = offset.min(bytes.len().saturating_sub(1));
        let before = byte_lines(&bytes[..offset]);
        // The bytes before it on its own line: none when they end with a line break.
        let in_line =
            before.last().filter(|l| !l.ends_with(b"\n") && !l.ends_with(b"\r")).map_or(0, |l| l.len());
        let line = before.len() + usize::from(in_line == 0);
        DecodeError {
            offset,
            line: u32::try_from(line.max(1)).unwrap_or(u32::MAX),
            column: in_line + 1,
            byte: bytes.get(offset).copied().unwrap_or(0),
            declared: None,
        }
    }
}

/// The lines of `bytes`, each with its line break (CRLF, LF or a lone CR), as [`lines`] cuts
/// text.
fn byte_lines(bytes: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' || b == b'\r' && bytes.get(i + 1) != Some(&b'\n') {
            out.push(&bytes[start..=i]);
            start = i + 1;
        }
    }
    if start < bytes.len() {
        out.push(&bytes[start..]);
    }
    out
}

/// Whether `bytes` switch to JIS X 0208 as ISO-2022-JP does (`ESC $ B`, `ESC $ @`).
fn switches_to_jis(bytes: &[u8]) -> bool {
    bytes.contains(&0x1B) && bytes.windows(3).any(|w| matches!(w, b"\x1b$B" | b"\x1b$@"))
}

/// Decodes a record's bytes (see the module documentation for the policy).
///
/// # Errors
///
/// [`DecodeError`] when the bytes are valid in none of UTF-8, CP932 and EUC-JP, or not in
/// the encoding their byte order mark declares.
///
/// ```
/// use kifudex::kifu::encoding::{decode, Encoding};
/// // ７六歩 in CP932.
/// let d = decode(&[0x82, 0x56, 0x98, 0x5A, 0x95, 0xE0]).unwrap();
/// assert_eq!((d.text.as_ref(), d.encoding), ("７六歩", Encoding::ShiftJis));
/// ```
pub fn decode(bytes: &[u8]) -> Result<Decoded<'_>, DecodeError> {
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        return match std::str::from_utf8(rest) {
            Ok(text) => Ok(Decoded { text: Cow::Borrowed(text), encoding: Encoding::Utf8Bom }),
            Err(e) => Err(DecodeError::declared(bytes, e.valid_up_to() + 3, Encoding::Utf8Bom)),
        };
    }
    for (bom, utf16, encoding) in
        [(b"\xFF\xFE", UTF_16LE, Encoding::Utf16Le), (b"\xFE\xFF", UTF_16BE, Encoding::Utf16Be)]
    {
        if let Some(rest) = bytes.strip_prefix(bom) {
            return match strict(utf16, rest) {
                Ok(text) => Ok(Decoded { text: Cow::Owned(text), encoding }),
                Err(at) => Err(DecodeError::declared(bytes, at + 2, encoding)),
            };
        }
    }
    let utf8_error = match std::str::from_utf8(bytes) {
        Ok(text) => {
            // Seven-bit ISO-2022-JP is valid UTF-8 too: its escapes tell it.
            if switches_to_jis(bytes) {
                if let Ok(jis) = strict(ISO_2022_JP, bytes) {
                    return Ok(Decoded { text: Cow::Owned(jis), encoding: Encoding::Iso2022Jp });
                }
            }
            return Ok(Decoded { text: Cow::Borrowed(text), encoding: Encoding::Utf8 });
        }
        Err(e) => e.valid_up_to(),
    };
    let sjis = strict(SHIFT_JIS, bytes);
    let euc = strict(EUC_JP, bytes);
    let (text, encoding) = match (sjis, euc) {
        (Ok(s), Err(_)) => (s, Encoding::ShiftJis),
        (Err(_), Ok(e)) => (e, Encoding::EucJp),
        (Ok(s), Ok(e)) => match declared(bytes) {
            Some(Encoding::EucJp) => (e, Encoding::EucJp),
            Some(Encoding::ShiftJis) => (s, Encoding::ShiftJis),
            _ if plausibility(&e) > plausibility(&s) => (e, Encoding::EucJp),
            _ => (s, Encoding::ShiftJis),
        },
        (Err(a), Err(b)) => return Err(DecodeError::at(bytes, utf8_error.max(a).max(b))),
    };
    Ok(Decoded { text: Cow::Owned(text), encoding })
}

/// A line [`decode_lossy`] could not read in the encoding of the rest of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineFix {
    /// The line is text in this other encoding, and was read in it.
    Other { line: u32, encoding: Encoding },
    /// The line is text in no encoding: its bad bytes were read as U+FFFD, the first being
    /// `byte` at byte `column` (1-based).
    Replaced { line: u32, column: usize, byte: u8 },
}

impl LineFix {
    /// The 1-based line.
    pub fn line(self) -> u32 {
        match self {
            LineFix::Other { line, .. } | LineFix::Replaced { line, .. } => line,
        }
    }
}

/// Text decoded by [`decode_lossy`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lossy<'a> {
    /// The text, borrowed from the bytes when they were UTF-8 already.
    pub text: Cow<'a, str>,
    /// The encoding of the lines not in `fixes`.
    pub encoding: Encoding,
    /// The lines read otherwise, in order.
    pub fixes: Vec<LineFix>,
}

/// Decodes bytes as [`decode`] does, and those it refuses a line at a time (see the module
/// documentation).
///
/// # Errors
///
/// [`decode`]'s error when fewer lines are text in one encoding than are not.
///
/// ```
/// use kifudex::kifu::encoding::{decode_lossy, Encoding, LineFix};
/// // ７六歩 in CP932, then a line with a byte that is text in no encoding.
/// let d = decode_lossy(b"\x82\x56\x98\x5A\x95\xE0\nab\xFF\n").unwrap();
/// assert_eq!((d.text.as_ref(), d.encoding), ("７六歩\nab\u{FFFD}\n", Encoding::ShiftJis));
/// assert_eq!(d.fixes, [LineFix::Replaced { line: 2, column: 3, byte: 0xFF }]);
/// ```
pub fn decode_lossy(bytes: &[u8]) -> Result<Lossy<'_>, DecodeError> {
    let strict_error = match decode(bytes) {
        Ok(d) => return Ok(Lossy { text: d.text, encoding: d.encoding, fixes: Vec::new() }),
        Err(e) => e,
    };
    // UTF-16's bytes are no lines of the others': its units are read as they are, each
    // that is no text (half of a pair, a last odd byte) as U+FFFD.
    for (bom, big_endian, encoding) in
        [(b"\xFF\xFE", false, Encoding::Utf16Le), (b"\xFE\xFF", true, Encoding::Utf16Be)]
    {
        if let Some(body) = bytes.strip_prefix(bom) {
            let (text, fixes, lines) = utf16_lossy(body, big_endian);
            if fixes.len() * 2 > lines {
                return Err(strict_error);
            }
            return Ok(Lossy { text: Cow::Owned(text), encoding, fixes });
        }
    }
    let (bom, body) = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => (true, rest),
        None => (false, bytes),
    };
    let lines = byte_lines(body);
    let reads = |encoding: &'static encoding_rs::Encoding, line: &[u8]| strict(encoding, line).ok();
    let encodings: [(Encoding, &'static encoding_rs::Encoding); 3] = [
        (if bom { Encoding::Utf8Bom } else { Encoding::Utf8 }, encoding_rs::UTF_8),
        (Encoding::ShiftJis, SHIFT_JIS),
        (Encoding::EucJp, EUC_JP),
    ];
    // A line of UTF-8 is UTF-8, as a whole text is (rule 2): in CP932 it could read as other
    // characters. The rest of the file is in the encoding that reads the most lines as they
    // are (on a tie, the one the file declares, else the first).
    fn utf8(line: &[u8]) -> Option<&str> {
        std::str::from_utf8(line).ok()
    }
    let as_is = |e: &'static encoding_rs::Encoding, line: &[u8]| {
        line.is_ascii()
            || if e == encoding_rs::UTF_8 {
                utf8(line).is_some()
            } else {
                utf8(line).is_none() && reads(e, line).is_some()
            }
    };
    let counts = encodings.map(|(_, e)| lines.iter().filter(|l| as_is(e, l)).count());
    let declared = declared(body);
    // On a tie of counts and no declaration, UTF-8 first (its lines are the others' mixed
    // in, as a whole text's are), then how plausible the lines CP932 and EUC-JP each read
    // are: the same bytes often read in both.
    let plausible = |i: usize| -> i64 {
        let e = encodings[i].1;
        lines
            .iter()
            .filter(|l| !l.is_ascii() && as_is(e, l))
            .filter_map(|l| reads(e, l))
            .map(|t| plausibility(&t))
            .sum()
    };
    let best = (0..3)
        .max_by_key(|&i| {
            (counts[i], declared == Some(encodings[i].0), i == 0, plausible(i), std::cmp::Reverse(i))
        })
        .expect("three encodings");
    let (encoding, main) = encodings[best];
    let mut text = String::with_capacity(body.len() * 3 / 2);
    let mut fixes = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let number = u32::try_from(i + 1).unwrap_or(u32::MAX);
        if as_is(main, line) {
            text.push_str(&reads(main, line).expect("a line read as it is"));
            continue;
        }
        // The last line of a file cut inside a character (a download or a copy that stopped
        // short) is in the file's encoding up to the cut, and the cut character is U+FFFD:
        // its first bytes may read as some other encoding's text, which this is not.
        if i + 1 == lines.len() && cut_at_end(main, line) {
            let at = strict(main, line).err().unwrap_or(0).min(line.len() - 1);
            text.push_str(&main.decode_without_bom_handling(line).0);
            fixes.push(LineFix::Replaced { line: number, column: at + 1, byte: line[at] });
            continue;
        }
        // Read in another encoding: UTF-8 when it is UTF-8, else the more plausible.
        let other = utf8(line).map(|read| (Encoding::Utf8, read.to_string())).or_else(|| {
            encodings
                .iter()
                .filter(|(_, e)| *e != main)
                .filter_map(|&(o, e)| Some((o, reads(e, line)?)))
                .max_by_key(|(_, read)| plausibility(read))
        });
        if let Some((other, read)) = other {
            text.push_str(&read);
            fixes.push(LineFix::Other { line: number, encoding: other });
            continue;
        }
        // The line is read in the encoding that reads the most of it before a bad byte (on a
        // tie, the file's), so that one stray byte does not take the text around it.
        let (reader, at) = encodings
            .iter()
            .map(|&(_, e)| (e, strict(e, line).err().unwrap_or(0)))
            .max_by_key(|&(e, at)| (at, e == main))
            .expect("three encodings");
        let column = at.min(line.len().saturating_sub(1));
        let (read, _) = reader.decode_without_bom_handling(line);
        text.push_str(&read);
        fixes.push(LineFix::Replaced { line: number, column: column + 1, byte: line[column] });
    }
    let replaced = fixes.iter().filter(|f| matches!(f, LineFix::Replaced { .. })).count();
    if replaced * 2 > lines.len() {
        return Err(strict_error);
    }
    Ok(Lossy { text: Cow::Owned(text), encoding, fixes })
}

/// Reads UTF-16 `body` (after its byte order mark), each unit that is no text as U+FFFD: the
/// text, the lines that hold such units (the first of each, its column counted in bytes from
/// the line's start) and the number of lines, which end as [`lines`] ends them.
fn utf16_lossy(body: &[u8], big_endian: bool) -> (String, Vec<LineFix>, usize) {
    let unit = |i: usize| {
        let pair = [body[2 * i], body[2 * i + 1]];
        u32::from(if big_endian { u16::from_be_bytes(pair) } else { u16::from_le_bytes(pair) })
    };
    let units = body.len() / 2;
    let mut text = String::with_capacity(body.len() * 3 / 2);
    let mut fixes: Vec<LineFix> = Vec::new();
    let (mut line, mut line_start) = (1u32, 0usize);
    let mut replace = |text: &mut String, line: u32, at: usize, line_start: usize| {
        text.push(char::REPLACEMENT_CHARACTER);
        if fixes.last().is_none_or(|f| f.line() != line) {
            fixes.push(LineFix::Replaced { line, column: at - line_start + 1, byte: body[at] });
        }
    };
    let mut i = 0;
    while i < units {
        let u = unit(i);
        let (c, used) = match u {
            0xD800..=0xDBFF if i + 1 < units && (0xDC00..=0xDFFF).contains(&unit(i + 1)) => {
                (char::from_u32(0x10000 + ((u - 0xD800) << 10) + (unit(i + 1) - 0xDC00)), 2)
            }
            _ => (char::from_u32(u), 1),
        };
        match c {
            Some(c) => text.push(c),
            None => replace(&mut text, line, 2 * i, line_start),
        }
        i += used;
        if c == Some('\n') || (c == Some('\r') && (i == units || unit(i) != 0x0A)) {
            line = line.saturating_add(1);
            line_start = 2 * i;
        }
    }
    if body.len() % 2 == 1 {
        replace(&mut text, line, body.len() - 1, line_start);
    }
    let ended = line_start == body.len();
    let lines = (line as usize).saturating_sub(usize::from(ended && line > 1)).max(1);
    (text, fixes, lines)
}

/// Whether `line` is text in `encoding` up to a character cut short at its end: it ends
/// neither in a line break nor in a whole character.
fn cut_at_end(encoding: &'static encoding_rs::Encoding, line: &[u8]) -> bool {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let capacity = decoder.max_utf8_buffer_length_without_replacement(line.len()).unwrap_or(line.len() * 3);
    let mut out = String::with_capacity(capacity);
    // Not the last input: a character begun at the end waits for its other bytes.
    let (result, read) = decoder.decode_to_string_without_replacement(line, &mut out, false);
    result == DecoderResult::InputEmpty && read == line.len() && strict(encoding, line).is_err()
}

/// Decodes without replacement; on failure, the offset of the first bad byte.
fn strict(encoding: &'static encoding_rs::Encoding, bytes: &[u8]) -> Result<String, usize> {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let capacity = decoder.max_utf8_buffer_length_without_replacement(bytes.len()).unwrap_or(bytes.len() * 3);
    let mut out = String::with_capacity(capacity);
    let (result, read) = decoder.decode_to_string_without_replacement(bytes, &mut out, true);
    match result {
        DecoderResult::InputEmpty => Ok(out),
        DecoderResult::Malformed(bad, after) => {
            Err(read.saturating_sub(usize::from(bad) + usize::from(after)))
        }
        // The buffer was sized for the worst case; treat the impossible as an error at the end.
        DecoderResult::OutputFull => Err(read),
    }
}

/// The encoding a file declares in its first lines, if any: `encoding=` or `charset=`, with
/// spaces around the `=` and quotes around the name or not.
fn declared(bytes: &[u8]) -> Option<Encoding> {
    let head = &bytes[..bytes.len().min(1024)];
    let head: String = head.iter().map(|&b| if b.is_ascii() { b as char } else { ' ' }).collect();
    let lower = head.to_ascii_lowercase();
    ["encoding", "charset"].iter().find_map(|word| {
        lower.match_indices(word).find_map(|(at, _)| {
            let rest = lower[at + word.len()..].trim_start_matches([' ', '\t']).strip_prefix('=')?;
            let rest = rest.trim_start_matches([' ', '\t', '"', '\'']);
            let name: String =
                rest.chars().take_while(|c| c.is_ascii_alphanumeric() || "-_".contains(*c)).collect();
            match name.replace('_', "-").as_str() {
                "shift-jis" | "sjis" | "cp932" | "windows-31j" | "ms932" | "x-sjis" | "ms-kanji" => {
                    Some(Encoding::ShiftJis)
                }
                "euc-jp" | "eucjp" | "x-euc-jp" | "eucjp-ms" | "euc-jp-ms" | "cp51932" | "eucjp-open" => {
                    Some(Encoding::EucJp)
                }
                "utf-8" | "utf8" => Some(Encoding::Utf8),
                _ => None,
            }
        })
    })
}

/// How much a decoding looks like Japanese record text: common characters count for it,
/// half-width katakana and rare symbols (what the other encoding's bytes turn into) against.
fn plausibility(text: &str) -> i64 {
    text.chars()
        .map(|c| match c {
            '\u{20}'..='\u{7E}' | '\n' | '\r' | '\t' => 1,
            '\u{3000}'..='\u{30FF}' | '\u{4E00}'..='\u{9FFF}' | '\u{FF01}'..='\u{FF5E}' => 2,
            '▲' | '△' | '▽' | '▼' | '☗' | '☖' => 2,
            '\u{FF61}'..='\u{FF9F}' => -2,
            _ => -1,
        })
        .sum()
}

/// A character CP932 cannot represent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: '{ch}' (U+{code:04X}) cannot be written in CP932", code = u32::from(*ch))]
pub struct EncodeError {
    /// The 1-based line of the character.
    pub line: u32,
    pub ch: char,
}

/// Encodes text as CP932 (for `.kif` and `.ki2` files), refusing rather than replacing
/// characters CP932 lacks, and those it holds only as another character: `−` (U+2212) would
/// be written as the bytes of `－` (U+FF0D) and `¥` as `\`, which read back as those.
///
/// # Errors
///
/// [`EncodeError`] with the first character CP932 cannot represent.
pub fn encode_cp932(text: &str) -> Result<Vec<u8>, EncodeError> {
    let bytes = encode_cp932_lossy(text)?;
    let (back, _) = SHIFT_JIS.decode_without_bom_handling(&bytes);
    match text.chars().zip(back.chars()).position(|(a, b)| a != b) {
        None => Ok(bytes),
        Some(at) => {
            let (offset, ch) = text.char_indices().nth(at).expect("a character of the text");
            let line = text[..offset].matches('\n').count() + 1;
            Err(EncodeError { line: u32::try_from(line).unwrap_or(u32::MAX), ch })
        }
    }
}

/// [`encode_cp932`], with the characters that CP932 writes as others written so.
fn encode_cp932_lossy(text: &str) -> Result<Vec<u8>, EncodeError> {
    let mut encoder = SHIFT_JIS.new_encoder();
    let mut out = Vec::with_capacity(text.len());
    let mut rest = text;
    loop {
        let needed =
            encoder.max_buffer_length_from_utf8_without_replacement(rest.len()).unwrap_or(rest.len() * 4);
        out.reserve(needed);
        let (result, read) = encoder.encode_from_utf8_to_vec_without_replacement(rest, &mut out, true);
        match result {
            EncoderResult::InputEmpty => return Ok(out),
            EncoderResult::OutputFull => rest = &rest[read..],
            EncoderResult::Unmappable(ch) => {
                let done = &text[..text.len() - rest.len() + read];
                let line = done.matches('\n').count() + 1;
                return Err(EncodeError { line: u32::try_from(line).unwrap_or(u32::MAX), ch });
            }
        }
    }
}

/// The lines of `text` with their 1-based numbers, split at CRLF, LF or a lone CR. A final
/// line without a line break is a line; the empty string after a final break is not. A
/// leading byte order mark is dropped.
pub fn lines(text: &str) -> Lines<'_> {
    Lines { rest: text.strip_prefix('\u{FEFF}').unwrap_or(text), number: 0 }
}

/// The bytes at the start of a text that are looked at to tell its format: a record's
/// headers and first moves lie within them, after a page of notes or many more.
pub const LOOK_BYTES: usize = 64 << 10;

/// The lines of `text` (as [`lines`] gives them) that start within its first [`LOOK_BYTES`]:
/// the lines looked at to tell its format.
pub fn head_lines(text: &str) -> impl Iterator<Item = (u32, &str)> {
    let mut all = lines(text);
    std::iter::from_fn(move || match text.len() - all.rest().len() < LOOK_BYTES {
        true => all.next(),
        false => None,
    })
}

/// The lines of `text`, a part of a longer text that follows its line `before` (see
/// [`Piece`](super::Piece)), numbered as in the whole text. No byte order mark is dropped:
/// one stands only at the start of the whole.
pub fn lines_after(text: &str, before: u32) -> Lines<'_> {
    Lines { rest: text, number: before }
}

/// The iterator [`lines`] returns.
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    rest: &'a str,
    number: u32,
}

impl<'a> Lines<'a> {
    /// The text after the lines read so far.
    pub fn rest(&self) -> &'a str {
        self.rest
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = (u32, &'a str);

    fn next(&mut self) -> Option<(u32, &'a str)> {
        if self.rest.is_empty() {
            return None;
        }
        self.number = self.number.saturating_add(1);
        let bytes = self.rest.as_bytes();
        let Some(end) = memchr::memchr2(b'\n', b'\r', bytes) else {
            let line = self.rest;
            self.rest = "";
            return Some((self.number, line));
        };
        let line = &self.rest[..end];
        let skip = if bytes[end] == b'\r' && bytes.get(end + 1) == Some(&b'\n') { 2 } else { 1 };
        self.rest = &self.rest[end + skip..];
        Some((self.number, line))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ISO-2022-JP and UTF-16 with a byte order mark are read as what they are; the bytes
    /// of each are Python's encoding of the text (`'将棋 羽生'.encode('iso2022_jp')`).
    #[test]
    fn iso_2022_jp_and_utf_16_are_read_as_themselves() {
        let jis = b"N+\x1b$B>-4}\x1b(B \x1b$B1)@8\x1b(B\n";
        let d = decode(jis).unwrap();
        assert_eq!((d.text.as_ref(), d.encoding), ("N+将棋 羽生\n", Encoding::Iso2022Jp));
        let le = decode(b"\xFF\xFE\x17\xffmQik").unwrap();
        assert_eq!((le.text.as_ref(), le.encoding), ("７六歩", Encoding::Utf16Le));
        let be = decode(b"\xFE\xFF\xff\x17Qmki").unwrap();
        assert_eq!((be.text.as_ref(), be.encoding), ("７六歩", Encoding::Utf16Be));
        // An escape that switches to nothing ISO-2022-JP knows leaves the text UTF-8.
        assert_eq!(decode(b"a\x1b[0mb").unwrap().encoding, Encoding::Utf8);
        // UTF-16 with no more text than units that are none is no record.
        assert!(decode_lossy(b"\xFF\xFE\x00\xD8a\x00").is_err());
    }

    /// Bytes that are not text in the encoding their byte order mark declares are said to be
    /// not text in that one: it was the only one tried. The aliases file of the bytes
    /// `FF FE , b LF` ends after an odd byte, the line break.
    #[test]
    fn an_error_after_a_byte_order_mark_names_its_encoding() {
        let odd = decode(b"\xFF\xFE,b\n").unwrap_err();
        assert_eq!((odd.offset, odd.byte, odd.declared), (4, b'\n', Some(Encoding::Utf16Le)));
        assert_eq!(
            odd.to_string(),
            "line 1, column 5 (byte 4): byte 0x0A is not text in UTF-16 (little-endian), which the \
             byte order mark at its start declares"
        );
        let big = decode(b"\xFE\xFF\xD8\x00").unwrap_err();
        assert!(
            big.to_string().ends_with(
                "not text in UTF-16 (big-endian), which the byte order mark at its start declares"
            ),
            "{big}"
        );
        // 0x82 0x56 is ７ in CP932, but the mark says UTF-8.
        let sjis = decode(b"\xEF\xBB\xBFa\x82\x56").unwrap_err();
        assert_eq!((sjis.offset, sjis.byte), (4, 0x82));
        assert!(
            sjis.to_string().ends_with("not text in UTF-8, which the byte order mark at its start declares"),
            "{sjis}"
        );
        // Without a mark, each of the three was tried.
        let none = decode(b"ab\xFF").unwrap_err();
        assert_eq!(none.declared, None);
        assert!(
            none.to_string().ends_with("byte 0xFF is not text in UTF-8, CP932 (Shift_JIS) or EUC-JP"),
            "{none}"
        );
    }

    /// UTF-16 with half of a surrogate pair, or cut after an odd byte, keeps every other
    /// character, and says where each bad line was: the bytes are Python's
    /// (`"V2\\n'x\\nN".encode('utf-16-le')`, then a lone `0xD800`, and so on).
    #[test]
    fn utf_16_with_a_bad_unit_keeps_the_rest() {
        let body: &[u8] = b"V\x002\x00\n\x00'\x00x\x00\n\x00N\x00\x00\xD8\n\x00'\x00y\x00\n\x00P\x00A";
        let le = [b"\xFF\xFE", body].concat();
        let d = decode_lossy(&le).unwrap();
        assert_eq!((d.text.as_ref(), d.encoding), ("V2\n'x\nN\u{FFFD}\n'y\nP\u{FFFD}", Encoding::Utf16Le));
        assert_eq!(
            d.fixes,
            [
                LineFix::Replaced { line: 3, column: 3, byte: 0x00 },
                LineFix::Replaced { line: 5, column: 3, byte: b'A' }
            ]
        );
        // The same, big-endian, with CRLF line ends.
        let big: Vec<u8> =
            "V2\r\n'x\r\nN".encode_utf16().flat_map(u16::to_be_bytes).chain([0xD8, 0x00]).collect();
        let be = [&b"\xFE\xFF"[..], &big].concat();
        let d = decode_lossy(&be).unwrap();
        assert_eq!((d.text.as_ref(), d.encoding), ("V2\r\n'x\r\nN\u{FFFD}", Encoding::Utf16Be));
        assert_eq!(d.fixes, [LineFix::Replaced { line: 3, column: 3, byte: 0xD8 }]);
        // A pair whose halves are in order is one character (U+1F600).
        let pair = decode_lossy(b"\xFF\xFE=\xD8\x00\xDE").unwrap();
        assert_eq!((pair.text.as_ref(), pair.fixes.len()), ("\u{1F600}", 0));
    }

    #[test]
    fn a_file_cut_inside_its_last_character_is_its_encoding_up_to_the_cut() {
        // 同 and the first two bytes of 歩 in UTF-8: those five bytes read as CP932 too.
        let cut = "７六歩\n同".bytes().chain([0xE6, 0xAD]).collect::<Vec<u8>>();
        let d = decode_lossy(&cut).unwrap();
        assert_eq!((d.text.as_ref(), d.encoding), ("７六歩\n同\u{FFFD}", Encoding::Utf8));
        assert_eq!(d.fixes, [LineFix::Replaced { line: 2, column: 4, byte: 0xE6 }]);
        // In CP932, a lead byte alone at the end.
        let d = decode_lossy(b"\x82\x56\x98\x5A\x95\xE0\n\x93\xAF\x95").unwrap();
        assert_eq!((d.text.as_ref(), d.encoding), ("７六歩\n同\u{FFFD}", Encoding::ShiftJis));
        assert_eq!(d.fixes, [LineFix::Replaced { line: 2, column: 3, byte: 0x95 }]);
        // A line that goes on after them is no cut: the same bytes are read as another
        // encoding's line, as a line of a file joined to another is.
        let joined = "７六歩\n同".bytes().chain([0xE6, 0xAD, b'\n']).collect::<Vec<u8>>();
        let d = decode_lossy(&joined).unwrap();
        assert_eq!(d.fixes, [LineFix::Other { line: 2, encoding: Encoding::ShiftJis }]);
    }

    /// A file read a line at a time keeps to [`lines`]' line breaks (a lone CR too), takes
    /// the encoding whose reading is the more plausible when as many lines read in two, and
    /// reads a bad line in the encoding that reads the most of it. The Japanese bytes are
    /// Python's encodings (`'羽生七冠'.encode('euc_jp')`, `'きふわらべ'.encode('cp932')`).
    #[test]
    fn a_file_read_a_line_at_a_time_keeps_what_it_can() {
        let euc = b"V2\nN+\xb1\xa9\xc0\xb8\xbc\xb7\xb4\xa7\xff\nN-\xc6\xa3\xb0\xe6\xc8\xac\xb4\xa7\n";
        let d = decode_lossy(euc).unwrap();
        assert_eq!(d.encoding, Encoding::EucJp);
        assert_eq!(d.text, "V2\nN+羽生七冠\u{FFFD}\nN-藤井八冠\n");
        assert_eq!(d.fixes, [LineFix::Replaced { line: 2, column: 11, byte: 0xFF }]);
        let cp932 = b"V2\r'x\rN-\x82\xab\x82\xd3\x82\xed\x82\xe7\x82\xd7\xff\rP\r";
        let d = decode_lossy(cp932).unwrap();
        assert_eq!(d.text, "V2\r'x\rN-きふわらべ\u{FFFD}\rP\r");
        assert_eq!(d.fixes, [LineFix::Replaced { line: 3, column: 13, byte: 0xFF }]);
        // A strict error's line counts lone CRs as line breaks too.
        assert_eq!(decode(b"a\rb\r\nc\xff").unwrap_err().line, 3);
    }

    #[test]
    fn declarations_in_their_usual_spellings() {
        for head in [
            "'encoding=EUC-JP\n",
            "#KIF version=2.0 encoding = EUC-JP\n",
            "encoding=\"eucJP-ms\"\n",
            "charset=CP51932\n",
        ] {
            assert_eq!(declared(head.as_bytes()), Some(Encoding::EucJp), "{head}");
        }
        assert_eq!(declared(b"#KIF version=2.0 encoding=Shift_JIS\n"), Some(Encoding::ShiftJis));
        assert_eq!(declared(b"encoding: none\n"), None);
    }

    #[test]
    fn line_endings_of_every_kind() {
        let got: Vec<_> = lines("a\r\nb\rc\nd").collect();
        assert_eq!(got, [(1, "a"), (2, "b"), (3, "c"), (4, "d")]);
        let got: Vec<_> = lines("a\n\nb\n").collect();
        assert_eq!(got, [(1, "a"), (2, ""), (3, "b")]);
        // CR CR LF: a line, then an empty one.
        let got: Vec<_> = lines("a\r\r\nb").collect();
        assert_eq!(got, [(1, "a"), (2, ""), (3, "b")]);
        assert_eq!(lines("").count(), 0);
        assert_eq!(lines("\u{FEFF}x").next(), Some((1, "x")));
    }

    #[test]
    fn declarations_are_read() {
        assert_eq!(declared(b"#KIF version=2.0 encoding=Shift_JIS\n"), Some(Encoding::ShiftJis));
        assert_eq!(declared(b"'CSA encoding=UTF-8\n"), Some(Encoding::Utf8));
        assert_eq!(declared(b"'encoding=EUC-JP\n"), Some(Encoding::EucJp));
        assert_eq!(declared(b"hello"), None);
    }
}
