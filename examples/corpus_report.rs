//! How the record readers fare on a directory of real record files: per top-level folder
//! (a source of the development corpus), the files, the games, the games read and replayed
//! in full, the games read in part with the reasons they stopped, the files that yield no
//! game at all, and the warnings (lines read past, endings the moves contradict) by code.
//!
//! ```text
//! cargo run --release --example corpus_report -- [DIR] [--list]
//! ```
//!
//! DIR defaults to `../shared/corpus`. `--list` also prints every game read in part, every
//! file rejected and every warning, with its line, move and reason. Markdown and `SOURCES.md` files are not
//! records and are left out.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

use kifudex::{kifu, replay};

/// The counts of one source.
#[derive(Default)]
struct Counts {
    files: usize,
    games: usize,
    full: usize,
    /// Games read in part, by the code of the reason they stopped.
    part: BTreeMap<&'static str, usize>,
    /// Files that yield no game, by the code of the reason.
    rejected: BTreeMap<&'static str, usize>,
    /// Warnings, by code.
    warnings: BTreeMap<&'static str, usize>,
}

fn main() {
    let mut dir = PathBuf::from("../shared/corpus");
    let mut list = false;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--list" => list = true,
            _ => dir = PathBuf::from(arg),
        }
    }
    let mut sources: BTreeMap<String, Counts> = BTreeMap::new();
    let mut details = Vec::new();
    for entry in walkdir::WalkDir::new(&dir).sort_by_file_name() {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                eprintln!("corpus_report: {e}");
                std::process::exit(2);
            }
        };
        let path = entry.path();
        if !entry.file_type().is_file() || path.extension().is_some_and(|e| e == "md") {
            continue;
        }
        let rel = path.strip_prefix(&dir).unwrap_or(path);
        let source = match rel.components().count() {
            1 => "(top level)".to_string(),
            _ => rel
                .components()
                .next()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .unwrap_or_default(),
        };
        let counts = sources.entry(source).or_default();
        counts.files += 1;
        read(path, rel, counts, &mut details);
    }
    print_table(&sources);
    if list {
        for line in details {
            println!("{line}");
        }
    }
}

/// Reads one file into `counts`; notes what is not read in full in `details`.
fn read(path: &Path, rel: &Path, counts: &mut Counts, details: &mut Vec<String>) {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) => {
            *counts.rejected.entry("io").or_default() += 1;
            details.push(format!("{}: rejected: {e}", rel.display()));
            return;
        }
    };
    let parsed = match kifu::read_file(Some(path), &bytes) {
        Ok(parsed) => parsed,
        Err(e) => {
            *counts.rejected.entry(e.code()).or_default() += 1;
            details.push(format!("{}: rejected: {e}", rel.display()));
            return;
        }
    };
    for (i, game) in parsed.games.iter().enumerate() {
        counts.games += 1;
        let r = replay::replay(game);
        for w in game.warnings.iter().chain(&r.warnings) {
            *counts.warnings.entry(w.code).or_default() += 1;
            details.push(format!(
                "{} game {i} ({}): warning: {w} [{}]",
                rel.display(),
                parsed.format,
                w.code
            ));
        }
        match &r.status {
            replay::Status::Complete => counts.full += 1,
            replay::Status::Stopped(reason) => {
                *counts.part.entry(reason.code()).or_default() += 1;
                details.push(format!(
                    "{} game {i} ({}): read in part, kept up to move {}: {reason}",
                    rel.display(),
                    parsed.format,
                    r.plies()
                ));
            }
        }
    }
}

fn print_table(sources: &BTreeMap<String, Counts>) {
    println!(
        "| source | files | games | read in full | read in part (reason: games) | files rejected | warnings (code: n) |"
    );
    println!("|---|---:|---:|---:|---|---:|---|");
    let mut total = Counts::default();
    let codes = |m: &BTreeMap<&'static str, usize>| {
        let parts: Vec<String> = m.iter().map(|(code, n)| format!("{code}: {n}")).collect();
        let sum: usize = m.values().sum();
        if parts.is_empty() { "0".to_string() } else { format!("{sum} ({})", parts.join(", ")) }
    };
    for (source, c) in sources {
        println!(
            "| {source} | {} | {} | {} | {} | {} | {} |",
            c.files,
            c.games,
            c.full,
            codes(&c.part),
            codes(&c.rejected),
            codes(&c.warnings)
        );
        total.files += c.files;
        total.games += c.games;
        total.full += c.full;
        for (code, n) in &c.part {
            *total.part.entry(code).or_default() += n;
        }
        for (code, n) in &c.rejected {
            *total.rejected.entry(code).or_default() += n;
        }
        for (code, n) in &c.warnings {
            *total.warnings.entry(code).or_default() += n;
        }
    }
    println!(
        "| **all** | {} | {} | {} | {} | {} | {} |",
        total.files,
        total.games,
        total.full,
        codes(&total.part),
        codes(&total.rejected),
        codes(&total.warnings)
    );
}
