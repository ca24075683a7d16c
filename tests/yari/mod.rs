//! Yari shogi: its rules against Fairy-Stockfish's, its key table, its notation (every example
//! of the seed text), its records, and `kifudex moves` / `convert` on yari games.

mod cli;
mod index;
mod keys;
mod notation;
mod oracle;
mod playouts;
mod records;
mod variants;

use kifudex::shogi::{Move, Position, Setup, Variant};

/// A yari position from its SFEN-like text.
pub fn pos(sfen: &str) -> Position {
    let setup: Setup = sfen.parse().unwrap_or_else(|e| panic!("{sfen}: {e}"));
    assert_eq!(setup.variant, Variant::Yari, "{sfen} is seven squares wide");
    Position::from_setup(setup).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

/// The yari start position.
pub fn start() -> Position {
    Position::start(Variant::Yari)
}

/// Plays USI-like moves, each checked.
pub fn play(p: &mut Position, moves: &str) {
    for m in moves.split_whitespace() {
        let mv: Move = m.parse().unwrap_or_else(|e| panic!("{m}: {e}"));
        p.play(mv).unwrap_or_else(|e| panic!("{m} in {}: {e}", p.sfen()));
    }
}
