//! Reading and writing single moves, per notation.
//!
//! The moves are every legal move of positions from deterministic random games (the even
//! start and every handicap), written in each notation beforehand. Reading is parsing the text
//! and resolving it in its position; writing is the reverse. Besides criterion's report, the
//! bench prints moves read per second for each notation.
//!
//! Run with `cargo bench --bench notation`.

use std::{
    hint::black_box,
    time::{Duration, Instant},
};

use criterion::{Criterion, Throughput};
use kifudex::{
    notation::{MoveToken, Previous, Style, write},
    shogi::{Handicap, Move, Position},
};

const STYLES: [(Style, &str); 5] = [
    (Style::Japanese, "japanese"),
    (Style::Western, "western"),
    (Style::Hosking, "hosking"),
    (Style::Usi, "usi"),
    (Style::Csa, "csa"),
];

/// A move to read: its position (an index into the positions), the move and its text.
struct Sample {
    at: usize,
    mv: Move,
    text: String,
}

/// xorshift64*, so the samples are the same on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545F4914F6CDD1D) % n as u64) as usize
    }
}

/// Positions from random games: 20 plies apart from each start, 40 games in all.
fn positions() -> Vec<(Position, Previous)> {
    let mut rng = Rng(0x9E3779B97F4A7C15);
    let mut out = Vec::new();
    for game in 0..40 {
        let mut pos = Position::handicap(Handicap::ALL[game % Handicap::ALL.len()]);
        for ply in 0..120 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            pos.play_unchecked(mv);
            if ply % 6 == 5 {
                out.push((pos.clone(), Some(mv.to())));
            }
        }
    }
    out
}

fn samples(positions: &[(Position, Previous)], style: Style) -> Vec<Sample> {
    let mut out = Vec::new();
    for (at, (pos, previous)) in positions.iter().enumerate() {
        for mv in pos.legal_moves() {
            out.push(Sample { at, mv, text: write(pos, mv, *previous, style) });
        }
    }
    out
}

fn read_all(positions: &[(Position, Previous)], samples: &[Sample]) -> usize {
    let mut read = 0;
    for s in samples {
        let (pos, previous) = &positions[s.at];
        let token = MoveToken::parse(black_box(&s.text)).expect("written moves read");
        let mv = token.resolve(pos, *previous).expect("written moves resolve");
        read += usize::from(mv == s.mv);
    }
    read
}

fn write_all(positions: &[(Position, Previous)], samples: &[Sample], style: Style) -> usize {
    samples
        .iter()
        .map(|s| {
            let (pos, previous) = &positions[s.at];
            write(pos, black_box(s.mv), *previous, style).len()
        })
        .sum()
}

fn main() {
    let positions = positions();
    let sets: Vec<(Style, &str, Vec<Sample>)> =
        STYLES.iter().map(|&(style, name)| (style, name, samples(&positions, style))).collect();

    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("read");
    for (_, name, set) in &sets {
        group.throughput(Throughput::Elements(set.len() as u64));
        group.bench_function(*name, |b| b.iter(|| read_all(&positions, set)));
    }
    group.finish();
    let mut group = c.benchmark_group("write");
    for (style, name, set) in &sets {
        group.throughput(Throughput::Elements(set.len() as u64));
        group.bench_function(*name, |b| b.iter(|| write_all(&positions, set, *style)));
    }
    group.finish();
    c.final_summary();

    println!("\n{} positions, {} moves each", positions.len(), sets[0].2.len());
    for (style, name, set) in &sets {
        let (mut moves, start) = (0, Instant::now());
        while start.elapsed() < Duration::from_secs(1) {
            assert_eq!(read_all(&positions, set), set.len());
            moves += set.len();
        }
        let read = moves as f64 / start.elapsed().as_secs_f64();
        let (mut moves, start) = (0, Instant::now());
        while start.elapsed() < Duration::from_secs(1) {
            black_box(write_all(&positions, set, *style));
            moves += set.len();
        }
        let written = moves as f64 / start.elapsed().as_secs_f64();
        println!("{name:>9}: {read:>12.0} moves read/s {written:>12.0} moves written/s");
    }
}
