//! Random legal games, from a seeded generator, and perft: the moves the tests play, the same
//! on every run.

use kifudex::shogi::{Move, Position};

/// A small deterministic generator (xorshift64*), so the tests need no RNG crate and give the
/// same games on every run.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E3779B97F4A7C15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545F4914F6CDD1D)
    }

    /// A number below `n` (which must not be 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Plays up to `plies` random legal moves from `pos`, calling `each` after every move.
pub fn random_playout(
    pos: &mut Position,
    rng: &mut Rng,
    plies: usize,
    mut each: impl FnMut(&Position, Move),
) {
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        pos.play(mv).expect("a generated move is legal");
        each(pos, mv);
    }
}

/// The number of legal move sequences of `depth` plies from `pos` (perft); `pos` ends as it
/// was.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for m in moves {
        pos.play_unchecked(m);
        nodes += perft(pos, depth - 1);
        pos.undo();
    }
    nodes
}
