//! Decoding and encoding on bytes built by hand (the encodings were produced with Python's
//! `codecs`, an independent implementation), and line endings of every kind through the
//! readers.

use std::borrow::Cow;

use kifudex::{
    kifu::{
        encoding::{DecodeError, Encoding, LineFix, decode, decode_lossy, encode_cp932, lines},
        ki2, kif, read_file,
    },
    replay::replay,
};

const TEXT: &str = "手合割：平手\n先手：羽生善治\n";
const CP932: &[u8] = &[
    0x8E, 0xE8, 0x8D, 0x87, 0x8A, 0x84, 0x81, 0x46, 0x95, 0xBD, 0x8E, 0xE8, 0x0A, 0x90, 0xE6, 0x8E, 0xE8,
    0x81, 0x46, 0x89, 0x48, 0x90, 0xB6, 0x91, 0x50, 0x8E, 0xA1, 0x0A,
];
const EUC_JP: &[u8] = &[
    0xBC, 0xEA, 0xB9, 0xE7, 0xB3, 0xE4, 0xA1, 0xA7, 0xCA, 0xBF, 0xBC, 0xEA, 0x0A, 0xC0, 0xE8, 0xBC, 0xEA,
    0xA1, 0xA7, 0xB1, 0xA9, 0xC0, 0xB8, 0xC1, 0xB1, 0xBC, 0xA3, 0x0A,
];

#[test]
fn utf8_is_borrowed_and_a_bom_is_dropped() {
    let d = decode(TEXT.as_bytes()).unwrap();
    assert_eq!(d.encoding, Encoding::Utf8);
    assert!(matches!(d.text, Cow::Borrowed(TEXT)));
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(TEXT.as_bytes());
    let d = decode(&bom).unwrap();
    assert_eq!((d.text.as_ref(), d.encoding, d.encoding.name()), (TEXT, Encoding::Utf8Bom, "utf-8-bom"));
}

#[test]
fn cp932_and_euc_jp_are_told_apart() {
    let d = decode(CP932).unwrap();
    assert_eq!((d.text.as_ref(), d.encoding.name()), (TEXT, "cp932"));
    let d = decode(EUC_JP).unwrap();
    assert_eq!((d.text.as_ref(), d.encoding.name()), (TEXT, "euc-jp"));
}

#[test]
fn bytes_valid_in_both_read_as_the_plausible_one_unless_declared() {
    // 王将 and 中断 in EUC-JP are also valid CP932 (as half-width katakana).
    let euc = [0xB2, 0xA6, 0xBE, 0xAD, 0x0A, 0xC3, 0xE6, 0xC3, 0xC7, 0x0A];
    let d = decode(&euc).unwrap();
    assert_eq!((d.text.as_ref(), d.encoding), ("王将\n中断\n", Encoding::EucJp));
    let mut declared = b"#KIF version=2.0 encoding=Shift_JIS\n".to_vec();
    declared.extend_from_slice(&euc);
    assert_eq!(decode(&declared).unwrap().encoding, Encoding::ShiftJis);
}

#[test]
fn a_wrong_declaration_does_not_override_the_bytes() {
    let mut bytes = b"#KIF version=2.0 encoding=UTF-8\n".to_vec();
    bytes.extend_from_slice(CP932);
    assert_eq!(decode(&bytes).unwrap().encoding, Encoding::ShiftJis);
}

#[test]
fn undecodable_bytes_are_an_error_with_their_place() {
    let err = decode(b"ok\nab\xFF\xFE\xFD\xFC").unwrap_err();
    assert_eq!(err, DecodeError { offset: 5, line: 2, column: 3, byte: 0xFF, declared: None });
    assert!(err.to_string().starts_with("line 2, column 3"));
    let mut bom = b"\xEF\xBB\xBFx\n".to_vec();
    bom.push(0x82);
    assert_eq!(decode(&bom).unwrap_err().line, 2);
    // Truncated CP932: a lead byte at the very end, reported where CP932 stopped.
    let cut = &CP932[..CP932.len() - 2];
    assert_eq!(
        decode(cut).unwrap_err(),
        DecodeError { offset: 25, line: 2, column: 13, byte: 0x8E, declared: None }
    );
}

#[test]
fn cp932_encoding_round_trips_and_refuses_what_it_lacks() {
    assert_eq!(encode_cp932(TEXT).unwrap(), CP932);
    let err = encode_cp932("手合割：平手\n先手：😀\n").unwrap_err();
    assert_eq!((err.line, err.ch), (2, '😀'));
    // CP932 encoders write U+2212 as the bytes of U+FF0D, and U+00A5 and U+203E as ASCII
    // `\` and `~` (the WHATWG Shift_JIS encoder): they would read back as other characters.
    for (text, ch) in [("先手：名−前\n", '−'), ("棋戦：¥\n", '¥'), ("x\n‾\n", '‾')] {
        let err = encode_cp932(text).unwrap_err();
        assert_eq!(err.ch, ch, "{text}");
    }
    assert_eq!(encode_cp932("－").unwrap(), [0x81, 0x7C]);
}

#[test]
fn line_endings_of_every_kind_read_the_same() {
    let lf = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n";
    let want = kif::read(lf);
    for eol in ["\r\n", "\r"] {
        let text = lf.replace('\n', eol);
        let got = kif::read(&text);
        assert_eq!(got[0].moves.len(), 2, "{eol:?}");
        assert_eq!(
            got[0].ending.as_ref().map(|e| e.termination),
            want[0].ending.as_ref().map(|e| e.termination)
        );
    }
    let mixed = "手合割：平手\r\n▲７六歩\r△３四歩\n▲２六歩";
    let game = &ki2::read(mixed)[0];
    assert_eq!(game.moves.len(), 3);
    assert_eq!(lines(mixed).count(), 4);
}

/// A file is not lost over a few lines: each line is read in the encoding it is text in, and
/// the bytes of a line that is text in none are read as U+FFFD, each such line told.
#[test]
fn a_file_with_a_few_bad_lines_is_read_a_line_at_a_time() {
    let mut bytes = CP932.to_vec();
    bytes.extend_from_slice("後手：藤井聡太\n".as_bytes());
    bytes.extend_from_slice(b"x\xFFy\n");
    // 手, then the first byte of 合: a file cut inside a character.
    bytes.extend_from_slice(&CP932[..3]);
    assert!(decode(&bytes).is_err());
    let d = decode_lossy(&bytes).unwrap();
    assert_eq!(d.encoding, Encoding::ShiftJis);
    assert_eq!(d.text, format!("{TEXT}後手：藤井聡太\nx\u{FFFD}y\n手\u{FFFD}"));
    assert_eq!(
        d.fixes,
        [
            LineFix::Other { line: 3, encoding: Encoding::Utf8 },
            LineFix::Replaced { line: 4, column: 2, byte: 0xFF },
            LineFix::Replaced { line: 5, column: 3, byte: 0x8D },
        ]
    );
    // A file of UTF-8 with a Latin-1 byte stays UTF-8; a CP932 line in it is read as CP932.
    let mut bytes = "先手：a\n".as_bytes().to_vec();
    bytes.extend_from_slice(b"J\xFCrgen\n");
    bytes.extend_from_slice(&CP932[13..]);
    let d = decode_lossy(&bytes).unwrap();
    assert_eq!(d.encoding, Encoding::Utf8);
    assert_eq!(d.text, "先手：a\nJ\u{FFFD}rgen\n先手：羽生善治\n");
    assert_eq!(d.fixes[1], LineFix::Other { line: 3, encoding: Encoding::ShiftJis });
    // More bad lines than good: no text.
    assert_eq!(decode_lossy(b"a\n\xFF\n\xFE\n").unwrap_err().line, 2);
    // (`FF FE` would be UTF-16's byte order mark, and an empty text.)
    assert!(decode_lossy(b"\xFF\xFF").is_err());
}

/// The games of such a file are read as far as they are good: a bad byte in a header costs
/// nothing but the header's character, one in a move stops its game there, and the game after
/// it is read whole.
#[test]
fn the_games_of_a_file_with_a_bad_byte_are_read_as_far_as_they_are_good() {
    let western = b"[Black \"J\xFCrgen\"]\n[White \"b\"]\n\n1. P-7f P-3d\n\n[Black \"c\"]\n\n1. P-2f P-8d\n";
    let parsed = read_file(None, western).unwrap();
    let moves: Vec<String> = parsed
        .games
        .iter()
        .map(|g| replay(g).moves.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(moves, ["7g7f 3c3d", "2g2f 8c8d"]);
    assert_eq!(parsed.games[0].info.black.as_ref().map(|p| p.full.as_str()), Some("J\u{FFFD}rgen"));
    let told: Vec<_> = parsed.games.iter().flat_map(|g| &g.warnings).map(|w| (w.line, w.code)).collect();
    assert_eq!(told, [(1, "undecodable_bytes")]);
    // A KIF cut inside the last move's 歩 (UTF-8: E6 AD A9).
    let kif =
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n";
    let cut = &kif.as_bytes()[..kif.len() - 7];
    let game = &read_file(None, cut).unwrap().games[0];
    assert_eq!(replay(game).moves.iter().map(ToString::to_string).collect::<Vec<_>>(), ["7g7f", "3c3d"]);
    assert_eq!(game.problem.as_ref().map(|p| p.line), Some(5));
    assert_eq!(
        game.warnings.iter().map(|w| (w.line, w.code)).collect::<Vec<_>>(),
        [(5, "undecodable_bytes")]
    );
}

/// A UTF-16 KIF with half of a surrogate pair in a comment (a file saved by a tool that cut
/// a character) keeps its moves, and says where the bad unit was, in UTF-16's words.
#[test]
fn a_utf_16_record_with_a_bad_unit_keeps_its_moves() {
    let kif = "先手：羽生\n後手：谷川\n手数----指手---------消費時間--\n   1 ７六歩(77)\n*ab\n   2 ３四歩(33)\n   3 投了\n";
    let mut bytes = vec![0xFF, 0xFE];
    for unit in kif.encode_utf16() {
        // `b` becomes a lone high surrogate.
        let unit = if unit == u16::from(b'b') { 0xD800 } else { unit };
        bytes.extend(unit.to_le_bytes());
    }
    let parsed = read_file(None, &bytes).unwrap();
    let game = &parsed.games[0];
    assert_eq!(replay(game).moves.iter().map(ToString::to_string).collect::<Vec<_>>(), ["7g7f", "3c3d"]);
    assert_eq!(game.info.black.as_ref().map(|p| p.full.as_str()), Some("羽生"));
    let told: Vec<_> = game.warnings.iter().map(|w| (w.line, w.code, w.message.as_str())).collect();
    // Line 5 is `*ab`: `*` at bytes 1-2 of the line, `a` at 3-4, the bad unit at 5-6.
    assert_eq!(
        told,
        [(
            5,
            "undecodable_bytes",
            "the utf-16le unit at column 5 (first byte 0x00) is no text, half of a surrogate pair or a \
             last odd byte: such units are read as U+FFFD"
        )]
    );
}
