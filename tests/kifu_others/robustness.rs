//! No input makes a reader, replay or a writer panic. (That no input makes them work more
//! than in proportion to its size is the `mutations` test's business.)

use kifudex::{kifu::Format, replay::replay};
use proptest::prelude::*;

use super::{fixture, read, write};

const FORMATS: [Format; 4] = [Format::Csa, Format::Jkf, Format::Usi, Format::Western];

/// Fixtures to mutate, one or more per format.
const SOURCES: [&str; 6] = [
    "csa/example.csa",
    "csa/tsumeshogi_00al.csa",
    "jkf/forks.json",
    "usi/division-input.sfen",
    "usi/test_handicap.usen",
    "western/europe1997_boekschoten_lamb_comments.psn",
];

/// Reads `text` in every format and writes every game that replays.
fn exercise(text: &str) {
    for format in FORMATS {
        let _ = kifudex::kifu::csa::looks_like(text)
            | kifudex::kifu::jkf::looks_like(text)
            | kifudex::kifu::usi::looks_like(text)
            | kifudex::kifu::western::looks_like(text);
        for game in read(format, text) {
            let r = replay(&game);
            for target in FORMATS {
                let _ = write(target, &game, &r);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_text_never_panics(text in "(?s).{0,300}") {
        exercise(&text);
    }

    #[test]
    fn random_record_like_text_never_panics(
        text in "([+\\-PNVT%$'#/\\[\\]{}()\"*0-9A-Za-z:,.~ \n]{0,12}\n){0,12}",
    ) {
        exercise(&text);
    }

    #[test]
    fn mutated_records_never_panic(
        source in 0..SOURCES.len(),
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), 0u8..4), 1..12),
    ) {
        let mut bytes = fixture(SOURCES[source]).into_bytes();
        for (at, byte, kind) in edits {
            if bytes.is_empty() {
                break;
            }
            let i = at % bytes.len();
            match kind {
                0 => bytes[i] = byte,
                1 => { bytes.remove(i); }
                2 => bytes.insert(i, byte),
                _ => { let tail = bytes.split_off(i); bytes.extend_from_slice(&tail[..tail.len() / 2]); }
            }
        }
        exercise(&String::from_utf8_lossy(&bytes));
    }
}

#[test]
fn forks_nest_only_so_deep() {
    // Forks nested too deep are left out, said so; the main line is read on.
    let game = read(Format::Jkf, &deep_forks(40)).remove(0);
    assert_eq!(game.problem, None);
    assert_eq!(game.moves.len(), 1);
    let codes: Vec<_> = game.warnings.iter().map(|w| w.code).collect();
    assert_eq!(codes, ["variation_left_out"]);
    assert!(game.warnings[0].message.contains("nested"), "{}", game.warnings[0]);
    let shallow = read(Format::Jkf, &deep_forks(20)).remove(0);
    assert_eq!((shallow.problem, shallow.warnings.len()), (None, 0));
}

/// A JKF text whose forks nest `depth` deep.
fn deep_forks(depth: usize) -> String {
    let mv = "{\"move\": {\"from\": {\"x\": 7, \"y\": 7}, \"to\": {\"x\": 7, \"y\": 6}, \"piece\": \"FU\", \"color\": 0}";
    let mut text = String::from("{\"moves\": [{}, ");
    for _ in 0..depth {
        text.push_str(mv);
        text.push_str(", \"forks\": [[");
    }
    text.push_str(&"]]}".repeat(depth));
    text.push_str("]}");
    text
}
