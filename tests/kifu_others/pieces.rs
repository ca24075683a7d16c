//! A large file of many games read a piece at a time: the pieces of every CSA, USI and
//! Western fixture, and of texts made of all of them, read one after the other, give what the reader
//! gives for the whole text (the oracle here), game for game and line for line, whatever the
//! size of the pieces.

use kifudex::kifu::{self, Format, Game, Piece};

use super::{data, decode, read};

/// The fixtures of `dir` (under the fixtures directory), as text.
fn texts(dir: &str) -> Vec<(String, String)> {
    let mut paths: Vec<_> =
        std::fs::read_dir(data().join(dir)).expect("fixtures").map(|e| e.expect("entry").path()).collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| (p.display().to_string(), decode(&std::fs::read(&p).expect("fixture"))))
        .collect()
}

/// Checks that `text` read in pieces of every size in `sizes` gives the games read whole.
#[track_caller]
fn reads_alike(format: Format, name: &str, text: &str, sizes: &[usize]) {
    let whole = read(format, text);
    for &bytes in sizes {
        let pieces = kifu::pieces(format, text, bytes);
        let joined: String = pieces.iter().map(|p| p.text).collect();
        assert_eq!(
            joined,
            text.strip_prefix('\u{FEFF}').unwrap_or(text),
            "{name}, {bytes}: the pieces make the text"
        );
        for (i, p) in pieces.iter().enumerate() {
            let last = i + 1 == pieces.len();
            assert!(last || p.text.len() >= bytes, "{name}, {bytes}: piece {i} is short");
            if format == Format::Csa && !last {
                let end = p.text.trim_end_matches(['\r', '\n']).rsplit(['\r', '\n']).next();
                assert_eq!(end.map(str::trim), Some("/"), "{name}, {bytes}: piece {i} ends after a game");
            }
            if format == Format::Western && i > 0 {
                let first = p.text.trim_start().chars().next();
                assert!(
                    first.is_some_and(|c| c == '[' || c.is_ascii_alphanumeric()),
                    "{name}, {bytes}: piece {i}"
                );
            }
        }
        let games: Vec<Game> = pieces.iter().flat_map(|&p| kifu::read_piece(format, p, None)).collect();
        assert_eq!(games.len(), whole.len(), "{name}, {bytes}: games");
        for (i, (a, b)) in games.iter().zip(&whole).enumerate() {
            assert_eq!(a, b, "{name}, pieces of {bytes} bytes: game {i}");
        }
    }
}

#[test]
fn csa_and_usi_fixtures_read_in_pieces_as_whole() {
    for (dir, format) in [("csa", Format::Csa), ("usi", Format::Usi)] {
        for (name, text) in texts(dir) {
            if kifu::detect(None, &text) != Some(format) {
                continue; // USEN and SFEN lists are USI lines too; a fixture of another kind is not
            }
            reads_alike(format, &name, &text, &[1, 40, 300, 1 << 20]);
        }
    }
}

#[test]
fn texts_of_many_games_read_in_pieces_as_whole() {
    // Every CSA fixture, one after the other, with each kind of line break, blank lines and
    // comments between the games, a separator with spaces around it, one written in a line
    // with other statements (no separator, read past with a warning), and a game that stops
    // part-way (the lines after it are skipped up to the next separator).
    let csa: Vec<String> =
        texts("csa").into_iter().map(|(_, t)| t.strip_prefix('\u{FEFF}').unwrap_or(&t).to_string()).collect();
    let mut text = String::from("\u{FEFF}");
    for (i, game) in csa.iter().enumerate() {
        let game = match i % 3 {
            0 => game.replace("\r\n", "\n"),
            1 => game.replace("\r\n", "\n").replace('\n', "\r\n"),
            _ => game.replace("\r\n", "\n").replace('\n', "\r"),
        };
        text.push_str(&game);
        text.push_str(["\n/\n", "\r\n  / \r\n\r\n' between\n", "\n/\r"][i % 3]);
    }
    text.push_str("PI\n+\n+7776FU\n+9999XX\n-3334FU\n/\nPI\n+\n+2726FU,T1,/\n-8384FU\n");
    assert!(read(Format::Csa, &text).len() > csa.len(), "every game is read");
    reads_alike(Format::Csa, "CSA games", &text, &[1, 64, 500, 4096, text.len()]);

    // USI lines, SFEN lines and USEN, with comments and blank lines, and a line that is none.
    let mut text = String::new();
    for (i, (_, t)) in texts("usi").into_iter().enumerate() {
        text.push_str(&t);
        text.push_str(["\n", "\n# a comment\n\n", "\r\nnot a game\r\n"][i % 3]);
    }
    reads_alike(Format::Usi, "USI lines", &text, &[1, 30, 200, text.len()]);

    // Western games, tagged, with comments and variations over several lines (a `[` inside
    // a comment starts no game), one whose tags are broken (it stops; the next one is read),
    // one of bare moves after a result, and one that stops at a move (the untagged game after
    // its result is read).
    let mut text = String::new();
    for (i, (_, t)) in texts("western").into_iter().enumerate() {
        text.push_str(&t);
        text.push_str(["\n\n", "\r\n{a comment\n[Event \"in a comment\"]\n}\r\n", "\n"][i % 3]);
        text.push_str(
            [
                "[Event \"broken\"\n[Round \"2\"]\n1. P-7f P-3d 1-0\n",
                "",
                "1. P-2f Q-9z (P-8d 1-0) P-8d 0-1\n1. P-5f\n",
            ][i % 3],
        );
    }
    text.push_str("[Event \"last\"]\n1. P-7f 1-0 P-2f P-3d\n");
    let whole = read(Format::Western, &text);
    assert!(whole.len() > 8, "every game is read: {}", whole.len());
    assert!(kifu::pieces(Format::Western, &text, 1).len() > 8);
    reads_alike(Format::Western, "Western games", &text, &[1, 100, 1000, text.len()]);

    // KIF files put one after the other, each bringing its byte order mark: a piece cut where a
    // game starts takes the mark with the game, whose reader drops it, as the whole text's does.
    let game = "\u{FEFF}先手：甲\n後手：乙\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n";
    let text = game.repeat(12);
    let whole = read(Format::Kif, &text);
    assert_eq!(whole.len(), 12);
    assert!(whole.iter().all(|g| g.warnings.is_empty()), "no stray line");
    for bytes in [1, 100, 300, text.len()] {
        let pieces = kifu::pieces(Format::Kif, &text, bytes);
        let joined: String = pieces.iter().map(|p| p.text).collect();
        let unmarked = |t: &str| t.strip_prefix('\u{FEFF}').unwrap_or(t).to_string();
        assert_eq!(unmarked(&joined), unmarked(&text), "{bytes}: the pieces make the text");
        let games: Vec<Game> = pieces.iter().flat_map(|&p| kifu::read_piece(Format::Kif, p, None)).collect();
        assert_eq!(games, whole, "pieces of {bytes} bytes");
    }
}

#[test]
fn western_fixtures_read_in_pieces_as_whole() {
    for (name, text) in texts("western") {
        reads_alike(Format::Western, &name, &text, &[1, 40, 300, 1 << 20]);
    }
}

#[test]
fn formats_of_one_game_are_one_piece() {
    let text = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n";
    for format in [Format::Kif, Format::Ki2, Format::Jkf] {
        assert_eq!(kifu::pieces(format, text, 1), [Piece { text, lines_before: 0 }]);
    }
    assert_eq!(kifu::pieces(Format::Usi, "", 1), [Piece { text: "", lines_before: 0 }]);
}
