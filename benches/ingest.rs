//! End-to-end ingest benchmark: indexes a directory into a fresh database and prints
//! games/s, bytes per game and peak memory.
//!
//! ```text
//! cargo bench --bench ingest -- DIR [--jobs N] [--db FILE] [--stages | --rounds N]
//! ```
//!
//! Records are read as the command reads them. Without DIR, a synthetic corpus of 2,000
//! random games (USI files of one game each, `position startpos moves …`) is generated in a
//! temporary directory first. `--stages` times each stage of the worker side instead, on one thread; `--rounds N` does so N
//! times over the records (read once) and keeps each stage's best round.
//! For the side-by-side comparison with the peer pipeline, see `scripts/bench.sh`.

use std::{path::PathBuf, time::Instant};

use kifudex::{
    ingest::{self, Options, Quiet},
    kifu,
    shogi::{Move, Position},
};

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let mut dir: Option<PathBuf> = None;
    let mut jobs = ingest::default_jobs();
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let mut db = tmp.path().join("bench.sqlite");
    let mut stages = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--jobs" => jobs = args.next().and_then(|j| j.parse().ok()).expect("--jobs N"),
            "--db" => db = PathBuf::from(args.next().expect("--db FILE")),
            "--stages" => stages = Some(1),
            "--rounds" => {
                stages = Some(args.next().and_then(|r| r.parse().ok()).expect("--rounds N"));
            }
            _ => dir = Some(PathBuf::from(arg)),
        }
    }
    let dir = dir.unwrap_or_else(|| {
        let dir = tmp.path().join("games");
        synthetic(&dir, 2_000);
        dir
    });
    if let Some(rounds) = stages {
        return measure_stages(&dir, rounds);
    }
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    let options = Options { jobs, ..Options::new(vec![dir.clone()], db.clone()) };
    let started = Instant::now();
    let s = ingest::run(&options, &Quiet).expect("the ingest runs");
    let seconds = started.elapsed().as_secs_f64();
    let bytes = std::fs::metadata(&db).map(|m| m.len()).unwrap_or(0);
    let games = s.games_added.max(1);
    println!(
        "ingest dir={} jobs={jobs} files={} games={} duplicate={} rejected={} positions={} seconds={seconds:.2} \
         games_per_s={:.0} db_bytes={bytes} bytes_per_game={:.0} peak_rss_mb={:.1}",
        dir.display(),
        s.files_seen,
        s.games_added,
        s.games_duplicate,
        s.games_rejected,
        s.positions,
        (s.games_added + s.games_duplicate) as f64 / seconds,
        bytes as f64 / games as f64,
        peak_rss_kb() as f64 / 1024.0,
    );
}

/// Times each stage of the worker side on one thread: read the bytes (once, so the CPU
/// stages are timed on records in memory), then parse, replay and prepare for the writer,
/// `rounds` times over every record, each stage's time the least of its rounds.
fn measure_stages(dir: &std::path::Path, rounds: usize) {
    let started = Instant::now();
    let files: Vec<(PathBuf, Vec<u8>)> =
        kifudex::walk::entries(&[dir.to_path_buf()], kifudex::walk::WalkOptions::default())
            .filter_map(Result::ok)
            .filter(|f| f.expect != kifudex::walk::Expect::Skip)
            .map(|f| {
                let bytes = std::fs::read(&f.path).expect("a readable file");
                (f.path, bytes)
            })
            .collect();
    let t_read = started.elapsed().as_secs_f64();
    let (mut best_parse, mut best_replay, mut best_prepare) = (f64::MAX, f64::MAX, f64::MAX);
    let (mut games, mut plies) = (0u64, 0u64);
    // Parsing by file extension: the time of the best round, and the games.
    let mut by_format = std::collections::BTreeMap::<String, (f64, u64)>::new();
    for _ in 0..rounds.max(1) {
        let (mut t_parse, mut t_replay, mut t_prepare) = (0f64, 0f64, 0f64);
        let mut formats = std::collections::BTreeMap::<String, (f64, u64)>::new();
        (games, plies) = (0, 0);
        for (path, bytes) in &files {
            let t1 = Instant::now();
            let Ok(parsed) = kifu::read_file(Some(path), bytes) else { continue };
            let t2 = Instant::now();
            let replayed: Vec<_> = parsed.games.iter().map(kifudex::replay::replay).collect();
            let t3 = Instant::now();
            for (i, (g, r)) in parsed.games.iter().zip(replayed).enumerate() {
                let prepared = kifudex::store::new_game(g, r, i as u32);
                plies += u64::from(prepared.plies);
                games += 1;
            }
            let t4 = Instant::now();
            t_parse += (t2 - t1).as_secs_f64();
            let format = path.extension().map_or(String::new(), |e| e.to_string_lossy().to_lowercase());
            let entry = formats.entry(format).or_default();
            entry.0 += (t2 - t1).as_secs_f64();
            entry.1 += parsed.games.len() as u64;
            t_replay += (t3 - t2).as_secs_f64();
            t_prepare += (t4 - t3).as_secs_f64();
        }
        if t_parse < best_parse {
            by_format = formats;
        }
        best_parse = best_parse.min(t_parse);
        best_replay = best_replay.min(t_replay);
        best_prepare = best_prepare.min(t_prepare);
    }
    let us = |t: f64| t * 1e6 / games.max(1) as f64;
    println!(
        "stages games={games} plies={plies} rounds={rounds} per game (µs): read {:.1} parse {:.1} replay {:.1} \
         prepare {:.1}; replay {:.0} ns/ply",
        us(t_read),
        us(best_parse),
        us(best_replay),
        us(best_prepare),
        best_replay * 1e9 / plies.max(1) as f64
    );
    let formats: Vec<String> = by_format
        .iter()
        .map(|(format, (t, n))| format!("{format} {:.1} ({n} games)", t * 1e6 / (*n).max(1) as f64))
        .collect();
    println!("parse per game by extension (µs): {}", formats.join(", "));
}

/// The process's peak resident memory (VmHWM), in KiB.
fn peak_rss_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Writes `n` random legal games of 60 to 160 plies as USI files, 100 per directory.
fn synthetic(dir: &std::path::Path, n: usize) {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for g in 0..n {
        let mut pos = Position::startpos();
        let mut moves: Vec<Move> = Vec::new();
        let plies = 60 + (next() % 100) as usize;
        for _ in 0..plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[(next() % legal.len() as u64) as usize];
            pos.play(mv).expect("a generated move is legal");
            moves.push(mv);
        }
        let sub = dir.join(format!("d{:03}", g / 100));
        std::fs::create_dir_all(&sub).expect("a corpus directory");
        let text: Vec<String> = moves.iter().map(Move::to_string).collect();
        let body = format!("position startpos moves {}\n", text.join(" "));
        std::fs::write(sub.join(format!("g{g:05}.usi")), body).expect("a corpus file");
    }
}
