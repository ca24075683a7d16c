//! Query latency and export throughput on an existing database.
//!
//! ```text
//! cargo bench --bench query -- DB [--rounds N] [--player NAME] [--export]
//! ```
//!
//! Times a whole answer (the position's games and occurrences, its next-move tree with
//! played and reached counts and results, and the 20 newest games) for four kinds of
//! position, each the median of N rounds (default 21) after one warm-up:
//! - the start position, which every even game reaches;
//! - positions after 2 and after 10 plies, taken from ten games spread over the database;
//! - rare late positions: the position at three quarters of such a game.
//!
//! Then the start position again with a player filter (`--player`, default 佐々木正人, a
//! name common in the generated bench corpora): the filtered answer reads the postings.
//!
//! With `--export`, also streams the moves export of every game into a sink and prints rows
//! per second and the process's peak memory.

use std::{path::PathBuf, time::Instant};

use kifudex::{
    db::{GameFilter, GameId, Reader, Snapshot},
    export,
    query::{self, Query, Target},
    shogi::{Handicap, Position},
};

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let (mut db, mut rounds, mut with_export) = (None, 21, false);
    let mut player = String::from("佐々木正人");
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rounds" => rounds = args.next().and_then(|n| n.parse().ok()).expect("--rounds N"),
            "--player" => player = args.next().expect("--player NAME"),
            "--export" => with_export = true,
            _ => db = Some(PathBuf::from(arg)),
        }
    }
    let db = db.expect("usage: cargo bench --bench query -- DB [--rounds N] [--player NAME] [--export]");
    let mut reader = Reader::open(&db).expect("the database opens");
    let snapshot = reader.snapshot().expect("a snapshot");
    let count = snapshot.game_count().expect("the game count");
    println!("{}: {count} games", db.display());

    let start = [Position::handicap(Handicap::Even)];
    time("start position", &snapshot, &start, &GameFilter::default(), rounds);
    let picks: Vec<GameId> = (1..=10).map(|i| GameId((i * count as i64 / 11).max(1))).collect();
    // A position `fraction` of the way through each pick, or after `plies` plies when
    // `fraction` is 0.
    let at = |plies: usize, fraction: f64| -> Vec<Position> {
        picks
            .iter()
            .filter_map(|&id| snapshot.game(id).ok().flatten())
            .filter_map(|g| {
                let ply = if fraction == 0.0 { plies } else { (g.moves.len() as f64 * fraction) as usize };
                let mut pos = Position::from_setup(g.start.clone()).ok()?;
                for &mv in g.moves.get(..ply)? {
                    pos.play(mv).ok()?;
                }
                Some(pos)
            })
            .collect()
    };
    let unfiltered = GameFilter::default();
    time("after 2 plies", &snapshot, &at(2, 0.0), &unfiltered, rounds);
    time("after 10 plies", &snapshot, &at(10, 0.0), &unfiltered, rounds);
    time("rare late position", &snapshot, &at(0, 0.75), &unfiltered, rounds);
    let by_player = GameFilter { player: Some(player.clone()), ..GameFilter::default() };
    time(&format!("start position, player {player}"), &snapshot, &start, &by_player, rounds);
    if with_export {
        let started = Instant::now();
        let rows = export::moves(&snapshot, &GameFilter::default(), std::io::sink(), &mut |_, _| {})
            .expect("the export");
        let seconds = started.elapsed().as_secs_f64();
        println!(
            "export moves: {rows} rows in {seconds:.2} s = {:.0} rows/s; peak RSS {} MB",
            rows as f64 / seconds,
            peak_rss_mb()
        );
    }
}

/// Answers each position `rounds` times and prints the median and the slowest median.
fn time(what: &str, snapshot: &Snapshot<'_>, positions: &[Position], filter: &GameFilter, rounds: usize) {
    if positions.is_empty() || rounds == 0 {
        // A database too small to hold such positions (games shorter than the plies asked).
        println!("{what}: no position to time");
        return;
    }
    let mut medians = Vec::new();
    let mut games = Vec::new();
    for pos in positions {
        let query = Query {
            target: Target { position: pos.clone(), sequence: None, from_start_option: false },
            filter: filter.clone(),
            limit: 20,
            offset: 0,
            exact_sequence: false,
            by_year: false,
        };
        let answer = query::run(snapshot, &query).expect("the query runs");
        games.push(answer.games.games);
        let mut ms: Vec<f64> = (0..rounds)
            .map(|_| {
                let started = Instant::now();
                std::hint::black_box(query::run(snapshot, &query).expect("the query runs"));
                started.elapsed().as_secs_f64() * 1000.0
            })
            .collect();
        ms.sort_by(f64::total_cmp);
        medians.push(ms[ms.len() / 2]);
    }
    let worst = medians.iter().copied().fold(0.0, f64::max);
    let mut sorted = medians.clone();
    sorted.sort_by(f64::total_cmp);
    println!(
        "{what}: {} positions reached by {games:?} games; median {:.2} ms, slowest position {worst:.2} ms",
        positions.len(),
        sorted[sorted.len() / 2]
    );
}

/// The peak resident set of this process, from /proc (0 where there is none).
fn peak_rss_mb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        })
        .map_or(0, |kb| kb / 1024)
}
