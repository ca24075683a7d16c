//! The character classes and small text forms that the move and record readers share: the two
//! kinds of space, full-width digits, and how much of a bad text an error quotes.
//!
//! Space policy: each use takes one of two definitions, and the choice is part of what a
//! reader accepts.
//! - Lines, header values and diagram lines are trimmed of any white space, [`is_space`]:
//!   Unicode's White_Space, which holds the full-width space (U+3000) as well as the no-break
//!   and wide spaces that text copied from web pages carries. Such a space at either end of
//!   a line changes nothing a record says.
//! - Inside a move or a player's name, only the spaces records write between the parts of one
//!   separate them, [`is_inline_space`]: the ASCII space, the tab and the full-width space.
//!   Any other character there (a no-break space in `同 歩`, say) is no part of the notation,
//!   and the move is refused rather than guessed at.

use std::path::{Path, PathBuf};

/// White space at the ends of a line or a value: any Unicode white space (the full-width
/// space U+3000 is one).
pub(crate) fn is_space(c: char) -> bool {
    c.is_whitespace()
}

/// Whether an ASCII byte is white space as [`is_space`] has it: the space, and the tab to the
/// carriage return (U+0009 to U+000D).
fn is_ascii_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t'..=b'\r')
}

/// `text` without the white space at its start ([`is_space`]), as `trim_start_matches(is_space)`
/// gives it. Lines are read by the million, and most start with ASCII spaces and then a
/// character that is no space, or with no space at all: those are told by their bytes.
pub(crate) fn trim_start_space(text: &str) -> &str {
    let b = text.as_bytes();
    let spaces = b.iter().take_while(|&&c| c == b' ').count();
    match b.get(spaces) {
        Some(&c) if c.is_ascii() && !is_ascii_space(c) => &text[spaces..],
        None => "",
        Some(&c) if !c.is_ascii() && !may_start_space(c) => &text[spaces..],
        Some(_) => text[spaces..].trim_start_matches(is_space),
    }
}

/// `text` without the white space at its end ([`is_space`]), as `trim_end_matches(is_space)`
/// gives it, told by its last byte when that is ASCII and no space, or the last byte of a
/// character that is none.
pub(crate) fn trim_end_space(text: &str) -> &str {
    match text.as_bytes().last() {
        Some(&c) if c.is_ascii() && !is_ascii_space(c) => text,
        None => text,
        Some(&c) if !c.is_ascii() && !may_end_space(c) => text,
        Some(_) => text.trim_end_matches(is_space),
    }
}

/// Whether a byte outside ASCII may start a white space character ([`is_space`]). Those past
/// ASCII are U+0085 and U+00A0 (`C2 85`, `C2 A0`), U+1680 (`E1 9A 80`), U+2000 to U+200A,
/// U+2028, U+2029, U+202F and U+205F (`E2 …`) and U+3000 (`E3 80 80`): the kanji and
/// full-width forms of records start with other bytes.
fn may_start_space(b: u8) -> bool {
    matches!(b, 0xC2 | 0xE1..=0xE3)
}

/// Whether a byte outside ASCII may end a white space character ([`is_space`]): the last
/// bytes of those listed at [`may_start_space`] are `80` to `8A`, `9F`, `A0`, `A8`, `A9` and
/// `AF`.
fn may_end_space(b: u8) -> bool {
    matches!(b, 0x80..=0x8A | 0x9F | 0xA0 | 0xA8 | 0xA9 | 0xAF)
}

/// `text` without the white space at either end ([`is_space`]), as `trim_matches(is_space)`
/// gives it ([`trim_start_space`], [`trim_end_space`]).
pub(crate) fn trim_space(text: &str) -> &str {
    trim_end_space(trim_start_space(text))
}

/// A space between the parts of a move or a name: the ASCII space, the tab, the full-width
/// space (U+3000).
pub(crate) fn is_inline_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\u{3000}')
}

/// A full-width digit (`０`–`９`) as its ASCII form; any other character unchanged.
pub(crate) fn ascii_digit(c: char) -> char {
    match c {
        '０'..='９' => char::from(b'0' + (c as u32 - '０' as u32) as u8),
        _ => c,
    }
}

/// Text quoted in an error: the first 32 characters, so that a huge bad line makes a short
/// message.
pub(crate) fn excerpt(text: &str) -> String {
    match text.char_indices().nth(32) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// The text form of a path, as the database stores it: the path itself when it is UTF-8 (and
/// has no backslash). A file name that is not UTF-8 (CP932 bytes from an old archive, say)
/// keeps its valid parts and writes every other byte as `\xNN`; a backslash is written
/// `\x5c`. So two paths never share a text form, which a lossy conversion would give them
/// (one file's games would replace the other's), and a directory's text is the start of its
/// files' texts.
#[cfg(unix)]
pub fn path_text(path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let mut out = String::with_capacity(path.as_os_str().len());
    for chunk in path.as_os_str().as_bytes().utf8_chunks() {
        out.push_str(&chunk.valid().replace('\\', "\\x5c"));
        for byte in chunk.invalid() {
            out.push_str(&format!("\\x{byte:02x}"));
        }
    }
    out
}

/// The text form of a path (see the Unix version); elsewhere paths are Unicode already.
#[cfg(not(unix))]
pub fn path_text(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// The path whose text form ([`path_text`]) is `text`: each `\xNN` is the byte it names.
#[cfg(unix)]
pub fn text_path(text: &str) -> PathBuf {
    use std::os::unix::ffi::OsStringExt;
    let (bytes, mut out) = (text.as_bytes(), Vec::with_capacity(text.len()));
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes
            .get(i..i + 4)
            .filter(|b| b.starts_with(b"\\x") && b[2..].iter().all(u8::is_ascii_hexdigit))
            .and_then(|b| std::str::from_utf8(&b[2..]).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match byte {
            Some(b) => {
                out.push(b);
                i += 4;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    std::ffi::OsString::from_vec(out).into()
}

/// The path whose text form ([`path_text`]) is `text`.
#[cfg(not(unix))]
pub fn text_path(text: &str) -> PathBuf {
    text.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The characters the two definitions are told apart by, with what each says of them.
    const SPACES: [(char, bool, bool); 11] = [
        // (character, is_space, is_inline_space)
        (' ', true, true),
        ('\t', true, true),
        ('\u{3000}', true, true),
        ('\n', true, false),
        ('\r', true, false),
        ('\u{0B}', true, false),
        ('\u{0C}', true, false),
        ('\u{A0}', true, false),
        ('\u{2003}', true, false),
        ('\u{FEFF}', false, false),
        ('_', false, false),
    ];

    #[test]
    fn the_two_kinds_of_space() {
        for (c, space, inline) in SPACES {
            assert_eq!((is_space(c), is_inline_space(c)), (space, inline), "U+{:04X}", u32::from(c));
        }
    }

    /// The trims told by bytes give what the general trims give, on texts made of the spaces
    /// above and of characters that are none (ASCII, full-width, a byte order mark).
    #[test]
    fn trims_told_by_bytes_are_the_general_ones() {
        let parts = [
            "", " ", "  ", "\t", "\u{0B}", "\r", "\n", "\u{3000}", "\u{A0}", "\u{2003}", "\u{FEFF}", "a",
            "12", "７", "投了", "_", "\u{85}",
        ];
        let mut texts = Vec::new();
        for a in parts {
            for b in parts {
                for c in parts {
                    texts.push(format!("{a}{b}{c}"));
                }
            }
        }
        for text in &texts {
            let text = text.as_str();
            assert_eq!(trim_start_space(text), text.trim_start_matches(char::is_whitespace), "{text:?}");
            assert_eq!(trim_end_space(text), text.trim_end_matches(char::is_whitespace), "{text:?}");
            assert_eq!(trim_space(text), text.trim_matches(char::is_whitespace), "{text:?}");
        }
        // Every ASCII byte, alone and between spaces.
        for b in 0u8..0x80 {
            let c = char::from(b);
            for text in [format!("{c}"), format!("  {c}  "), format!("{c} x"), format!("x {c}")] {
                let text = text.as_str();
                assert_eq!(trim_space(text), text.trim_matches(char::is_whitespace), "{text:?}");
                assert_eq!(trim_start_space(text), text.trim_start_matches(char::is_whitespace), "{text:?}");
            }
        }
    }

    /// No character that is no white space is taken for one by its first or last byte.
    #[test]
    fn white_space_is_told_by_its_first_and_last_bytes() {
        let mut buf = [0; 4];
        for c in (0x80..=0x10FFFF).filter_map(char::from_u32).filter(|&c| is_space(c)) {
            let b = c.encode_utf8(&mut buf).as_bytes();
            let (first, last) = (b[0], b[b.len() - 1]);
            assert!(may_start_space(first) && may_end_space(last), "U+{:04X}", u32::from(c));
        }
        for c in (0x80..=0x10FFFF).filter_map(char::from_u32) {
            let text = format!("{c}");
            assert_eq!(trim_start_space(&text), text.trim_start_matches(char::is_whitespace), "{text:?}");
            assert_eq!(trim_end_space(&text), text.trim_end_matches(char::is_whitespace), "{text:?}");
            let padded = format!("  {c}x{c} ");
            assert_eq!(trim_space(&padded), padded.trim_matches(char::is_whitespace), "{padded:?}");
        }
    }

    /// The Kakinoki readers trimmed with `c.is_whitespace() || c == '\u{3000}'`: the same set,
    /// since the full-width space is Unicode white space.
    #[test]
    fn the_full_width_space_is_unicode_white_space() {
        assert!('\u{3000}'.is_whitespace());
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            assert_eq!(is_space(c), c.is_whitespace() || c == '\u{3000}', "U+{:04X}", u32::from(c));
        }
    }

    #[test]
    fn full_width_digits_become_ascii() {
        let text: String = "０１２３４５６７８９9一".chars().map(ascii_digit).collect();
        assert_eq!(text, "01234567899一");
    }

    #[test]
    fn excerpts_are_at_most_32_characters() {
        assert_eq!(excerpt("short"), "short");
        let long = "七".repeat(40);
        assert_eq!(excerpt(&long), format!("{}…", "七".repeat(32)));
    }

    #[cfg(unix)]
    #[test]
    fn path_texts_are_lossless() {
        use std::{ffi::OsStr, os::unix::ffi::OsStrExt};
        let text = |b: &[u8]| path_text(Path::new(OsStr::from_bytes(b)));
        assert_eq!(text("/kifu/棋譜.kif".as_bytes()), "/kifu/棋譜.kif");
        // 棋譜 and 将棋 in CP932: both lossy forms would be four replacement characters.
        assert_eq!(text(b"/kifu/\x8a\xfb\x95\x88.kif"), "/kifu/\\x8a\\xfb\\x95\\x88.kif");
        assert_eq!(text(b"/kifu/\x8f\xab\x8a\xfb.kif"), "/kifu/\\x8f\\xab\\x8a\\xfb.kif");
        // A name that spells an escape is not taken for one.
        assert_eq!(text(b"/kifu/\\x8a.kif"), "/kifu/\\x5cx8a.kif");
        assert_ne!(text(b"/kifu/\\x8a.kif"), text(b"/kifu/\x8a.kif"));
        // And each text is its path's, byte for byte.
        for bytes in
            [&b"/kifu/\x8a\xfb.kif"[..], b"/kifu/\\x8a.kif", b"/a\\b/\xff\\", "/棋譜/a.kif".as_bytes()]
        {
            assert_eq!(text_path(&text(bytes)).as_os_str().as_bytes(), bytes);
        }
    }
}
