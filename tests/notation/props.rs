//! No input panics: random strings and random edits of valid moves go through every parser,
//! through resolution in several positions, and through the sequence reader.

use std::sync::OnceLock;

use kifudex::{
    notation::{MoveToken, Style, csa, japanese, read_sequence, western, write},
    shogi::{Handicap, Position, Square},
};
use proptest::prelude::*;

use super::board;

/// Characters the notations use, so that random text often comes close to a move.
const ALPHABET: &str = "▲△☗☖▼▽同仝　 0123456789１２３４５６７８９一二三四五六七八九歩兵香桂銀金角飛玉王と成杏圭全\
                        馬龍竜上引寄右左直行入打合不生ナフ丶ゝ・キ禾↑土ヨ人クマウヒ乙立リ○()（）PLNSGBRKDHT+-xX*'’@=.…!?#$\
                        abcdefghichFUKYEGIAOTNMR,\n";

/// Positions to resolve in, each with the previous move's destination.
fn positions() -> &'static [(Position, Option<Square>)] {
    static POSITIONS: OnceLock<Vec<(Position, Option<Square>)>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        let mut game = Position::startpos();
        for m in ["7g7f", "3c3d", "8h2b+"] {
            game.play(m.parse().expect("a test move")).expect("a legal test move");
        }
        vec![
            (Position::startpos(), None),
            (game, "2b".parse().ok()),
            (Position::handicap(Handicap::TwoPieces), None),
            (board("K69 k91 G66 G56 G46 +R64 +R55 S67 l61 p83", "b", "PLNSGB"), "8c".parse().ok()),
            (board("K98 k11 g61 g41 +b55 s53 n73 P65", "w", "pgs"), None),
        ]
    })
}

/// Every legal move of every test position, written in every notation.
fn written_moves() -> &'static [String] {
    static WRITTEN: OnceLock<Vec<String>> = OnceLock::new();
    WRITTEN.get_or_init(|| {
        let styles = [Style::Japanese, Style::Western, Style::Hosking, Style::Usi, Style::Csa];
        let mut texts = Vec::new();
        for (pos, previous) in positions() {
            for m in pos.legal_moves() {
                texts.extend(styles.iter().map(|&s| write(pos, m, *previous, s)));
            }
        }
        texts.push("７六歩(77)".to_string());
        texts.push("1...G-32".to_string());
        texts
    })
}

/// Runs `text` through everything that reads moves.
fn read_everywhere(text: &str) {
    let _ = csa::parse(text);
    let _ = western::parse(text);
    let _ = japanese::parse(text);
    let _ = japanese::parse_prefix(text);
    if let Ok(token) = MoveToken::parse(text) {
        let _ = token.to_string();
        for (pos, previous) in positions() {
            if let Ok(m) = token.resolve(pos, *previous) {
                assert!(pos.is_legal(m), "{text} resolved to the illegal {m}");
            }
        }
    }
    for (pos, _) in positions() {
        if let Ok(moves) = read_sequence(pos, text) {
            let mut game = pos.clone();
            for m in moves {
                game.play(m).expect("a sequence reads legal moves");
            }
        }
    }
}

/// One random edit of a text: delete, insert, replace or swap a character, or cut it short.
fn edit(text: &str, what: u8, at: usize, with: char) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let i = if chars.is_empty() { 0 } else { at % chars.len() };
    match what % 5 {
        0 if !chars.is_empty() => {
            chars.remove(i);
        }
        1 => chars.insert(i, with),
        2 if !chars.is_empty() => chars[i] = with,
        3 if chars.len() > 1 => {
            let j = (i + 1) % chars.len();
            chars.swap(i, j);
        }
        _ => chars.truncate(i),
    }
    chars.into_iter().collect()
}

fn alphabet_char() -> impl Strategy<Value = char> {
    let chars: Vec<char> = ALPHABET.chars().collect();
    prop::sample::select(chars)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_strings_do_not_panic(text in ".{0,24}") {
        read_everywhere(&text);
    }

    #[test]
    fn random_notation_characters_do_not_panic(chars in prop::collection::vec(alphabet_char(), 0..16)) {
        read_everywhere(&chars.into_iter().collect::<String>());
    }

    #[test]
    fn edited_moves_do_not_panic(
        pick in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<u8>(), any::<usize>(), alphabet_char()), 1..4),
    ) {
        let moves = written_moves();
        let mut text = moves[pick.index(moves.len())].clone();
        for (what, at, with) in edits {
            text = edit(&text, what, at, with);
        }
        read_everywhere(&text);
    }

    #[test]
    fn edited_sequences_do_not_panic(
        picks in prop::collection::vec(any::<prop::sample::Index>(), 1..6),
        edits in prop::collection::vec((any::<u8>(), any::<usize>(), alphabet_char()), 0..4),
    ) {
        let moves = written_moves();
        let mut text = picks.iter().map(|p| moves[p.index(moves.len())].as_str()).collect::<Vec<_>>().join(" ");
        for (what, at, with) in edits {
            text = edit(&text, what, at, with);
        }
        read_everywhere(&text);
    }
}

#[test]
fn written_moves_are_many() {
    // The edits start from real moves of every kind; make sure there are plenty.
    assert!(written_moves().len() > 1_000, "{}", written_moves().len());
}
