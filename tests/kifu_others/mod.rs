//! The CSA, JKF, USI/SFEN/USEN and Western readers and writers.
//!
//! Expected values come from the corpus oracle (cshogi, and rsshogi where it agrees, as
//! recorded in the corpus expectation file; for PSN and USEN, which no oracle reads, the
//! decisions worked out by hand there), from the JKF files shogi-kifu-converter ships as the
//! expected conversion of their CSA siblings, or from hand counts stated beside them.

mod csa;
mod detection;
mod jkf;
mod jkf_edges;
mod pieces;
mod robustness;
mod usi;
mod western;

use std::path::{Path, PathBuf};

use kifudex::{
    kifu::{self, Format, Game, Outcome},
    replay::ReplayedGame,
    shogi::Color,
};

/// The final position of shogihome's usi-csa-bridge game, written as CSA and as JKF.
const BRIDGE_GAME_END: &str = "lnsgkgsnl/1r5b1/p1pppp1pp/6p2/1p5P1/9/PPPPPPP1P/1BG4R1/LNS1KGSNL b -";

/// The fixtures directory.
fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kifu")
}

/// Text of a file in any of the corpus encodings: UTF-8 (with or without BOM), CP932, EUC-JP.
pub fn decode(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Ok(text) = std::str::from_utf8(bytes) {
        return text.to_string();
    }
    for encoding in [encoding_rs::SHIFT_JIS, encoding_rs::EUC_JP] {
        let (text, _, bad) = encoding.decode(bytes);
        if !bad {
            return text.into_owned();
        }
    }
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fixture's text.
fn fixture(name: &str) -> String {
    let path = data().join(name);
    decode(&std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// The reader of a format.
pub fn read(format: Format, text: &str) -> Vec<Game> {
    match format {
        Format::Csa => kifu::csa::read(text),
        Format::Jkf => kifu::jkf::read(text),
        Format::Usi => kifu::usi::read(text),
        Format::Western => kifu::western::read(text),
        Format::Kif => kifu::kif::read(text),
        Format::Ki2 => kifu::ki2::read(text),
    }
}

/// The writer of one of this module's formats.
pub fn write(format: Format, game: &Game, replayed: &ReplayedGame) -> String {
    match format {
        Format::Csa => kifudex::write::csa::write(game, replayed),
        Format::Jkf => kifudex::write::jkf::write(game, replayed),
        Format::Usi => kifudex::write::usi::write(game, replayed),
        Format::Western => kifudex::write::western::write(game, replayed),
        Format::Kif | Format::Ki2 => unreachable!("not written here"),
    }
}

/// The one game of a fixture, read without a problem.
fn only_game(format: Format, name: &str) -> Game {
    let mut games = read(format, &fixture(name));
    assert_eq!(games.len(), 1, "{name}: one game");
    let game = games.remove(0);
    assert_eq!(game.problem, None, "{name}");
    game
}

/// What the corpus expectations record for a game: plies, the final position (SFEN without
/// its move number), the winner (`b`, `w`, `d` or `-`) and the termination (`none` when
/// there is none).
fn outcome_of(r: &ReplayedGame) -> (usize, String, &'static str, &'static str) {
    let winner = match r.outcome {
        Some(Outcome::Win(Color::Black)) => "b",
        Some(Outcome::Win(Color::White)) => "w",
        Some(Outcome::Draw) => "d",
        None => "-",
    };
    (r.plies(), r.end.position_text(), winner, r.termination.map_or("none", |t| t.name()))
}

/// Checks a replayed game against the corpus expectation.
#[track_caller]
fn expect(r: &ReplayedGame, plies: usize, end: &str, winner: &str, termination: &str) {
    assert_eq!(outcome_of(r), (plies, end.to_string(), winner, termination));
}

/// The moves' text as read.
fn tokens(game: &Game) -> Vec<String> {
    game.moves.iter().map(|m| m.token.to_string()).collect()
}
