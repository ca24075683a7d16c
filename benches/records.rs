//! Record readers and writers: games/s and MB/s for every format, on one thread.
//!
//! ```text
//! cargo bench --bench records -- [--games N] [--plies P] [--seed S] [--rounds R] [--only NAME]
//! ```
//!
//! The corpus is made inside the benchmark: `--games` random playouts (default 10,000) of
//! `--plies` legal moves each (default 120; a playout that mates early is drawn again), with
//! players, an event, a date and a time for every move, ending in resignation. Every game is
//! replayed and written by kifudex's own writers into each format, one file a game:
//!
//! | name | format and encoding |
//! |---|---|
//! | `kif-cp932` | KIF in Shift_JIS (CP932), as `.kif` files are |
//! | `kifu-utf8` | KIF in UTF-8 (`.kifu`) |
//! | `ki2-cp932` | KI2 in Shift_JIS |
//! | `csa` | CSA V2.2 |
//! | `jkf` | JSON Kifu Format |
//! | `usi` | a USI position line |
//! | `western` | Western (PSN-like) game text |
//!
//! Then, for each format, it times:
//!
//! - **read**: the whole reading path of `kifudex index` for one file: decoding by content,
//!   format detection, the reader, and the replay of every move through the rules
//!   ([`kifudex::kifu::read_file`] then [`kifudex::replay::replay`]);
//! - **write**: the writer, from a game already read and replayed, to the file's bytes
//!   (Shift_JIS encoding included for `kif-cp932` and `ki2-cp932`).
//!
//! Each is run `--rounds` times (default 3); the best round is printed (the one least
//! disturbed by other work on the machine) with the median beside it. MB/s counts the
//! record bytes read or written (1 MB = 10^6 bytes). Times are the thread's time on a CPU
//! (so that waiting for a core other programs hold is not counted). Pin it to one core for
//! stable figures: `taskset -c 1 cargo bench --bench records`.
//!
//! ```text
//! cargo bench --bench records -- --mutations [DIR]
//! ```
//!
//! times instead the inputs of the test of mutated records (`tests/mutated_records.rs`): the 10,000 mutants
//! of the record files under DIR (default `../shared/corpus`), read and replayed (the
//! slowest one, and nanoseconds per input byte over those of 1 KB or more: median, 99th
//! percentile, maximum), and the inputs built to grow (`tests/util/mutants.rs`) at scales 1, 2, 4, 8 and 16,
//! read, replayed and written in every format, as nanoseconds per byte at each scale: flat
//! for linear work, doubling with each scale for quadratic work.

use std::{path::Path, time::Instant};

use kifudex::{
    kifu::{self, Ending, Format, Game, Header, MoveEntry, Termination, encoding, info},
    notation::MoveToken,
    replay::{self, ReplayedGame},
    shogi::{Move, Position},
};

#[allow(dead_code)]
#[path = "../tests/util/mod.rs"]
mod util;

use util::{Rng, mutants};

/// One generated corpus, written in one format.
struct Written {
    name: &'static str,
    format: Format,
    /// The file name extension, which `read_file` takes as a hint.
    ext: &'static str,
    files: Vec<Vec<u8>>,
}

const TARGETS: [(&str, Format, bool, &str); 7] = [
    ("kif-cp932", Format::Kif, true, "kif"),
    ("kifu-utf8", Format::Kif, false, "kifu"),
    ("ki2-cp932", Format::Ki2, true, "ki2"),
    ("csa", Format::Csa, false, "csa"),
    ("jkf", Format::Jkf, false, "jkf"),
    ("usi", Format::Usi, false, "usi"),
    ("western", Format::Western, false, "psn"),
];

fn main() {
    let mut games = 10_000usize;
    let mut plies = 120usize;
    let mut seed = 1u64;
    let mut rounds = 3usize;
    let mut only: Option<String> = None;
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{arg} needs a value"));
        match arg.as_str() {
            "--mutations" => {
                let dir = args.next().unwrap_or_else(|| "../shared/corpus".to_string());
                return mutations(Path::new(&dir));
            }
            "--games" => games = value().parse().expect("--games N"),
            "--plies" => plies = value().parse().expect("--plies P"),
            "--seed" => seed = value().parse().expect("--seed S"),
            "--rounds" => rounds = value().parse::<usize>().expect("--rounds R").max(1),
            "--only" => only = Some(value()),
            other => panic!("unknown argument {other}"),
        }
    }
    let t = Instant::now();
    let corpus: Vec<(Game, ReplayedGame)> = (0..games)
        .map(|i| playout(i, plies, seed))
        .map(|g| (replay::replay(&g), g))
        .map(|(r, g)| (g, r))
        .collect();
    eprintln!("generated {games} games of {plies} plies in {:.1} s", t.elapsed().as_secs_f64());
    println!(
        "records games={games} plies={plies} seed={seed} rounds={rounds} (best round, median in brackets)"
    );
    println!(
        "{:<10} {:>6} {:>22} {:>18} {:>22} {:>18}",
        "format", "KB/game", "read games/s", "read MB/s", "write games/s", "write MB/s"
    );
    for (name, format, cp932, ext) in TARGETS {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let written = write_all(name, format, cp932, ext, &corpus);
        let bytes: usize = written.files.iter().map(Vec::len).sum();
        let read = time_rounds(rounds, || read_all(&written));
        let write = time_rounds(rounds, || {
            let w = write_all(name, format, cp932, ext, &corpus);
            w.files.len()
        });
        let mb = bytes as f64 / 1e6;
        let n = games as f64;
        println!(
            "{:<10} {:>6.2} {:>10.0} [{:>9.0}] {:>7.1} [{:>7.1}] {:>10.0} [{:>9.0}] {:>7.1} [{:>7.1}]",
            written.name,
            bytes as f64 / n / 1e3,
            n / read.0,
            n / read.1,
            mb / read.0,
            mb / read.1,
            n / write.0,
            n / write.1,
            mb / write.0,
            mb / write.1,
        );
    }
}

/// Runs `f` `rounds` times; the best and the median time in seconds. The time is the
/// thread's time on a CPU, so that waiting for a core other programs hold is not counted
/// (wall-clock time where the system cannot say).
fn time_rounds(rounds: usize, mut f: impl FnMut() -> usize) -> (f64, f64) {
    let mut times: Vec<f64> = (0..rounds)
        .map(|_| {
            let (t, cpu) = (Instant::now(), cpu_seconds());
            std::hint::black_box(f());
            match (cpu, cpu_seconds()) {
                (Some(a), Some(b)) => b - a,
                _ => t.elapsed().as_secs_f64(),
            }
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (times[0], times[times.len() / 2])
}

/// Times the mutation test's inputs (see the module documentation).
fn mutations(dir: &Path) {
    let sources = mutants::Sources::load(dir);
    assert!(!sources.files.is_empty(), "no files under {}", dir.display());
    // (ns per byte, mutant, bytes, µs)
    let mut timed: Vec<(f64, u64, usize, f64)> = Vec::with_capacity(10_000);
    for n in 0..10_000u64 {
        let (path, bytes, _) = sources.mutant(n);
        let (seconds, _) = time_rounds(1, || {
            let Ok(parsed) = kifu::read_file(Some(path), &bytes) else { return 0 };
            parsed.games.iter().map(|g| replay::replay(g).plies()).sum()
        });
        timed.push((seconds * 1e9 / bytes.len().max(1) as f64, n, bytes.len(), seconds * 1e6));
    }
    let slowest = timed.iter().copied().max_by(|a, b| a.3.total_cmp(&b.3)).expect("mutants");
    // Per byte, over the mutants of at least 1 KB (below that, the fixed cost of a file and a
    // game is most of the time).
    let mut per_byte: Vec<(f64, u64, usize, f64)> = timed.into_iter().filter(|t| t.2 >= 1024).collect();
    per_byte.sort_by(|a, b| a.0.total_cmp(&b.0));
    let at = |q: f64| per_byte[((per_byte.len() - 1) as f64 * q) as usize].0;
    let (worst, n, len, _) = per_byte[per_byte.len() - 1];
    let describe = |n: u64| {
        let (path, _, edits) = sources.mutant(n);
        format!("{}: {}", path.display(), edits.join("; "))
    };
    println!(
        "mutants=10000 files={} read+replay: slowest {:.0} µs (mutant {}, {} bytes); \
         ns/byte over the {} mutants of 1 KB or more: median {:.1} p99 {:.1} max {worst:.1} (mutant {n}, {len} bytes, {})",
        sources.files.len(),
        slowest.3,
        slowest.1,
        slowest.2,
        per_byte.len(),
        at(0.5),
        at(0.99),
        describe(n)
    );
    println!("grown inputs, read+replay+write every format, ns/byte at scales 1 2 4 8 16:");
    for family in 0..mutants::FAMILIES {
        let mut row = String::new();
        for k in [1, 2, 4, 8, 16] {
            let (name, text) = mutants::grown(family, k);
            if k == 1 {
                row.push_str(&format!("{name:<24}"));
            }
            let (seconds, _) = time_rounds(3, || {
                let Ok(parsed) = kifu::read_file(Some(Path::new(name)), text.as_bytes()) else { return 0 };
                for game in &parsed.games {
                    let r = replay::replay(game);
                    for format in Format::ALL {
                        std::hint::black_box(kifudex::write::write(format, game, &r));
                    }
                }
                parsed.games.len()
            });
            row.push_str(&format!(" {:>8.1}", seconds * 1e9 / text.len() as f64));
        }
        println!("{row}");
    }
}

/// The time this thread has spent on a CPU, in seconds.
fn cpu_seconds() -> Option<f64> {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec for the call to fill in.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    ok.then(|| t.tv_sec as f64 + t.tv_nsec as f64 / 1e9)
}

/// Reads and replays every file; returns the number of plies replayed (checked against the
/// corpus so that a reader that fails shows up instead of looking fast).
fn read_all(written: &Written) -> usize {
    let path = std::path::PathBuf::from(format!("game.{}", written.ext));
    let mut plies = 0;
    for bytes in &written.files {
        let parsed = kifu::read_file(Some(&path), bytes).expect("a generated file reads");
        assert_eq!(parsed.format, written.format);
        for game in &parsed.games {
            let r = replay::replay(game);
            assert!(r.status.is_complete(), "{}: {}", written.name, r.status);
            plies += r.plies();
        }
    }
    plies
}

/// Writes every game in one format.
fn write_all(
    name: &'static str,
    format: Format,
    cp932: bool,
    ext: &'static str,
    corpus: &[(Game, ReplayedGame)],
) -> Written {
    let files = corpus
        .iter()
        .map(|(game, r)| {
            let text = kifudex::write::write(format, game, r);
            if cp932 {
                encoding::encode_cp932(&text).expect("a generated game is CP932 text")
            } else {
                text.into_bytes()
            }
        })
        .collect();
    Written { name, format, ext, files }
}

/// Game `index`: a random playout of exactly `plies` legal moves (drawn again if it mates
/// early), with headers and times, ended by resignation.
fn playout(index: usize, plies: usize, seed: u64) -> Game {
    let mut rng = Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (index as u64 + 1));
    let moves = loop {
        let mut pos = Position::startpos();
        let mut moves: Vec<Move> = Vec::with_capacity(plies);
        while moves.len() < plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.below(legal.len())];
            pos.play(mv).expect("a generated move is legal");
            moves.push(mv);
        }
        if moves.len() == plies && pos.has_legal_moves() {
            break moves;
        }
    };
    let headers: Vec<Header> = [
        ("開始日時", format!("20{:02}/{:02}/{:02} 10:00:00", index % 25, index % 12 + 1, index % 28 + 1)),
        ("棋戦", format!("第{}期 練習対局", index % 90 + 1)),
        ("先手", format!("先手{}", index % 97)),
        ("後手", format!("後手{}", index % 89)),
    ]
    .into_iter()
    .map(|(key, value)| Header { key: key.to_string(), value })
    .collect();
    let line = u32::try_from(headers.len() + 2).unwrap_or(u32::MAX);
    let entries = moves
        .iter()
        .enumerate()
        .map(|(i, &mv)| MoveEntry {
            token: MoveToken::Usi(mv),
            line: line + u32::try_from(i).unwrap_or(0),
            seconds: Some(u32::try_from(rng.below(90)).unwrap_or(0)),
            comments: Vec::new(),
        })
        .collect();
    Game {
        info: info::normalize(&headers, info::Remarks::AfterHash),
        headers,
        moves: entries,
        ending: Some(Ending {
            termination: Termination::Resign,
            side: None,
            stated: None,
            text: "投了".to_string(),
            line: line + u32::try_from(plies).unwrap_or(0),
            seconds: None,
            comments: Vec::new(),
        }),
        line: 1,
        ..Game::default()
    }
}
