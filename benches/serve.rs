//! How fast `kifudex serve` answers: 100 positions (the start, openings 2 to 20 plies deep,
//! and rare late positions, taken from games spread over the database) asked over HTTP as the
//! page asks them, 20 at a time, and the latency of each answer; then, when Chromium and
//! chromedriver are installed, how long the page takes to draw its first view.
//!
//! `cargo bench --bench serve -- DB [--rounds N] [--loads N]`
//!
//! Prints p50, p95 and the slowest answer of each kind and of all, over N rounds (3) after one
//! round that warms the caches, and the median time to the first drawn view over N page
//! loads (5).

// The test suite's HTTP and WebDriver clients; this benchmark uses part of each.
#[allow(dead_code)]
#[path = "../tests/serve/http.rs"]
mod http;
#[allow(dead_code)]
#[path = "../tests/serve/webdriver.rs"]
mod webdriver;

use std::{
    io::{BufRead, BufReader},
    net::SocketAddr,
    path::PathBuf,
    process::{Child, Command, Stdio},
    sync::{
        Mutex,
        atomic::{AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use kifudex::db::{GameId, Reader};

/// Requests in flight at once.
const CONCURRENCY: usize = 20;

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start_server(db: &PathBuf) -> (Server, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kifudex"))
        .args(["serve", "--port", "0", "--db"])
        .arg(db)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kifudex serve starts");
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.contains("http://") {
        line.clear();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "kifudex serve stopped");
    }
    std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
    let at = line.find("http://").unwrap() + 7;
    let addr = line[at..].split('/').next().unwrap().parse().unwrap();
    (Server(child), addr)
}

/// The 100 positions, as (kind, moves in USI): 1 start, 60 openings, 39 late positions.
fn positions(db: &PathBuf) -> Vec<(&'static str, String)> {
    let mut reader = Reader::open(db).expect("the database opens");
    let snapshot = reader.snapshot().unwrap();
    let games = snapshot.game_count().unwrap() as i64;
    assert!(games > 100, "the benchmark wants a database of many games");
    let moves_of = |id: i64| snapshot.game(GameId(id)).unwrap().map(|g| g.moves).unwrap_or_default();
    let usi =
        |moves: &[kifudex::shogi::Move]| moves.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ");
    let mut out = vec![("start", String::new())];
    for i in 0..60 {
        let moves = moves_of(1 + i * (games - 1) / 60);
        let depth = (2 + (i as usize % 19)).min(moves.len());
        out.push(("opening", usi(&moves[..depth])));
    }
    for i in 0..39 {
        let moves = moves_of(1 + (2 * i + 1) * (games - 1) / 78);
        let depth = (60 + 3 * i as usize).min(moves.len());
        out.push(("late", usi(&moves[..depth])));
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
    let (rounds, loads) = (option("--rounds", 3), option("--loads", 5));
    let positions = positions(&db);
    let (_server, addr) = start_server(&db);
    let paths: Vec<(&str, String)> = positions
        .iter()
        .map(|(kind, moves)| (*kind, format!("/api/query?moves={}&limit=20", http::encode(moves))))
        .collect();
    let mut timings: Vec<(&str, f64)> = Vec::new();
    for round in 0..=rounds {
        let next = AtomicUsize::new(0);
        let done = Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            for _ in 0..CONCURRENCY {
                scope.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some((kind, path)) = paths.get(i) else { break };
                        let started = Instant::now();
                        let answer = http::get(addr, path);
                        let ms = started.elapsed().as_secs_f64() * 1000.0;
                        assert_eq!(answer.status, 200, "{path}: {}", answer.text());
                        done.lock().unwrap().push((*kind, ms));
                    }
                });
            }
        });
        if round > 0 {
            timings.extend(done.into_inner().unwrap());
        }
    }
    println!(
        "{} positions, {CONCURRENCY} at a time, {rounds} rounds after a warm-up round:",
        positions.len()
    );
    for kind in ["start", "opening", "late", "all"] {
        let mut ms: Vec<f64> =
            timings.iter().filter(|(k, _)| kind == "all" || *k == kind).map(|&(_, ms)| ms).collect();
        ms.sort_by(f64::total_cmp);
        println!(
            "  {kind:<8} {:>4} answers: p50 {:6.1} ms, p95 {:6.1} ms, slowest {:6.1} ms",
            ms.len(),
            percentile(&ms, 0.5),
            percentile(&ms, 0.95),
            ms[ms.len() - 1]
        );
    }
    first_view(addr, &positions, loads);
}

/// Loads the page in headless Chromium `loads` times (the start, then openings) and prints the
/// median time until its first view is drawn.
fn first_view(addr: SocketAddr, positions: &[(&str, String)], loads: usize) {
    let Some((chromium, chromedriver)) = webdriver::find_browser() else {
        println!("first view: skipped (no chromium and chromedriver)");
        return;
    };
    let browser = webdriver::Browser::start(&chromium, &chromedriver, 1280, 860);
    let mut ms = Vec::new();
    for i in 0..loads {
        let moves = &positions[i * 7 % positions.len()].1;
        browser.open(&format!("http://{addr}/?moves={}", http::encode(moves)));
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
