//! How fast `kifudex serve` answers: 100 positions (the start, openings 2 to 20 plies deep,
//! and rare late positions, taken from games spread over the database) asked over HTTP as the
//! page asks them, 20 at a time, and the latency of each answer; then, when Chromium and
//! chromedriver are installed, how long the page takes to draw its first view.
//!
//! `cargo bench --bench serve -- DB [--rounds N] [--loads N] [--concurrency N]`
//!
//! Prints p50, p95 and the slowest answer of each kind and of all when each position is asked
//! for the first time (every answer computed), then over N more rounds (3) that ask them again
//! (the server keeps answers until the database changes), and the median time to the first
//! drawn view over N page loads (5).

// The test suite's HTTP and WebDriver clients and its way to run the binary; this benchmark
// uses part of each.
#[allow(dead_code)]
#[path = "../tests/serve/http.rs"]
mod http;
#[allow(dead_code)]
#[path = "../tests/serve/server.rs"]
mod server;
#[allow(dead_code)]
#[path = "../tests/util/mod.rs"]
mod util;
#[allow(dead_code)]
#[path = "../tests/serve/webdriver.rs"]
mod webdriver;

use std::{
    net::SocketAddr,
    path::{Path, PathBuf},
    sync::{
        Mutex,
        atomic::{AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use kifudex::db::{GameId, Reader};

/// Requests in flight at once, unless `--concurrency` says otherwise.
const CONCURRENCY: usize = 20;

/// The 100 positions, as (kind, query string): 1 start, 60 openings, 39 late positions; each
/// as moves from its game's start.
fn positions(db: &Path) -> Vec<(&'static str, String)> {
    let mut reader = Reader::open(db).expect("the database opens");
    let snapshot = reader.snapshot().unwrap();
    let games = snapshot.game_count().unwrap() as i64;
    assert!(games > 100, "the benchmark wants a database of many games");
    let query = |id: i64, depth: usize| {
        let game = snapshot.game(GameId(id)).unwrap().expect("a stored game");
        let moves: Vec<String> = game.moves.iter().take(depth).map(ToString::to_string).collect();
        format!("start={}&moves={}", http::encode(&game.start.to_string()), http::encode(&moves.join(" ")))
    };
    let mut out = vec![("start", String::new())];
    for i in 0..60 {
        out.push(("opening", query(1 + i * (games - 1) / 60, 2 + (i as usize % 19))));
    }
    for i in 0..39 {
        out.push(("late", query(1 + (2 * i + 1) * (games - 1) / 78, 60 + 3 * i as usize)));
    }
    out
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let db =
        PathBuf::from(args.first().expect("usage: cargo bench --bench serve -- DB [--rounds N] [--loads N]"));
    let option = |name: &str, default: usize| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let (rounds, loads, concurrency) =
        (option("--rounds", 3), option("--loads", 5), option("--concurrency", CONCURRENCY));
    let positions = positions(&db);
    let server = server::Server::start(&db, &[]);
    let addr = server.addr;
    let paths: Vec<(&str, String)> =
        positions.iter().map(|(kind, query)| (*kind, format!("/api/query?{query}&limit=20"))).collect();
    // Round 0 asks every position for the first time (the server computes every answer);
    // the later rounds ask them again (the server has kept the answers).
    let mut timings: Vec<(usize, &str, f64, usize)> = Vec::new();
    let mut first_round = (0.0, 0.0);
    for round in 0..=rounds {
        let (started, cpu) = (Instant::now(), cpu_seconds(server.pid()));
        let next = AtomicUsize::new(0);
        let done = Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            for _ in 0..concurrency {
                scope.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some((kind, path)) = paths.get(i) else { break };
                        let started = Instant::now();
                        let answer = http::get(addr, path);
                        let ms = started.elapsed().as_secs_f64() * 1000.0;
                        assert_eq!(answer.status, 200, "{path}: {}", answer.text());
                        done.lock().unwrap().push((round, *kind, ms, i));
                    }
                });
            }
        });
        timings.extend(done.into_inner().unwrap());
        if round == 0 {
            first_round = (started.elapsed().as_secs_f64(), cpu_seconds(server.pid()) - cpu);
        }
    }
    println!(
        "{} positions, {concurrency} at a time: first answers in {:.0} ms, the server's CPU {:.0} ms",
        positions.len(),
        first_round.0 * 1000.0,
        first_round.1 * 1000.0
    );
    let report = |label: &str, keep: &dyn Fn(usize, &str) -> bool| {
        let mut ms: Vec<f64> =
            timings.iter().filter(|(r, k, _, _)| keep(*r, k)).map(|&(_, _, ms, _)| ms).collect();
        ms.sort_by(f64::total_cmp);
        println!(
            "  {label:<34} {:>4} answers: p50 {:6.1} ms, p95 {:6.1} ms, slowest {:6.1} ms",
            ms.len(),
            percentile(&ms, 0.5),
            percentile(&ms, 0.95),
            ms[ms.len() - 1]
        );
    };
    for kind in ["start", "opening", "late"] {
        report(&format!("asked first, {kind}"), &|r, k| r == 0 && k == kind);
    }
    report("asked first, all (every answer computed)", &|r, _| r == 0);
    let mut first: Vec<_> = timings.iter().filter(|t| t.0 == 0).collect();
    first.sort_by(|a, b| b.2.total_cmp(&a.2));
    for &&(_, kind, ms, i) in first.iter().take(3) {
        let path = &paths[i].1;
        let shown = &path[path.find("moves=").unwrap_or(0)..];
        println!("    slowest first: {ms:6.1} ms {kind} {shown}");
    }
    if rounds > 0 {
        report(&format!("asked again, {rounds} rounds (answers kept)"), &|r, _| r > 0);
    }
    first_view(addr, &positions, loads);
}

/// Loads the page in headless Chromium `loads` times (the start, then openings) and prints the
/// median time until its first view is drawn.
fn first_view(addr: SocketAddr, positions: &[(&str, String)], loads: usize) {
    if loads == 0 {
        return;
    }
    let Some((chromium, chromedriver)) = webdriver::find_browser() else {
        println!("first view: skipped (no chromium and chromedriver)");
        return;
    };
    let browser = webdriver::Browser::start(&chromium, &chromedriver, 1280, 860);
    let mut ms = Vec::new();
    for i in 0..loads {
        let query = &positions[i * 7 % positions.len()].1;
        browser.open(&format!("http://{addr}/?{query}"));
        browser.wait_for("return !!document.body.dataset.firstReady", 30);
        let value = browser.run("return Number(document.body.dataset.firstReady)", serde_json::json!([]));
        ms.push(value.as_f64().unwrap());
        std::thread::sleep(Duration::from_millis(50));
    }
    ms.sort_by(f64::total_cmp);
    println!(
        "first view in headless Chromium: median {:.0} ms, slowest {:.0} ms over {loads} loads",
        ms[ms.len() / 2],
        ms[ms.len() - 1]
    );
}

/// The CPU time process `pid` has used, user and system, in seconds (0 where /proc cannot tell).
fn cpu_seconds(pid: u32) -> f64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { return 0.0 };
    // The fields after the command name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat.rsplit_once(')').map_or("", |(_, rest)| rest).split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are the 14th and 15th fields of the line, 12th and 13th after the name;
    // the kernel counts them in clock ticks of 1/100 s on Linux.
    (ticks(11) + ticks(12)) / 100.0
}
